/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 DEPTHWISE_CONV_2D with a depth multiplier > 1, for Cortex-M cores
 * with MVE (Helium).
 *
 * Vectors run over the taps: per output pixel and input channel the window is gathered
 * once into int8 (a tap that reads padding takes the input zero point, so one bias per
 * channel serves every pixel: the portable kernel's folded bias; a row of one input
 * channel inside the image is one predicated vector copy), then each of its output
 * channels is one VMLADAV per 16 taps against its int8 weights, reordered channel-major
 * [out_c][k_h * k_w] (the filter's bytes, no padding: the last vector is predicated).
 * The requantisation, 4 channels at a time, is the vector form of
 * TFLite's MultiplyByQuantizedMultiplier the depth-multiplier-1 tier uses. Without
 * __ARM_FEATURE_MVE the same arithmetic runs in plain C. */
#ifndef TA_DEPTHWISE_CONV_MULT_MVE_H
#define TA_DEPTHWISE_CONV_MULT_MVE_H
#include "ta_common.h"
#include "ta_depthwise_conv_mult_contract.h"

typedef struct ta_depthwise_conv_mult_mve_params_t {
  int32_t batches;
  int32_t in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t multiplier;        /* out_c / in_c */
  int32_t k_h, k_w;
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_h, pad_w;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t act_min, act_max;
  const int8_t *weights;     /* [out_c][k_h * k_w] */
  const int32_t *bias;       /* [out_c], input zero point folded in */
  const int32_t *quant_mult; /* [out_c] */
  const int32_t *quant_shift;/* [out_c], > 0 shifts left */
} ta_depthwise_conv_mult_mve_params_t;

void ta_depthwise_conv_mult_mve_s8(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *input, int8_t *output);
/* In place: writes the output at `temp` (over the dying input, pixel by pixel as the
 * portable kernel does), then moves its `bytes` to `output`. */
void ta_depthwise_conv_mult_mve_s8_inplace(const ta_depthwise_conv_mult_mve_params_t *p, const int8_t *input,
                                           int8_t *temp, int8_t *output, int32_t bytes);

#endif
