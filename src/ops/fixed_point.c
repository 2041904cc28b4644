/* Compile-time emulation of TFLite's integer arithmetic; see fixed_point.h.
 *
 * gemmlowp's FixedPoint<int32, N> values are handled here as raw int32 with the
 * integer-bit count tracked by hand: a product of Qa and Qb values is fx_srdhm in
 * Q(a+b), and changing format from Qa to Qb is fx_mul_pot(x, a - b). Additions wrap
 * like the two's-complement hardware gemmlowp relies on. */
#include "fixed_point.h"

#include <limits.h>
#include <math.h>

static int32_t wrap_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t wrap_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }

int32_t fx_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t ab = (int64_t)a * b;
  const int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  return (int32_t)((ab + nudge) / ((int64_t)1 << 31)); /* C division truncates, as C++ */
}

int32_t fx_rdbpot(int32_t x, int exponent) {
  const int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t fx_mul_pot(int32_t x, int exponent) {
  if (exponent < 0) return fx_rdbpot(x, -exponent);
  if (exponent == 0) return x;
  const int32_t threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return (int32_t)((uint32_t)x << exponent);
}

int32_t fx_requantize(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return fx_rdbpot(fx_srdhm((int32_t)((uint32_t)x << left), multiplier), right);
}

/* exp(a) for a in [-1/4, 0), Q0.31 in and out: Taylor expansion around -1/8. */
static int32_t exp_quarter_interval(int32_t a) {
  const int32_t exp_minus_one_eighth = 1895147668; /* exp(-1/8) */
  const int32_t one_third = 715827883;
  const int32_t x = wrap_add(a, 1 << 28); /* a + 1/8 */
  const int32_t x2 = fx_srdhm(x, x), x3 = fx_srdhm(x2, x), x4 = fx_srdhm(x2, x2);
  const int32_t x4_over_4 = fx_rdbpot(x4, 2);
  const int32_t poly = fx_rdbpot(wrap_add(fx_srdhm(wrap_add(x4_over_4, x3), one_third), x2), 1);
  return wrap_add(exp_minus_one_eighth, fx_srdhm(exp_minus_one_eighth, wrap_add(x, poly)));
}

/* exp(a) for a <= 0 given in Q(int_bits), result Q0.31: the fractional quarter by
 * Taylor series, then one multiplication by exp(-2^k) per set bit of the rest. */
static int32_t exp_negative(int32_t a, int int_bits) {
  static const int32_t exp_of_minus_pot[7] = {
      1672461947, /* exp(-1/4) */
      1302514674, /* exp(-1/2) */
      790015084,  /* exp(-1) */
      290630308,  /* exp(-2) */
      39332535,   /* exp(-4) */
      720401,     /* exp(-8) */
      242,        /* exp(-16) */
  };
  const int frac_bits = 31 - int_bits;
  const int32_t one_quarter = (int32_t)1 << (frac_bits - 2);
  const int32_t a_mod_minus_quarter = wrap_sub(a & (one_quarter - 1), one_quarter);
  int32_t result = exp_quarter_interval(fx_mul_pot(a_mod_minus_quarter, int_bits));
  const int32_t remainder = wrap_sub(a_mod_minus_quarter, a);
  for (int k = 0; k < 7; k++) {
    const int exponent = k - 2; /* this factor is exp(-2^exponent) */
    if (int_bits > exponent && (remainder & ((int32_t)1 << (frac_bits + exponent))))
      result = fx_srdhm(result, exp_of_minus_pot[k]);
  }
  if (int_bits > 5 && a < -((int32_t)1 << (36 - int_bits))) result = 0; /* below -32 */
  return a == 0 ? INT32_MAX : result;
}

/* Newton-Raphson reciprocal of 1 + a for a in (0, 1): the result in Q2.29. */
static int32_t reciprocal_one_plus_q2(int32_t a) {
  const int32_t forty_eight_17ths = 1515870810;      /* 48/17 in Q2.29 */
  const int32_t minus_thirty_two_17ths = -1010580540; /* -32/17 in Q2.29 */
  const int32_t one_q2 = 1 << 29;
  const int64_t sum = (int64_t)a + INT32_MAX;          /* half_denominator = (a + 1) / 2 */
  const int32_t half_denominator = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
  int32_t x = wrap_add(forty_eight_17ths, fx_srdhm(half_denominator, minus_thirty_two_17ths));
  for (int i = 0; i < 3; i++) {
    const int32_t one_minus_dx = wrap_sub(one_q2, fx_srdhm(half_denominator, x));
    x = wrap_add(x, fx_mul_pot(fx_srdhm(x, one_minus_dx), 2)); /* Q4 product back to Q2 */
  }
  return x;
}

int32_t fx_logistic_q4(int32_t x) {
  if (x == 0) return 1 << 30;
  const int32_t magnitude = x > 0 ? x : wrap_sub(0, x);
  /* 1 / (1 + exp(-|x|)): the Q2.29 reciprocal read as Q1.30 halves it; then to Q0.31. */
  const int32_t positive = fx_mul_pot(reciprocal_one_plus_q2(exp_negative(wrap_sub(0, magnitude), 4)), 1);
  return x > 0 ? positive : wrap_sub(INT32_MAX, positive);
}

int32_t fx_tanh_q4(int32_t x) {
  if (x == 0) return 0;
  const int32_t negative = x < 0 ? x : wrap_sub(0, x);
  /* -tanh(n) = (1 - e) / (1 + e) with e = exp(2n): the raw Q4 value read as Q5 doubles it. */
  const int32_t e = exp_negative(negative, 5);
  const int32_t t = fx_mul_pot(wrap_sub(reciprocal_one_plus_q2(e), 1 << 29), 2); /* x - 1, Q2 -> Q0 */
  return x < 0 ? wrap_sub(0, t) : t;
}

/* ---- int16 -------------------------------------------------------------------- */

int16_t fx_wrap16(int64_t v) {
  int64_t low = v & 0xFFFF;
  if (low >= 0x8000) low -= 0x10000;
  return (int16_t)low;
}

int16_t fx_srdhm16(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  const int32_t ab = (int32_t)a * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return fx_wrap16((ab + nudge) / (1 << 15));
}

int16_t fx_sdhm16(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  return fx_wrap16(((int32_t)a * b) / (1 << 15));
}

int16_t fx_rdbpot16(int16_t x, int exponent) {
  const int16_t mask = fx_wrap16(((int64_t)1 << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return fx_wrap16((x >> exponent) + (remainder > threshold ? 1 : 0));
}

int16_t fx_sat_lshift16(int16_t value, int amount) {
  int64_t result = (int64_t)value * ((int64_t)1 << amount);
  if (result > INT16_MAX) result = INT16_MAX;
  if (result < INT16_MIN) result = INT16_MIN;
  return (int16_t)result;
}

int16_t fx_downscale_multiplier16(int32_t multiplier) {
  if (multiplier >= INT32_MAX - (1 << 15)) return INT16_MAX;
  return fx_wrap16((multiplier + (1 << 15)) >> 16);
}

/* ---- int16 sigmoid/tanh interpolation table ------------------------------------ */

/* TFLite's nodes are not plain roundings of s = sigmoid(i / 24): each is
 * s - s'' h^2 / 16 with h = 1/24 and s'' = s(1-s)(1-2s), i.e. shifted by half the
 * chord error of linear interpolation so that the interpolation errs evenly on both
 * sides; the last node is the format's maximum. This reproduces all 256 of TFLite's
 * values (checked against them). */
void fx_sigmoid_nodes_u16(uint16_t out[256]) {
  for (int i = 0; i < 256; i++) {
    const double x = i / 24.0, s = 1.0 / (1.0 + exp(-x));
    const double curvature = s * (1.0 - s) * (1.0 - 2.0 * s);
    double v = round(65536.0 * (s - curvature / (24.0 * 24.0 * 16.0)));
    if (v > 65535.0 || i == 255) v = 65535.0;
    out[i] = (uint16_t)v;
  }
}

void fx_sigmoid_nodes_i16(int16_t out[256]) {
  uint16_t nodes[256];
  fx_sigmoid_nodes_u16(nodes);
  for (int i = 0; i < 256; i++) out[i] = (int16_t)((int32_t)nodes[i] - 32768);
}
