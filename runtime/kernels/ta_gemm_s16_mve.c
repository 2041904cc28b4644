/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 matrix-vector kernels with MVE (Helium) intrinsics. */
#include "ta_gemm_s16_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define G16M_MVE 1
#endif

#if defined(G16M_MVE)
/* Optimised GCC builds without a frame pointer (TA_NO_WIDE_ASM, ta_common.h): the pair loop
 * in assembly, its eight accumulators in the even registers VMLADAVA requires ("Te", lr
 * included; the weight pointer in a low register, as the widening VLDRB.S16 encodes it);
 * GCC alone moves them between registers in every iteration. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) && !defined(TA_NO_WIDE_ASM)
#define G16M_WIDE_ASM 1
#else
#define G16M_WIDE_ASM 0
#endif
typedef int16x8_t g16m_vec_t;

/* One input vector against one block of 4 rows (weights [chunk][4 rows][8], see the
 * header), int32 sums from a[0..3]: whole chunks, then the tail chunk against `xt`, the
 * input's last partial vector loaded once per input vector (lanes past depth 0). */
static inline void g16m_block(const int16_t *x, const int8_t *w, int32_t chunks, int32_t tail, g16m_vec_t xt,
                              int32_t a[4]) {
  int32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
  for (int32_t i = chunks; i > 0; i--, x += 8, w += 32) {
    const int16x8_t xv = vldrhq_s16(x);
    a0 = vmladavaq_s16(a0, xv, vldrbq_s16(w));
    a1 = vmladavaq_s16(a1, xv, vldrbq_s16(w + 8));
    a2 = vmladavaq_s16(a2, xv, vldrbq_s16(w + 16));
    a3 = vmladavaq_s16(a3, xv, vldrbq_s16(w + 24));
  }
  if (tail) {
    a0 = vmladavaq_s16(a0, xt, vldrbq_s16(w));
    a1 = vmladavaq_s16(a1, xt, vldrbq_s16(w + 8));
    a2 = vmladavaq_s16(a2, xt, vldrbq_s16(w + 16));
    a3 = vmladavaq_s16(a3, xt, vldrbq_s16(w + 24));
  }
  a[0] = a0, a[1] = a1, a[2] = a2, a[3] = a3;
}

/* One row of a block (int64 sums). */
static int64_t g16m_row64(const int16_t *x, const int8_t *w, int32_t chunks, int32_t tail, g16m_vec_t xt) {
  int64_t a = 0;
  for (int32_t i = chunks; i > 0; i--, x += 8, w += 32) a = vmlaldavaq_s16(a, vldrhq_s16(x), vldrbq_s16(w));
  if (tail) a = vmlaldavaq_s16(a, xt, vldrbq_s16(w));
  return a;
}

static inline g16m_vec_t g16m_tail(const int16_t *x, int32_t depth) {
  return vldrhq_z_s16(x + (depth & ~7), vctp16q((uint32_t)(depth & 7)));
}

/* The fold requantisation of a block of 4 rows (m: their multipliers; VRMULH), plus the
 * wide rows' part (ta_gemm_s16_mve.h; wq: the block's 16 wide words), clamped. */
static inline __attribute__((always_inline)) int32x4_t g16m_rq4m(const int32_t *m, const int32_t *wq, int32x4_t acc,
                                                                  int32x4_t lo, int32x4_t hi, const int wide) {
  int32x4_t y = vrmulhq_s32(acc, vldrwq_s32(m));
  if (wide) {
    const int32x4_t red = vldrwq_s32(wq), kl = vldrwq_s32(wq + 8);
    const uint32x4_t s = vaddq_u32(vreinterpretq_u32_s32(vmulq_s32(acc, red)), vreinterpretq_u32_s32(kl));
    int32x4_t h = vaddq_s32(vmulhq_s32(acc, red), vldrwq_s32(wq + 4));
    h = vaddq_m_n_s32(h, h, 1, vcmphiq_u32(vreinterpretq_u32_s32(kl), s)); /* the carry out of kl + P low */
    y = vaddq_s32(y, vshlq_s32(h, vldrwq_s32(wq + 12)));
  }
  return vmaxq_s32(vminq_s32(y, hi), lo);
}

/* The same for the block of rows r..r+3 of p. */
static inline __attribute__((always_inline)) int32x4_t g16m_rq4(const ta_gemm_s16_mve_params_t *p, int32_t r,
                                                                 int32x4_t acc, int32x4_t lo, int32x4_t hi,
                                                                 const int wide) {
  return g16m_rq4m(p->mult + r, wide ? p->wide + 4 * r : NULL, acc, lo, hi, wide);
}

/* The requantisation of n <= 4 sums of the block at row r, narrowing store. */
static inline void g16m_fold4(const ta_gemm_s16_mve_params_t *p, int32_t r, const int32_t a[4], int32_t n,
                              int16_t *out, const int wide) {
  int32x4_t v = vdupq_n_s32(a[0]);
  v = vsetq_lane_s32(a[1], v, 1), v = vsetq_lane_s32(a[2], v, 2), v = vsetq_lane_s32(a[3], v, 3);
  v = g16m_rq4(p, r, v, vdupq_n_s32(p->act_min), vdupq_n_s32(p->act_max), wide);
  if (n == 4) vstrhq_s32(out, v);
  else vstrhq_p_s32(out, v, vctp32q((uint32_t)n));
}

/* The int64 dot product of one weight row (w: its first 8 weights, the row's chunks 32
 * bytes apart) with an input read as in g16m_vector2. */
static int64_t g16m_row64_runs(const int16_t *x, const int8_t *w, int32_t segs, int32_t seg_chunks, int32_t seg_step,
                               int32_t tail) {
  int64_t a = 0;
  for (int32_t s = segs; s > 0; s--, x += seg_step)
    for (int32_t i = 0; i < seg_chunks; i++, w += 32) a = vmlaldavaq_s16(a, vldrhq_s16(x + 8 * i), vldrbq_s16(w));
  if (tail) a = vmlaldavaq_s16(a, vldrhq_z_s16(x - segs * seg_step + 8 * seg_chunks, vctp16q((uint32_t)tail)), vldrbq_s16(w));
  return a;
}

#if G16M_WIDE_ASM
/* Two blocks (8 rows, weights at w0 and w1) against one input vector of n >= 1 whole
 * chunks in assembly: each input load serves the 8 rows. The sums start at the rows'
 * biases; sums[i] is row i's. The weight pointers in low registers (VLDRB.S16). */
static __attribute__((noinline)) void g16m_rows8(const int16_t *xp, const int8_t *w0, const int8_t *w1, int32_t n,
                                                 const int32_t *bias, int32_t sums[8]) {
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3], a4 = bias[4], a5 = bias[5], a6 = bias[6],
          a7 = bias[7];
  int16x8_t xv, wv;
  __asm__("1:\n\t"
          "vldrh.s16 %q[xv], [%[x]], #16\n\t"
          "vldrb.s16 %q[wv], [%[w0]], #8\n\t"
          "vmladava.s16 %[a0], %q[xv], %q[wv]\n\t"
          "vldrb.s16 %q[wv], [%[w0]], #8\n\t"
          "vmladava.s16 %[a1], %q[xv], %q[wv]\n\t"
          "vldrb.s16 %q[wv], [%[w0]], #8\n\t"
          "vmladava.s16 %[a2], %q[xv], %q[wv]\n\t"
          "vldrb.s16 %q[wv], [%[w0]], #8\n\t"
          "vmladava.s16 %[a3], %q[xv], %q[wv]\n\t"
          "vldrb.s16 %q[wv], [%[w1]], #8\n\t"
          "vmladava.s16 %[a4], %q[xv], %q[wv]\n\t"
          "vldrb.s16 %q[wv], [%[w1]], #8\n\t"
          "vmladava.s16 %[a5], %q[xv], %q[wv]\n\t"
          "vldrb.s16 %q[wv], [%[w1]], #8\n\t"
          "vmladava.s16 %[a6], %q[xv], %q[wv]\n\t"
          "vldrb.s16 %q[wv], [%[w1]], #8\n\t"
          "vmladava.s16 %[a7], %q[xv], %q[wv]\n\t"
          "subs %[n], %[n], #1\n\t"
          "bne 1b"
          : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [a4] "+Te"(a4), [a5] "+Te"(a5),
            [a6] "+Te"(a6), [a7] "+Te"(a7), [x] "+r"(xp), [w0] "+l"(w0), [w1] "+l"(w1), [n] "+r"(n),
            [xv] "=&w"(xv), [wv] "=&w"(wv)
          :
          : "cc");
  sums[0] = a0, sums[1] = a1, sums[2] = a2, sums[3] = a3, sums[4] = a4, sums[5] = a5, sums[6] = a6, sums[7] = a7;
}
#endif

/* Two chunks' worth of one weight block: 8 weights of each of the 4 rows at w, against
 * xv and yv; every weight load serves both input vectors. */
#define G16M_PAIR_STEP(xv, yv, w)                                                 \
  do {                                                                            \
    int16x8_t wv_ = vldrbq_s16(w);                                                \
    a0 = vmladavaq_s16(a0, xv, wv_), c0 = vmladavaq_s16(c0, yv, wv_);             \
    wv_ = vldrbq_s16((w) + 8);                                                    \
    a1 = vmladavaq_s16(a1, xv, wv_), c1 = vmladavaq_s16(c1, yv, wv_);             \
    wv_ = vldrbq_s16((w) + 16);                                                   \
    a2 = vmladavaq_s16(a2, xv, wv_), c2 = vmladavaq_s16(c2, yv, wv_);             \
    wv_ = vldrbq_s16((w) + 24);                                                   \
    a3 = vmladavaq_s16(a3, xv, wv_), c3 = vmladavaq_s16(c3, yv, wv_);             \
  } while (0)

#if G16M_WIDE_ASM
/* What the pair loop reads through one register (it needs all the others). */
typedef struct g16m_pair_ctl_t {
  const int16_t *x, *y; /* the pair's first values */
  int32_t chunks;       /* whole chunks per run */
  int32_t *end;         /* past the last block's sums */
  int32_t segs, left;   /* runs per vector; runs left (the loop's own counter) */
  int32_t skip;         /* bytes from a run's end to the next run's start */
} g16m_pair_ctl_t;

/* One chunk of both vectors against the block's 4 rows (no flags changed: the MVE
 * instructions leave them, so a test before it still decides the branch after it). */
#define G16M_PAIR_CHUNK                \
  "vldrh.s16 q0, [r3], #16\n\t"        \
  "vldrh.s16 q1, [r5], #16\n\t"        \
  "vldrb.s16 q2, [%[w]], #8\n\t"       \
  "vmladava.s16 r0, q0, q2\n\t"        \
  "vmladava.s16 r8, q1, q2\n\t"        \
  "vldrb.s16 q2, [%[w]], #8\n\t"       \
  "vmladava.s16 r2, q0, q2\n\t"        \
  "vmladava.s16 r10, q1, q2\n\t"       \
  "vldrb.s16 q2, [%[w]], #8\n\t"       \
  "vmladava.s16 r4, q0, q2\n\t"        \
  "vmladava.s16 r12, q1, q2\n\t"       \
  "vldrb.s16 q2, [%[w]], #8\n\t"       \
  "vmladava.s16 r6, q0, q2\n\t"        \
  "vmladava.s16 lr, q1, q2\n\t"

/* The pair's sums of consecutive blocks in assembly, no call per block: sums holds per
 * block x's 4 sums then y's, set to the rows' biases; the loop loads a block's eight with
 * one LDM into the even registers VMLADAVA needs, walks the runs (each weight load serves
 * both vectors; four chunks per loop test, an odd chunk and a pair before) and stores them back with one STM; w walks the
 * blocks' weights in order. */
static __attribute__((noinline)) void g16m_pair_all(g16m_pair_ctl_t *ctl, const int8_t *w, int32_t *sums) {
  register g16m_pair_ctl_t *c __asm__("r9") = ctl;
  register const int8_t *wp __asm__("r1") = w;
  register int32_t *sp_ __asm__("r11") = sums;
  __asm__ volatile("1:\n\t"
                   "ldm %[s], {r0, r2, r4, r6, r8, r10, r12, lr}\n\t"
                   "ldr r3, [%[c]]\n\t"
                   "ldr r5, [%[c], #4]\n\t"
                   "ldr r7, [%[c], #16]\n\t"
                   "str r7, [%[c], #20]\n"
                   "2:\n\t"
                   "ldr r7, [%[c], #8]\n\t"
                   "lsrs r7, r7, #1\n\t" /* carry: an odd chunk */
                   "bcc 6f\n\t"
                   G16M_PAIR_CHUNK
                   "6:\n\t"
                   "lsrs r7, r7, #1\n\t" /* carry: a pair of chunks; zero: no group of four */
                   "bcc 7f\n\t"
                   G16M_PAIR_CHUNK
                   G16M_PAIR_CHUNK
                   "7:\n\t"
                   "beq 5f\n"
                   "3:\n\t"
                   G16M_PAIR_CHUNK
                   G16M_PAIR_CHUNK
                   G16M_PAIR_CHUNK
                   G16M_PAIR_CHUNK
                   "subs r7, r7, #1\n\t"
                   "bne 3b\n"
                   "5:\n\t"
                   "ldr r7, [%[c], #20]\n\t"
                   "subs r7, r7, #1\n\t"
                   "beq 4f\n\t"
                   "str r7, [%[c], #20]\n\t"
                   "ldr r7, [%[c], #24]\n\t"
                   "add r3, r3, r7\n\t"
                   "add r5, r5, r7\n\t"
                   "b 2b\n"
                   "4:\n\t"
                   "stm %[s]!, {r0, r2, r4, r6, r8, r10, r12, lr}\n\t"
                   "ldr r7, [%[c], #12]\n\t"
                   "cmp %[s], r7\n\t"
                   "bne 1b"
                   : [s] "+r"(sp_), [w] "+l"(wp)
                   : [c] "r"(c)
                   : "r0", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r10", "r12", "lr", "q0", "q1", "q2", "cc",
                     "memory");
}
#endif

#if G16M_WIDE_ASM
enum { G16M_PAIR_BLOCKS = 8 }; /* blocks per g16m_pair_all call (its sums on the stack) */

/* g16m_vector2's blocks through g16m_pair_all, G16M_PAIR_BLOCKS at a time, then their
 * requantisation; `wide` a constant of each copy. */
static inline __attribute__((always_inline)) void g16m_pair_blocks(const ta_gemm_s16_mve_params_t *p,
                                                                   const int16_t *x, const int16_t *y, int32_t segs,
                                                                   const int32_t run[2], const int8_t *w, int16_t *ox,
                                                                   int16_t *oy, const int wide) {
  const int32_t rows = p->rows, block_bytes = 4 * p->stride;
  const int32x4_t lo = vdupq_n_s32(p->act_min), hi = vdupq_n_s32(p->act_max);
  int32_t sums[8 * G16M_PAIR_BLOCKS];
  g16m_pair_ctl_t ctl = {x, y, run[0], sums, segs, segs, run[1]};
  for (int32_t r0 = 0; r0 < rows; r0 += 4 * G16M_PAIR_BLOCKS, w += G16M_PAIR_BLOCKS * block_bytes) {
    const int32_t n = TA_MIN(rows - r0, 4 * G16M_PAIR_BLOCKS);
    const int32_t *b = p->bias + r0;
    int32_t *sp = sums;
    for (int32_t i = (n + 3) >> 2; i > 0; i--, b += 4, sp += 8) {
      const int32x4_t v = vldrwq_s32(b);
      vstrwq_s32(sp, v), vstrwq_s32(sp + 4, v);
    }
    ctl.end = sp;
    g16m_pair_all(&ctl, w, sums);
    /* the rows' tables and outputs walked by pointer (the stores could alias p's fields) */
    const int32_t *m = p->mult + r0, *wq = wide ? p->wide + 4 * r0 : NULL;
    int16_t *px = ox + r0, *py = oy + r0;
    sp = sums;
    for (int32_t i = n >> 2; i > 0; i--, sp += 8, m += 4, wq += wide ? 16 : 0, px += 4, py += 4) {
      vstrhq_s32(px, g16m_rq4m(m, wq, vldrwq_s32(sp), lo, hi, wide));
      vstrhq_s32(py, g16m_rq4m(m, wq, vldrwq_s32(sp + 4), lo, hi, wide));
    }
    if (n & 3) {
      const mve_pred16_t rp = vctp32q((uint32_t)(n & 3));
      vstrhq_p_s32(px, g16m_rq4m(m, wq, vldrwq_s32(sp), lo, hi, wide), rp);
      vstrhq_p_s32(py, g16m_rq4m(m, wq, vldrwq_s32(sp + 4), lo, hi, wide), rp);
    }
  }
}
#endif

/* Fold form, two input vectors x and y (outputs ox, oy) against all rows. Each vector is
 * read as `segs` runs of `seg_chunks` whole chunks, `seg_step` values apart (a window
 * read in place: one run per window row), then `tail` values (segs == 1 only). */
static void g16m_vector2(const ta_gemm_s16_mve_params_t *p, const int16_t *x, const int16_t *y, int32_t segs,
                         int32_t seg_chunks, int32_t seg_step, int32_t tail, const int8_t *w, int16_t *ox,
                         int16_t *oy) {
  const int32_t rows = p->rows, block_bytes = 4 * p->stride;
  const int32x4_t lo = vdupq_n_s32(p->act_min), hi = vdupq_n_s32(p->act_max);
  const mve_pred16_t tp = vctp16q((uint32_t)tail);
#if G16M_WIDE_ASM
  if (seg_chunks > 0 && tail == 0) {
    /* chunks per run, and the bytes from a run's end to the next run's start */
    const int32_t run[2] = {seg_chunks, (int32_t)sizeof(int16_t) * (seg_step - 8 * seg_chunks)};
    if (p->wide) g16m_pair_blocks(p, x, y, segs, run, w, ox, oy, 1);
    else g16m_pair_blocks(p, x, y, segs, run, w, ox, oy, 0);
    return;
  }
#endif
  for (int32_t r = 0; r < rows; r += 4, w += block_bytes) {
    const int32_t *b = p->bias + r;
    int32_t a0 = b[0], a1 = b[1], a2 = b[2], a3 = b[3];
    int32_t c0 = a0, c1 = a1, c2 = a2, c3 = a3;
    const int8_t *wp = w;
    const int16_t *xs = x, *ys = y;
    for (int32_t s = segs; s > 0; s--, xs += seg_step, ys += seg_step) {
      const int16_t *xp = xs, *yp = ys;
      for (int32_t i = seg_chunks; i > 0; i--, xp += 8, yp += 8, wp += 32) {
        const int16x8_t xv = vldrhq_s16(xp), yv = vldrhq_s16(yp);
        G16M_PAIR_STEP(xv, yv, wp);
      }
    }
    if (tail) {
      const int16x8_t xv = vldrhq_z_s16(x + 8 * seg_chunks, tp), yv = vldrhq_z_s16(y + 8 * seg_chunks, tp);
      G16M_PAIR_STEP(xv, yv, wp);
    }
    int32x4_t vx = vdupq_n_s32(a0), vy = vdupq_n_s32(c0);
    vx = vsetq_lane_s32(a1, vx, 1), vx = vsetq_lane_s32(a2, vx, 2), vx = vsetq_lane_s32(a3, vx, 3);
    vy = vsetq_lane_s32(c1, vy, 1), vy = vsetq_lane_s32(c2, vy, 2), vy = vsetq_lane_s32(c3, vy, 3);
    vx = g16m_rq4(p, r, vx, lo, hi, p->wide != NULL);
    vy = g16m_rq4(p, r, vy, lo, hi, p->wide != NULL);
    if (rows - r >= 4) {
      vstrhq_s32(ox + r, vx), vstrhq_s32(oy + r, vy);
    } else {
      const mve_pred16_t rp = vctp32q((uint32_t)(rows - r));
      vstrhq_p_s32(ox + r, vx, rp), vstrhq_p_s32(oy + r, vy, rp);
    }
  }
}
#else
/* The fold requantisation (ta_gemm_s16_mve.h): SMMULR is (acc * m + 2^31) >> 32. */
static inline int16_t g16m_fold(int32_t acc, int32_t m, int32_t lo, int32_t hi) {
#if defined(__GNUC__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  int32_t y;
  __asm__("smmulr %0, %1, %2" : "=r"(y) : "r"(acc), "r"(m));
  return (int16_t)ta_clamp(y, lo, hi);
#else
  return ta_s16_mve_fold(acc, m, lo, hi);
#endif
}

/* The same sums in plain C (builds without MVE); xt unused. */
typedef int g16m_vec_t;
static inline void g16m_block(const int16_t *x, const int8_t *w, int32_t chunks, int32_t tail, g16m_vec_t xt,
                              int32_t a[4]) {
  (void)xt;
  for (int32_t k = 0; k < chunks * 8 + tail; k++)
    for (int32_t i = 0; i < 4; i++)
      a[i] = (int32_t)((uint32_t)a[i] + (uint32_t)((int32_t)x[k] * w[(k >> 3) * 32 + i * 8 + (k & 7)]));
}
static int64_t g16m_row64(const int16_t *x, const int8_t *w, int32_t chunks, int32_t tail, g16m_vec_t xt) {
  (void)xt;
  int64_t a = 0;
  for (int32_t k = 0; k < chunks * 8 + tail; k++) a += (int64_t)x[k] * w[(k >> 3) * 32 + (k & 7)];
  return a;
}
static inline g16m_vec_t g16m_tail(const int16_t *x, int32_t depth) { return (void)x, (void)depth, 0; }
/* Row r's requantisation of its sum: the fold, or the wide form in int64. */
static int16_t g16m_rq1(const ta_gemm_s16_mve_params_t *p, int32_t r, int32_t acc) {
  const int32_t *q = p->wide ? p->wide + 16 * (r >> 2) + (r & 3) : NULL;
  if (!q || q[0] == 0) return g16m_fold(acc, p->mult[r], p->act_min, p->act_max);
  const int64_t k = (int64_t)(((uint64_t)(uint32_t)q[4] << 32) | (uint32_t)q[8]);
  return (int16_t)ta_clamp((int32_t)((k + (int64_t)acc * q[0]) >> (32 - q[12])), p->act_min, p->act_max);
}

static inline void g16m_fold4(const ta_gemm_s16_mve_params_t *p, int32_t r, const int32_t a[4], int32_t n,
                              int16_t *out, const int wide) {
  (void)wide; /* g16m_rq1 looks at each row */
  for (int32_t i = 0; i < n; i++) out[i] = g16m_rq1(p, r + i, a[i]);
}

static int64_t g16m_row64_runs(const int16_t *x, const int8_t *w, int32_t segs, int32_t seg_chunks, int32_t seg_step,
                               int32_t tail) {
  int64_t a = 0;
  int32_t k = 0; /* depth index */
  for (int32_t s = 0; s < segs; s++)
    for (int32_t j = 0; j < 8 * seg_chunks; j++, k++) a += (int64_t)x[s * seg_step + j] * w[(k >> 3) * 32 + (k & 7)];
  for (int32_t j = 0; j < tail; j++, k++) a += (int64_t)x[8 * seg_chunks + j] * w[(k >> 3) * 32 + (k & 7)];
  return a;
}

/* The pair in plain C: each vector's runs summed row by row (weights [block][chunk]
 * [row][8]), the fold requantisation. */
static void g16m_vector2(const ta_gemm_s16_mve_params_t *p, const int16_t *x, const int16_t *y, int32_t segs,
                         int32_t seg_chunks, int32_t seg_step, int32_t tail, const int8_t *w, int16_t *ox,
                         int16_t *oy) {
  for (int32_t r = 0; r < p->rows; r++) {
    const int8_t *wr = w + (r >> 2) * 4 * p->stride + (r & 3) * 8;
    uint32_t a = (uint32_t)p->bias[r], c = a;
    int32_t k = 0; /* depth index */
    for (int32_t s = 0; s < segs; s++)
      for (int32_t j = 0; j < 8 * seg_chunks; j++, k++) {
        const int32_t wk = wr[(k >> 3) * 32 + (k & 7)];
        a += (uint32_t)(x[s * seg_step + j] * wk), c += (uint32_t)(y[s * seg_step + j] * wk);
      }
    for (int32_t j = 0; j < tail; j++, k++) {
      const int32_t wk = wr[(k >> 3) * 32 + (k & 7)];
      a += (uint32_t)(x[8 * seg_chunks + j] * wk), c += (uint32_t)(y[8 * seg_chunks + j] * wk);
    }
    ox[r] = g16m_rq1(p, r, (int32_t)a);
    oy[r] = g16m_rq1(p, r, (int32_t)c);
  }
}
#endif

/* The fold's rows outside its bounds, for one input vector read as in g16m_vector2. */
static void g16m_fix(const ta_gemm_s16_mve_params_t *p, const int16_t *x, int32_t segs, int32_t seg_chunks,
                     int32_t seg_step, int32_t tail, const int8_t *w, int16_t *out) {
  for (int32_t i = 0; i < p->n_fix; i++) {
    const int32_t *f = p->fix + 5 * i, r = f[0];
    const int8_t *wr = w + (r >> 2) * 4 * p->stride + (r & 3) * 8;
    out[r] = ta_s16_mve_general(f + 1, g16m_row64_runs(x, wr, segs, seg_chunks, seg_step, tail), p->act_min,
                                p->act_max);
  }
}

/* All rows for one input vector, in blocks of 4 (the last block's missing rows are zero
 * weights; their outputs are not stored). */
/* The fold form's blocks for one input vector; `wide` a constant of each copy. Whole
 * chunks only (GCC assembly): 8 rows per input load while 8 remain. */
static inline __attribute__((always_inline)) void g16m_vector_fold(const ta_gemm_s16_mve_params_t *p,
                                                                   const int16_t *x, const int8_t *w, int16_t *out,
                                                                   const int wide) {
  const int32_t rows = p->rows, chunks = p->depth >> 3, tail = p->depth & 7, block_bytes = 4 * p->stride;
  int32_t r = 0;
#if G16M_WIDE_ASM
  if (tail == 0 && chunks > 0) {
    const int32x4_t lo = vdupq_n_s32(p->act_min), hi = vdupq_n_s32(p->act_max);
    for (; r + 8 <= rows; r += 8, w += 2 * block_bytes) {
      int32_t sums[8];
      g16m_rows8(x, w, w + block_bytes, chunks, p->bias + r, sums);
      vstrhq_s32(out + r, g16m_rq4(p, r, vldrwq_s32(sums), lo, hi, wide));
      vstrhq_s32(out + r + 4, g16m_rq4(p, r + 4, vldrwq_s32(sums + 4), lo, hi, wide));
    }
  }
#endif
  const g16m_vec_t xt = g16m_tail(x, p->depth);
  for (; r < rows; r += 4, w += block_bytes) {
    int32_t a[4] = {p->bias[r], p->bias[r + 1], p->bias[r + 2], p->bias[r + 3]};
    g16m_block(x, w, chunks, tail, xt, a);
    g16m_fold4(p, r, a, rows - r < 4 ? rows - r : 4, out + r, wide);
  }
}

static void g16m_vector(const ta_gemm_s16_mve_params_t *p, const int16_t *x, const int8_t *w, int16_t *out) {
  const int32_t rows = p->rows, chunks = p->depth >> 3, tail = p->depth & 7, lo = p->act_min, hi = p->act_max;
  const int32_t block_bytes = 4 * p->stride;
  if (p->bias) {
    if (p->wide) g16m_vector_fold(p, x, w, out, 1);
    else g16m_vector_fold(p, x, w, out, 0);
    return;
  }
  const g16m_vec_t xt = g16m_tail(x, p->depth);
  for (int32_t r = 0; r < rows; r += 4, w += block_bytes) {
    const int32_t n = rows - r < 4 ? rows - r : 4;
    int32_t a[4] = {0, 0, 0, 0};
    if (p->acc64) {
      for (int32_t i = 0; i < n; i++)
        out[r + i] = ta_s16_mve_general(p->rq + 4 * (r + i), g16m_row64(x, w + 8 * i, chunks, tail, xt), lo, hi);
    } else {
      g16m_block(x, w, chunks, tail, xt, a);
      for (int32_t i = 0; i < n; i++) out[r + i] = ta_s16_mve_general(p->rq + 4 * (r + i), a[i], lo, hi);
    }
  }
}

void ta_gemm_s16_mve(const ta_gemm_s16_mve_params_t *p, int32_t count, const int16_t *input, const int8_t *weights,
                     int16_t *output) {
  int32_t i = 0;
  if (p->bias)
    for (; i + 2 <= count; i += 2) {
      const int16_t *x = input + i * p->depth;
      g16m_vector2(p, x, x + p->depth, 1, p->depth >> 3, 0, p->depth & 7, weights, output + i * p->rows,
                   output + (i + 1) * p->rows);
    }
  for (; i < count; i++) g16m_vector(p, input + i * p->depth, weights, output + i * p->rows);
  for (i = 0; i < count && p->n_fix; i++)
    g16m_fix(p, input + i * p->depth, 1, p->depth >> 3, 0, p->depth & 7, weights, output + i * p->rows);
}

#if defined(G16M_MVE)
/* n int16 values copied, or zeroed, with vector loads and stores, the last partial vector
 * predicated: short runs (a tap's few channels) cost no library call. */
static inline void g16m_copy(int16_t *dst, const int16_t *src, int32_t n) {
  for (; n >= 8; n -= 8, dst += 8, src += 8) vstrhq_s16(dst, vldrhq_s16(src));
  if (n > 0) {
    const mve_pred16_t p = vctp16q((uint32_t)n);
    vstrhq_p_s16(dst, vldrhq_z_s16(src, p), p);
  }
}
static inline void g16m_zero(int16_t *dst, int32_t n) {
  const int16x8_t z = vdupq_n_s16(0);
  for (; n >= 8; n -= 8, dst += 8) vstrhq_s16(dst, z);
  if (n > 0) vstrhq_p_s16(dst, z, vctp16q((uint32_t)n));
}
#else
static inline void g16m_copy(int16_t *dst, const int16_t *src, int32_t n) {
  memcpy(dst, src, sizeof(int16_t) * (size_t)n);
}
static inline void g16m_zero(int16_t *dst, int32_t n) { memset(dst, 0, sizeof(int16_t) * (size_t)n); }
#endif

/* Copies the window of output pixel (oy, ox) into x, taps outside the image as 0 (the
 * int16 zero point); whole window rows at once where they lie inside. */
static void g16m_gather(const ta_conv_s16_mve_geom_t *g, const int16_t *in, int32_t oy, int32_t ox, int16_t *x) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
  const int32_t row_len = g->k_w * g->in_c;
  const int row_inside = g->dil_w == 1 && ix0 >= 0 && ix0 + g->k_w - 1 < g->in_w;
  for (int32_t ky = 0; ky < g->k_h; ky++, x += row_len) {
    const int32_t iy = iy0 + g->dil_h * ky;
    if (iy < 0 || iy >= g->in_h) {
      g16m_zero(x, row_len);
      continue;
    }
    const int16_t *src = in + iy * g->in_w * g->in_c;
    if (row_inside) {
      g16m_copy(x, src + ix0 * g->in_c, row_len);
      continue;
    }
    for (int32_t kx = 0; kx < g->k_w; kx++) {
      const int32_t ix = ix0 + g->dil_w * kx;
      if (ix < 0 || ix >= g->in_w) g16m_zero(x + kx * g->in_c, g->in_c);
      else g16m_copy(x + kx * g->in_c, src + ix * g->in_c, g->in_c);
    }
  }
}

/* Gather loads (MVE): per depth index k < stride its input's offset from the window's first
 * tap, in int16 values (u16; lanes past depth 0), and its tap's row and column offsets (past
 * depth 0x7FFF: never inside). Up to G16M_MAX_OFFS values and a window span below 2^16,
 * else none; windows that cross the border take them too (`masked`) when the whole image
 * is below 2^16 values: offsets from the image's start wrap in u16 and the lanes outside
 * the image are predicated off (loaded as 0, never read). */
#if defined(G16M_MVE)
enum { G16M_MAX_OFFS = 48 }; /* kws_a16w8: 40, vww_a16w8 and ic_a16w8: 32 */
typedef struct g16m_taps_t {
  uint16_t offs[G16M_MAX_OFFS];
  int16_t ty[G16M_MAX_OFFS], tx[G16M_MAX_OFFS];
  int32_t masked;
} g16m_taps_t;

static int32_t g16m_offsets(const ta_gemm_s16_mve_params_t *p, const ta_conv_s16_mve_geom_t *g, g16m_taps_t *t) {
  const int32_t row = g->in_w * g->in_c;
  const int64_t span = (int64_t)(g->k_h - 1) * g->dil_h * row + (int64_t)(g->k_w - 1) * g->dil_w * g->in_c + g->in_c;
  if (p->stride > G16M_MAX_OFFS || span > 65535) return 0;
  int32_t k = 0;
  for (int32_t ky = 0; ky < g->k_h; ky++)
    for (int32_t kx = 0; kx < g->k_w; kx++)
      for (int32_t c = 0; c < g->in_c; c++, k++) {
        t->offs[k] = (uint16_t)(ky * g->dil_h * row + kx * g->dil_w * g->in_c + c);
        t->ty[k] = (int16_t)(ky * g->dil_h), t->tx[k] = (int16_t)(kx * g->dil_w); /* used when `masked` */
      }
  for (; k < p->stride; k++) t->offs[k] = 0, t->ty[k] = t->tx[k] = 0x7FFF;
  /* the compares' operands (tap offsets, -iy0, in_h - iy0 and across) stay inside int16 */
  t->masked = (int64_t)g->in_h * row <= 65535 && g->in_h < 8192 && g->in_w < 8192 && g->pad_h < 8192 &&
              g->pad_w < 8192 && (int64_t)(g->k_h - 1) * g->dil_h < 8192 && (int64_t)(g->k_w - 1) * g->dil_w < 8192;
  return 1;
}

/* A window inside the image (x: its first tap) into dst with one gather load per 8 values;
 * the lanes past depth loaded as 0. */
static void g16m_gather_window(const int16_t *x, const uint16_t *offs, int32_t depth, int16_t *dst) {
  int32_t k = 0;
  for (; k + 8 <= depth; k += 8) vstrhq_s16(dst + k, vldrhq_gather_shifted_offset_s16(x, vldrhq_u16(offs + k)));
  if (k < depth)
    vstrhq_s16(dst + k, vldrhq_gather_shifted_offset_z_s16(x, vldrhq_u16(offs + k), vctp16q((uint32_t)(depth - k))));
}

/* Any window of output pixel (oy, ox) (t->masked): per 8 values one gather load from the
 * image's start, the lanes whose tap lies outside the image (and past depth) 0. */
static void g16m_gather_masked(const ta_conv_s16_mve_geom_t *g, const int16_t *in, const g16m_taps_t *t,
                               int32_t oy, int32_t ox, int32_t stride, int16_t *dst) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
  const uint16_t origin = (uint16_t)(iy0 * g->in_w * g->in_c + ix0 * g->in_c); /* mod 2^16 */
  for (int32_t k = 0; k < stride; k += 8) {
    const int16x8_t ty = vldrhq_s16(t->ty + k), tx = vldrhq_s16(t->tx + k);
    mve_pred16_t in_img = vcmpgeq_n_s16(ty, (int16_t)-iy0);
    in_img = vcmpltq_m_n_s16(ty, (int16_t)(g->in_h - iy0), in_img);
    in_img = vcmpgeq_m_n_s16(tx, (int16_t)-ix0, in_img);
    in_img = vcmpltq_m_n_s16(tx, (int16_t)(g->in_w - ix0), in_img);
    const uint16x8_t off = vaddq_n_u16(vldrhq_u16(t->offs + k), origin);
    vstrhq_s16(dst + k, vldrhq_gather_shifted_offset_z_s16(in, off, in_img));
  }
}

/* Window (oy, ox) into dst (stride values, zero past depth): gather loads where they apply. */
static void g16m_window(const ta_gemm_s16_mve_params_t *p, const ta_conv_s16_mve_geom_t *g, const int16_t *in,
                        const g16m_taps_t *t, int32_t oy, int32_t ox, int16_t *dst) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
  if (iy0 >= 0 && ix0 >= 0 && iy0 + g->dil_h * (g->k_h - 1) < g->in_h && ix0 + g->dil_w * (g->k_w - 1) < g->in_w)
    g16m_gather_window(in + (iy0 * g->in_w + ix0) * g->in_c, t->offs, p->depth, dst);
  else if (t->masked)
    g16m_gather_masked(g, in, t, oy, ox, p->stride, dst);
  else
    g16m_gather(g, in, oy, ox, dst);
}
#endif

/* Whether the windows of output pixels (oy, ox) and (oy, ox + 1) lie inside the image. */
static inline int g16m_pair_inside(const ta_conv_s16_mve_geom_t *g, int32_t oy, int32_t ox) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
  return iy0 >= 0 && ix0 >= 0 && iy0 + g->dil_h * (g->k_h - 1) < g->in_h &&
         ix0 + g->stride_w + g->dil_w * (g->k_w - 1) < g->in_w;
}

/* The input pixel of output pixel i (raster order) of a direct 1x1 convolution. */
static const int16_t *g16m_direct_at(const ta_conv_s16_mve_geom_t *g, const int16_t *in, int32_t i) {
  const int32_t oy = i / g->out_w, ox = i - oy * g->out_w;
  return in + (oy * g->stride_h * g->in_w + ox * g->stride_w) * g->in_c;
}

/* A direct 1x1 convolution in the fold form: output pixels in raster order, in pairs
 * (across image rows too: a column of width 1 pairs as well), a last odd one alone. */
static void g16m_conv_direct(const ta_gemm_s16_mve_params_t *p, const ta_conv_s16_mve_geom_t *g,
                             const int16_t *input, const int8_t *weights, int16_t *output) {
  const int32_t n = g->out_h * g->out_w, rows = p->rows, chunks = p->depth >> 3, tail = p->depth & 7;
  for (int32_t b = 0; b < g->batches; b++) {
    const int16_t *in = input + b * g->in_h * g->in_w * g->in_c;
    int32_t i = 0;
    for (; i + 2 <= n; i += 2, output += 2 * rows) {
      const int16_t *x = g16m_direct_at(g, in, i), *y = g16m_direct_at(g, in, i + 1);
      g16m_vector2(p, x, y, 1, chunks, 0, tail, weights, output, output + rows);
      if (p->n_fix) {
        g16m_fix(p, x, 1, chunks, 0, tail, weights, output);
        g16m_fix(p, y, 1, chunks, 0, tail, weights, output + rows);
      }
    }
    if (i < n) {
      const int16_t *x = g16m_direct_at(g, in, i);
      g16m_vector(p, x, weights, output);
      if (p->n_fix) g16m_fix(p, x, 1, chunks, 0, tail, weights, output);
      output += rows;
    }
  }
}

/* Output pixels in pairs where the fold form applies: read in place (1x1 direct, or inside
 * the image with every window row whole chunks: one run per window row), else both
 * gathered into the scratch; a last odd pixel, and every pixel without the fold form,
 * alone. The padding lanes of the two gathered windows (up to the stride, against zero
 * weights) are zeroed once. */
void ta_conv_s16_mve(const ta_gemm_s16_mve_params_t *p, const ta_conv_s16_mve_geom_t *g, const int16_t *input,
                     const int8_t *weights, void *scratch, int16_t *output) {
  const int32_t image = g->in_h * g->in_w * g->in_c, row = g->in_w * g->in_c, seg = g->k_w * g->in_c;
  const int32_t pair_step = g->stride_w * g->in_c, rows = p->rows;
  const int runs = p->bias && g->dil_w == 1 && (seg & 7) == 0;
  int16_t *window = (int16_t *)scratch;
  if (g->direct && p->bias) {
    g16m_conv_direct(p, g, input, weights, output);
    return;
  }
#if defined(G16M_MVE)
  g16m_taps_t taps;
  const int gathers = !runs && !g->direct && g16m_offsets(p, g, &taps);
#endif
  if (!g->direct) {
    memset(window + p->depth, 0, sizeof(int16_t) * (size_t)(p->stride - p->depth));
    memset(window + p->stride + p->depth, 0, sizeof(int16_t) * (size_t)(p->stride - p->depth));
  }
  for (int32_t b = 0; b < g->batches; b++) {
    const int16_t *in = input + b * image;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      for (int32_t ox = 0; ox < g->out_w;) {
        const int16_t *x = in + ((oy * g->stride_h - g->pad_h) * g->in_w + ox * g->stride_w - g->pad_w) * g->in_c;
        if (runs && ox + 1 < g->out_w && g16m_pair_inside(g, oy, ox)) {
          g16m_vector2(p, x, x + pair_step, g->k_h, seg >> 3, g->dil_h * row, 0, weights, output, output + rows);
          if (p->n_fix) {
            g16m_fix(p, x, g->k_h, seg >> 3, g->dil_h * row, 0, weights, output);
            g16m_fix(p, x + pair_step, g->k_h, seg >> 3, g->dil_h * row, 0, weights, output + rows);
          }
        } else if (p->bias && ox + 1 < g->out_w && !g->direct) {
          /* both windows gathered, each padded to the stride (zero weights there) */
#if defined(G16M_MVE)
          if (gathers && g16m_pair_inside(g, oy, ox)) {
            g16m_gather_window(x, taps.offs, p->depth, window);
            g16m_gather_window(x + pair_step, taps.offs, p->depth, window + p->stride);
          } else if (gathers) {
            g16m_window(p, g, in, &taps, oy, ox, window);
            g16m_window(p, g, in, &taps, oy, ox + 1, window + p->stride);
          } else
#endif
          {
            g16m_gather(g, in, oy, ox, window);
            g16m_gather(g, in, oy, ox + 1, window + p->stride);
          }
          g16m_vector2(p, window, window + p->stride, 1, p->stride >> 3, 0, 0, weights, output, output + rows);
          if (p->n_fix) {
            g16m_fix(p, window, 1, p->depth >> 3, 0, p->depth & 7, weights, output);
            g16m_fix(p, window + p->stride, 1, p->depth >> 3, 0, p->depth & 7, weights, output + rows);
          }
        } else {
          if (!g->direct) {
#if defined(G16M_MVE)
            if (gathers) g16m_window(p, g, in, &taps, oy, ox, window);
            else
#endif
              g16m_gather(g, in, oy, ox, window);
            x = window;
          }
          g16m_vector(p, x, weights, output);
          if (p->n_fix) g16m_fix(p, x, 1, p->depth >> 3, 0, p->depth & 7, weights, output);
          ox++, output += rows;
          continue;
        }
        ox += 2, output += 2 * rows;
      }
    }
  }
}
