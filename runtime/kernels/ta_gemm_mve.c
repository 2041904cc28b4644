/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 matrix-vector kernels with MVE (Helium) intrinsics. */
#include "ta_gemm_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* The bodies must inline into the per-mode loops below, so that the mode flags are
 * constants there and the accumulators stay in registers. */
#if defined(__GNUC__)
#define GEMM_INLINE inline __attribute__((always_inline))
#else
#define GEMM_INLINE inline
#endif

/* One call's constants, copied out of the descriptor: the kernel's int8 stores may
 * alias anything, so values read through `p` would be reloaded after every store. */
typedef struct gemm_ctx_t {
  int32_t rows, depth;
  int32_t full;            /* whole 16-value chunks of the depth */
  int32_t tail_n;          /* values in the last, partial chunk (0: none) */
  const int32_t *quant;
  int32_t offset;
  int32x4_t act_min, act_max;
  /* CONV_2D only (gemm_conv_setup): windows read in place (gemm_dot4_seg), k_h segments of whole chunks */
  int32_t seg_n;           /* segments per window (0: every window is gathered) */
  int32_t seg_chunks;      /* 16-value chunks per segment */
  int32_t seg_skip;        /* bytes from the end of a segment to the start of the next */
  int32_t ox_lo, ox_hi;    /* output columns whose window lies inside the image's width */
  int32_t xr_n;            /* gemm_vector_xr's chunks (0: not used) */
  int32_t xr_win;          /* windows inside the image gathered from it: 1 through byte offsets
                              (gemm_vector_xr), 2 through 16-bit offsets (gemm_vector_xw), 0 not */
  int32_t run_ok;          /* 3 segments read in place and their pair run compiled: border pixels in pairs too */
} gemm_ctx_t;

static void gemm_ctx_init(const ta_gemm_mve_params_t *p, gemm_ctx_t *c) {
  c->rows = p->rows;
  c->depth = p->depth;
  c->full = p->depth >> 4;
  c->tail_n = p->depth & 15;
  c->quant = p->quant;
  c->offset = p->output_offset;
  c->act_min = vdupq_n_s32(p->act_min);
  c->act_max = vdupq_n_s32(p->act_max);
}

/* gemm_dot4x2_seg's operands, read from memory by its assembly: two windows x and y of
 * `segs` segments of `chunks` chunks, `skip` bytes apart, against the block of `bias`. */
typedef struct gemm_pair_t {
  int32_t chunks, skip, segs;
  const int32_t *bias;
  const int8_t *x, *y;
} gemm_pair_t;

/* gemm_dot4x2_seg's loop forms: any chunk count per segment, exactly 3, a multiple of 3
 * (the compiled ones: TA_GEMM_MVE_VARIANTS bit TA_GEMM_MVE_TRIPLE_BIT). */
enum { GEMM_PAIR_ANY, GEMM_PAIR_SEG3, GEMM_PAIR_TRIPLE };

/* Four accumulators as one vector, lane i = row i of the block. */
static GEMM_INLINE int32x4_t gemm_lanes(int32_t a0, int32_t a1, int32_t a2, int32_t a3) {
  int32x4_t v = vdupq_n_s32(a0);
  v = vsetq_lane_s32(a1, v, 1);
  v = vsetq_lane_s32(a2, v, 2);
  return vsetq_lane_s32(a3, v, 3);
}

/* Dot products of x with the four weight rows of one block plus their biases, 16
 * products per vector instruction; *w moves to the next block. The block interleaves
 * its rows per 16 values and is zero padded, so only the input's last chunk is loaded
 * under a predicate. */
/* Optimised GCC builds without a frame pointer only (TA_NO_WIDE_ASM, ta_common.h): with r7
 * taken too few registers are left for the eight even accumulators of gemm_dot4x2_seg. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) && !defined(TA_NO_WIDE_ASM)
/* One 16-value chunk (in xv) against the block's four rows at w, w moving past them. */
#define GEMM_ASM_ROWS4                    \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"      \
  "vmladava.s8 %[a0], %q[xv], %q[wv]\n\t" \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"      \
  "vmladava.s8 %[a1], %q[xv], %q[wv]\n\t" \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"      \
  "vmladava.s8 %[a2], %q[xv], %q[wv]\n\t" \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"      \
  "vmladava.s8 %[a3], %q[xv], %q[wv]\n\t"

/* GCC: the loop as a fixed sequence (10 instructions per 64 products, post-increment
 * loads, a low-overhead loop), the accumulators in even registers as VMLADAVA requires
 * ("Te"); GCC alone spills the input pointer and forms no post-increments. */
static GEMM_INLINE int32x4_t gemm_dot4(const gemm_ctx_t *c, const int8_t *x, const int8_t **wp, const int32_t *bias) {
  const int8_t *w = *wp;
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
  int8x16_t xv, wv;
  __asm__("wls lr, %[n], 2f\n"
          "1:\n\t"
          "vldrb.8 %q[xv], [%[x]], #16\n\t"
          GEMM_ASM_ROWS4
          "le lr, 1b\n"
          "2:"
          : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [x] "+r"(x), [w] "+r"(w),
            [xv] "=&w"(xv), [wv] "=&w"(wv)
          : [n] "r"(c->full)
          : "lr");
  if (c->tail_n) {
    __asm__("vctp.8 %[n]\n\t"
            "vpst\n\t"
            "vldrbt.8 %q[xv], [%[x]]\n\t"
            GEMM_ASM_ROWS4
            : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [w] "+r"(w), [xv] "=&w"(xv),
              [wv] "=&w"(wv)
            : [n] "r"(c->tail_n), [x] "r"(x)
            : "p0");
  }
  *wp = w;
  return gemm_lanes(a0, a1, a2, a3);
}

/* gemm_dot4 over a window read in place: seg_n segments of seg_chunks whole chunks,
 * seg_skip bytes apart (the weights' chunks follow the window's order unchanged). */
static GEMM_INLINE int32x4_t gemm_dot4_seg(const gemm_ctx_t *c, const int8_t *x, const int8_t **wp,
                                           const int32_t *bias) {
  const int8_t *w = *wp;
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
  int32_t s = c->seg_n;
  int8x16_t xv, wv;
  __asm__("1:\n\t"
          "dls lr, %[n]\n"
          "2:\n\t"
          "vldrb.8 %q[xv], [%[x]], #16\n\t"
          GEMM_ASM_ROWS4
          "le lr, 2b\n\t"
          "add %[x], %[x], %[skip]\n\t"
          "subs %[s], %[s], #1\n\t"
          "bne 1b"
          : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [x] "+r"(x), [w] "+r"(w),
            [s] "+r"(s), [xv] "=&w"(xv), [wv] "=&w"(wv)
          : [n] "r"(c->seg_chunks), [skip] "r"(c->seg_skip)
          : "lr", "cc");
  *wp = w;
  return gemm_lanes(a0, a1, a2, a3);
}

/* gemm_dot4_seg for two windows at once, x and y: each weight load serves both. The
 * eight accumulators take every even register (lr too), so the loops count in odd
 * registers and read the chunk count, skip, segment count, bias pointer and the two
 * window addresses from memory; the sums start at the biases and leave as two vectors
 * inside the block, so that GCC moves nothing into or out of the eight registers. */
/* One chunk of both windows against the block's four rows, every pointer moving on. */
#define GEMM_ASM_PAIR_CHUNK                       \
  "vldrb.8 %q[xv], [%[x]], #16\n\t"              \
  "vldrb.8 %q[yv], [%[y]], #16\n\t"              \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"              \
  "vmladava.s8 %[a0], %q[xv], %q[wv]\n\t"         \
  "vmladava.s8 %[b0], %q[yv], %q[wv]\n\t"         \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"              \
  "vmladava.s8 %[a1], %q[xv], %q[wv]\n\t"         \
  "vmladava.s8 %[b1], %q[yv], %q[wv]\n\t"         \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"              \
  "vmladava.s8 %[a2], %q[xv], %q[wv]\n\t"         \
  "vmladava.s8 %[b2], %q[yv], %q[wv]\n\t"         \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"              \
  "vmladava.s8 %[a3], %q[xv], %q[wv]\n\t"         \
  "vmladava.s8 %[b3], %q[yv], %q[wv]\n\t"
/* The accumulators start at the block's biases, the two windows' addresses and the
 * segment count come from memory. */
#define GEMM_ASM_PAIR_START                       \
  "ldr %[k], %[bias]\n\t"                         \
  "ldrd %[a0], %[a1], [%[k]]\n\t"                 \
  "ldrd %[a2], %[a3], [%[k], #8]\n\t"             \
  "ldrd %[b0], %[b1], [%[k]]\n\t"                 \
  "ldrd %[b2], %[b3], [%[k], #8]\n\t"             \
  "ldr %[x], %[xa]\n\t"                           \
  "ldr %[y], %[ya]\n\t"                           \
  "ldr %[s], %[sn]\n"
#define GEMM_ASM_PAIR_END                         \
  "vmov.32 %q[va][0], %[a0]\n\t"                  \
  "vmov.32 %q[va][1], %[a1]\n\t"                  \
  "vmov.32 %q[va][2], %[a2]\n\t"                  \
  "vmov.32 %q[va][3], %[a3]\n\t"                  \
  "vmov.32 %q[vb][0], %[b0]\n\t"                  \
  "vmov.32 %q[vb][1], %[b1]\n\t"                  \
  "vmov.32 %q[vb][2], %[b2]\n\t"                  \
  "vmov.32 %q[vb][3], %[b3]"
#define GEMM_ASM_PAIR_OPERANDS                                                                                  \
  : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3), [b0] "=&Te"(b0), [b1] "=&Te"(b1),      \
    [b2] "=&Te"(b2), [b3] "=&Te"(b3), [x] "=&r"(xp), [y] "=&r"(yp), [w] "+r"(w), [s] "=&r"(s), [k] "=&r"(k),  \
    [xv] "=&w"(xv), [yv] "=&w"(yv), [wv] "=&w"(wv), [va] "=&w"(va), [vb] "=&w"(vb)                             \
  : [n] "m"(pa->chunks), [skip] "m"(pa->skip), [sn] "m"(pa->segs), [bias] "m"(pa->bias), [xa] "m"(pa->x),      \
    [ya] "m"(pa->y), "m"(*(const int32_t(*)[4])pa->bias)                                                       \
  : "cc"
/* Between segments: both windows skip to their next row. */
#define GEMM_ASM_PAIR_SKIP                        \
  "ldr %[k], %[skip]\n\t"                         \
  "add %[x], %[x], %[k]\n\t"                      \
  "add %[y], %[y], %[k]\n\t"                      \
  "subs %[s], %[s], #1\n\t"                       \
  "bne 1b\n\t"

static GEMM_INLINE void gemm_dot4x2_seg(const gemm_pair_t *pa, const int8_t **wp, int32x4_t *ra, int32x4_t *rb,
                                        const int form) {
  const int8_t *w = *wp;
  int32_t a0, a1, a2, a3, b0, b1, b2, b3, s, k;
  const int8_t *xp, *yp;
  int8x16_t xv, yv, wv;
  int32x4_t va, vb;
  if (form == GEMM_PAIR_SEG3) /* segments of exactly 3 chunks: no chunk loop */
    __asm__(GEMM_ASM_PAIR_START "1:\n\t" GEMM_ASM_PAIR_CHUNK GEMM_ASM_PAIR_CHUNK GEMM_ASM_PAIR_CHUNK
                GEMM_ASM_PAIR_SKIP GEMM_ASM_PAIR_END GEMM_ASM_PAIR_OPERANDS);
  else if (form == GEMM_PAIR_TRIPLE) /* chunks / 3 passes of 3 chunks */
    __asm__(GEMM_ASM_PAIR_START "1:\n\t"
            "ldr %[k], %[n]\n"
            "2:\n\t" GEMM_ASM_PAIR_CHUNK GEMM_ASM_PAIR_CHUNK GEMM_ASM_PAIR_CHUNK
            "subs %[k], %[k], #3\n\t"
            "bne 2b\n\t" GEMM_ASM_PAIR_SKIP GEMM_ASM_PAIR_END GEMM_ASM_PAIR_OPERANDS);
  else
    __asm__(GEMM_ASM_PAIR_START "1:\n\t"
            "ldr %[k], %[n]\n"
            "2:\n\t" GEMM_ASM_PAIR_CHUNK
            "subs %[k], %[k], #1\n\t"
            "bne 2b\n\t" GEMM_ASM_PAIR_SKIP GEMM_ASM_PAIR_END GEMM_ASM_PAIR_OPERANDS);
  *wp = w;
  *ra = va;
  *rb = vb;
}

/* One chunk x (in a register) against the block's four rows at w. */
#define GEMM_XCHUNK(x)                                                                                   \
  __asm__(GEMM_ASM_ROWS4                                                                           \
          : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [w] "+r"(w), [wv] "=&w"(wv) \
          : [xv] "w"(x))
#else
static GEMM_INLINE int32x4_t gemm_dot4(const gemm_ctx_t *c, const int8_t *x, const int8_t **wp, const int32_t *bias) {
  const int8_t *w = *wp;
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
  for (int32_t k = c->full; k > 0; k--, x += 16, w += 64) {
    const int8x16_t xv = vldrbq_s8(x);
    a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w));
    a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w + 16));
    a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w + 32));
    a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w + 48));
  }
  if (c->tail_n) {
    const int8x16_t xv = vldrbq_z_s8(x, vctp8q((uint32_t)c->tail_n));
    a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w));
    a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w + 16));
    a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w + 32));
    a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w + 48));
    w += 64;
  }
  *wp = w;
  return gemm_lanes(a0, a1, a2, a3);
}

static GEMM_INLINE int32x4_t gemm_dot4_seg(const gemm_ctx_t *c, const int8_t *x, const int8_t **wp,
                                           const int32_t *bias) {
  const int8_t *w = *wp;
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
  for (int32_t s = c->seg_n; s > 0; s--, x += c->seg_skip)
    for (int32_t k = c->seg_chunks; k > 0; k--, x += 16, w += 64) {
      const int8x16_t xv = vldrbq_s8(x);
      a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w));
      a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w + 16));
      a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w + 32));
      a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w + 48));
    }
  *wp = w;
  return gemm_lanes(a0, a1, a2, a3);
}

static GEMM_INLINE void gemm_dot4x2_seg(const gemm_pair_t *pa, const int8_t **wp, int32x4_t *ra, int32x4_t *rb,
                                        const int form) {
  const int8_t *w = *wp, *x = pa->x, *y = pa->y;
  (void)form;
  int32_t a0 = pa->bias[0], a1 = pa->bias[1], a2 = pa->bias[2], a3 = pa->bias[3];
  int32_t b0 = a0, b1 = a1, b2 = a2, b3 = a3;
  for (int32_t s = pa->segs; s > 0; s--, x += pa->skip, y += pa->skip)
    for (int32_t k = pa->chunks; k > 0; k--, x += 16, y += 16, w += 64) {
      const int8x16_t xv = vldrbq_s8(x), yv = vldrbq_s8(y);
      int8x16_t wv = vldrbq_s8(w);
      a0 = vmladavaq_s8(a0, xv, wv), b0 = vmladavaq_s8(b0, yv, wv);
      wv = vldrbq_s8(w + 16);
      a1 = vmladavaq_s8(a1, xv, wv), b1 = vmladavaq_s8(b1, yv, wv);
      wv = vldrbq_s8(w + 32);
      a2 = vmladavaq_s8(a2, xv, wv), b2 = vmladavaq_s8(b2, yv, wv);
      wv = vldrbq_s8(w + 48);
      a3 = vmladavaq_s8(a3, xv, wv), b3 = vmladavaq_s8(b3, yv, wv);
    }
  *wp = w;
  *ra = gemm_lanes(a0, a1, a2, a3);
  *rb = gemm_lanes(b0, b1, b2, b3);
}

#define GEMM_XCHUNK(x)                             \
  do {                                             \
    a0 = vmladavaq_s8(a0, (x), vldrbq_s8(w));      \
    a1 = vmladavaq_s8(a1, (x), vldrbq_s8(w + 16)); \
    a2 = vmladavaq_s8(a2, (x), vldrbq_s8(w + 32)); \
    a3 = vmladavaq_s8(a3, (x), vldrbq_s8(w + 48)); \
    w += 64;                                       \
    (void)wv;                                      \
  } while (0)
#endif

/* gemm_dot4 for a depth of n <= 4 chunks already in registers. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) && !defined(TA_NO_WIDE_ASM)
/* GCC: the first chunk's products start the four sums (VMLADAV), the sums leave as one
 * vector and the biases are added as one: no bias in the even registers. */
#define GEMM_ASM_XFIRST(xv)                              \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                     \
  "vmladav.s8 %[a0], %q[" xv "], %q[wv]\n\t"            \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                     \
  "vmladav.s8 %[a1], %q[" xv "], %q[wv]\n\t"            \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                     \
  "vmladav.s8 %[a2], %q[" xv "], %q[wv]\n\t"            \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                     \
  "vmladav.s8 %[a3], %q[" xv "], %q[wv]\n\t"
#define GEMM_ASM_XNEXT(xv)                               \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                     \
  "vmladava.s8 %[a0], %q[" xv "], %q[wv]\n\t"           \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                     \
  "vmladava.s8 %[a1], %q[" xv "], %q[wv]\n\t"           \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                     \
  "vmladava.s8 %[a2], %q[" xv "], %q[wv]\n\t"           \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                     \
  "vmladava.s8 %[a3], %q[" xv "], %q[wv]\n\t"
#define GEMM_ASM_XLANES                                  \
  "vmov.32 %q[v][0], %[a0]\n\t"                         \
  "vmov.32 %q[v][1], %[a1]\n\t"                         \
  "vmov.32 %q[v][2], %[a2]\n\t"                         \
  "vmov.32 %q[v][3], %[a3]"
#define GEMM_ASM_XOPS                                                                                      \
  : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3), [w] "+r"(w), [wv] "=&w"(wv),     \
    [v] "=&w"(v)                                                                                           \
  : [x0] "w"(x0), [x1] "w"(x1), [x2] "w"(x2), [x3] "w"(x3)
#define GEMM_HAS_XV 1
static GEMM_INLINE int32x4_t gemm_dot4_xv(const int8_t **wp, const int32_t *bias, int8x16_t x0, int8x16_t x1,
                                          int8x16_t x2, int8x16_t x3, const int n) {
  const int8_t *w = *wp;
  int32_t a0, a1, a2, a3;
  int8x16_t wv;
  int32x4_t v;
  if (n == 1)
    __asm__(GEMM_ASM_XFIRST("x0") GEMM_ASM_XLANES GEMM_ASM_XOPS);
  else if (n == 2)
    __asm__(GEMM_ASM_XFIRST("x0") GEMM_ASM_XNEXT("x1") GEMM_ASM_XLANES GEMM_ASM_XOPS);
  else if (n == 3)
    __asm__(GEMM_ASM_XFIRST("x0") GEMM_ASM_XNEXT("x1") GEMM_ASM_XNEXT("x2") GEMM_ASM_XLANES GEMM_ASM_XOPS);
  else
    __asm__(GEMM_ASM_XFIRST("x0") GEMM_ASM_XNEXT("x1") GEMM_ASM_XNEXT("x2") GEMM_ASM_XNEXT("x3") GEMM_ASM_XLANES
                GEMM_ASM_XOPS);
  *wp = w;
  return vaddq_s32(v, vldrwq_s32(bias));
}
/* Two windows' n <= 2 chunks (x0, x1 and y0, y1, in registers) against the block's four
 * rows: each weight load serves both windows (8 sums, every even register); the sums leave
 * as two vectors, without the biases. */
#define GEMM_ASM_X2ROW(op, i, xv, yv)                 \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"                  \
  op " %[a" #i "], %q[" xv "], %q[wv]\n\t"           \
  op " %[b" #i "], %q[" yv "], %q[wv]\n\t"
#define GEMM_ASM_X2CHUNK(op, xv, yv) \
  GEMM_ASM_X2ROW(op, 0, xv, yv) GEMM_ASM_X2ROW(op, 1, xv, yv) GEMM_ASM_X2ROW(op, 2, xv, yv) GEMM_ASM_X2ROW(op, 3, xv, yv)
#define GEMM_ASM_X2LANES                              \
  "vmov.32 %q[va][0], %[a0]\n\t"                     \
  "vmov.32 %q[va][1], %[a1]\n\t"                     \
  "vmov.32 %q[va][2], %[a2]\n\t"                     \
  "vmov.32 %q[va][3], %[a3]\n\t"                     \
  "vmov.32 %q[vb][0], %[b0]\n\t"                     \
  "vmov.32 %q[vb][1], %[b1]\n\t"                     \
  "vmov.32 %q[vb][2], %[b2]\n\t"                     \
  "vmov.32 %q[vb][3], %[b3]"
/* va and vb may share a register with an input: every input is read before the first move. */
#define GEMM_ASM_X2OPS                                                                                         \
  : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3), [b0] "=&Te"(b0), [b1] "=&Te"(b1),     \
    [b2] "=&Te"(b2), [b3] "=&Te"(b3), [w] "+r"(w), [wv] "=&w"(wv), [va] "=w"(va), [vb] "=w"(vb)              \
  : [x0] "w"(x0), [x1] "w"(x1), [y0] "w"(y0), [y1] "w"(y1)
#define GEMM_HAS_X2 1
static GEMM_INLINE void gemm_dot4x2_xv(const int8_t **wp, int8x16_t x0, int8x16_t x1, int8x16_t y0, int8x16_t y1,
                                       int32x4_t *ra, int32x4_t *rb, const int n) {
  const int8_t *w = *wp;
  int32_t a0, a1, a2, a3, b0, b1, b2, b3;
  int8x16_t wv;
  int32x4_t va, vb;
  if (n == 1)
    __asm__(GEMM_ASM_X2CHUNK("vmladav.s8", "x0", "y0") GEMM_ASM_X2LANES GEMM_ASM_X2OPS);
  else
    __asm__(GEMM_ASM_X2CHUNK("vmladav.s8", "x0", "y0") GEMM_ASM_X2CHUNK("vmladava.s8", "x1", "y1")
                GEMM_ASM_X2LANES GEMM_ASM_X2OPS);
  *wp = w;
  *ra = va;
  *rb = vb;
}
#else
#define GEMM_HAS_XV 0
#define GEMM_HAS_X2 0
#endif
/* The same in C (the sums start at the biases). */
static GEMM_INLINE int32x4_t gemm_dot4_xr(const int8_t **wp, const int32_t *bias, int8x16_t x0, int8x16_t x1,
                                          int8x16_t x2, int8x16_t x3, const int n) {
  const int8_t *w = *wp;
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
  int8x16_t wv;
  GEMM_XCHUNK(x0);
  if (n > 1) GEMM_XCHUNK(x1);
  if (n > 2) GEMM_XCHUNK(x2);
  if (n > 3) GEMM_XCHUNK(x3);
  *wp = w;
  return gemm_lanes(a0, a1, a2, a3);
}
#if !GEMM_HAS_XV
#define gemm_dot4_xv gemm_dot4_xr
#endif

/* TFLite's requantisation of four accumulators, multipliers at q[0..3], shifts at q[4..7]:
 *   SaturatingRoundingDoublingHighMul(acc << left, mult) equals VQRDMULH exactly
 *   (both round (2ab + 2^31) / 2^32 towards minus infinity, ab >= 0 or not, and
 *   saturate only INT32_MIN * INT32_MIN);
 *   RoundingDivideByPOT rounds ties away from zero where VRSHL rounds them up, so
 *   negative values are first lowered by one (saturating: INT32_MIN gives the same
 *   quotient) when the right shift is not zero. That changes only results <= the
 *   output zero point, so it is skipped when act_min >= the zero point (`fix` 0);
 *   `left` 0: no shift of the layer is > 0. */
static GEMM_INLINE int32x4_t gemm_requant4(const gemm_ctx_t *c, const int32_t *q, int32x4_t acc, const int left,
                                           const int fix) {
  const int32x4_t shift = vldrwq_s32(q + 4);
  const int32x4_t zero = vdupq_n_s32(0);
  const int32x4_t right = left ? vminq_s32(shift, zero) : shift; /* VRSHL by a negative count shifts right */
  int32x4_t v = left ? vshlq_s32(acc, vmaxq_s32(shift, zero)) : acc;
  v = vqrdmulhq_s32(v, vldrwq_s32(q));
  if (fix) v = vqaddq_s32(v, vshrq_n_s32(vandq_s32(v, right), 31));
  v = vaddq_n_s32(vrshlq_s32(v, right), c->offset);
  return vminq_s32(vmaxq_s32(v, c->act_min), c->act_max);
}

/* All rows for one input vector: a function of its own per mode (below), so that its
 * loop has every register to itself. */
static GEMM_INLINE void gemm_vector(const gemm_ctx_t *cp, const int8_t *x, const int8_t *w, int8_t *out,
                                    const int left, const int fix, const int seg) {
  const gemm_ctx_t local = *cp; /* in registers: the stores below cannot change it */
  const gemm_ctx_t *c = &local;
  const int32_t *q = c->quant;
  int8_t *const end = out + (c->rows & ~3);
  for (; out < end; out += 4, q += 12) {
    const int32x4_t acc = seg ? gemm_dot4_seg(c, x, &w, q) : gemm_dot4(c, x, &w, q);
    vstrbq_s32(out, gemm_requant4(c, q + 4, acc, left, fix));
  }
  if (c->rows & 3) { /* the padded rows' bias reads as 0 */
    const int32x4_t acc = seg ? gemm_dot4_seg(c, x, &w, q) : gemm_dot4(c, x, &w, q);
    vstrbq_p_s32(out, gemm_requant4(c, q + 4, acc, left, fix), vctp32q((uint32_t)(c->rows & 3)));
  }
}

#define GEMM_HAS(bit) ((TA_GEMM_MVE_VARIANTS >> (bit)) & 1u)

/* The pair runs in assembly (variant bits TA_GEMM_MVE_RUN_BIT + form): gemm_vector2_seg's
 * whole loop, over `pairs` pairs of windows read in place and every block of 4 rows (rows
 * a multiple of 4), as one function of fixed registers: the 8 sums in r0, r2, r4, r6
 * (window x, rows 0-3) and r8, r10, r12, lr (window y), started at the biases with two LDMs
 * and moved into two vectors with one STM and two loads; the window pointers in r1 / r3,
 * the weights in r5, the output in r7, a scratch register r11, this struct in r9. q0-q2
 * hold the chunks of x, y and the weights, then the sums; q3 / q4 the block's multipliers
 * and shifts, q5-q7 the output offset and the clamp. The requantisation is
 * gemm_requant4's, instruction for instruction, on both vectors. */
typedef struct gemm_run_t {
  int32_t sums[8];         /* 0: the STM's buffer */
  const int8_t *x, *y;     /* 32, 36: the pair's windows */
  const int32_t *q;        /* 40: the block's quantisation constants */
  int32_t skip;            /* 44: bytes from a segment's end to the next one's start */
  int32_t chunks;          /* 48: chunks per segment */
  int32_t rows;            /* 52 */
  int8_t *end;             /* 56: the end of window x's outputs */
  const int8_t *w;         /* 60: the weights */
  const int32_t *quant;    /* 64 */
  int32_t step2;           /* 68: bytes from one pair's x to the next's */
  int32_t pairs;           /* 72 */
  int32_t offset, act_min, act_max; /* 76, 80, 84 */
  int8_t *out;             /* 88 */
  int32_t skip_y;          /* 92: window y's skip after its first segment (x's: skip) */
  int32_t skip2_x, skip2_y; /* 96, 100: the skips after the second segment */
} gemm_run_t;

/* The run forms (bit TA_GEMM_MVE_RUN_BIT + form): 3 segments of exactly 3 chunks (3x3
 * windows of 16 channels), 3 segments of a multiple of 3 chunks, 1 segment (1x1) of a
 * multiple of 4 chunks, 1 segment of 3 chunks (windows of 33-48 values gathered through
 * offsets into a buffer, two at a time: gemm_vector_xr). */
enum {
  GEMM_RUN_S3C3 = TA_GEMM_MVE_RUN_S3C3,
  GEMM_RUN_S3L3 = TA_GEMM_MVE_RUN_S3L3,
  GEMM_RUN_S1L4 = TA_GEMM_MVE_RUN_S1L4,
  GEMM_RUN_S1C3 = TA_GEMM_MVE_RUN_S1C3
};

/* Not in frame-pointer builds (TA_NO_WIDE_ASM): the run uses r7, which an unwinder would follow. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) && !defined(TA_NO_WIDE_ASM)
#define GEMM_HAS_RUN 1
#define GEMM_RUN_CHUNK                 \
  "vldrb.8 q0, [r1], #16\n\t"          \
  "vldrb.8 q1, [r3], #16\n\t"          \
  "vldrb.8 q2, [r5], #16\n\t"          \
  "vmladava.s8 r0, q0, q2\n\t"         \
  "vmladava.s8 r8, q1, q2\n\t"         \
  "vldrb.8 q2, [r5], #16\n\t"          \
  "vmladava.s8 r2, q0, q2\n\t"         \
  "vmladava.s8 r10, q1, q2\n\t"        \
  "vldrb.8 q2, [r5], #16\n\t"          \
  "vmladava.s8 r4, q0, q2\n\t"         \
  "vmladava.s8 r12, q1, q2\n\t"        \
  "vldrb.8 q2, [r5], #16\n\t"          \
  "vmladava.s8 r6, q0, q2\n\t"         \
  "vmladava.s8 lr, q1, q2\n\t"
#define GEMM_RUN_SKIP(ox, oy)     \
  "ldr r11, [r9, #" #ox "]\n\t"   \
  "add r1, r1, r11\n\t"          \
  "ldr r11, [r9, #" #oy "]\n\t"   \
  "add r3, r3, r11\n\t"
/* One segment as a loop of passes of n chunks (the count in r11). */
#define GEMM_RUN_LOOP(lbl, n, body) \
  "ldr r11, [r9, #48]\n"            \
  lbl ":\n\t" body                  \
  "subs r11, r11, #" #n "\n\t"      \
  "bne " lbl "b\n\t"
#define GEMM_RUN_C3 GEMM_RUN_CHUNK GEMM_RUN_CHUNK GEMM_RUN_CHUNK
#define GEMM_RUN_SEGS_S3C3 GEMM_RUN_C3 GEMM_RUN_SKIP(44, 92) GEMM_RUN_C3 GEMM_RUN_SKIP(96, 100) GEMM_RUN_C3
#define GEMM_RUN_SEGS_S3L3                                                                        \
  GEMM_RUN_LOOP("3", 3, GEMM_RUN_C3) GEMM_RUN_SKIP(44, 92) GEMM_RUN_LOOP("4", 3, GEMM_RUN_C3)     \
  GEMM_RUN_SKIP(96, 100) GEMM_RUN_LOOP("5", 3, GEMM_RUN_C3)
#define GEMM_RUN_SEGS_S1L4 GEMM_RUN_LOOP("3", 4, GEMM_RUN_C3 GEMM_RUN_CHUNK)
#define GEMM_RUN_SEGS_S1C3 GEMM_RUN_C3
/* Requantisation of q0 and q1 (gemm_requant4): left shift (q2 = max(shift, 0), q4 = the
 * rest), multiply, negative-tie fix (q2 a temporary), rounding right shift, offset, clamp. */
#define GEMM_RUN_LEFT_0 ""
#define GEMM_RUN_LEFT_1        \
  "vmov.i32 q2, #0\n\t"         \
  "vmax.s32 q2, q4, q2\n\t"     \
  "vsub.i32 q4, q4, q2\n\t"     \
  "vshl.s32 q0, q0, q2\n\t"     \
  "vshl.s32 q1, q1, q2\n\t"
#define GEMM_RUN_FIX_0 ""
#define GEMM_RUN_FIX_1         \
  "vand q2, q0, q4\n\t"         \
  "vshr.s32 q2, q2, #31\n\t"    \
  "vqadd.s32 q0, q0, q2\n\t"    \
  "vand q2, q1, q4\n\t"         \
  "vshr.s32 q2, q2, #31\n\t"    \
  "vqadd.s32 q1, q1, q2\n\t"
#define GEMM_RUN_TEXT(segs, l, f)                                                      \
  "push {r3-r11, lr}\n\t" /* r3 only for 8-byte alignment */                          \
  "vpush {d8-d15}\n\t"                                                                 \
  "mov r9, r0\n\t"                                                                     \
  "ldr r11, [r9, #76]\n\t"                                                             \
  "vdup.32 q5, r11\n\t"                                                                \
  "ldr r11, [r9, #80]\n\t"                                                             \
  "vdup.32 q6, r11\n\t"                                                                \
  "ldr r11, [r9, #84]\n\t"                                                             \
  "vdup.32 q7, r11\n\t"                                                                \
  "ldr r7, [r9, #88]\n"                                                                \
  "1:\n\t" /* a pair */                                                                \
  "ldr r5, [r9, #60]\n\t"                                                              \
  "ldr r11, [r9, #64]\n\t"                                                             \
  "str r11, [r9, #40]\n\t"                                                             \
  "ldr r11, [r9, #52]\n\t"                                                             \
  "add r11, r7, r11\n\t"                                                               \
  "str r11, [r9, #56]\n"                                                               \
  "2:\n\t" /* a block */                                                               \
  "ldr r11, [r9, #40]\n\t"                                                             \
  "ldm r11, {r8, r10, r12, lr}\n\t"                                                    \
  "ldm r11!, {r0, r2, r4, r6}\n\t"                                                     \
  "vldrw.32 q4, [r11, #16]\n\t"                                                        \
  "vldrw.32 q3, [r11], #32\n\t"                                                        \
  "str r11, [r9, #40]\n\t"                                                             \
  "ldr r1, [r9, #32]\n\t"                                                              \
  "ldr r3, [r9, #36]\n\t"                                                              \
  segs                                                                                 \
  "stm r9, {r0, r2, r4, r6, r8, r10, r12, lr}\n\t"                                     \
  "vldrw.32 q0, [r9]\n\t"                                                              \
  "vldrw.32 q1, [r9, #16]\n\t"                                                         \
  GEMM_RUN_LEFT_##l                                                                    \
  "vqrdmulh.s32 q0, q0, q3\n\t"                                                        \
  "vqrdmulh.s32 q1, q1, q3\n\t"                                                        \
  GEMM_RUN_FIX_##f                                                                     \
  "vrshl.s32 q0, q0, q4\n\t"                                                           \
  "vrshl.s32 q1, q1, q4\n\t"                                                           \
  "vadd.i32 q0, q0, q5\n\t"                                                            \
  "vadd.i32 q1, q1, q5\n\t"                                                            \
  "vmax.s32 q0, q0, q6\n\t"                                                            \
  "vmax.s32 q1, q1, q6\n\t"                                                            \
  "vmin.s32 q0, q0, q7\n\t"                                                            \
  "vmin.s32 q1, q1, q7\n\t"                                                            \
  "ldr r3, [r9, #52]\n\t"                                                              \
  "add r3, r3, r7\n\t"                                                                 \
  "vstrb.32 q1, [r3]\n\t"                                                              \
  "vstrb.32 q0, [r7], #4\n\t"                                                          \
  "ldr r11, [r9, #56]\n\t"                                                             \
  "cmp r7, r11\n\t"                                                                    \
  "bne 2b\n\t"                                                                         \
  "ldr r11, [r9, #52]\n\t" /* past window y's outputs */                               \
  "add r7, r7, r11\n\t"                                                                \
  "ldr r11, [r9, #68]\n\t"                                                             \
  "ldr r1, [r9, #32]\n\t"                                                              \
  "add r1, r1, r11\n\t"                                                                \
  "str r1, [r9, #32]\n\t"                                                              \
  "ldr r3, [r9, #36]\n\t"                                                              \
  "add r3, r3, r11\n\t"                                                                \
  "str r3, [r9, #36]\n\t"                                                              \
  "ldr r11, [r9, #72]\n\t"                                                             \
  "subs r11, r11, #1\n\t"                                                              \
  "str r11, [r9, #72]\n\t"                                                             \
  "bne 1b\n\t"                                                                         \
  "vpop {d8-d15}\n\t"                                                                  \
  "pop {r3-r11, pc}"
#define GEMM_RUN_DEF(form, l, f)                                                                  \
  __attribute__((naked, noinline)) static void gemm_run_##form##_##l##f(gemm_run_t *run) {        \
    (void)run;                                                                                    \
    __asm__ volatile(GEMM_RUN_TEXT(GEMM_RUN_SEGS_##form, l, f));                                  \
  }
#define GEMM_RUN_DEFS(form) \
  GEMM_RUN_DEF(form, 0, 0)  \
  GEMM_RUN_DEF(form, 0, 1)  \
  GEMM_RUN_DEF(form, 1, 0)  \
  GEMM_RUN_DEF(form, 1, 1)
GEMM_RUN_DEFS(S3C3)
GEMM_RUN_DEFS(S3L3)
GEMM_RUN_DEFS(S1L4)
GEMM_RUN_DEFS(S1C3)
typedef void (*gemm_run_fn)(gemm_run_t *run);
/* The descriptor field by field (an initialiser would zero the sums through memset). */
static GEMM_INLINE void gemm_run_init(gemm_run_t *r, const gemm_ctx_t *c, const int8_t *x, const int8_t *y,
                                      const int8_t *w, int8_t *out, int32_t pairs, int32_t step2, int32_t chunks,
                                      int32_t skip_x, int32_t skip_y, int32_t skip2_x, int32_t skip2_y) {
  r->x = x, r->y = y, r->q = c->quant, r->skip = skip_x, r->chunks = chunks, r->rows = c->rows, r->end = out;
  r->w = w, r->quant = c->quant, r->step2 = step2, r->pairs = pairs, r->offset = c->offset;
  r->act_min = vgetq_lane_s32(c->act_min, 0), r->act_max = vgetq_lane_s32(c->act_max, 0), r->out = out;
  r->skip_y = skip_y, r->skip2_x = skip2_x, r->skip2_y = skip2_y;
}
/* The run of form `form` in mode (l, f), if compiled. */
#define GEMM_RUN_PICK(form, l, f) \
  (!GEMM_HAS(TA_GEMM_MVE_RUN_BIT + GEMM_RUN_##form) ? NULL : (l) ? ((f) ? gemm_run_##form##_11 : gemm_run_##form##_10) \
                                                      : ((f) ? gemm_run_##form##_01 : gemm_run_##form##_00))
#else
#define GEMM_HAS_RUN 0
#endif
/* A run of 3 segments compiled: border pixels in pairs too (gemm_pair). */
#define GEMM_RUN3 \
  (GEMM_HAS_RUN && (GEMM_HAS(TA_GEMM_MVE_RUN_BIT + GEMM_RUN_S3C3) || GEMM_HAS(TA_GEMM_MVE_RUN_BIT + GEMM_RUN_S3L3)))

/* gemm_dot4x2_seg in the loop form `form` (a run-time value: one copy of each form). */
static GEMM_INLINE void gemm_dot4x2_form(const gemm_pair_t *pa, const int8_t **wp, int32x4_t *ra, int32x4_t *rb,
                                         int form) {
  if (form == GEMM_PAIR_SEG3)
    gemm_dot4x2_seg(pa, wp, ra, rb, GEMM_PAIR_SEG3);
  else if (form == GEMM_PAIR_TRIPLE)
    gemm_dot4x2_seg(pa, wp, ra, rb, GEMM_PAIR_TRIPLE);
  else
    gemm_dot4x2_seg(pa, wp, ra, rb, GEMM_PAIR_ANY);
}

/* gemm_vector for `pairs` pairs of windows read in place, x and x + step, then x + 2 step
 * and x + 3 step, ..., whose outputs follow each other: one call (and one copy of the
 * constants into registers) per run of pixels rather than per pair. */
static GEMM_INLINE void gemm_vector2_seg(const gemm_ctx_t *cp, const int8_t *x, size_t step, int32_t pairs,
                                         const int8_t *w0, int8_t *out, const int left, const int fix) {
  const gemm_ctx_t local = *cp;
  const gemm_ctx_t *c = &local;
#if GEMM_HAS_RUN
  if ((c->rows & 3) == 0) {
    const int32_t segs = c->seg_n, chunks = c->seg_chunks;
    const gemm_run_fn run = segs == 3 && chunks == 3 ? GEMM_RUN_PICK(S3C3, left, fix)
                            : segs == 3 && chunks % 3 == 0 ? GEMM_RUN_PICK(S3L3, left, fix)
                            : segs == 1 && chunks % 4 == 0 ? GEMM_RUN_PICK(S1L4, left, fix)
                                                            : NULL;
    if (run) {
      gemm_run_t r;
      gemm_run_init(&r, c, x, x + step, w0, out, pairs, (int32_t)(2 * step), chunks, c->seg_skip, c->seg_skip,
                    c->seg_skip, c->seg_skip);
      run(&r);
      return;
    }
  }
#endif
  gemm_pair_t pa = {c->seg_chunks, c->seg_skip, c->seg_n, c->quant, x, x + step};
  /* the unrolled forms where compiled: 3 chunks per segment (3x3 windows of 16 channels),
   * a multiple of 3 */
  const int form = !GEMM_HAS(TA_GEMM_MVE_TRIPLE_BIT) ? GEMM_PAIR_ANY
                   : c->seg_chunks == 3              ? GEMM_PAIR_SEG3
                   : c->seg_chunks % 3 == 0          ? GEMM_PAIR_TRIPLE
                                                     : GEMM_PAIR_ANY;
  for (; pairs > 0; pairs--, pa.x += 2 * step, pa.y += 2 * step, out += c->rows) {
    const int32_t *q = c->quant;
    const int8_t *w = w0;
    int8_t *const end = out + (c->rows & ~3);
    int32x4_t acc_x, acc_y;
    for (; out < end; out += 4, q += 12) {
      pa.bias = q;
      gemm_dot4x2_form(&pa, &w, &acc_x, &acc_y, form);
      vstrbq_s32(out, gemm_requant4(c, q + 4, acc_x, left, fix));
      vstrbq_s32(out + c->rows, gemm_requant4(c, q + 4, acc_y, left, fix));
    }
    if (c->rows & 3) {
      const mve_pred16_t tail = vctp32q((uint32_t)(c->rows & 3));
      pa.bias = q;
      gemm_dot4x2_form(&pa, &w, &acc_x, &acc_y, form);
      vstrbq_p_s32(out, gemm_requant4(c, q + 4, acc_x, left, fix), tail);
      vstrbq_p_s32(out + c->rows, gemm_requant4(c, q + 4, acc_y, left, fix), tail);
      out += c->rows & 3;
    }
  }
}

/* gemm_vector for a depth of n <= 4 chunks: the input's chunks, gathered once from
 * base at the byte offsets offs[0 .. 16n - 1], serve every block. */
/* One chunk gathered through 16-bit offsets o[0 .. 15]: o[i] is the offset of byte 2i,
 * o[8 + i] that of byte 2i + 1 (two 8-lane gathers, the second narrowed into the odd
 * bytes of the first). */
static GEMM_INLINE int8x16_t gemm_gather_chunk16(const int8_t *base, const uint16_t *o) {
  const uint16x8_t even = vldrbq_gather_offset_u16((const uint8_t *)base, vldrhq_u16(o));
  const uint16x8_t odd = vldrbq_gather_offset_u16((const uint8_t *)base, vldrhq_u16(o + 8));
  return vreinterpretq_s8_u8(vmovntq_u16(vreinterpretq_u8_u16(even), odd));
}

/* Chunk k of a window: through byte offsets (wide 0) or 16-bit ones (wide 1). */
static GEMM_INLINE int8x16_t gemm_gather_chunk(const int8_t *base, const void *offs, int32_t k, const int wide) {
  if (wide) return gemm_gather_chunk16(base, (const uint16_t *)offs + 16 * k);
  return vldrbq_gather_offset_s8(base, vldrbq_u8((const uint8_t *)offs + 16 * k));
}

/* The 16-bit gathers leave GCC fewer registers: there the assembly block spills more than
 * it saves (vww's first convolution). */
#define GEMM_DOT4_XR(...) (wide ? gemm_dot4_xr(__VA_ARGS__) : gemm_dot4_xv(__VA_ARGS__))
static GEMM_INLINE void gemm_vector_xr_one(const gemm_ctx_t *c, const int8_t *base, const void *offs, const int8_t *w,
                                           int8_t *out, const int left, const int fix, const int n, const int wide) {
  const int8x16_t x0 = gemm_gather_chunk(base, offs, 0, wide);
  const int8x16_t x1 = n > 1 ? gemm_gather_chunk(base, offs, 1, wide) : x0;
  const int8x16_t x2 = n > 2 ? gemm_gather_chunk(base, offs, 2, wide) : x0;
  const int8x16_t x3 = n > 3 ? gemm_gather_chunk(base, offs, 3, wide) : x0;
  const int32_t *q = c->quant;
  int8_t *const end = out + (c->rows & ~3);
  for (; out < end; out += 4, q += 12) {
    const int32x4_t acc = GEMM_DOT4_XR(&w, q, x0, x1, x2, x3, n);
    vstrbq_s32(out, gemm_requant4(c, q + 4, acc, left, fix));
  }
  if (c->rows & 3) {
    const int32x4_t acc = GEMM_DOT4_XR(&w, q, x0, x1, x2, x3, n);
    vstrbq_p_s32(out, gemm_requant4(c, q + 4, acc, left, fix), vctp32q((uint32_t)(c->rows & 3)));
  }
}

#if GEMM_HAS_X2
/* gemm_vector_xr_one for two windows of n <= 2 chunks through byte offsets, at a and b;
 * b's outputs follow a's. */
static GEMM_INLINE void gemm_vector_x2(const gemm_ctx_t *c, const int8_t *a, const int8_t *b, const uint8_t *offs,
                                       const int8_t *w, int8_t *out, const int left, const int fix, const int n) {
  const int8x16_t x0 = gemm_gather_chunk(a, offs, 0, 0), y0 = gemm_gather_chunk(b, offs, 0, 0);
  const int8x16_t x1 = n > 1 ? gemm_gather_chunk(a, offs, 1, 0) : x0;
  const int8x16_t y1 = n > 1 ? gemm_gather_chunk(b, offs, 1, 0) : y0;
  const int32_t *q = c->quant;
  const int32_t rows = c->rows;
  int8_t *const end = out + (rows & ~3);
  int32x4_t va, vb;
  for (; out < end; out += 4, q += 12) {
    gemm_dot4x2_xv(&w, x0, x1, y0, y1, &va, &vb, n);
    const int32x4_t bias = vldrwq_s32(q);
    vstrbq_s32(out, gemm_requant4(c, q + 4, vaddq_s32(va, bias), left, fix));
    vstrbq_s32(out + rows, gemm_requant4(c, q + 4, vaddq_s32(vb, bias), left, fix));
  }
  if (rows & 3) {
    const mve_pred16_t tail = vctp32q((uint32_t)(rows & 3));
    gemm_dot4x2_xv(&w, x0, x1, y0, y1, &va, &vb, n);
    const int32x4_t bias = vldrwq_s32(q);
    vstrbq_p_s32(out, gemm_requant4(c, q + 4, vaddq_s32(va, bias), left, fix), tail);
    vstrbq_p_s32(out + rows, gemm_requant4(c, q + 4, vaddq_s32(vb, bias), left, fix), tail);
  }
}
#endif

/* `count` windows, `step` bytes apart, whose outputs follow each other: one call (and
 * one copy of the constants into registers) per run of pixels rather than per pixel. */
static GEMM_INLINE void gemm_vector_xr(const gemm_ctx_t *cp, const int8_t *base, size_t step, int32_t count,
                                       const void *offs, const int8_t *w, int8_t *out, const int left, const int fix,
                                       const int n, const int wide) {
  const gemm_ctx_t local = *cp;
#if GEMM_HAS_RUN
  if (n == 3 && (local.rows & 3) == 0 && GEMM_HAS(TA_GEMM_MVE_RUN_BIT + GEMM_RUN_S1C3) && count > 1) {
    /* pairs of windows gathered into a buffer, then the pair run */
    int8_t buf[96] __attribute__((aligned(16)));
    gemm_run_t r;
    gemm_run_init(&r, &local, buf, buf + 48, w, out, 1, 0, 3, 0, 0, 0, 0);
    const gemm_run_fn run = GEMM_RUN_PICK(S1C3, left, fix);
    for (; count > 1; count -= 2, base += 2 * step, out += 2 * local.rows) {
      for (int32_t k = 0; k < 3; k++) {
        vstrbq_s8(buf + 16 * k, gemm_gather_chunk(base, offs, k, wide));
        vstrbq_s8(buf + 48 + 16 * k, gemm_gather_chunk(base + step, offs, k, wide));
      }
      r.out = out, r.pairs = 1;
      run(&r);
    }
  }
#endif
#if GEMM_HAS_X2
  if (!wide && n <= TA_GEMM_MVE_X2_MAX && GEMM_HAS(TA_GEMM_MVE_X2_BIT + n - 1)) /* two windows per weight load */
    for (; count > 1; count -= 2, base += 2 * step, out += 2 * local.rows)
      gemm_vector_x2(&local, base, base + step, (const uint8_t *)offs, w, out, left, fix, n);
#endif
  for (; count > 0; count--, base += step, out += local.rows)
    gemm_vector_xr_one(&local, base, offs, w, out, left, fix, n, wide);
}

#if defined(__GNUC__)
#define GEMM_NOINLINE __attribute__((noinline))
#else
#define GEMM_NOINLINE
#endif
/* One pair of windows x and y of 3 segments with their own skips (skips[0], skips[2]: x's
 * after its first and second segment, skips[1], skips[3] y's) through the pair run: a window
 * gathered into scratch, or one whose rows outside the image read a row of padding. */
static GEMM_INLINE void gemm_pair(const gemm_ctx_t *c, const int8_t *x, const int8_t *y, const int32_t *skips,
                                  const int8_t *w, int8_t *out, const int left, const int fix) {
#if GEMM_HAS_RUN
  const gemm_run_fn run = c->seg_chunks == 3 ? GEMM_RUN_PICK(S3C3, left, fix) : GEMM_RUN_PICK(S3L3, left, fix);
  gemm_run_t r;
  gemm_run_init(&r, c, x, y, w, out, 1, 0, c->seg_chunks, skips[0], skips[1], skips[2], skips[3]);
  if (run) run(&r);
#else
  (void)c, (void)x, (void)y, (void)skips, (void)w, (void)out, (void)left, (void)fix;
#endif
}

#define GEMM_VECTOR_DEF(l, f)                                                                                  \
  static GEMM_NOINLINE void gemm_vector_##l##f(const gemm_ctx_t *c, const int8_t *x, const int8_t *w, int8_t *out) { \
    gemm_vector(c, x, w, out, l, f, 0);                                                                        \
  }                                                                                                            \
  static GEMM_NOINLINE void gemm_vector_seg_##l##f(const gemm_ctx_t *c, const int8_t *x, const int8_t *w,     \
                                                   int8_t *out) {                                              \
    gemm_vector(c, x, w, out, l, f, 1);                                                                        \
  }                                                                                                            \
  static GEMM_NOINLINE void gemm_vector2_seg_##l##f(const gemm_ctx_t *c, const int8_t *x, size_t step,        \
                                                    int32_t pairs, const int8_t *w, int8_t *out) {             \
    gemm_vector2_seg(c, x, step, pairs, w, out, l, f);                                                         \
  }                                                                                                            \
  static GEMM_NOINLINE void gemm_pair_##l##f(const gemm_ctx_t *c, const int8_t *x, const int8_t *y,           \
                                             const int32_t *skips, const int8_t *w, int8_t *out) {             \
    gemm_pair(c, x, y, skips, w, out, l, f);                                                                   \
  }
GEMM_VECTOR_DEF(0, 0)
GEMM_VECTOR_DEF(0, 1)
GEMM_VECTOR_DEF(1, 0)
GEMM_VECTOR_DEF(1, 1)

typedef void (*gemm_vector_xr_fn)(const gemm_ctx_t *c, const int8_t *base, size_t step, int32_t count,
                                  const void *offs, const int8_t *w, int8_t *out);
#define GEMM_VECTOR_XR_DEF(l, f, n)                                                                          \
  static GEMM_NOINLINE void gemm_vector_xr##n##_##l##f(const gemm_ctx_t *c, const int8_t *base, size_t step,  \
                                                       int32_t count, const void *offs, const int8_t *w,     \
                                                       int8_t *out) {                                        \
    gemm_vector_xr(c, base, step, count, offs, w, out, l, f, n, 0);                                          \
  }                                                                                                          \
  static GEMM_NOINLINE void gemm_vector_xw##n##_##l##f(const gemm_ctx_t *c, const int8_t *base, size_t step,  \
                                                       int32_t count, const void *offs, const int8_t *w,     \
                                                       int8_t *out) {                                        \
    gemm_vector_xr(c, base, step, count, offs, w, out, l, f, n, 1);                                          \
  }
/* Only the chunk counts the module's layers use are referenced (GEMM_HAS folds). */
#define GEMM_VECTOR_XR_DEFS(l, f)                                          \
  GEMM_VECTOR_XR_DEF(l, f, 1)                                              \
  GEMM_VECTOR_XR_DEF(l, f, 2)                                              \
  GEMM_VECTOR_XR_DEF(l, f, 3)                                              \
  GEMM_VECTOR_XR_DEF(l, f, 4)                                              \
  static gemm_vector_xr_fn gemm_vector_xr_##l##f(int32_t n) {              \
    switch (n) {                                                           \
      case 1: return GEMM_HAS(TA_GEMM_MVE_XR_BIT + 1) ? gemm_vector_xr1_##l##f : NULL; \
      case 2: return GEMM_HAS(TA_GEMM_MVE_XR_BIT + 2) ? gemm_vector_xr2_##l##f : NULL; \
      case 3: return GEMM_HAS(TA_GEMM_MVE_XR_BIT + 3) ? gemm_vector_xr3_##l##f : NULL; \
      case 4: return GEMM_HAS(TA_GEMM_MVE_XR_BIT + 4) ? gemm_vector_xr4_##l##f : NULL; \
      default: return NULL;                                                \
    }                                                                      \
  }                                                                        \
  static gemm_vector_xr_fn gemm_vector_xw_##l##f(int32_t n) {              \
    switch (n) {                                                           \
      case 1: return GEMM_HAS(TA_GEMM_MVE_XW_BIT + 1) ? gemm_vector_xw1_##l##f : NULL; \
      case 2: return GEMM_HAS(TA_GEMM_MVE_XW_BIT + 2) ? gemm_vector_xw2_##l##f : NULL; \
      case 3: return GEMM_HAS(TA_GEMM_MVE_XW_BIT + 3) ? gemm_vector_xw3_##l##f : NULL; \
      case 4: return GEMM_HAS(TA_GEMM_MVE_XW_BIT + 4) ? gemm_vector_xw4_##l##f : NULL; \
      default: return NULL;                                                \
    }                                                                      \
  }
GEMM_VECTOR_XR_DEFS(0, 0)
GEMM_VECTOR_XR_DEFS(0, 1)
GEMM_VECTOR_XR_DEFS(1, 0)
GEMM_VECTOR_XR_DEFS(1, 1)

/* The entry points dispatch once per call to a loop specialised for the layer's
 * requantisation mode, among the modes compiled (TA_GEMM_MVE_VARIANTS): the layer's own,
 * else one that also shifts left or also fixes negative ties (both exact when not needed). */
/* `base`: the entry's first mode bit (TA_GEMM_MVE_CONV_BIT for CONV_2D, TA_GEMM_MVE_FC_BIT for ta_gemm_s8_mve),
 * so that a mode only the fully connected layer needs compiles no convolution loops. */
#define GEMM_MODE_FITS(base, l, f, need_l, need_f) \
  (GEMM_HAS(TA_GEMM_MVE_MODE(base, l, f)) && (l) >= (need_l) && (f) >= (need_f))
#define GEMM_MODES(call, base)                                                 \
  do {                                                                         \
    const int need_l = p->left_shift != 0, need_f = p->negative_fix != 0;      \
    if (GEMM_MODE_FITS(base, 0, 0, need_l, need_f)) call(0, 0);                \
    else if (GEMM_MODE_FITS(base, 0, 1, need_l, need_f)) call(0, 1);           \
    else if (GEMM_MODE_FITS(base, 1, 0, need_l, need_f)) call(1, 0);           \
    else if (GEMM_MODE_FITS(base, 1, 1, need_l, need_f)) call(1, 1);           \
  } while (0)

/* ta_gemm_s8_mve's modes: bits 12-15, or CONV_2D's when a mask names none of those (a
 * ta_config.h written before they were split). */
#define GEMM_FC_BASE ((((TA_GEMM_MVE_VARIANTS) >> TA_GEMM_MVE_FC_BIT) & 0xfu) ? TA_GEMM_MVE_FC_BIT : 0)
#define GEMM_BATCH_MODE(l, f) gemm_batch_##l##f(&c, count, input, weights, output)
#define GEMM_BATCH_DEF(l, f)                                                                              \
  static void gemm_batch_##l##f(const gemm_ctx_t *c, int32_t count, const int8_t *x, const int8_t *w, \
                                int8_t *out) {                                                          \
    for (int32_t i = 0; i < count; i++, x += c->depth, out += c->rows) gemm_vector_##l##f(c, x, w, out); \
  }
GEMM_BATCH_DEF(0, 0)
GEMM_BATCH_DEF(0, 1)
GEMM_BATCH_DEF(1, 0)
GEMM_BATCH_DEF(1, 1)

void ta_gemm_s8_mve(const ta_gemm_mve_params_t *p, int32_t count, const int8_t *input, const int8_t *weights,
                    int8_t *output) {
  gemm_ctx_t c;
  gemm_ctx_init(p, &c);
  GEMM_MODES(GEMM_BATCH_MODE, GEMM_FC_BASE);
}

/* Copies n bytes (n >= 0), 16 at a time under a tail predicate. */
#if defined(__GNUC__) && !defined(__clang__)
/* GCC: a tail-predicated low-overhead loop (GCC turns the intrinsics' predicates into
 * several moves per iteration). */
static GEMM_INLINE void gemm_copy(int8_t *dst, const int8_t *src, int32_t n) {
  int8x16_t v;
  __asm__ volatile("wlstp.8 lr, %[n], 2f\n"
                   "1:\n\t"
                   "vldrb.8 %q[v], [%[src]], #16\n\t"
                   "vstrb.8 %q[v], [%[dst]], #16\n\t"
                   "letp lr, 1b\n"
                   "2:"
                   : [dst] "+r"(dst), [src] "+r"(src), [v] "=&w"(v)
                   : [n] "r"(n)
                   : "lr", "memory");
}

static GEMM_INLINE void gemm_fill(int8_t *dst, int8x16_t value, int32_t n) {
  __asm__ volatile("wlstp.8 lr, %[n], 2f\n"
                   "1:\n\t"
                   "vstrb.8 %q[v], [%[dst]], #16\n\t"
                   "letp lr, 1b\n"
                   "2:"
                   : [dst] "+r"(dst)
                   : [n] "r"(n), [v] "w"(value)
                   : "lr", "memory");
}
#else
static GEMM_INLINE void gemm_copy(int8_t *dst, const int8_t *src, int32_t n) {
  for (; n > 0; n -= 16, dst += 16, src += 16) {
    const mve_pred16_t pred = vctp8q((uint32_t)n);
    vstrbq_p_s8(dst, vldrbq_z_s8(src, pred), pred);
  }
}

static GEMM_INLINE void gemm_fill(int8_t *dst, int8x16_t value, int32_t n) {
  for (; n > 0; n -= 16, dst += 16) vstrbq_p_s8(dst, value, vctp8q((uint32_t)n));
}
#endif

/* The window of output pixel (oy, ox) gathered into buf (k_h * k_w * in_c bytes),
 * padded taps set to the input zero point (the folded bias then cancels them). */
static const int8_t *gemm_gather(const ta_im2col_geom_t *g, const int8_t *image, int32_t oy, int32_t ox,
                                 int8_t *buf) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h;
  const int32_t ix0 = ox * g->stride_w - g->pad_w;
  const int32_t in_c = g->in_c, k_w = g->k_w;
  const size_t row_bytes = (size_t)g->in_w * (size_t)in_c;
  const int8x16_t pad = vdupq_n_s8((int8_t)g->pad_value);
  const int32_t run = k_w * in_c;
  /* Without dilation the taps [lo, hi) of a filter row inside the image are one
   * contiguous run of the input row, padding either side. */
  const int32_t lo = TA_MIN(TA_MAX(-ix0, 0), k_w), hi = TA_MAX(TA_MIN(k_w, g->in_w - ix0), lo);
  const size_t src_at = hi > lo ? (size_t)(ix0 + lo) * (size_t)in_c : 0; /* in the row even when nothing is read */
  int8_t *dst = buf;
  for (int32_t ky = 0; ky < g->k_h; ky++, dst += run) {
    const int32_t iy = iy0 + ky * g->dil_h;
    if (iy < 0 || iy >= g->in_h) {
      gemm_fill(dst, pad, run);
      continue;
    }
    const int8_t *src_row = image + (size_t)iy * row_bytes;
    if (g->dil_w == 1) {
      gemm_fill(dst, pad, lo * in_c);
      gemm_copy(dst + lo * in_c, src_row + src_at, (hi - lo) * in_c);
      gemm_fill(dst + hi * in_c, pad, (k_w - hi) * in_c);
      continue;
    }
    for (int32_t kx = 0; kx < k_w; kx++) {
      const int32_t ix = ix0 + kx * g->dil_w;
      if (ix < 0 || ix >= g->in_w)
        gemm_fill(dst + kx * in_c, pad, in_c);
      else
        gemm_copy(dst + kx * in_c, src_row + (size_t)ix * (size_t)in_c, in_c);
    }
  }
  return buf;
}

/* How each window is read. A depth of at most 4 chunks (gemm_vector_xr) gathers the
 * window once per pixel: windows inside the image straight from it when they span at
 * most 256 bytes (8-bit offsets), the others after gemm_gather, and 1x1 windows in
 * place. Deeper windows inside the image whose filter rows are whole chunks (k_w * in_c
 * a multiple of 16, no horizontal dilation) skip the gather too: the dot product reads
 * their k_h rows in place (gemm_dot4_seg). */
#define GEMM_XR_MAX TA_GEMM_MVE_XR_MAX
/* lin[0 .. 16 n - 1]: 0, 1, .. depth - 1, then 0 (the zero weights ignore those lanes). */
static void gemm_identity_offsets(uint8_t *lin, int32_t n, int32_t depth) {
  for (int32_t k = 0; k < n; k++)
    vstrbq_u8(lin + 16 * k, vpselq_u8(vidupq_n_u8((uint32_t)(16 * k), 1), vdupq_n_u8(0),
                                       vctp8q((uint32_t)(depth - 16 * k))));
}

/* gemm_vector_xr over n chunks: short enough, and compiled (TA_GEMM_MVE_VARIANTS). */
static int gemm_xr_usable(int32_t n) { return n >= 1 && n <= GEMM_XR_MAX && GEMM_HAS(TA_GEMM_MVE_XR_BIT + n); }

static void gemm_conv_setup(gemm_ctx_t *c, const ta_im2col_geom_t *g, uint8_t *lin, uint8_t *win, uint16_t *win16) {
  c->seg_n = c->seg_chunks = c->seg_skip = c->xr_win = c->run_ok = 0;
  c->xr_n = (c->depth + 15) / 16;
  if (g->direct) {
    /* 1x1 layers of a multiple of 4 chunks: the pair run (1 segment) rather than byte offsets */
    if (!gemm_xr_usable(c->xr_n) || (c->depth % 64 == 0 && GEMM_HAS(TA_GEMM_MVE_RUN_BIT + GEMM_RUN_S1L4)))
      c->xr_n = 0;
    gemm_identity_offsets(lin, c->xr_n, c->depth);
    if (!c->xr_n && c->depth % 16 == 0) c->seg_n = 1, c->seg_chunks = c->depth / 16; /* for gemm_vector2_seg */
    return;
  }
  const int32_t run = g->k_w * g->in_c;
  const int32_t eff_w = (g->k_w - 1) * g->dil_w + 1;  /* the window's width in input columns */
  const int32_t room = g->in_w - eff_w + g->pad_w;    /* the last window's start column, times stride */
  c->ox_lo = TA_MIN((g->pad_w + g->stride_w - 1) / g->stride_w, g->out_w);
  c->ox_hi = room < 0 ? 0 : TA_MIN(room / g->stride_w + 1, g->out_w);
  if (c->ox_hi < c->ox_lo) c->ox_hi = c->ox_lo;
  if (gemm_xr_usable(c->xr_n)) {
    gemm_identity_offsets(lin, c->xr_n, c->depth);
    const int64_t row_bytes = (int64_t)g->in_w * g->in_c;
    const int64_t span = (int64_t)(g->k_h - 1) * g->dil_h * row_bytes + (int64_t)(g->k_w - 1) * g->dil_w * g->in_c +
                         g->in_c;
    c->xr_win = span <= TA_GEMM_MVE_XR_MAX_SPAN ? 1
                : span <= TA_GEMM_MVE_XW_MAX_SPAN && GEMM_HAS(TA_GEMM_MVE_XW_BIT + c->xr_n) ? 2 : 0;
    if (!c->xr_win) return;
    int32_t t = 0;
    for (int32_t ky = 0; ky < g->k_h; ky++)
      for (int32_t kx = 0; kx < g->k_w; kx++)
        for (int32_t ch = 0; ch < g->in_c; ch++, t++) {
          const int32_t at = (int32_t)(ky * g->dil_h * row_bytes + kx * g->dil_w * g->in_c + ch);
          if (c->xr_win == 1)
            win[t] = (uint8_t)at;
          else /* byte t of chunk t / 16: its even bytes' offsets first, then its odd bytes' */
            win16[(t & ~15) + (t & 1) * 8 + (t & 15) / 2] = (uint16_t)at;
        }
    for (; t < 16 * c->xr_n; t++) /* lanes of zero weights: any byte of the window */
      if (c->xr_win == 1)
        win[t] = 0;
      else
        win16[(t & ~15) + (t & 1) * 8 + (t & 15) / 2] = 0;
    return;
  }
  c->xr_n = 0;
  if (g->dil_w != 1 || run <= 0 || run % 16 != 0) return;
  c->seg_n = g->k_h;
  c->seg_chunks = run / 16;
  c->seg_skip = g->dil_h * g->in_w * g->in_c - run;
  c->run_ok = GEMM_RUN3 && c->seg_n == 3 && (c->rows & 3) == 0 &&
              (c->seg_chunks == 3 ? GEMM_HAS(TA_GEMM_MVE_RUN_BIT + GEMM_RUN_S3C3)
                                  : c->seg_chunks % 3 == 0 && GEMM_HAS(TA_GEMM_MVE_RUN_BIT + GEMM_RUN_S3L3));
}

typedef void (*gemm_vector_fn)(const gemm_ctx_t *c, const int8_t *x, const int8_t *w, int8_t *out);
typedef void (*gemm_vector2_fn)(const gemm_ctx_t *c, const int8_t *x, size_t step, int32_t pairs, const int8_t *w,
                                int8_t *out);
typedef void (*gemm_pair_fn)(const gemm_ctx_t *c, const int8_t *x, const int8_t *y, const int32_t *skips,
                             const int8_t *w, int8_t *out);


/* One image row of output pixels by gathering, [ox, end). */
static GEMM_INLINE int8_t *gemm_conv_gathered(const gemm_ctx_t *c, const ta_im2col_geom_t *g, const int8_t *input,
                                              const int8_t *w, int8_t *scratch, int8_t *out, int32_t oy, int32_t ox,
                                              int32_t end, gemm_vector_fn vector, gemm_vector_xr_fn xr,
                                              const uint8_t *lin) {
  for (; ox < end; ox++, out += c->rows) {
    const int8_t *x = gemm_gather(g, input, oy, ox, scratch);
    if (xr)
      xr(c, x, 0, 1, lin, w, out);
    else
      vector(c, x, w, out);
  }
  return out;
}

/* The output row oy of a layer whose windows there have rows outside the image (c->run_ok):
 * the windows whose columns are inside read those rows from a row of padding in scratch,
 * the others in place, in pairs; the rest gathered. */
static GEMM_INLINE int8_t *gemm_conv_padrow(const gemm_ctx_t *c, const ta_im2col_geom_t *g, const int8_t *input,
                                            const int8_t *w, int8_t *scratch, int8_t *out, int32_t oy,
                                            gemm_vector_fn vector, gemm_pair_fn pair) {
  const int32_t run = 16 * c->seg_chunks, rows = c->rows;
  const int32_t iy0 = oy * g->stride_h - g->pad_h, lo = c->ox_lo, hi = c->ox_hi;
  const size_t step_x = (size_t)g->stride_w * (size_t)g->in_c;
  int32_t ox = lo;
  out = gemm_conv_gathered(c, g, input, w, scratch, out, oy, 0, lo, vector, NULL, NULL);
  if (hi - lo >= 2) {
    const int8_t *seg[3];
    int inc[3]; /* segment in the image: moves with the pixel */
    for (int32_t k = 0; k < 3; k++) {
      const int32_t iy = iy0 + k * g->dil_h;
      inc[k] = iy >= 0 && iy < g->in_h;
      seg[k] = inc[k] ? input + ((size_t)iy * (size_t)g->in_w + (size_t)(lo * g->stride_w - g->pad_w)) * (size_t)g->in_c
                      : scratch;
    }
    gemm_fill(scratch, vdupq_n_s8((int8_t)g->pad_value), run);
    for (; ox + 1 < hi; ox += 2, out += 2 * (size_t)rows) {
      const size_t dx = (size_t)(ox - lo) * step_x;
      const uintptr_t x0 = (uintptr_t)seg[0] + (inc[0] ? dx : 0), x1 = (uintptr_t)seg[1] + (inc[1] ? dx : 0),
                      x2 = (uintptr_t)seg[2] + (inc[2] ? dx : 0);
      const uintptr_t y0 = x0 + (inc[0] ? step_x : 0), y1 = x1 + (inc[1] ? step_x : 0), y2 = x2 + (inc[2] ? step_x : 0);
      const int32_t skips[4] = {(int32_t)(x1 - x0 - (uintptr_t)run), (int32_t)(y1 - y0 - (uintptr_t)run),
                                (int32_t)(x2 - x1 - (uintptr_t)run), (int32_t)(y2 - y1 - (uintptr_t)run)};
      pair(c, (const int8_t *)x0, (const int8_t *)y0, skips, w, out);
    }
  }
  return gemm_conv_gathered(c, g, input, w, scratch, out, oy, ox, g->out_w, vector, NULL, NULL);
}

/* 1x1 windows without padding, read in place: `count` pixels `step` bytes apart. */
static GEMM_INLINE int8_t *gemm_conv_direct(const gemm_ctx_t *c, const int8_t *x, const int8_t *w, int8_t *out,
                                            int32_t count, size_t step, gemm_vector_fn vector,
                                            gemm_vector2_fn vector2_seg, gemm_vector_xr_fn xr, const uint8_t *lin) {
  if (xr) {
    xr(c, x, step, count, lin, w, out);
    return out + (size_t)count * (size_t)c->rows;
  }
  if (c->seg_n && count > 1) { /* pixels in pairs */
    const int32_t pairs = count / 2;
    vector2_seg(c, x, step, pairs, w, out);
    x += 2 * (size_t)pairs * step, out += 2 * (size_t)pairs * (size_t)c->rows, count -= 2 * pairs;
  }
  for (; count > 0; count--, x += step, out += c->rows) vector(c, x, w, out);
  return out;
}

static GEMM_INLINE void gemm_conv(const gemm_ctx_t *c, const ta_im2col_geom_t *g, const int8_t *input,
                                  const int8_t *w, int8_t *scratch, int8_t *out, gemm_vector_fn vector,
                                  gemm_vector_fn vector_seg, gemm_vector2_fn vector2_seg, gemm_vector_xr_fn xr,
                                  gemm_vector_xr_fn xw, const uint8_t *lin, const void *win, gemm_pair_fn pair) {
  /* windows inside the image: through 16-bit offsets where byte offsets cannot reach */
  const gemm_vector_xr_fn xin = c->xr_win == 2 ? xw : xr;
  const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  const size_t row_bytes = (size_t)g->in_w * (size_t)g->in_c;
  const size_t step_x = (size_t)g->stride_w * (size_t)g->in_c;
  const int32_t rows = c->rows, out_w = g->out_w;
  if (g->direct) {
    if (g->stride_h == 1 && g->stride_w == 1) { /* the output pixels are the input's, in order */
      gemm_conv_direct(c, input, w, out, g->batches * g->out_h * out_w, step_x, vector, vector2_seg, xr, lin);
      return;
    }
    for (int32_t b = 0; b < g->batches; b++, input += image)
      for (int32_t oy = 0; oy < g->out_h; oy++)
        out = gemm_conv_direct(c, input + (size_t)oy * (size_t)g->stride_h * row_bytes, w, out, out_w, step_x, vector,
                               vector2_seg, xr, lin);
    return;
  }
  for (int32_t b = 0; b < g->batches; b++, input += image)
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      const int32_t iy0 = oy * g->stride_h - g->pad_h;
      const int inside = (c->seg_n || c->xr_win) && iy0 >= 0 && iy0 + (g->k_h - 1) * g->dil_h < g->in_h;
      if (GEMM_RUN3 && !inside && c->run_ok) {
        out = gemm_conv_padrow(c, g, input, w, scratch, out, oy, vector, pair);
        continue;
      }
      int32_t lo = inside ? c->ox_lo : out_w, hi = inside ? c->ox_hi : out_w;
      const int8_t *x = input + (size_t)iy0 * row_bytes + (size_t)(lo * g->stride_w - g->pad_w) * (size_t)g->in_c;
      /* the run's layers: the last gathered pixel before the in-place ones pairs with the first of
       * them, the last in-place one left over with the first gathered one after them */
      const int pair_lo = GEMM_RUN3 && c->run_ok && lo > 0 && lo < hi;
      out = gemm_conv_gathered(c, g, input, w, scratch, out, oy, 0, lo - pair_lo, vector, xr, lin);
      if (pair_lo) {
        const int32_t skips[4] = {0, c->seg_skip, 0, c->seg_skip};
        pair(c, gemm_gather(g, input, oy, lo - 1, scratch), x, skips, w, out);
        x += step_x, lo++, out += 2 * (size_t)rows;
      }
      const int pair_hi = GEMM_RUN3 && c->run_ok && hi < out_w && ((hi - lo) & 1);
      if (lo < hi) {
        if (xr)
          xin(c, x, step_x, hi - lo, win, w, out), out += (size_t)(hi - lo) * (size_t)rows;
        else {
          const int32_t pairs = (hi - lo) / 2;
          if (pairs) vector2_seg(c, x, step_x, pairs, w, out);
          x += 2 * (size_t)pairs * step_x, out += 2 * (size_t)pairs * (size_t)rows;
          if (pair_hi) {
            const int32_t skips[4] = {c->seg_skip, 0, c->seg_skip, 0};
            pair(c, x, gemm_gather(g, input, oy, hi, scratch), skips, w, out);
            out += 2 * (size_t)rows, hi++;
          } else if ((hi - lo) & 1)
            vector_seg(c, x, w, out), out += rows;
        }
      }
      out = gemm_conv_gathered(c, g, input, w, scratch, out, oy, hi, out_w, vector, xr, lin);
    }
}

#define GEMM_CONV_MODE(l, f) \
  gemm_conv_##l##f(&c, g, input, weights, scratch, output, lin, c.xr_win == 2 ? (const void *)win.h : win.b)
#define GEMM_CONV_DEF(l, f)                                                                                 \
  static void gemm_conv_##l##f(const gemm_ctx_t *c, const ta_im2col_geom_t *g, const int8_t *input,        \
                               const int8_t *w, int8_t *scratch, int8_t *out, const uint8_t *lin,          \
                               const void *win) {                                                          \
    gemm_conv(c, g, input, w, scratch, out, gemm_vector_##l##f, gemm_vector_seg_##l##f, gemm_vector2_seg_##l##f, \
              gemm_vector_xr_##l##f(c->xr_n), c->xr_win == 2 ? gemm_vector_xw_##l##f(c->xr_n) : NULL, lin, win, \
              GEMM_RUN3 && c->run_ok ? gemm_pair_##l##f : NULL);                                                          \
  }
GEMM_CONV_DEF(0, 0)
GEMM_CONV_DEF(0, 1)
GEMM_CONV_DEF(1, 0)
GEMM_CONV_DEF(1, 1)

void ta_conv_s8_mve(const ta_gemm_mve_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                    const int8_t *weights, int8_t *scratch, int8_t *output) {
  gemm_ctx_t c;
  uint8_t lin[16 * GEMM_XR_MAX]; /* gemm_vector_xr's byte offsets in a gathered row */
  union { /* the offsets of a window in the image: 8-bit (gemm_vector_xr) or 16-bit (gemm_vector_xw) */
    uint8_t b[16 * GEMM_XR_MAX];
    uint16_t h[16 * GEMM_XR_MAX];
  } win;
  gemm_ctx_init(p, &c);
  gemm_conv_setup(&c, g, lin, win.b, win.h);
  GEMM_MODES(GEMM_CONV_MODE, TA_GEMM_MVE_CONV_BIT);
}

void ta_conv_s8_mve_inplace(const ta_gemm_mve_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                            const int8_t *weights, int8_t *scratch, int8_t *temp, int8_t *output, int32_t bytes) {
  ta_conv_s8_mve(p, g, input, weights, scratch, temp);
  ta_move_output(output, temp, bytes);
}

#else
typedef int ta_gemm_mve_unused_t; /* ISO C forbids an empty translation unit */
#endif
