/* Compile-time quantization arithmetic, exactly as TFLite derives it from float scales. */
#ifndef TINYAOT_QUANT_H
#define TINYAOT_QUANT_H
#include <stdbool.h>
#include <stdint.h>

#include "../ir/ir.h"

/* TFLite QuantizeMultiplier: m = q * 2^(shift-31), q in [2^30, 2^31), or q = 0. */
void quant_multiplier(double m, int32_t *q, int32_t *shift);
/* TFLite fused activation codes (ActivationFunctionType). */
enum { ACT_NONE = 0, ACT_RELU = 1, ACT_RELU_N1_TO_1 = 2, ACT_RELU6 = 3, ACT_TANH = 4, ACT_SIGN_BIT = 5 };
/* CalculateActivationRangeQuantized for an int8/int16/uint8/int32 output; false for an
 * unsupported activation. */
bool quant_activation_range(int act, TensorType type, float scale, int32_t zero_point,
                            int32_t *act_min, int32_t *act_max);
/* Float activation range (CalculateActivationRange<float>). */
bool quant_activation_range_f32(int act, float *act_min, float *act_max);
/* Per-tensor scale and zero point (element 0); 0/0 when unquantized. */
float tensor_scale(const Tensor *t);
int32_t tensor_zero_point(const Tensor *t);
/* Little-endian reads of constant data, independent of host byte order. */
int32_t const_i32(const Tensor *t, int64_t i);
int64_t const_i64(const Tensor *t, int64_t i);
int16_t const_i16(const Tensor *t, int64_t i);
float const_f32(const Tensor *t, int64_t i);

#endif
