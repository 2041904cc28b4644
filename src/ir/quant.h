/* Compile-time quantization arithmetic, exactly as TFLite derives it from float scales. */
#ifndef TINYAOT_QUANT_H
#define TINYAOT_QUANT_H
#include <stdbool.h>
#include <stdint.h>

#include "../ir/ir.h"

/* TFLite QuantizeMultiplier: m = q * 2^(shift-31), q in [2^30, 2^31), or q = 0. */
void quant_multiplier(double m, int32_t *q, int32_t *shift);

/* The shifts a requantisation kernel can apply (quant_multiplier's convention: > 0
 * shifts left). Operators take their multipliers through op_quant_multiplier
 * (src/ops/op.h), which refuses a factor whose shift is outside their kernel's range;
 * docs/robustness.md explains each range. */
typedef struct QuantRange {
  int32_t min_shift, max_shift;
  const char *kernel; /* for messages */
} QuantRange;

/* TFLite's MultiplyByQuantizedMultiplier on int32 (ta_requantize, the DSP/MVE tiers'
 * equivalents, and fx_requantize when tabulating at compile time): the accumulator is
 * multiplied by 2^shift in int32 first, and TFLite itself only defines that product
 * (and saturates its single-rounding variant) up to 2^30. */
#define QUANT_RANGE_INT32 ((QuantRange){-31, 30, "int32 requantisation"})
/* The int64 variant of the 16x8 kernels (ta_requantize64): it shifts right by
 * 15 - shift, which must stay >= 1 (TFLite documents -31..7). */
#define QUANT_RANGE_INT64 ((QuantRange){-31, 14, "int64 requantisation"})
/* Factors TFLite requires below 1 (QuantizeMultiplierSmallerThanOneExp). */
#define QUANT_RANGE_BELOW_ONE ((QuantRange){-31, 0, "right-shift-only requantisation"})

typedef enum QuantFit {
  QUANT_FITS,            /* including q = 0: factors below 2^-31 flush to 0, as in TFLite */
  QUANT_NOT_FINITE,      /* an infinite or NaN factor (overflowed scale arithmetic) */
  QUANT_SHIFT_TOO_HIGH,
  QUANT_SHIFT_TOO_LOW,
} QuantFit;
/* quant_multiplier, then whether `range` contains the shift. */
QuantFit quant_multiplier_fit(double m, QuantRange range, int32_t *q, int32_t *shift);
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
/* Same element type and the same (per-tensor) quantization, or none on either: the bytes
 * of one read as the other mean the same values. */
bool tensor_same_quant(const Tensor *a, const Tensor *b);
/* Little-endian reads of constant data, independent of host byte order. */
int32_t const_i32(const Tensor *t, int64_t i);
int64_t const_i64(const Tensor *t, int64_t i);
int16_t const_i16(const Tensor *t, int64_t i);
float const_f32(const Tensor *t, int64_t i);

#endif
