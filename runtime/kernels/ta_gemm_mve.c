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

/* Dot products of x with the four weight rows of one block plus their biases, 16
 * products per vector instruction; *w moves to the next block. The block interleaves
 * its rows per 16 values and is zero padded, so only the input's last chunk is loaded
 * under a predicate. */
#if defined(__GNUC__) && !defined(__clang__)
/* GCC: the loop as a fixed sequence (10 instructions per 64 products, post-increment
 * loads, a low-overhead loop), the accumulators in even registers as VMLADAVA requires
 * ("Te"); GCC alone spills the input pointer and forms no post-increments. */
static GEMM_INLINE int32x4_t gemm_dot4(const gemm_ctx_t *c, const int8_t *x, const int8_t **wp, const int32_t *bias) {
  const int8_t *w = *wp;
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
  int8x16_t xv, wv;
  int32x4_t v;
  __asm__("wls lr, %[n], 2f\n"
          "1:\n\t"
          "vldrb.8 %q[xv], [%[x]], #16\n\t"
          "vldrb.8 %q[wv], [%[w]], #16\n\t"
          "vmladava.s8 %[a0], %q[xv], %q[wv]\n\t"
          "vldrb.8 %q[wv], [%[w]], #16\n\t"
          "vmladava.s8 %[a1], %q[xv], %q[wv]\n\t"
          "vldrb.8 %q[wv], [%[w]], #16\n\t"
          "vmladava.s8 %[a2], %q[xv], %q[wv]\n\t"
          "vldrb.8 %q[wv], [%[w]], #16\n\t"
          "vmladava.s8 %[a3], %q[xv], %q[wv]\n\t"
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
            "vldrb.8 %q[wv], [%[w]], #16\n\t"
            "vmladava.s8 %[a0], %q[xv], %q[wv]\n\t"
            "vldrb.8 %q[wv], [%[w]], #16\n\t"
            "vmladava.s8 %[a1], %q[xv], %q[wv]\n\t"
            "vldrb.8 %q[wv], [%[w]], #16\n\t"
            "vmladava.s8 %[a2], %q[xv], %q[wv]\n\t"
            "vldrb.8 %q[wv], [%[w]], #16\n\t"
            "vmladava.s8 %[a3], %q[xv], %q[wv]"
            : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [w] "+r"(w), [xv] "=&w"(xv),
              [wv] "=&w"(wv)
            : [n] "r"(c->tail_n), [x] "r"(x)
            : "p0");
  }
  *wp = w;
  v = vdupq_n_s32(a0);
  v = vsetq_lane_s32(a1, v, 1);
  v = vsetq_lane_s32(a2, v, 2);
  v = vsetq_lane_s32(a3, v, 3);
  return v;
}
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
  int32x4_t v = vdupq_n_s32(a0);
  v = vsetq_lane_s32(a1, v, 1);
  v = vsetq_lane_s32(a2, v, 2);
  return vsetq_lane_s32(a3, v, 3);
}
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
                                    const int left, const int fix) {
  const gemm_ctx_t local = *cp; /* in registers: the stores below cannot change it */
  const gemm_ctx_t *c = &local;
  const int32_t *q = c->quant;
  int8_t *const end = out + (c->rows & ~3);
  for (; out < end; out += 4, q += 12) {
    const int32x4_t acc = gemm_dot4(c, x, &w, q);
    vstrbq_s32(out, gemm_requant4(c, q + 4, acc, left, fix));
  }
  if (c->rows & 3) { /* the padded rows' bias reads as 0 */
    const int32x4_t acc = gemm_dot4(c, x, &w, q);
    vstrbq_p_s32(out, gemm_requant4(c, q + 4, acc, left, fix), vctp32q((uint32_t)(c->rows & 3)));
  }
}

#if defined(__GNUC__)
#define GEMM_NOINLINE __attribute__((noinline))
#else
#define GEMM_NOINLINE
#endif
#define GEMM_VECTOR_DEF(l, f)                                                                                  \
  static GEMM_NOINLINE void gemm_vector_##l##f(const gemm_ctx_t *c, const int8_t *x, const int8_t *w, int8_t *out) { \
    gemm_vector(c, x, w, out, l, f);                                                                           \
  }
GEMM_VECTOR_DEF(0, 0)
GEMM_VECTOR_DEF(0, 1)
GEMM_VECTOR_DEF(1, 0)
GEMM_VECTOR_DEF(1, 1)

/* The entry points dispatch once per call to a loop specialised for the layer's
 * requantisation mode. */
#define GEMM_MODES(call)                            \
  do {                                             \
    if (p->left_shift) {                           \
      if (p->negative_fix) call(1, 1); else call(1, 0); \
    } else {                                       \
      if (p->negative_fix) call(0, 1); else call(0, 0); \
    }                                              \
  } while (0)

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
  GEMM_MODES(GEMM_BATCH_MODE);
}

/* Copies n bytes (n >= 0), 16 at a time under a tail predicate. */
static GEMM_INLINE void gemm_copy(int8_t *dst, const int8_t *src, int32_t n) {
  for (; n > 0; n -= 16, dst += 16, src += 16) {
    const mve_pred16_t pred = vctp8q((uint32_t)n);
    vstrbq_p_s8(dst, vldrbq_z_s8(src, pred), pred);
  }
}

static GEMM_INLINE void gemm_fill(int8_t *dst, int8x16_t value, int32_t n) {
  for (; n > 0; n -= 16, dst += 16) vstrbq_p_s8(dst, value, vctp8q((uint32_t)n));
}

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

#define GEMM_CONV_MODE(l, f) gemm_conv_##l##f(&c, g, input, weights, scratch, output)
#define GEMM_CONV_DEF(l, f)                                                                                     \
  static void gemm_conv_##l##f(const gemm_ctx_t *c, const ta_im2col_geom_t *g, const int8_t *input,            \
                               const int8_t *w, int8_t *scratch, int8_t *out) {                                \
    const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;                                  \
    const size_t step_x = (size_t)g->stride_w * (size_t)g->in_c;                                               \
    for (int32_t b = 0; b < g->batches; b++, input += image)                                                   \
      for (int32_t oy = 0; oy < g->out_h; oy++) {                                                              \
        if (g->direct) {                                                                                       \
          const int8_t *x = input + (size_t)oy * (size_t)g->stride_h * (size_t)g->in_w * (size_t)g->in_c;      \
          for (int32_t ox = 0; ox < g->out_w; ox++, x += step_x, out += c->rows) gemm_vector_##l##f(c, x, w, out); \
        } else {                                                                                               \
          for (int32_t ox = 0; ox < g->out_w; ox++, out += c->rows)                                            \
            gemm_vector_##l##f(c, gemm_gather(g, input, oy, ox, scratch), w, out);                             \
        }                                                                                                      \
      }                                                                                                        \
  }
GEMM_CONV_DEF(0, 0)
GEMM_CONV_DEF(0, 1)
GEMM_CONV_DEF(1, 0)
GEMM_CONV_DEF(1, 1)

void ta_conv_s8_mve(const ta_gemm_mve_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                    const int8_t *weights, int8_t *scratch, int8_t *output) {
  gemm_ctx_t c;
  gemm_ctx_init(p, &c);
  GEMM_MODES(GEMM_CONV_MODE);
}

#else
typedef int ta_gemm_mve_unused_t; /* ISO C forbids an empty translation unit */
#endif
