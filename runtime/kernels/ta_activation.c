/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16 LOGISTIC and TANH by linear interpolation in a 256-entry
 * sigmoid table (tanh(x) = 2 * sigmoid(2x) - 1), as TFLite Micro computes them. */
#include "ta_activation.h"

/* The table holds sigmoid - 1/2 so that it fits int16; every entry is >= 1/2. */
static uint32_t sigmoid_entry(const int16_t *table, uint32_t i) {
  return (uint32_t)(table[i] + 32768);
}

static int32_t rescale_input(const ta_sigmoid16_params_t *p, int16_t x) {
  const int32_t round = p->shift > 0 ? (int32_t)1 << (p->shift - 1) : 0;
  return (x * p->multiplier + round) >> p->shift;
}

/* |x| (a rescaled int16 never reaches INT32_MIN). */
static uint32_t magnitude(int32_t x) { return (uint32_t)(x < 0 ? -x : x); }

/* The table at mag, whose nodes lie 2^step_bits input steps apart: the node below,
 * scaled by 2^step_bits, plus the fraction times the slope to the next node. Past the
 * last node the result saturates to `top`. */
static uint32_t interpolate(const int16_t *table, uint32_t mag, int step_bits, uint32_t top) {
  const uint32_t index = mag >> step_bits;
  uint32_t lo, hi;
  if (index >= 255) return top;
  lo = sigmoid_entry(table, index);
  hi = sigmoid_entry(table, index + 1);
  return (lo << step_bits) + (mag & ((1u << step_bits) - 1u)) * (hi - lo);
}

/* Input step 2^-9 of the table's 1/24 spacing after rescaling; output Q0.15. */
void ta_logistic_s16(const ta_sigmoid16_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = rescale_input(p, input[i]);
    uint32_t y = interpolate(p->table, magnitude(x), 9, (uint32_t)0x7FFF << 10);
    /* sigmoid(-x) = 1 - sigmoid(x), with TFLite's rounding offsets. */
    y = x >= 0 ? y + (1u << 9) : (1u << 25) - y + (1u << 9) - 1;
    output[i] = (int16_t)(y >> 10);
  }
}

/* Input step 2^-8 (twice the logistic's), output Q0.15. */
void ta_tanh_s16(const ta_sigmoid16_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = rescale_input(p, input[i]);
    int32_t y = (int32_t)interpolate(p->table, magnitude(x), 8, 0xFFFFu << 8);
    y = x >= 0 ? y - (1 << 23) + (1 << 7) : -y + (1 << 23) + (1 << 7) - 1;
    output[i] = (int16_t)(y >> 8); /* arithmetic shift, as TFLite */
  }
}
