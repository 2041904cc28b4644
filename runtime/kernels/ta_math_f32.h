/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: float32 elementwise math (ABS, NEG, SQRT, RSQRT, SQUARE, EXP,
 * LOG, SIN, COS, CEIL, FLOOR, ROUND, ELU, HARD_SWISH, LEAKY_RELU), each the single
 * precision libm call or expression TFLite Micro's reference kernels evaluate. */
#ifndef TA_MATH_F32_H
#define TA_MATH_F32_H
#include "ta_common.h"

void ta_abs_f32(int32_t size, const float *input, float *output);
void ta_neg_f32(int32_t size, const float *input, float *output);
void ta_sqrt_f32(int32_t size, const float *input, float *output);
void ta_rsqrt_f32(int32_t size, const float *input, float *output);
void ta_square_f32(int32_t size, const float *input, float *output);
void ta_exp_f32(int32_t size, const float *input, float *output);
void ta_log_f32(int32_t size, const float *input, float *output);
void ta_sin_f32(int32_t size, const float *input, float *output);
void ta_cos_f32(int32_t size, const float *input, float *output);
void ta_ceil_f32(int32_t size, const float *input, float *output);
void ta_floor_f32(int32_t size, const float *input, float *output);
/* Ties to even, as TFLite's ROUND. */
void ta_round_f32(int32_t size, const float *input, float *output);
void ta_elu_f32(int32_t size, const float *input, float *output);
void ta_hard_swish_f32(int32_t size, const float *input, float *output);

typedef struct ta_leaky_relu_f32_params_t {
  int32_t size;
  float alpha;
} ta_leaky_relu_f32_params_t;

void ta_leaky_relu_f32(const ta_leaky_relu_f32_params_t *p, const float *input, float *output);

#endif
