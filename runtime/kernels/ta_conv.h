/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: CONV_2D kernels (NHWC activations, OHWI filters), portable C99.
 *
 * Arithmetic follows TFLite Micro's reference kernels bit for bit. The int8 kernel
 * takes a bias with the input zero point already folded in by the compiler:
 *   folded_bias[oc] = bias[oc] - input_zero_point * sum(filter[oc])
 * so the inner loops multiply raw int8 values; taps that fall in the padding are
 * given back their share (they read as the zero point, i.e. contribute nothing). */
#ifndef TA_CONV_H
#define TA_CONV_H
#include "ta_common.h"

/* Shapes and window of one convolution. pad_h/pad_w are the top/left padding. */
typedef struct ta_conv_geom_t {
  int32_t batches;
  int32_t in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t k_h, k_w;
  int32_t filter_c;  /* filter depth = in_c / groups */
  int32_t groups;    /* grouped convolution: out_c and in_c split in `groups` parts */
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_h, pad_w;
} ta_conv_geom_t;

/* int8 activations, int8 per-channel filters, folded int32 bias. */
typedef struct ta_conv_s8_params_t {
  ta_conv_geom_t g;
  int32_t input_zero_point;  /* what a padded tap reads (already folded in the bias) */
  int32_t output_zero_point;
  int32_t act_min, act_max;
  const int32_t *multiplier; /* per output channel */
  const int32_t *shift;      /* per output channel, > 0 shifts left */
} ta_conv_s8_params_t;

/* int16 activations (zero points 0), int8 per-channel filters. */
typedef struct ta_conv_s16_params_t {
  ta_conv_geom_t g;
  int32_t act_min, act_max;
  const int32_t *multiplier;
  const int32_t *shift;
} ta_conv_s16_params_t;

typedef struct ta_conv_f32_params_t {
  ta_conv_geom_t g;
  float act_min, act_max;
} ta_conv_f32_params_t;

void ta_conv_s8(const ta_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                const int32_t *folded_bias, int8_t *output);
/* In place (issue 17): writes the output at `temp` (over the dying input, where the
 * operator's in-place contract allows), then moves its `bytes` to `output`. */
void ta_conv_s8_inplace(const ta_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                        const int32_t *folded_bias, int8_t *temp, int8_t *output, int32_t bytes);
/* 16x8 with an int64 bias (may be NULL): 64-bit accumulator. */
void ta_conv_s16(const ta_conv_s16_params_t *p, const int16_t *input, const int8_t *filter,
                 const int64_t *bias, int16_t *output);
/* 16x8 with an int32 bias or none (NULL): 32-bit accumulator, as TFLite Micro does. */
void ta_conv_s16_acc32(const ta_conv_s16_params_t *p, const int16_t *input, const int8_t *filter,
                       const int32_t *bias, int16_t *output);
/* float32; bias may be NULL. */
void ta_conv_f32(const ta_conv_f32_params_t *p, const float *input, const float *filter,
                 const float *bias, float *output);

#endif
