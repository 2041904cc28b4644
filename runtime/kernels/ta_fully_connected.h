/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: FULLY_CONNECTED kernels (int8, int16x8, float32).
 *
 * Weights are row-major [out_depth][accum_depth]; the input is read as
 * [batches][accum_depth] and the output written as [batches][out_depth].
 * The arithmetic is TFLite Micro's reference kernel, bit for bit. */
#ifndef TA_FULLY_CONNECTED_H
#define TA_FULLY_CONNECTED_H
#include "ta_common.h"

/* Quantized descriptor. Per-channel requantisation uses `multipliers`/`shifts`
 * (one per output channel); when they are NULL the scalar pair applies to all. */
typedef struct ta_fc_params_t {
  int32_t batches;
  int32_t out_depth;
  int32_t accum_depth;
  int32_t input_offset;  /* -input zero point, or 0 when folded into the bias */
  int32_t output_offset; /* output zero point */
  int32_t act_min, act_max;
  int32_t multiplier, shift;
  const int32_t *multipliers;
  const int32_t *shifts;
} ta_fc_params_t;

typedef struct ta_fc_f32_params_t {
  int32_t batches;
  int32_t out_depth;
  int32_t accum_depth;
  float act_min, act_max;
} ta_fc_f32_params_t;

/* int8 input/weights, int32 bias (may be NULL), int32 accumulator, int8 output. */
void ta_fully_connected_s8(const ta_fc_params_t *p, const int8_t *input, const int8_t *weights,
                           const int32_t *bias, int8_t *output);
/* int16 input, int8 weights, int64 bias (may be NULL), int64 accumulator. */
void ta_fully_connected_s16(const ta_fc_params_t *p, const int16_t *input, const int8_t *weights,
                            const int64_t *bias, int16_t *output);
/* int16 input, int8 weights, int32 bias: TFLM accumulates these in int32. */
void ta_fully_connected_s16_acc32(const ta_fc_params_t *p, const int16_t *input, const int8_t *weights,
                                  const int32_t *bias, int16_t *output);
/* float32 throughout; bias may be NULL. */
void ta_fully_connected_f32(const ta_fc_f32_params_t *p, const float *input, const float *weights,
                            const float *bias, float *output);

#endif
