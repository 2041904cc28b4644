/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: elementwise binary operators (ADD, SUB, MUL, SQUARED_DIFFERENCE,
 * MAXIMUM, MINIMUM, PRELU) with NumPy broadcasting of both inputs.
 *
 * The compiler turns the two input shapes into a broadcast walk (ta_bcast_t): the
 * output dimensions after merging every run of dimensions both inputs traverse
 * contiguously, and each input's element stride per dimension (0 where it is
 * broadcast). Same-shape inputs become one contiguous row, the fast path. */
#ifndef TA_ELEMENTWISE_H
#define TA_ELEMENTWISE_H
#include "ta_common.h"

#define TA_BCAST_MAX_RANK 6

typedef struct ta_bcast_t {
  int32_t rank;                       /* 1..TA_BCAST_MAX_RANK */
  int32_t dims[TA_BCAST_MAX_RANK];    /* output extents, outermost first */
  int32_t stride1[TA_BCAST_MAX_RANK]; /* input 1 element step per dimension, 0 = broadcast */
  int32_t stride2[TA_BCAST_MAX_RANK]; /* input 2 element step per dimension, 0 = broadcast */
} ta_bcast_t;

/* Quantized ADD / SUB (and the rescaling half of SQUARED_DIFFERENCE): each input is
 * offset, shifted left by left_shift and rescaled to a common scale; the sum or
 * difference is rescaled to the output. */
typedef struct ta_addsub_params_t {
  ta_bcast_t bc;
  int32_t in1_offset, in2_offset;     /* -zero_point */
  int32_t in1_multiplier, in1_shift;  /* shifts <= 0 */
  int32_t in2_multiplier, in2_shift;
  int32_t left_shift;                 /* 20 (int8), 15 (int16), 7 (SQUARED_DIFFERENCE int8) */
  int32_t out_multiplier, out_shift;
  int32_t out_offset;                 /* output zero point */
  int32_t act_min, act_max;
} ta_addsub_params_t;

/* Quantized MUL: (a + in1_offset) * (b + in2_offset), requantized. */
typedef struct ta_mul_params_t {
  ta_bcast_t bc;
  int32_t in1_offset, in2_offset;     /* -zero_point */
  int32_t out_multiplier, out_shift;
  int32_t out_offset;
  int32_t act_min, act_max;
} ta_mul_params_t;

/* float32 ADD / SUB / MUL with the fused activation as a clamp. */
typedef struct ta_arith_f32_params_t {
  ta_bcast_t bc;
  float act_min, act_max;
} ta_arith_f32_params_t;

/* Quantized PRELU: input 2 is alpha. Non-negative inputs are rescaled by
 * (pos_multiplier, pos_shift), negative ones multiplied by alpha and rescaled by
 * (neg_multiplier, neg_shift). */
typedef struct ta_prelu_params_t {
  ta_bcast_t bc;
  int32_t input_offset, alpha_offset; /* -zero_point */
  int32_t pos_multiplier, pos_shift;
  int32_t neg_multiplier, neg_shift;
  int32_t out_offset;
} ta_prelu_params_t;

void ta_add_s8(const ta_addsub_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out);
void ta_add_s16(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out);
void ta_sub_s8(const ta_addsub_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out);
void ta_sub_s16(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out);
void ta_squared_difference_s8(const ta_addsub_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out);

void ta_mul_s8(const ta_mul_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out);
void ta_mul_s16(const ta_mul_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out);

void ta_add_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out);
void ta_sub_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out);
void ta_mul_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out);

/* Raw comparisons: both inputs and the output share one quantization. */
void ta_maximum_s8(const ta_bcast_t *bc, const int8_t *in1, const int8_t *in2, int8_t *out);
void ta_minimum_s8(const ta_bcast_t *bc, const int8_t *in1, const int8_t *in2, int8_t *out);

void ta_prelu_s8(const ta_prelu_params_t *p, const int8_t *input, const int8_t *alpha, int8_t *out);

#endif
