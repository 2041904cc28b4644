/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 DEPTHWISE_CONV_2D with a depth multiplier > 1 on MVE (see
 * ta_depthwise_conv_mult_mve.h).
 *
 * Exactness: TFLite's accumulator is bias + sum over the taps inside the image of
 * (x - zero_point) * w. Here it is folded_bias + sum over all taps of x' * w, x' the input
 * or, on a padded tap, the zero point: folded_bias = bias - zero_point * sum of all w, so
 * the padded taps cancel and the sums are equal as integers; both wrap alike in int32
 * (vmla wraps; the C fallback adds in uint32). Requantisation: a wrapping left shift
 * (vshl), VQRDMULH (exactly TFLite's saturating rounding doubling high multiply), and a
 * rounding right shift whose ties go away from zero: VRSHL rounds them up, so a negative
 * value is first lowered by 1 when its shift is not 0 (as ta_depthwise_conv_mve.c does);
 * then the output zero point and the clamp, all on int32 lanes before the narrowing store. */
#include "ta_depthwise_conv_mult_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_DW_MULT_PLAIN_C)
#include <arm_mve.h>

/* Requantises 4 channels from c and stores the first n (1..4) of them. */
static inline void dm_store4(const ta_depthwise_conv_mult_mve_params_t *p, int32x4_t acc, int32_t c, int32_t n,
                             int8_t *out) {
  const mve_pred16_t keep = vctp32q((uint32_t)n);
  const int32x4_t shift = vldrwq_z_s32(p->quant_shift + c, keep);
  const int32x4_t neg_right = vminq_s32(shift, vdupq_n_s32(0));
  int32x4_t v = vshlq_s32(acc, vmaxq_s32(shift, vdupq_n_s32(0)));
  v = vqrdmulhq_s32(v, vldrwq_z_s32(p->quant_mult + c, keep));
  v = vaddq_s32(v, vshrq_n_s32(vandq_s32(v, neg_right), 31));
  v = vaddq_n_s32(vrshlq_s32(v, neg_right), p->output_zero_point);
  v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
  vstrbq_p_s32(out, v, keep);
}

/* n (1..8) output channels from c of one input channel ic: weights at w, stride out_c a tap. */
static void dm_channels(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *in, int32_t iy0, int32_t ix0,
                        const int8_t *w, int32_t c, int32_t n, int8_t *out) {
  const mve_pred16_t p0 = vctp32q((uint32_t)n), p1 = vctp32q((uint32_t)(n > 4 ? n - 4 : 0));
  const int32_t step = p->in_c, row = p->in_w * p->in_c, zp = p->input_zero_point;
  int32x4_t a0 = vldrwq_z_s32(p->bias + c, p0), a1 = vldrwq_z_s32(p->bias + c + 4, p1);
  const int inside_x = ix0 >= 0 && ix0 + (p->k_w - 1) * p->dil_w < p->in_w;
  if (inside_x && iy0 >= 0 && iy0 + (p->k_h - 1) * p->dil_h < p->in_h) { /* the window inside the image */
    const int32_t xstep = p->dil_w * step;
    for (int32_t ky = 0; ky < p->k_h; ky++) {
      const int8_t *s = in + (iy0 + ky * p->dil_h) * row + ix0 * step;
      if (n == 8)
        for (int32_t kx = 0; kx < p->k_w; kx++, s += xstep, w += p->out_c) {
          const int32_t x = *s;
          a0 = vmlaq_n_s32(a0, vldrbq_s32(w), x);
          a1 = vmlaq_n_s32(a1, vldrbq_s32(w + 4), x);
        }
      else
        for (int32_t kx = 0; kx < p->k_w; kx++, s += xstep, w += p->out_c) {
          const int32_t x = *s;
          a0 = vmlaq_n_s32(a0, vldrbq_z_s32(w, p0), x);
          a1 = vmlaq_n_s32(a1, vldrbq_z_s32(w + 4, p1), x);
        }
    }
  } else { /* on the border: the window gathered first, a padded tap the zero point */
    int8_t win[TA_DW_MULT_MAX_TAPS];
    int8_t *x = win;
    for (int32_t ky = 0; ky < p->k_h; ky++) {
      const int32_t iy = iy0 + ky * p->dil_h;
      const int row_in = iy >= 0 && iy < p->in_h;
      for (int32_t kx = 0; kx < p->k_w; kx++) {
        const int32_t ix = ix0 + kx * p->dil_w;
        *x++ = (int8_t)(row_in && ix >= 0 && ix < p->in_w ? in[iy * row + ix * step] : zp);
      }
    }
    const int32_t taps = p->k_h * p->k_w;
    for (int32_t t = 0; t < taps; t++, w += p->out_c) {
      a0 = vmlaq_n_s32(a0, vldrbq_z_s32(w, p0), win[t]);
      a1 = vmlaq_n_s32(a1, vldrbq_z_s32(w + 4, p1), win[t]);
    }
  }
  dm_store4(p, a0, c, n < 4 ? n : 4, out);
  if (n > 4) dm_store4(p, a1, c + 4, n - 4, out + 4);
}

#else
static inline int8_t dm_out(const ta_depthwise_conv_mult_mve_params_t *p, int32_t acc, int32_t c) {
  const int32_t v = ta_requantize(acc, p->quant_mult[c], p->quant_shift[c]) + p->output_zero_point;
  return (int8_t)ta_clamp(v, p->act_min, p->act_max);
}

static void dm_channels(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *in, int32_t iy0, int32_t ix0,
                        const int8_t *w, int32_t c, int32_t n, int8_t *out) {
  const int32_t step = p->in_c, row = p->in_w * p->in_c, zp = p->input_zero_point;
  for (int32_t j = 0; j < n; j++) {
    uint32_t acc = (uint32_t)p->bias[c + j];
    for (int32_t ky = 0; ky < p->k_h; ky++)
      for (int32_t kx = 0; kx < p->k_w; kx++) {
        const int32_t iy = iy0 + ky * p->dil_h, ix = ix0 + kx * p->dil_w;
        const int32_t x = iy >= 0 && iy < p->in_h && ix >= 0 && ix < p->in_w ? in[iy * row + ix * step] : zp;
        acc += (uint32_t)(x * w[(ky * p->k_w + kx) * p->out_c + j]);
      }
    out[j] = dm_out(p, (int32_t)acc, c + j);
  }
}
#endif

void ta_depthwise_conv_mult_mve_s8(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *input, int8_t *output) {
  int8_t *out = output;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + b * p->in_h * p->in_w * p->in_c;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      for (int32_t ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        for (int32_t ic = 0; ic < p->in_c; ic++)
          for (int32_t m = 0; m < p->multiplier; m += 8) {
            const int32_t c = ic * p->multiplier + m, n = p->multiplier - m < 8 ? p->multiplier - m : 8;
            dm_channels(p, in_b + ic, iy0, ix0, p->weights + c, c, n, out);
            out += n;
          }
      }
    }
  }
}

void ta_depthwise_conv_mult_mve_s8_inplace(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *input,
                                           int8_t *temp, int8_t *output, int32_t bytes) {
  ta_depthwise_conv_mult_mve_s8(p, input, temp);
  ta_move_output(output, temp, bytes);
}
