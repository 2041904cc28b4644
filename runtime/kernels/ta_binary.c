/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: binary elementwise operators on float32 / int16 / int32 / int64 and
 * the quantized int8 DIV, with NumPy broadcasting (see ta_binary.h).
 *
 * Each operator is a "row" function (one innermost run, each input with its own
 * element step) driven by the broadcast walker of ta_bcast.h. */
#include "ta_binary.h"
#include "ta_bcast.h"

#include <math.h>

/* A row function applying `expr` (in terms of x, y and the params p) to each pair,
 * and the public kernel that walks it. BC is how the kernel reaches its walk. */
#define TA_BIN_KERNEL(name, PT, T, BC, expr)                                                               \
  static void name##_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo, \
                         int32_t n) {                                                                      \
    const PT *p = (const PT *)vp;                                                                          \
    const T *a = (const T *)v1, *b = (const T *)v2;                                                        \
    T *o = (T *)vo;                                                                                        \
    (void)p;                                                                                               \
    for (int32_t i = 0; i < n; i++, a += s1, b += s2) {                                                    \
      const T x = *a, y = *b;                                                                              \
      o[i] = (expr);                                                                                       \
    }                                                                                                      \
  }                                                                                                        \
  void name(const PT *p, const T *in1, const T *in2, T *out) {                                             \
    ta_bcast_walk(BC, in1, sizeof(T), in2, sizeof(T), out, sizeof(T), name##_row, p);                      \
  }

/* ---- int32 ------------------------------------------------------------------------- */

/* Two's-complement wrap of an unsigned result (the conversion every target does). */
static int32_t wrap_i32(uint32_t v) { return v <= (uint32_t)INT32_MAX ? (int32_t)v : -(int32_t)(~v) - 1; }

static int32_t add_wrap(int32_t x, int32_t y) { return wrap_i32((uint32_t)x + (uint32_t)y); }
static int32_t sub_wrap(int32_t x, int32_t y) { return wrap_i32((uint32_t)x - (uint32_t)y); }
static int32_t mul_wrap(int32_t x, int32_t y) { return wrap_i32((uint32_t)x * (uint32_t)y); }

static int32_t div_i32(int32_t x, int32_t y) {
  if (y == 0) return 0;
  if (y == -1) return sub_wrap(0, x);
  return x / y;
}

TA_BIN_KERNEL(ta_add_i32, ta_arith_i32_params_t, int32_t, &p->bc, add_wrap(x, y))
TA_BIN_KERNEL(ta_sub_i32, ta_arith_i32_params_t, int32_t, &p->bc, ta_clamp(sub_wrap(x, y), p->act_min, p->act_max))
TA_BIN_KERNEL(ta_mul_i32, ta_arith_i32_params_t, int32_t, &p->bc, ta_clamp(mul_wrap(x, y), p->act_min, p->act_max))
TA_BIN_KERNEL(ta_div_i32, ta_arith_i32_params_t, int32_t, &p->bc, ta_clamp(div_i32(x, y), p->act_min, p->act_max))
TA_BIN_KERNEL(ta_squared_difference_i32, ta_arith_i32_params_t, int32_t, &p->bc,
              mul_wrap(sub_wrap(x, y), sub_wrap(x, y)))

/* ---- float32 ----------------------------------------------------------------------- */

/* TFLite's ActivationFunctionWithMinMax: max then min, NaN passes through. */
static float clamp_f32(float v, float lo, float hi) {
  const float w = v < lo ? lo : v;
  return hi < w ? hi : w;
}

/* floor of the quotient taken in double, as TFLite's FloorDiv. */
static float floor_div_f32(float x, float y) { return (float)floor((double)x / (double)y); }

/* The truncated remainder (exact in float), moved to the divisor's sign. */
static float floor_mod_f32(float x, float y) {
  const float r = (float)fmod((double)x, (double)y);
  return r != 0.0f && ((y < 0.0f) != (r < 0.0f)) ? r + y : r;
}

TA_BIN_KERNEL(ta_div_f32, ta_arith_f32_params_t, float, &p->bc, clamp_f32(x / y, p->act_min, p->act_max))
TA_BIN_KERNEL(ta_floor_div_f32, ta_arith_f32_params_t, float, &p->bc, floor_div_f32(x, y))
TA_BIN_KERNEL(ta_floor_mod_f32, ta_arith_f32_params_t, float, &p->bc, floor_mod_f32(x, y))
TA_BIN_KERNEL(ta_squared_difference_f32, ta_arith_f32_params_t, float, &p->bc, (x - y) * (x - y))

/* ---- MAXIMUM / MINIMUM ----------------------------------------------------------------- */

TA_BIN_KERNEL(ta_maximum_f32, ta_bcast_t, float, p, x > y ? x : y)
TA_BIN_KERNEL(ta_minimum_f32, ta_bcast_t, float, p, x < y ? x : y)
TA_BIN_KERNEL(ta_maximum_s16, ta_bcast_t, int16_t, p, x > y ? x : y)
TA_BIN_KERNEL(ta_minimum_s16, ta_bcast_t, int16_t, p, x < y ? x : y)
TA_BIN_KERNEL(ta_maximum_i32, ta_bcast_t, int32_t, p, x > y ? x : y)
TA_BIN_KERNEL(ta_minimum_i32, ta_bcast_t, int32_t, p, x < y ? x : y)
TA_BIN_KERNEL(ta_maximum_i64, ta_bcast_t, int64_t, p, x > y ? x : y)
TA_BIN_KERNEL(ta_minimum_i64, ta_bcast_t, int64_t, p, x < y ? x : y)

/* ---- PRELU ------------------------------------------------------------------------------ */

TA_BIN_KERNEL(ta_prelu_f32, ta_bcast_t, float, p, x >= 0.0f ? x : x * y)

/* int16 input with an int8 alpha (TFLite Micro's 16x8 PRELU). */
static void prelu_s16_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                          int32_t n) {
  const ta_prelu_params_t *p = (const ta_prelu_params_t *)vp;
  const int16_t *x = (const int16_t *)v1;
  const int8_t *alpha = (const int8_t *)v2;
  int16_t *o = (int16_t *)vo;
  for (int32_t i = 0; i < n; i++, x += s1, alpha += s2) {
    const int32_t v = *x + p->input_offset;
    int32_t result;
    if (v >= 0)
      result = ta_requantize(v, p->pos_multiplier, p->pos_shift);
    else
      result = ta_requantize(v * (*alpha + p->alpha_offset), p->neg_multiplier, p->neg_shift);
    o[i] = (int16_t)ta_clamp(result + p->out_offset, -32768, 32767);
  }
}

void ta_prelu_s16(const ta_prelu_params_t *p, const int16_t *input, const int8_t *alpha, int16_t *out) {
  ta_bcast_walk(&p->bc, input, sizeof(int16_t), alpha, 1, out, sizeof(int16_t), prelu_s16_row, p);
}

/* ---- SQUARED_DIFFERENCE int16 ------------------------------------------------------------ */

/* Each input rescaled to the common scale (left_shift 0 for int16), the difference
 * squared in int32, then rescaled by a multiplier that may exceed 1. */
static int16_t sqdiff_s16_one(const ta_addsub_params_t *p, int16_t x, int16_t y) {
  const int32_t sa = ta_requantize((x + p->in1_offset) * (1 << p->left_shift), p->in1_multiplier, p->in1_shift);
  const int32_t sb = ta_requantize((y + p->in2_offset) * (1 << p->left_shift), p->in2_multiplier, p->in2_shift);
  const int32_t diff = sa - sb;
  const int32_t result = ta_requantize(diff * diff, p->out_multiplier, p->out_shift) + p->out_offset;
  return (int16_t)ta_clamp(result, p->act_min, p->act_max);
}

TA_BIN_KERNEL(ta_squared_difference_s16, ta_addsub_params_t, int16_t, &p->bc, sqdiff_s16_one(p, x, y))

/* ---- quantized int8 DIV -------------------------------------------------------------------- */

static int count_leading_zeros32(uint32_t x) {
  int n = 0;
  if (x == 0) return 32;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    n++;
  }
  return n;
}

/* Redundant sign bits of x (31 for 0), TFLite's CountLeadingSignBits. */
static int count_leading_sign_bits(int32_t x) {
  if (x >= 0) return count_leading_zeros32((uint32_t)x) - 1;
  return count_leading_zeros32(~(uint32_t)x) - 1;
}

/* (a + b) / 2 rounded to nearest, ties away from zero. */
static int32_t rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + (int64_t)b;
  return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/* x * 2^e for 1 <= e <= 30, saturated. */
static int32_t shift_left_sat(int32_t x, int e) {
  const int32_t limit = (int32_t)((1u << (31 - e)) - 1u);
  if (x > limit) return INT32_MAX;
  if (x < -limit) return INT32_MIN;
  return (int32_t)((uint32_t)x << e);
}

/* 1/(1+a) for a in [0, 1), Q0.31 in and out: three Newton-Raphson steps in Q2.29
 * from the initial guess 48/17 - 32/17 * (1+a)/2 (gemmlowp's method). */
static int32_t one_over_one_plus_x(int32_t a) {
  const int32_t half_denominator = rounding_half_sum(a, INT32_MAX);
  const int32_t c48_over_17 = 1515870810;      /* Q2.29 */
  const int32_t c_neg32_over_17 = -1010580540; /* Q2.29 */
  int32_t x = c48_over_17 + ta_sat_round_doubling_high_mul(half_denominator, c_neg32_over_17);
  for (int i = 0; i < 3; i++) {
    const int32_t error = (1 << 29) - ta_sat_round_doubling_high_mul(half_denominator, x);
    x = x + shift_left_sat(ta_sat_round_doubling_high_mul(x, error), 2);
  }
  return shift_left_sat(x, 1);
}

/* 1/x for x >= 1 as a Q0.31 mantissa and the power of two it was scaled by. */
static int32_t reciprocal(int32_t x, int *shift) {
  const int headroom_plus_one = count_leading_zeros32((uint32_t)x);
  *shift = 31 - headroom_plus_one;
  return one_over_one_plus_x((int32_t)(((uint32_t)x << headroom_plus_one) - (1u << 31)));
}

/* Rounding division by 2^e (ties away from zero). TFLite Micro's reference asserts
 * e <= 31; a larger e (a small numerator with a small s1 / (s2 * s_out)) is outside
 * its domain, and the exact rounding of |x| < 2^31 by 2^32 or more is 0. */
static int32_t rounding_divide_by_pot_wide(int32_t x, int e) {
  return e > 31 ? 0 : ta_rounding_divide_by_pot(x, e);
}

static int8_t div_s8_one(const ta_div_s8_params_t *p, int8_t a, int8_t b) {
  int32_t num = a + p->in1_offset, den = b + p->in2_offset;
  if (den == 0) return (int8_t)ta_clamp(p->out_offset, p->act_min, p->act_max); /* outside TFLite's domain */
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int recip_shift;
  const int32_t inv = reciprocal(den, &recip_shift);
  const int headroom = count_leading_sign_bits(num);
  const int32_t quotient = ta_sat_round_doubling_high_mul((int32_t)((uint32_t)num << headroom), inv);
  const int total_shift = p->out_shift - recip_shift - headroom; /* <= 0, checked by the compiler */
  const int32_t scaled = rounding_divide_by_pot_wide(ta_sat_round_doubling_high_mul(quotient, p->out_multiplier),
                                                      -total_shift);
  return (int8_t)ta_clamp(scaled + p->out_offset, p->act_min, p->act_max);
}

TA_BIN_KERNEL(ta_div_s8, ta_div_s8_params_t, int8_t, &p->bc, div_s8_one(p, x, y))
