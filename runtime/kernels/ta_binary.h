/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: binary elementwise operators beyond the int8 / int16 quantized
 * ones of ta_elementwise.h: plain float32 / int16 / int32 / int64 arithmetic and
 * comparisons (DIV, FLOOR_DIV, FLOOR_MOD, SQUARED_DIFFERENCE, MAXIMUM, MINIMUM, PRELU,
 * int32 ADD / SUB / MUL), the quantized int8 DIV and the int16 SQUARED_DIFFERENCE and
 * PRELU, all with NumPy broadcasting through the same ta_bcast_t walk.
 *
 * Each function reproduces TensorFlow Lite Micro's reference kernel; where that
 * kernel's behaviour is surprising it is said next to the declaration. */
#ifndef TA_BINARY_H
#define TA_BINARY_H
#include "ta_common.h"
#include "ta_elementwise.h"

/* int32 arithmetic with an activation clamp (act_min / act_max: TFLite's range for
 * the fused activation, INT32_MIN / INT32_MAX for none). */
typedef struct ta_arith_i32_params_t {
  ta_bcast_t bc;
  int32_t act_min, act_max;
} ta_arith_i32_params_t;

/* Quantized int8 DIV: (a + in1_offset) / (b + in2_offset) through a Newton-Raphson
 * reciprocal of the divisor, then the output rescale. */
typedef struct ta_div_s8_params_t {
  ta_bcast_t bc;
  int32_t in1_offset, in2_offset; /* -zero_point */
  int32_t out_multiplier, out_shift;
  int32_t out_offset;
  int32_t act_min, act_max;
} ta_div_s8_params_t;

/* int32: sums, differences and products wrap (two's complement), as TFLite Micro's
 * int32 arithmetic does on every target it runs on. ADD ignores the clamp: TFLite
 * Micro's int32 ADD drops the fused activation, so the compiler passes the full range. */
void ta_add_i32(const ta_arith_i32_params_t *p, const int32_t *in1, const int32_t *in2, int32_t *out);
void ta_sub_i32(const ta_arith_i32_params_t *p, const int32_t *in1, const int32_t *in2, int32_t *out);
void ta_mul_i32(const ta_arith_i32_params_t *p, const int32_t *in1, const int32_t *in2, int32_t *out);
/* Truncating division (C semantics); a zero divisor gives 0 and INT32_MIN / -1 wraps
 * to INT32_MIN instead of trapping (TFLite Micro leaves both undefined). */
void ta_div_i32(const ta_arith_i32_params_t *p, const int32_t *in1, const int32_t *in2, int32_t *out);
/* (a - b)^2, wrapping. */
void ta_squared_difference_i32(const ta_arith_i32_params_t *p, const int32_t *in1, const int32_t *in2,
                               int32_t *out);

/* float32 with the activation as a clamp (ta_arith_f32_params_t of ta_elementwise.h). */
void ta_div_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out);
/* floor(a / b) with the quotient taken in double; the clamp is unused (no activation). */
void ta_floor_div_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out);
/* fmod(a, b) moved to b's sign, as Python's %. */
void ta_floor_mod_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out);
void ta_squared_difference_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out);

void ta_div_s8(const ta_div_s8_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out);
/* SQUARED_DIFFERENCE int16: ta_addsub_params_t with left_shift 0 and zero points 0. */
void ta_squared_difference_s16(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out);

/* Raw comparisons (inputs and output share one quantization, or none). */
void ta_maximum_f32(const ta_bcast_t *bc, const float *in1, const float *in2, float *out);
void ta_minimum_f32(const ta_bcast_t *bc, const float *in1, const float *in2, float *out);
void ta_maximum_s16(const ta_bcast_t *bc, const int16_t *in1, const int16_t *in2, int16_t *out);
void ta_minimum_s16(const ta_bcast_t *bc, const int16_t *in1, const int16_t *in2, int16_t *out);
void ta_maximum_i32(const ta_bcast_t *bc, const int32_t *in1, const int32_t *in2, int32_t *out);
void ta_minimum_i32(const ta_bcast_t *bc, const int32_t *in1, const int32_t *in2, int32_t *out);
void ta_maximum_i64(const ta_bcast_t *bc, const int64_t *in1, const int64_t *in2, int64_t *out);
void ta_minimum_i64(const ta_bcast_t *bc, const int64_t *in1, const int64_t *in2, int64_t *out);

/* PRELU: x >= 0 ? x : alpha * x (float32), and the int16 form of ta_prelu_s8, whose
 * alpha is int8 (TFLite Micro's 16x8 PRELU). */
void ta_prelu_f32(const ta_bcast_t *bc, const float *input, const float *alpha, float *out);
void ta_prelu_s16(const ta_prelu_params_t *p, const int16_t *input, const int8_t *alpha, int16_t *out);

#endif
