/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: LOG_SOFTMAX (see ta_log_softmax.h).
 *
 * gemmlowp's FixedPoint<int32, N> values are raw int32 here, the integer-bit count
 * tracked by hand: a product of Qa and Qb values is the rounding doubling high
 * multiply in Q(a+b); plain additions wrap, as gemmlowp's do. */
#include "ta_log_softmax.h"

#include <math.h>

static int32_t mul(int32_t a, int32_t b) { return ta_sat_round_doubling_high_mul(a, b); }
static int32_t wrap_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t wrap_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }

static int32_t sat_add(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

/* x * 2^exponent: saturating for exponent > 0, rounding division below 0. */
static int32_t mul_pot(int32_t x, int exponent) {
  if (exponent < 0) return ta_rounding_divide_by_pot(x, -exponent);
  if (exponent == 0) return x;
  const int32_t threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return (int32_t)((uint32_t)x << exponent);
}

/* (a + b) / 2 rounded half away from zero, without overflow. */
static int32_t rounding_half_sum(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + b;
  return (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
}

static int leading_zeros32(uint32_t v) {
  int n = 0;
  while (n < 32 && !(v & 0x80000000u)) {
    v <<= 1;
    n++;
  }
  return n;
}

/* exp(a) for a in [-1/4, 0), Q0.31: Taylor series around -1/8. */
static int32_t exp_quarter_interval(int32_t a) {
  const int32_t exp_minus_one_eighth = 1895147668, one_third = 715827883;
  const int32_t x = wrap_add(a, 1 << 28);
  const int32_t x2 = mul(x, x), x3 = mul(x2, x), x4 = mul(x2, x2);
  const int32_t poly = mul_pot(wrap_add(mul(wrap_add(mul_pot(x4, -2), x3), one_third), x2), -1);
  return wrap_add(exp_minus_one_eighth, mul(exp_minus_one_eighth, wrap_add(x, poly)));
}

int32_t ta_exp_on_negative_q5(int32_t a) {
  /* exp(-2^k) for k = -2 .. 4, Q0.31 */
  static const int32_t exp_of_minus_pot[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  const int32_t quarter = (int32_t)1 << 24; /* 1/4 in Q5.26 */
  const int32_t a_mod = wrap_sub(a & (quarter - 1), quarter);
  int32_t result = exp_quarter_interval(mul_pot(a_mod, 5));
  const int32_t remainder = wrap_sub(a_mod, a);
  for (int k = 0; k < 7; k++)
    if (remainder & ((int32_t)1 << (24 + k))) result = mul(result, exp_of_minus_pot[k]);
  return a == 0 ? INT32_MAX : result;
}

/* 1 / (1 + a) for a in [0, 1), Q0.31 in and out: three Newton-Raphson steps in Q2.29. */
static int32_t one_over_one_plus_x(int32_t a) {
  const int32_t half_denominator = rounding_half_sum(a, INT32_MAX);
  int32_t x = wrap_add(1515870810, mul(half_denominator, -1010580540)); /* 48/17 - 32/17 d */
  for (int i = 0; i < 3; i++) {
    const int32_t one_minus_dx = wrap_sub((int32_t)1 << 29, mul(half_denominator, x));
    x = wrap_add(x, mul_pot(mul(x, one_minus_dx), 2));
  }
  return mul_pot(x, 1);
}

int32_t ta_log_q12_to_q5(int32_t x) {
  const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
  const int32_t alpha_n = 117049297, alpha_d = 127690142, alpha_i = 1057819769, alpha_f = 638450708;
  const int32_t quarter_q6 = (int32_t)1 << 23; /* 1/4 in the Q6.25 accumulator */
  /* x = 2^e * r with r in [sqrt(1/2), sqrt(2)): two candidate normalisations. */
  const int headroom_a = leading_zeros32((uint32_t)x);
  const int32_t r_a = mul_pot(mul(mul_pot(x, headroom_a - 1), sqrt_half), 1);
  const int32_t e_a = sat_add(mul_pot(12 - headroom_a, 25), quarter_q6);
  const int32_t z_b = mul(x, sqrt_half);
  const int headroom_b = leading_zeros32((uint32_t)z_b) - 1;
  const int32_t r_b = mul_pot(x, headroom_b);
  const int64_t e_b64 = (int64_t)mul_pot(12 - headroom_b, 25) - quarter_q6;
  const int32_t e_b = e_b64 < INT32_MIN ? INT32_MIN : (int32_t)e_b64;
  const int32_t r = r_a < r_b ? r_a : r_b;
  const int32_t e = e_a > e_b ? e_a : e_b;
  /* log(r) by a rational approximation around 2^(-1/4). */
  const int32_t p = rounding_half_sum(r, sqrt_sqrt_half);
  int32_t q = wrap_sub(r, sqrt_sqrt_half);
  q = wrap_add(q, q);
  const int32_t q_sq = mul(q, q);
  const int32_t num = wrap_add(mul(q, r), mul(mul(q, q_sq), alpha_n));
  const int32_t denom_minus_one =
      wrap_add(mul(p, wrap_add(wrap_add(alpha_i, q), mul(alpha_d, q_sq))), mul(alpha_f, q));
  const int32_t recip_denom = one_over_one_plus_x(denom_minus_one);
  const int32_t sum = wrap_add(mul(e, log_2), mul(mul_pot(num, -6), recip_denom)); /* Q6.25 */
  return mul_pot(sum, 1);                                                          /* Q5.26 */
}

void ta_log_softmax_f32(const ta_log_softmax_params_t *p, const float *input, float *output) {
  for (int32_t r = 0; r < p->outer; r++) {
    const float *in = input + (size_t)r * (size_t)p->depth;
    float *out = output + (size_t)r * (size_t)p->depth;
    float max = -3.40282347e38f;
    for (int32_t c = 0; c < p->depth; c++) max = in[c] > max ? in[c] : max;
    float sum = 0.0f;
    for (int32_t c = 0; c < p->depth; c++) sum += expf(in[c] - max);
    const float log_sum = logf(sum);
    for (int32_t c = 0; c < p->depth; c++) out[c] = in[c] - max - log_sum;
  }
}

void ta_log_softmax_s8(const ta_log_softmax_params_t *p, const int8_t *input, int8_t *output) {
  for (int32_t r = 0; r < p->outer; r++) {
    const int8_t *in = input + (size_t)r * (size_t)p->depth;
    int8_t *out = output + (size_t)r * (size_t)p->depth;
    int32_t max = -128;
    for (int32_t c = 0; c < p->depth; c++) max = in[c] > max ? in[c] : max;
    int32_t sum_q12 = 0;
    for (int32_t c = 0; c < p->depth; c++) {
      const int32_t diff = in[c] - max;
      if (diff >= p->diff_min)
        sum_q12 = wrap_add(sum_q12, mul_pot(ta_exp_on_negative_q5(ta_requantize(diff, p->input_multiplier,
                                                                                 p->input_left_shift)),
                                            -12));
    }
    const int32_t log_sum_q5 = ta_log_q12_to_q5(sum_q12);
    /* The smallest difference whose result is still above the output's range. */
    const int32_t reach = ta_requantize(wrap_add(log_sum_q5, INT32_MIN), p->reverse_multiplier, p->reverse_shift);
    const int32_t adjusted_diff_min = TA_MAX(p->diff_min - 1, reach);
    for (int32_t c = 0; c < p->depth; c++) {
      const int32_t diff = in[c] - max;
      int32_t y = -128;
      if (diff > adjusted_diff_min) {
        const int32_t diff_q5 = ta_requantize(diff, p->input_multiplier, p->input_left_shift);
        y = ta_clamp(ta_rounding_divide_by_pot(wrap_sub(diff_q5, log_sum_q5), 22) + 127, -128, 127);
      }
      out[c] = (int8_t)y;
    }
  }
}
