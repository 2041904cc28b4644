/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: SVDF (rank-decomposed time-delay layer) with a persistent state.
 *
 * Every call shifts each state row one slot to the left, writes the newest feature
 * projection into the last slot, then reduces state x time weights per unit.
 * Layouts: input [batches][input_size], weights_feature [filters][input_size],
 * weights_time [filters][memory], state [batches][filters][memory], output
 * [batches][units] with filters = units * rank. No scratch buffer. C99. */
#ifndef TA_SVDF_H
#define TA_SVDF_H
#include "ta_common.h"

/* int8 input/output, int16 time weights and state (TFLM's integer SVDF). */
typedef struct {
  int32_t batches, input_size, filters, memory, units, rank;
  const int32_t *feature_offset; /* [filters]: -input_zp * sum(weights_feature row) */
  const int32_t *unit_bias;      /* [units]: bias - state_zp * sum(time weights of the unit) */
  int32_t feature_multiplier, feature_shift; /* input*feature scale -> state scale */
  int32_t output_multiplier, output_shift;   /* state*time scale -> output scale */
  int32_t state_zero_point, output_zero_point;
} ta_svdf_s8_params_t;

void ta_svdf_s8(const ta_svdf_s8_params_t *p, const int8_t *input, const int8_t *weights_feature,
                const int16_t *weights_time, int16_t *state, int8_t *output);

/* int8 time weights and int8 state (TFLM's EvalInt8SvdfReference), same parameters:
 * the newest state slot is requantised, saturated to int8, then offset by the state
 * zero point with int8 wrap-around, as the TFLite Micro reference of the corpus does
 * (newer TFLite Micro adds the zero point before saturating). */
void ta_svdf_s8_state8(const ta_svdf_s8_params_t *p, const int8_t *input, const int8_t *weights_feature,
                       const int8_t *weights_time, int8_t *state, int8_t *output);

/* float32 throughout; bias may be NULL; the activation is a clamp. */
typedef struct {
  int32_t batches, input_size, filters, memory, units, rank;
  float act_min, act_max;
} ta_svdf_f32_params_t;

void ta_svdf_f32(const ta_svdf_f32_params_t *p, const float *input, const float *weights_feature,
                 const float *weights_time, const float *bias, float *state, float *output);

#endif
