/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: DEPTHWISE_CONV_2D kernels (NHWC activations, [1,kh,kw,out_c] filters), portable C99.
 *
 * Output channel oc = ic * depth_multiplier + m reads input channel ic. Arithmetic follows
 * TFLite Micro's reference kernels bit for bit. The int8 kernel takes a bias with the input
 * zero point folded in by the compiler:
 *   folded_bias[oc] = bias[oc] - input_zero_point * sum over taps of filter[tap][oc]
 * and gives padded taps back their share (they contribute nothing in TFLite). */
#ifndef TA_DEPTHWISE_CONV_H
#define TA_DEPTHWISE_CONV_H
#include "ta_common.h"

/* Shapes and window of one depthwise convolution. pad_h/pad_w are the top/left padding. */
typedef struct ta_depthwise_geom_t {
  int32_t batches;
  int32_t in_h, in_w, in_c;
  int32_t out_h, out_w, out_c; /* out_c = in_c * depth_multiplier */
  int32_t depth_multiplier;
  int32_t k_h, k_w;
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_h, pad_w;
} ta_depthwise_geom_t;

typedef struct ta_depthwise_conv_s8_params_t {
  ta_depthwise_geom_t g;
  int32_t input_zero_point;  /* what a padded tap reads (already folded in the bias) */
  int32_t output_zero_point;
  int32_t act_min, act_max;
  const int32_t *multiplier; /* per output channel */
  const int32_t *shift;      /* per output channel, > 0 shifts left */
} ta_depthwise_conv_s8_params_t;

/* int16 activations (zero points 0), int8 filters, int64 bias, 64-bit accumulator. */
typedef struct ta_depthwise_conv_s16_params_t {
  ta_depthwise_geom_t g;
  int32_t act_min, act_max;
  const int32_t *multiplier;
  const int32_t *shift;
} ta_depthwise_conv_s16_params_t;

typedef struct ta_depthwise_conv_f32_params_t {
  ta_depthwise_geom_t g;
  float act_min, act_max;
} ta_depthwise_conv_f32_params_t;

void ta_depthwise_conv_s8(const ta_depthwise_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                          const int32_t *folded_bias, int8_t *output);
/* In place (issue 17): writes the output at `temp` (over the dying input, where the
 * operator's in-place contract allows), then moves its `bytes` to `output`. */
void ta_depthwise_conv_s8_inplace(const ta_depthwise_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                                  const int32_t *folded_bias, int8_t *temp, int8_t *output, int32_t bytes);
/* bias may be NULL */
void ta_depthwise_conv_s16(const ta_depthwise_conv_s16_params_t *p, const int16_t *input, const int8_t *filter,
                           const int64_t *bias, int16_t *output);
/* bias may be NULL */
void ta_depthwise_conv_f32(const ta_depthwise_conv_f32_params_t *p, const float *input, const float *filter,
                           const float *bias, float *output);

#endif
