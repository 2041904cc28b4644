/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 DEPTHWISE_CONV_2D with a depth multiplier > 1 on the DSP extension
 * (see ta_depthwise_conv_mult_dsp.h).
 *
 * Exactness: TFLite's accumulator is bias + sum over the taps inside the image of
 * (x - zero_point) * w. Here it is folded_bias + sum over all taps of x' * w, x' the input
 * or, on a padded tap, the zero point: folded_bias = bias - zero_point * sum of all w, so
 * the padded taps cancel and the two sums are equal as integers. Both wrap alike in int32
 * (SMLAD's sum wraps; the C fallback adds in uint32), and the zero weights of a group's
 * padding add 0. The products are of int8 values (|x * w| <= 2^14), so SMLAD's 16-bit
 * operands hold them exactly. The requantisation is ta_requantize's arithmetic (dm_requantize). */
#include "ta_depthwise_conv_mult_dsp.h"

#include <string.h>

#if defined(__ARM_FEATURE_DSP) && !defined(TA_DW_MULT_PLAIN_C)
#include <arm_acle.h>
/* taps 0 and 2, 1 and 3 of a word of int8 as int16 pairs */
static inline int32_t dm_even(int32_t w) { return (int32_t)__sxtb16(w); }
static inline int32_t dm_odd(int32_t w) { /* one SXTB16 with its rotation (GCC does not fold __ror into it) */
  int32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(w));
  return r;
}
static inline int32_t dm_mac(int32_t a, int32_t b, int32_t acc) { return __smlad(a, b, acc); }
#else
static inline int32_t dm_pair(int32_t lo, int32_t hi) {
  return (int32_t)((uint32_t)(uint16_t)(int16_t)lo | (uint32_t)(uint16_t)(int16_t)hi << 16);
}
static inline int32_t dm_even(int32_t w) { return dm_pair((int8_t)(w & 0xff), (int8_t)((w >> 16) & 0xff)); }
static inline int32_t dm_odd(int32_t w) { return dm_pair((int8_t)((w >> 8) & 0xff), (int8_t)((uint32_t)w >> 24)); }
static inline int32_t dm_mac(int32_t a, int32_t b, int32_t acc) {
  const int32_t lo = (int16_t)(a & 0xffff) * (int16_t)(b & 0xffff);
  const int32_t hi = (int16_t)((uint32_t)a >> 16) * (int16_t)((uint32_t)b >> 16);
  return (int32_t)((uint32_t)acc + (uint32_t)lo + (uint32_t)hi);
}
#endif

/* One word of int8 (the weights' blocks are word aligned, the window is a word array). */
static inline int32_t dm_word(const int8_t *p) {
  int32_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

/* ta_requantize with its doubling high multiply as one rounded 64-bit shift:
 * floor((a * m + 2^30) / 2^31) equals TFLite's (a * m + nudge) / 2^31 (truncated, nudge
 * 1 - 2^30 when a * m < 0) for every product, and saturation needs a == m == INT32_MIN,
 * which the compiler excludes (no multiplier is INT32_MIN). */
static inline int32_t dm_requantize(int32_t acc, int32_t mult, int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const int32_t a = (int32_t)((uint32_t)acc << left);
  const int32_t high = (int32_t)(((int64_t)a * mult + ((int64_t)1 << 30)) >> 31);
  const int32_t mask = (int32_t)((1u << right) - 1u);
  return (high >> right) + ((high & mask) > (mask >> 1) + (high < 0) ? 1 : 0);
}

static inline int8_t dm_out(const ta_depthwise_conv_mult_dsp_params_t *p, int32_t acc, int32_t c) {
  const int32_t v = dm_requantize(acc, p->quant_mult[c], p->quant_shift[c]) + p->output_zero_point;
  return (int8_t)ta_clamp(v, p->act_min, p->act_max);
}

/* The window of input channel ic at (iy0, ix0) as int8 taps, a padded tap the zero point. */
static void dm_gather(const ta_depthwise_conv_mult_dsp_params_t *p, const int8_t *in, int32_t iy0, int32_t ix0,
                      int8_t *win) {
  const int8_t zp = (int8_t)p->input_zero_point;
  const int32_t step = p->in_c, row = p->in_w * p->in_c;
  const int inside_x = ix0 >= 0 && ix0 + (p->k_w - 1) * p->dil_w < p->in_w;
  for (int32_t ky = 0; ky < p->k_h; ky++, win += p->k_w) {
    const int32_t iy = iy0 + ky * p->dil_h;
    if (iy < 0 || iy >= p->in_h) {
      memset(win, zp, (size_t)p->k_w);
      continue;
    }
    const int8_t *src = in + iy * row + ix0 * step;
    if (inside_x && step == 1 && p->dil_w == 1) { /* one input channel: a run of bytes */
      int32_t kx = 0;
      for (; kx + 4 <= p->k_w; kx += 4) memcpy(win + kx, src + kx, 4);
      for (; kx < p->k_w; kx++) win[kx] = src[kx];
    } else if (inside_x) {
      for (int32_t kx = 0; kx < p->k_w; kx++) win[kx] = src[kx * p->dil_w * step];
    } else {
      for (int32_t kx = 0; kx < p->k_w; kx++) {
        const int32_t ix = ix0 + kx * p->dil_w;
        win[kx] = ix >= 0 && ix < p->in_w ? src[kx * p->dil_w * step] : zp;
      }
    }
  }
}

/* The output channels of one input channel from its unpacked window `pairs`. */
static int8_t *dm_channels(const ta_depthwise_conv_mult_dsp_params_t *p, const int32_t *pairs, int32_t groups,
                           const int8_t *w, int32_t c, int8_t *out) {
  const int32_t blocks = p->multiplier / TA_DW_MULT_CH_BLOCK, rest = p->multiplier % TA_DW_MULT_CH_BLOCK;
  for (int32_t b = 0; b < blocks; b++, c += 4) {
    int32_t a0 = p->bias[c], a1 = p->bias[c + 1], a2 = p->bias[c + 2], a3 = p->bias[c + 3];
    const int32_t *x = pairs;
    for (int32_t g = 0; g < groups; g++, x += 2, w += 16) {
      const int32_t xe = x[0], xo = x[1];
      int32_t v = dm_word(w);
      a0 = dm_mac(dm_even(v), xe, a0);
      a0 = dm_mac(dm_odd(v), xo, a0);
      v = dm_word(w + 4);
      a1 = dm_mac(dm_even(v), xe, a1);
      a1 = dm_mac(dm_odd(v), xo, a1);
      v = dm_word(w + 8);
      a2 = dm_mac(dm_even(v), xe, a2);
      a2 = dm_mac(dm_odd(v), xo, a2);
      v = dm_word(w + 12);
      a3 = dm_mac(dm_even(v), xe, a3);
      a3 = dm_mac(dm_odd(v), xo, a3);
    }
    out[0] = dm_out(p, a0, c);
    out[1] = dm_out(p, a1, c + 1);
    out[2] = dm_out(p, a2, c + 2);
    out[3] = dm_out(p, a3, c + 3);
    out += 4;
  }
  for (int32_t r = 0; r < rest; r++, c++) {
    int32_t a = p->bias[c];
    const int32_t *x = pairs;
    for (int32_t g = 0; g < groups; g++, x += 2, w += 4) {
      const int32_t v = dm_word(w);
      a = dm_mac(dm_even(v), x[0], a);
      a = dm_mac(dm_odd(v), x[1], a);
    }
    *out++ = dm_out(p, a, c);
  }
  return out;
}

void ta_depthwise_conv_mult_dsp_s8(const ta_depthwise_conv_mult_dsp_params_t *p, const int8_t *input, int8_t *output) {
  const int32_t taps = p->k_h * p->k_w, groups = (taps + TA_DW_MULT_TAP_GROUP - 1) / TA_DW_MULT_TAP_GROUP;
  const int32_t per_ic = p->multiplier * groups * TA_DW_MULT_TAP_GROUP; /* weight bytes of one input channel */
  int32_t win_words[TA_DW_MULT_MAX_TAPS / 4];
  int32_t pairs[TA_DW_MULT_MAX_TAPS / 2];
  int8_t *win = (int8_t *)win_words;
  memset(win_words, 0, sizeof win_words); /* the taps past the window stay 0 */
  int8_t *out = output;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + b * p->in_h * p->in_w * p->in_c;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      for (int32_t ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        for (int32_t ic = 0; ic < p->in_c; ic++) {
          dm_gather(p, in_b + ic, iy0, ix0, win);
          for (int32_t g = 0; g < groups; g++) {
            const int32_t v = win_words[g];
            pairs[2 * g] = dm_even(v);
            pairs[2 * g + 1] = dm_odd(v);
          }
          out = dm_channels(p, pairs, groups, p->weights + ic * per_ic, ic * p->multiplier, out);
        }
      }
    }
  }
}

void ta_depthwise_conv_mult_dsp_s8_inplace(const ta_depthwise_conv_mult_dsp_params_t *p, const int8_t *input,
                                           int8_t *temp, int8_t *output, int32_t bytes) {
  ta_depthwise_conv_mult_dsp_s8(p, input, temp);
  ta_move_output(output, temp, bytes);
}
