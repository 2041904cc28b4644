/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: L2_NORMALIZATION (see ta_l2norm.h). */
#include "ta_l2norm.h"

#include <math.h>

void ta_l2norm_f32(const ta_l2norm_params_t *p, const float *input, float *output) {
  for (int32_t r = 0; r < p->outer; r++) {
    const float *in = input + (size_t)r * (size_t)p->depth;
    float *out = output + (size_t)r * (size_t)p->depth;
    float squares = 0.0f;
    for (int32_t c = 0; c < p->depth; c++) squares += in[c] * in[c];
    float norm = sqrtf(squares);
    norm = norm > 1e-6f ? norm : 1e-6f;
    for (int32_t c = 0; c < p->depth; c++) out[c] = in[c] / norm;
  }
}

/* gemmlowp's saturating x * 2^exponent for 0 < exponent < 31. */
static int32_t l2norm_sat_shift_left(int32_t x, int exponent) {
  const int32_t threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return (int32_t)((uint32_t)x << exponent);
}

static int l2norm_leading_zeros(uint32_t v) {
  int n = 0;
  while (n < 32 && !(v & 0x80000000u)) {
    v <<= 1;
    n++;
  }
  return n;
}

void ta_inv_sqrt_multiplier(int32_t x, int32_t *multiplier, int32_t *shift) {
  if (x <= 1) {
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  /* Bring x into [2^27, 2^29) two bits at a time; s counts the pairs. */
  int32_t s = 11;
  while (x >= (1 << 29)) {
    x /= 4;
    s++;
  }
  const int pairs = (l2norm_leading_zeros((uint32_t)x) - 1) / 2 - 1;
  s -= pairs;
  x = (int32_t)((uint32_t)x << (2 * pairs));
  /* Newton-Raphson in Q3.28 (products in Q6 and Q9, brought back to Q3). */
  const int32_t half_x = ta_rounding_divide_by_pot(x >> 1, 1);
  const int32_t three_halves = (1 << 28) + (1 << 27);
  int32_t y = 1 << 28;
  for (int i = 0; i < 5; i++) {
    const int32_t y3 =
        l2norm_sat_shift_left(ta_sat_round_doubling_high_mul(ta_sat_round_doubling_high_mul(y, y), y), 6);
    const int32_t diff = (int32_t)((uint32_t)ta_sat_round_doubling_high_mul(three_halves, y) -
                                   (uint32_t)ta_sat_round_doubling_high_mul(half_x, y3));
    y = l2norm_sat_shift_left(diff, 3);
  }
  y = ta_sat_round_doubling_high_mul(y, 1518500250); /* times sqrt(2) / 2 */
  if (s < 0) {
    y = (int32_t)((uint32_t)y << -s);
    s = 0;
  }
  *multiplier = y;
  *shift = -s;
}

void ta_l2norm_s8(const ta_l2norm_params_t *p, const int8_t *input, int8_t *output) {
  for (int32_t r = 0; r < p->outer; r++) {
    const int8_t *in = input + (size_t)r * (size_t)p->depth;
    int8_t *out = output + (size_t)r * (size_t)p->depth;
    int32_t squares = 0;
    for (int32_t c = 0; c < p->depth; c++) {
      const int32_t d = in[c] - p->in_offset;
      squares += d * d;
    }
    int32_t multiplier, shift;
    ta_inv_sqrt_multiplier(squares, &multiplier, &shift);
    for (int32_t c = 0; c < p->depth; c++) {
      const int32_t y = ta_requantize(in[c] - p->in_offset, multiplier, shift + 7); /* 7: output steps 1/128 */
      out[c] = (int8_t)ta_clamp(y, -128, 127);
    }
  }
}
