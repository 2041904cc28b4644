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

/* Input step 2^-9 of the table's 1/24 spacing after rescaling; output Q0.15. */
void ta_logistic_s16(const ta_sigmoid16_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = rescale_input(p, input[i]);
    const uint32_t mag = (uint32_t)(x < 0 ? -x : x);
    const uint32_t index = mag >> 9;
    uint32_t y;
    if (index >= 255) {
      y = (uint32_t)0x7FFF << 10;
    } else {
      const uint32_t lo = sigmoid_entry(p->table, index), hi = sigmoid_entry(p->table, index + 1);
      y = (lo << 9) + (mag & 0x1FF) * (hi - lo);
    }
    /* sigmoid(-x) = 1 - sigmoid(x), with TFLite's rounding offsets. */
    y = x >= 0 ? y + (1u << 9) : (1u << 25) - y + (1u << 9) - 1;
    output[i] = (int16_t)(y >> 10);
  }
}

/* Input step 2^-8 (twice the logistic's), output Q0.15. */
void ta_tanh_s16(const ta_sigmoid16_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = rescale_input(p, input[i]);
    const uint32_t mag = (uint32_t)(x < 0 ? -x : x);
    const uint32_t index = mag >> 8;
    int32_t y;
    if (index >= 255) {
      y = (int32_t)(0xFFFFu << 8);
    } else {
      const uint32_t lo = sigmoid_entry(p->table, index), hi = sigmoid_entry(p->table, index + 1);
      y = (int32_t)((lo << 8) + (mag & 0xFF) * (hi - lo));
    }
    y = x >= 0 ? y - (1 << 23) + (1 << 7) : -y + (1 << 23) + (1 << 7) - 1;
    output[i] = (int16_t)(y >> 8); /* arithmetic shift, as TFLite */
  }
}
