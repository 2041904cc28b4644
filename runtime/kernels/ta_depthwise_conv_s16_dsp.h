/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 DEPTHWISE_CONV_2D (depth multiplier 1) for Cortex-M4/M7/M33
 * (DSP extension).
 *
 * NHWC int16 input with an even channel count: one word of the input holds channels
 * c, c+1 of one pixel, and one word of the weights the same two channels of one tap (the
 * compiler widens the int8 filter to int16 pairs), so SMLABB and SMLATT add both
 * channels' products without any unpacking. Taps outside the image are skipped (the
 * int16 zero point is 0). Sums are int32 (the compiler proved 2^15 * sum over taps of |w|
 * fits); requantisation and its exactness are those of ta_gemm_s16_dsp.h. */
#ifndef TA_DEPTHWISE_CONV_S16_DSP_H
#define TA_DEPTHWISE_CONV_S16_DSP_H
#include "ta_common.h"
#include "ta_gemm_s16_dsp.h"

typedef struct ta_depthwise_s16_dsp_params_t {
  int32_t batches, in_h, in_w, channels, out_h, out_w;
  int32_t k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
  ta_s16_dsp_requant_t q;
} ta_depthwise_s16_dsp_params_t;

/* weights: per group of 4 channels c, [k_h * k_w] taps of two words (w[c] | w[c+1] << 16,
 * w[c+2] | w[c+3] << 16), then for a last pair of channels (channels % 4 == 2) one word
 * per tap. The input should be word aligned (else a slower general loop runs). */
void ta_depthwise_conv_s16_dsp(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input, const int32_t *weights,
                               int16_t *output);

#endif
