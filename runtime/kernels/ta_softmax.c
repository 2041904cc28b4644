/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: integer SOFTMAX kernels (portable C, the reference tier). */
#include "ta_softmax.h"

/* ---- Fixed-point helpers (Qm.n values held in int32) ---------------------- */

static int32_t fx_mul(int32_t a, int32_t b) { return ta_sat_round_doubling_high_mul(a, b); }

/* x * 2^exponent for 1 <= exponent <= 30, saturating to the int32 range. */
static int32_t fx_shift_left_sat(int32_t x, int exponent) {
  const int32_t limit = (int32_t)((1u << (31 - exponent)) - 1u);
  if (x > limit) return INT32_MAX;
  if (x < -limit) return INT32_MIN;
  return (int32_t)((uint32_t)x << exponent);
}

/* (a + b) / 2 rounded to nearest, ties away from zero. */
static int32_t fx_rounding_half_sum(int32_t a, int32_t b) {
  int64_t sum = (int64_t)a + (int64_t)b;
  return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

static int count_leading_zeros(uint32_t x) {
  int n = 0;
  if (x == 0) return 32;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    n++;
  }
  return n;
}

/* exp(a) for a in [-1/4, 0), Q0.31 in and out: a 4th-order Taylor expansion
 * around -1/8. The constants are exp(-1/8) and 1/3 in Q0.31. */
static int32_t exp_on_small_interval(int32_t a) {
  const int32_t exp_minus_one_eighth = 1895147668;
  const int32_t one_third = 715827883;
  const int32_t x = a + (1 << 28); /* x = a + 1/8 */
  const int32_t x2 = fx_mul(x, x);
  const int32_t x3 = fx_mul(x2, x);
  const int32_t x4 = fx_mul(x2, x2);
  const int32_t x4_over_4 = ta_rounding_divide_by_pot(x4, 2);
  /* x^2/2 + x^3/6 + x^4/24 */
  const int32_t tail = ta_rounding_divide_by_pot(fx_mul(x4_over_4 + x3, one_third) + x2, 1);
  return exp_minus_one_eighth + fx_mul(exp_minus_one_eighth, x + tail);
}

/* exp(a) for a <= 0, a in Q5.26, result in Q0.31. The fraction modulo 1/4 goes
 * through the polynomial; every set bit of the rest multiplies by exp(-2^k). */
static int32_t exp_on_negative_q5_26(int32_t a) {
  static const int32_t exp_of_minus_pow2[7] = {
      1672461947, /* exp(-1/4) */
      1302514674, /* exp(-1/2) */
      790015084,  /* exp(-1) */
      290630308,  /* exp(-2) */
      39332535,   /* exp(-4) */
      720401,     /* exp(-8) */
      242,        /* exp(-16) */
  };
  const int32_t quarter = 1 << 24;
  const int32_t frac_minus_quarter = (a & (quarter - 1)) - quarter; /* in [-1/4, 0) */
  int32_t result = exp_on_small_interval(fx_shift_left_sat(frac_minus_quarter, 5));
  const int32_t rest = (int32_t)((uint32_t)frac_minus_quarter - (uint32_t)a);
  for (int k = 0; k < 7; k++)
    if (rest & (1 << (24 + k))) result = fx_mul(result, exp_of_minus_pow2[k]);
  return a == 0 ? INT32_MAX : result;
}

/* 1/(1+a) for a in [0, 1), Q0.31 in and out: three Newton-Raphson steps in Q2.29
 * from the initial guess 48/17 - 32/17 * (1+a)/2. */
static int32_t one_over_one_plus_x(int32_t a) {
  const int32_t half_denominator = fx_rounding_half_sum(a, INT32_MAX);
  const int32_t c48_over_17 = 1515870810;      /* Q2.29 */
  const int32_t c_neg32_over_17 = -1010580540; /* Q2.29 */
  const int32_t one_q2_29 = 1 << 29;
  int32_t x = c48_over_17 + fx_mul(half_denominator, c_neg32_over_17);
  for (int i = 0; i < 3; i++) {
    int32_t error = one_q2_29 - fx_mul(half_denominator, x);
    x = x + fx_shift_left_sat(fx_mul(x, error), 2);
  }
  return fx_shift_left_sat(x, 1); /* x/2 read in Q1.30, rescaled to Q0.31 */
}

/* Reciprocal of a positive Q12.19 sum: returns 1/sum normalised into Q0.31 and
 * the number of bits the sum lay above 1.0. */
static int32_t reciprocal_of_sum(int32_t sum, int *bits_over_unit) {
  const int headroom = count_leading_zeros((uint32_t)sum);
  *bits_over_unit = 12 - headroom;
  const int32_t shifted_minus_one = (int32_t)(((uint32_t)sum << headroom) - (1u << 31));
  return one_over_one_plus_x(shifted_minus_one);
}

/* ---- int8 input ---------------------------------------------------------- */

/* The scaled difference in Q5.26 (the shift is chosen so it cannot overflow for
 * differences >= diff_min). */
static int32_t scaled_diff_q5_26(const ta_softmax_params_t *p, int32_t diff) {
  return fx_mul((int32_t)((uint32_t)diff << p->input_shift), p->input_multiplier);
}

/* One row for both output types: probabilities scaled to 2^out_bits, offset by
 * the type's minimum and saturated; written to out8 or out16 (the other is NULL). */
static void softmax_s8_row(const ta_softmax_params_t *p, const int8_t *in, int out_bits, int8_t *out8,
                           int16_t *out16) {
  const int32_t out_min = out_bits == 8 ? -128 : -32768;
  const int32_t out_max = out_bits == 8 ? 127 : 32767;
  int32_t max_in_row = -128;
  for (int32_t c = 0; c < p->depth; c++) max_in_row = TA_MAX(max_in_row, (int32_t)in[c]);

  uint32_t sum_of_exps = 0; /* Q12.19; unsigned so a (theoretical) wrap is defined */
  for (int32_t c = 0; c < p->depth; c++) {
    int32_t diff = (int32_t)in[c] - max_in_row;
    if (diff >= p->diff_min)
      sum_of_exps += (uint32_t)ta_rounding_divide_by_pot(exp_on_negative_q5_26(scaled_diff_q5_26(p, diff)), 12);
  }

  int bits_over_unit;
  const int32_t scale = reciprocal_of_sum((int32_t)sum_of_exps, &bits_over_unit);
  const int exponent = bits_over_unit + 31 - out_bits;

  for (int32_t c = 0; c < p->depth; c++) {
    int32_t diff = (int32_t)in[c] - max_in_row;
    int32_t v = out_min;
    if (diff >= p->diff_min) {
      int32_t e = exp_on_negative_q5_26(scaled_diff_q5_26(p, diff));
      v = ta_clamp(ta_rounding_divide_by_pot(fx_mul(scale, e), exponent) + out_min, out_min, out_max);
    }
    if (out8) out8[c] = (int8_t)v;
    else out16[c] = (int16_t)v;
  }
}

void ta_softmax_s8(const ta_softmax_params_t *p, const int8_t *input, int8_t *output) {
  for (int32_t r = 0; r < p->outer; r++) {
    size_t at = (size_t)r * (size_t)p->depth;
    softmax_s8_row(p, input + at, 8, output + at, NULL);
  }
}

void ta_softmax_s8_s16(const ta_softmax_params_t *p, const int8_t *input, int16_t *output) {
  for (int32_t r = 0; r < p->outer; r++) {
    size_t at = (size_t)r * (size_t)p->depth;
    softmax_s8_row(p, input + at, 16, NULL, output + at);
  }
}

/* ---- int16 input --------------------------------------------------------- */

/* Table lookup with linear interpolation: the top 9 bits of the (signed) value
 * pick the entry, the low 7 bits interpolate towards the next one. */
static int16_t lut_interpolate(int16_t value, const int16_t *lut) {
  const int index = 256 + (value >> 7);
  const int32_t offset = value & 0x7f;
  const int16_t base = lut[index];
  const int16_t slope = (int16_t)(lut[index + 1] - lut[index]);
  return (int16_t)(base + ((slope * offset + 64) >> 7));
}

static int16_t sat_s16(int32_t v) { return (int16_t)ta_clamp(v, -32768, 32767); }

void ta_softmax_s16(const ta_softmax_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t r = 0; r < p->outer; r++) {
    const int16_t *in = input + (size_t)r * (size_t)p->depth;
    int16_t *out = output + (size_t)r * (size_t)p->depth;
    int32_t max_in_row = -32768;
    for (int32_t c = 0; c < p->depth; c++) max_in_row = TA_MAX(max_in_row, (int32_t)in[c]);

    /* exp(x - max) in Q0.15, kept in the output row until the sum is known */
    int32_t sum_of_exps = 0;
    for (int32_t c = 0; c < p->depth; c++) {
      /* [-65535, 0] maps onto [-10, 0], then recentred onto the table's input range */
      int32_t scaled = ta_requantize((int32_t)in[c] - max_in_row, p->input_multiplier, p->input_shift);
      out[c] = lut_interpolate(sat_s16(scaled + 32767), p->exp_lut);
      sum_of_exps += out[c];
    }

    /* 1/sum through the 1/(1+x) table: normalise the sum, take x = sum - 1 and
     * recentre [0, 65535] onto [-32768, 32767] */
    const int headroom_plus_one = count_leading_zeros((uint32_t)sum_of_exps);
    const int32_t shifted_sum =
        (int32_t)((((int64_t)sum_of_exps << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const int16_t reciprocal = lut_interpolate(sat_s16(shifted_sum - ((1 << 15) + (1 << 16))), p->recip_lut);

    const int right_shift = 31 - headroom_plus_one;
    const int64_t round = (int64_t)1 << (right_shift - 1);
    for (int32_t c = 0; c < p->depth; c++) {
      int32_t v = (int32_t)(((int64_t)out[c] * (int64_t)reciprocal + round) >> right_shift);
      out[c] = (int16_t)ta_clamp(v, 0, 32767);
    }
  }
}
