/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: TRANSPOSE_CONV kernels (NHWC activations, OHWI filters), portable C99.
 *
 * Computed as a gather: each output element sums the input pixels whose scattered
 * filter window covers it, which needs no scratch accumulator. Integer sums are the
 * same as TFLite Micro's scatter order, so results match its reference bit for bit. */
#ifndef TA_TRANSPOSE_CONV_H
#define TA_TRANSPOSE_CONV_H
#include "ta_common.h"

/* Input pixel (iy, ix) feeds output (iy * stride_h - pad_h + ky, ix * stride_w - pad_w + kx). */
typedef struct ta_transpose_conv_geom_t {
  int32_t batches;
  int32_t in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t k_h, k_w;
  int32_t stride_h, stride_w;
  int32_t pad_h, pad_w;
} ta_transpose_conv_geom_t;

typedef struct ta_transpose_conv_s8_params_t {
  ta_transpose_conv_geom_t g;
  int32_t input_offset; /* -input zero point */
  int32_t output_zero_point;
  int32_t act_min, act_max;
  const int32_t *multiplier; /* per output channel */
  const int32_t *shift;      /* per output channel, > 0 shifts left */
} ta_transpose_conv_s8_params_t;

/* int16 activations (zero points 0), int8 filters, 64-bit accumulator. */
typedef struct ta_transpose_conv_s16_params_t {
  ta_transpose_conv_geom_t g;
  int32_t act_min, act_max;
  const int32_t *multiplier;
  const int32_t *shift;
} ta_transpose_conv_s16_params_t;

/* float32 throughout; the fused activation is a clamp. */
typedef struct ta_transpose_conv_f32_params_t {
  ta_transpose_conv_geom_t g;
  float act_min, act_max;
} ta_transpose_conv_f32_params_t;

/* bias (int32) may be NULL */
void ta_transpose_conv_s8(const ta_transpose_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                          const int32_t *bias, int8_t *output);
/* bias (int64) may be NULL */
void ta_transpose_conv_s16(const ta_transpose_conv_s16_params_t *p, const int16_t *input, const int8_t *filter,
                           const int64_t *bias, int16_t *output);
/* bias (float32) may be NULL. Each output sums its contributions in the reference's
 * scatter order (input row, column, channel ascending), so float results are equal. */
void ta_transpose_conv_f32(const ta_transpose_conv_f32_params_t *p, const float *input, const float *filter,
                           const float *bias, float *output);

#endif
