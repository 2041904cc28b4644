/* Compile-time emulation of TFLite's integer arithmetic (gemmlowp fixed point and the
 * reference kernels' int16 helpers), bit for bit. The elementwise operators use it to
 * tabulate 8-bit activations, so the emitted code is a table lookup whose entries
 * equal what TFLite Micro computes element by element; the int16 LOGISTIC/TANH and
 * the LSTM take their sigmoid interpolation nodes from here. */
#ifndef TINYAOT_FIXED_POINT_H
#define TINYAOT_FIXED_POINT_H
#include <stdint.h>

/* ---- int32 primitives --------------------------------------------------------- */
/* High half of 2*a*b, rounded to nearest (ties away from zero for positive
 * products), INT32_MIN * INT32_MIN saturated. */
int32_t fx_srdhm(int32_t a, int32_t b);
/* x / 2^exponent rounded to nearest, ties away from zero. exponent in [0, 31]. */
int32_t fx_rdbpot(int32_t x, int exponent);
/* x * 2^exponent: saturating left shift for exponent > 0, fx_rdbpot otherwise. */
int32_t fx_mul_pot(int32_t x, int exponent);
/* MultiplyByQuantizedMultiplier (int32, double rounding); shift > 0 shifts left. */
int32_t fx_requantize(int32_t x, int32_t multiplier, int shift);

/* ---- gemmlowp transcendental functions ---------------------------------------- */
/* logistic(x) for x in Q4.27 (raw int32), result in Q0.31. */
int32_t fx_logistic_q4(int32_t x);
/* tanh(x) for x in Q4.27, result in Q0.31. */
int32_t fx_tanh_q4(int32_t x);

/* ---- int16 primitives (HARD_SWISH) --------------------------------------------- */
int16_t fx_srdhm16(int16_t a, int16_t b);
/* Truncating variant (rounds toward zero), TFLite's SaturatingDoublingHighMul. */
int16_t fx_sdhm16(int16_t a, int16_t b);
/* gemmlowp RoundingDivideByPOT on int16, including its int16 mask for exponents > 15. */
int16_t fx_rdbpot16(int16_t x, int exponent);
/* value * 2^amount saturated to int16. */
int16_t fx_sat_lshift16(int16_t value, int amount);
/* Two's-complement wrap of v to int16 (what a C++ int -> int16_t store does). */
int16_t fx_wrap16(int64_t v);
/* TFLite DownScaleInt32ToInt16Multiplier. */
int16_t fx_downscale_multiplier16(int32_t multiplier);

/* ---- int16 sigmoid/tanh interpolation table ------------------------------------ */
/* The 256 nodes TFLite's int16 sigmoid and tanh interpolate: sigmoid(i / 24) in
 * unsigned Q0.16, i = 0..255, as TFLite's table holds them (see fixed_point.c). */
void fx_sigmoid_nodes_u16(uint16_t out[256]);
/* The same nodes minus 32768, the int16 form the runtime kernels take (every node
 * is >= 1/2, so this fits). */
void fx_sigmoid_nodes_i16(int16_t out[256]);

#endif
