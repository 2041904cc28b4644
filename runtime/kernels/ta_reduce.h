/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: reductions over a set of axes (MEAN, SUM, REDUCE_MAX, REDUCE_MIN),
 * ARG_MAX and ARG_MIN.
 *
 * The compiler splits the input's dimensions into kept ones (the "outer" loops, one
 * output element per position) and reduced ones (the "inner" loops, visited in the
 * input's row-major order, so float sums add in the same order as TFLite's). Strides
 * are in elements; adjacent dimensions are merged at compile time. */
#ifndef TA_REDUCE_H
#define TA_REDUCE_H
#include "ta_common.h"

#define TA_REDUCE_MAX_DIMS 6

typedef struct ta_reduce_params_t {
  int32_t outer_rank;                       /* 0 when the output is one element */
  int32_t outer_count[TA_REDUCE_MAX_DIMS];
  int32_t outer_stride[TA_REDUCE_MAX_DIMS];
  int32_t inner_rank;                       /* 0 when nothing is reduced */
  int32_t inner_count[TA_REDUCE_MAX_DIMS];
  int32_t inner_stride[TA_REDUCE_MAX_DIMS];
  int32_t reduce_count;                     /* elements reduced into one output */
  int32_t input_zero_point, output_zero_point;
  int32_t multiplier, shift;                /* requantisation of the integer result */
} ta_reduce_params_t;

/* int8 SUM and MEAN, TFLite's QuantizedMeanOrSum:
 * clamp(MBQM(sum - zp_in * n, multiplier, shift) + zp_out). For MEAN the compiler has
 * folded 1/n into multiplier and shift. */
void ta_reduce_sum_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output);
void ta_reduce_max_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output);
/* int16 SUM and MEAN: as the int8 ones, clamped to int16 (the int32 sum must not
 * wrap: the compiler bounds the element count). */
void ta_reduce_sum_s16(const ta_reduce_params_t *p, const int16_t *input, int16_t *output);
/* float SUM: float sum in input order. */
void ta_reduce_sum_f32(const ta_reduce_params_t *p, const float *input, float *output);
/* REDUCE_MIN int8 (raw, one quantization) and REDUCE_MAX / REDUCE_MIN float32 (from
 * the type's lowest / largest finite value, as TFLite's ReduceGeneric). */
void ta_reduce_min_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output);
void ta_reduce_max_f32(const ta_reduce_params_t *p, const float *input, float *output);
void ta_reduce_min_f32(const ta_reduce_params_t *p, const float *input, float *output);
/* float MEAN: float sum in input order, divided by n. */
void ta_reduce_mean_f32(const ta_reduce_params_t *p, const float *input, float *output);

/* ARG_MAX / ARG_MIN: input [outer][axis_size][inner] -> output [outer][inner], the
 * first index holding the largest (smallest) value. */
typedef struct ta_arg_max_params_t {
  int32_t outer, axis_size, inner;
} ta_arg_max_params_t;

void ta_arg_max_s8_i32(const ta_arg_max_params_t *p, const int8_t *input, int32_t *output);
void ta_arg_max_f32_i32(const ta_arg_max_params_t *p, const float *input, int32_t *output);
void ta_arg_min_s8_i32(const ta_arg_max_params_t *p, const int8_t *input, int32_t *output);
void ta_arg_min_f32_i32(const ta_arg_max_params_t *p, const float *input, int32_t *output);

#endif
