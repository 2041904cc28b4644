/* tinyaot runtime: int8 matrix-vector kernels with MVE (Helium) intrinsics. */
#include "ta_gemm_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* Dot products of x with the four weight rows of one block, 16 products per vector
 * instruction. The block interleaves the rows per 16 values and is zero padded, so
 * only the input's last chunk needs predication (lanes past `depth` load zero). */
static inline void gemm_dot4(const int8_t *x, const int8_t *w, int32_t depth, const int32_t *bias, int32_t acc[4]) {
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
  int32_t k = depth;
  for (; k >= 16; k -= 16, x += 16, w += 64) {
    const int8x16_t xv = vldrbq_s8(x);
    a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w));
    a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w + 16));
    a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w + 32));
    a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w + 48));
  }
  if (k > 0) {
    const int8x16_t xv = vldrbq_z_s8(x, vctp8q((uint32_t)k));
    a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w));
    a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w + 16));
    a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w + 32));
    a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w + 48));
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

/* TFLite's requantisation of four accumulators (rows c..c+3):
 *   SaturatingRoundingDoublingHighMul(acc << left, mult) equals VQRDMULH exactly
 *   (both round (2ab + 2^31) / 2^32 towards minus infinity, ab >= 0 or not, and
 *   saturate only INT32_MIN * INT32_MIN);
 *   RoundingDivideByPOT rounds ties away from zero where VRSHL rounds them up, so
 *   negative values are first lowered by one (saturating: INT32_MIN gives the same
 *   quotient) when the right shift is not zero. */
static inline int32x4_t gemm_requant4(const ta_gemm_mve_params_t *p, int32_t c, int32x4_t acc) {
  const int32_t i = p->per_channel ? c : 0;
  const int32x4_t shift = vldrwq_s32(p->shift + i);
  const int32x4_t zero = vdupq_n_s32(0);
  const int32x4_t right = vminq_s32(shift, zero); /* VRSHL by a negative count shifts right */
  int32x4_t v = vshlq_s32(acc, vmaxq_s32(shift, zero));
  v = vqrdmulhq_s32(v, vldrwq_s32(p->mult + i));
  const int32x4_t fixup = vshrq_n_s32(vandq_s32(v, right), 31);
  v = vrshlq_s32(vqaddq_s32(v, fixup), right);
  v = vaddq_n_s32(v, p->output_offset);
  v = vmaxq_s32(v, vdupq_n_s32(p->act_min));
  return vminq_s32(v, vdupq_n_s32(p->act_max));
}

static void gemm_vector(const ta_gemm_mve_params_t *p, const int8_t *x, const int8_t *weights, int8_t *out) {
  const size_t block = (size_t)4 * (size_t)((p->depth + 15) & ~15);
  int32_t acc[4];
  int32_t c = 0;
  for (; c + 4 <= p->rows; c += 4, weights += block) {
    gemm_dot4(x, weights, p->depth, p->bias + c, acc);
    vstrbq_s32(out + c, gemm_requant4(p, c, vldrwq_s32(acc)));
  }
  if (c < p->rows) { /* the padded rows' bias reads as 0 */
    gemm_dot4(x, weights, p->depth, p->bias + c, acc);
    vstrbq_p_s32(out + c, gemm_requant4(p, c, vldrwq_s32(acc)), vctp32q((uint32_t)(p->rows - c)));
  }
}

void ta_gemm_s8_mve(const ta_gemm_mve_params_t *p, int32_t count, const int8_t *input, const int8_t *weights,
                    int8_t *output) {
  for (int32_t i = 0; i < count; i++)
    gemm_vector(p, input + (size_t)i * (size_t)p->depth, weights, output + (size_t)i * (size_t)p->rows);
}

void ta_conv_s8_mve(const ta_gemm_mve_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                    const int8_t *weights, int8_t *scratch, int8_t *output) {
  const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++)
    for (int32_t oy = 0; oy < g->out_h; oy++)
      for (int32_t ox = 0; ox < g->out_w; ox++, out += p->rows)
        gemm_vector(p, ta_im2col_s8(g, input + (size_t)b * image, oy, ox, scratch), weights, out);
}

#else
typedef int ta_gemm_mve_unused_t; /* ISO C forbids an empty translation unit */
#endif
