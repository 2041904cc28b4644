/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 DEPTHWISE_CONV_2D with a depth multiplier > 1 on MVE (see
 * ta_depthwise_conv_mult_mve.h).
 *
 * Exactness: TFLite's accumulator is bias + sum over the taps inside the image of
 * (x - zero_point) * w. Here it is folded_bias + sum over all taps of x' * w, x' the input
 * or, on a padded tap, the zero point: folded_bias = bias - zero_point * sum of all w, so
 * the padded taps cancel and the sums are equal as integers; both wrap alike in int32
 * (VMLADAV and VADD wrap; the C fallback adds in uint32). Requantisation: a wrapping left shift
 * (vshl), VQRDMULH (exactly TFLite's saturating rounding doubling high multiply), and a
 * rounding right shift whose ties go away from zero: VRSHL rounds them up, so a negative
 * value is first lowered by 1 when its shift is not 0 (as ta_depthwise_conv_mve.c does);
 * then the output zero point and the clamp, all on int32 lanes before the narrowing store. */
#include "ta_depthwise_conv_mult_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_DW_MULT_PLAIN_C)
#include <arm_mve.h>

/* Requantises the accumulators a[0..n) (n 1..4) of channels c.. and stores them. */
static inline void dm_store4(const ta_depthwise_conv_mult_mve_params_t *p, const int32_t *a, int32_t c, int32_t n,
                             int8_t *out) {
  const mve_pred16_t keep = vctp32q((uint32_t)n);
  const int32x4_t shift = vldrwq_z_s32(p->quant_shift + c, keep);
  const int32x4_t neg_right = vminq_s32(shift, vdupq_n_s32(0));
  int32x4_t v = vaddq_s32(vldrwq_z_s32(a, keep), vldrwq_z_s32(p->bias + c, keep));
  v = vshlq_s32(v, vmaxq_s32(shift, vdupq_n_s32(0)));
  v = vqrdmulhq_s32(v, vldrwq_z_s32(p->quant_mult + c, keep));
  v = vaddq_s32(v, vshrq_n_s32(vandq_s32(v, neg_right), 31));
  v = vaddq_n_s32(vrshlq_s32(v, neg_right), p->output_zero_point);
  v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
  vstrbq_p_s32(out, v, keep);
}

/* One input channel's window into win (row runs of one input channel copied by vectors). */
static void dm_gather(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *in, int32_t iy0, int32_t ix0,
                      int8_t *win) {
  const int32_t step = p->in_c, row = p->in_w * p->in_c, zp = p->input_zero_point;
  const int inside_x = ix0 >= 0 && ix0 + (p->k_w - 1) * p->dil_w < p->in_w;
  if (p->k_h == 3 && p->k_w == 3 && inside_x && iy0 >= 0 && iy0 + 2 * p->dil_h < p->in_h) { /* 3x3 inside */
    const int8_t *s = in + iy0 * row + ix0 * step;
    const int32_t dx = p->dil_w * step, dy = p->dil_h * row;
    for (int32_t ky = 0; ky < 3; ky++, s += dy, win += 3) {
      win[0] = s[0];
      win[1] = s[dx];
      win[2] = s[2 * dx];
    }
    return;
  }
  if (step == 1 && p->dil_w == 1) { /* one input channel: rows are runs, taps [lo, hi) inside */
    const int32_t kw = p->k_w, lo = ix0 < 0 ? (-ix0 < kw ? -ix0 : kw) : 0;
    const int32_t end = p->in_w - ix0, hi = end < kw ? (end > lo ? end : lo) : kw;
    const int8x16_t z = vdupq_n_s8((int8_t)zp);
    for (int32_t ky = 0; ky < p->k_h; ky++, win += kw) {
      const int32_t iy = iy0 + ky * p->dil_h;
      const int row_in = iy >= 0 && iy < p->in_h;
      if (!row_in || lo > 0 || hi < kw) /* the padding first, then the taps inside over it */
        for (int32_t kx = 0; kx < kw; kx += 16) vstrbq_p_s8(win + kx, z, vctp8q((uint32_t)(kw - kx)));
      if (!row_in) continue;
      const int8_t *src = in + iy * row + ix0;
      for (int32_t kx = lo; kx < hi; kx += 16) {
        const mve_pred16_t m = vctp8q((uint32_t)(hi - kx));
        vstrbq_p_s8(win + kx, vldrbq_z_s8(src + kx, m), m);
      }
    }
    return;
  }
  for (int32_t ky = 0; ky < p->k_h; ky++, win += p->k_w) {
    const int32_t iy = iy0 + ky * p->dil_h;
    const int row_in = iy >= 0 && iy < p->in_h;
    for (int32_t kx = 0; kx < p->k_w; kx++) {
      const int32_t ix = ix0 + kx * p->dil_w;
      win[kx] = (int8_t)(row_in && ix >= 0 && ix < p->in_w ? in[iy * row + ix * step] : zp);
    }
  }
}

/* Dot products of the window with n (1..4) channels' weights (w, taps bytes apart) into
 * a: the window's 16-tap vectors are loaded once for the n channels; the last one is
 * predicated (its lanes past the window read nothing and add 0). */
static inline void dm_dots(const int8_t *win, const int8_t *w, int32_t taps, int32_t n, int32_t *a) {
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, t = 0;
  if (n == 4)
    for (; t + 16 <= taps; t += 16) {
      const int8x16_t x = vldrbq_s8(win + t);
      s0 = vmladavaq_s8(s0, x, vldrbq_s8(w + t));
      s1 = vmladavaq_s8(s1, x, vldrbq_s8(w + taps + t));
      s2 = vmladavaq_s8(s2, x, vldrbq_s8(w + 2 * taps + t));
      s3 = vmladavaq_s8(s3, x, vldrbq_s8(w + 3 * taps + t));
    }
  else
    for (; t + 16 <= taps; t += 16) {
      const int8x16_t x = vldrbq_s8(win + t);
      s0 = vmladavaq_s8(s0, x, vldrbq_s8(w + t));
      if (n > 1) s1 = vmladavaq_s8(s1, x, vldrbq_s8(w + taps + t));
      if (n > 2) s2 = vmladavaq_s8(s2, x, vldrbq_s8(w + 2 * taps + t));
    }
  if (t < taps) {
    const mve_pred16_t m = vctp8q((uint32_t)(taps - t));
    const int8x16_t x = vldrbq_z_s8(win + t, m);
    s0 = vmladavaq_s8(s0, x, vldrbq_z_s8(w + t, m));
    if (n > 1) s1 = vmladavaq_s8(s1, x, vldrbq_z_s8(w + taps + t, m));
    if (n > 2) s2 = vmladavaq_s8(s2, x, vldrbq_z_s8(w + 2 * taps + t, m));
    if (n > 3) s3 = vmladavaq_s8(s3, x, vldrbq_z_s8(w + 3 * taps + t, m));
  }
  a[0] = s0, a[1] = s1, a[2] = s2, a[3] = s3;
}

/* The multiplier's channels of one input channel (from c) on its gathered window. */
static int8_t *dm_channels(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *win, const int8_t *w,
                           int32_t c, int8_t *out) {
  const int32_t taps = p->k_h * p->k_w, dm = p->multiplier;
  int32_t a[4];
  for (int32_t j = 0; j < dm; j += 4, w += 4 * taps) {
    const int32_t n = dm - j < 4 ? dm - j : 4;
    dm_dots(win, w, taps, n, a);
    dm_store4(p, a, c + j, n, out + j);
  }
  return out + dm;
}

#else
static inline int8_t dm_out(const ta_depthwise_conv_mult_mve_params_t *p, int32_t acc, int32_t c) {
  const int32_t v = ta_requantize(acc, p->quant_mult[c], p->quant_shift[c]) + p->output_zero_point;
  return (int8_t)ta_clamp(v, p->act_min, p->act_max);
}

static void dm_gather(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *in, int32_t iy0, int32_t ix0,
                      int8_t *win) {
  const int32_t step = p->in_c, row = p->in_w * p->in_c, zp = p->input_zero_point;
  for (int32_t ky = 0; ky < p->k_h; ky++)
    for (int32_t kx = 0; kx < p->k_w; kx++) {
      const int32_t iy = iy0 + ky * p->dil_h, ix = ix0 + kx * p->dil_w;
      *win++ = (int8_t)(iy >= 0 && iy < p->in_h && ix >= 0 && ix < p->in_w ? in[iy * row + ix * step] : zp);
    }
}

static int8_t *dm_channels(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *win, const int8_t *w,
                           int32_t c, int8_t *out) {
  const int32_t taps = p->k_h * p->k_w;
  for (int32_t j = 0; j < p->multiplier; j++, w += taps) {
    uint32_t acc = (uint32_t)p->bias[c + j];
    for (int32_t t = 0; t < taps; t++) acc += (uint32_t)(win[t] * w[t]);
    *out++ = dm_out(p, (int32_t)acc, c + j);
  }
  return out;
}
#endif

void ta_depthwise_conv_mult_mve_s8(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *input, int8_t *output) {
  const int32_t per_ic = p->multiplier * p->k_h * p->k_w; /* weight bytes of one input channel */
  int8_t win[TA_DW_MULT_MAX_TAPS];
  int8_t *out = output;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + b * p->in_h * p->in_w * p->in_c;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      for (int32_t ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        for (int32_t ic = 0; ic < p->in_c; ic++) {
          dm_gather(p, in_b + ic, iy0, ix0, win);
          out = dm_channels(p, win, p->weights + ic * per_ic, ic * p->multiplier, out);
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
