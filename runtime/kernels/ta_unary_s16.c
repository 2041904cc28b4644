/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16 elementwise requantising maps (see ta_unary_s16.h). */
#include "ta_unary_s16.h"

void ta_requant_sign_s16(const ta_unary_s16_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t d = input[i] - p->in_offset;
    const int32_t y = d >= 0 ? ta_requantize(d, p->pos_multiplier, p->pos_shift)
                             : ta_requantize(d, p->neg_multiplier, p->neg_shift);
    output[i] = (int16_t)ta_clamp(p->out_offset + y, p->act_min, p->act_max);
  }
}

void ta_abs_q_s16(const ta_unary_s16_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t d = input[i] - p->in_offset;
    const int32_t y = ta_requantize(d < 0 ? -d : d, p->pos_multiplier, p->pos_shift);
    output[i] = (int16_t)ta_clamp(p->out_offset + y, p->act_min, p->act_max);
  }
}

void ta_abs_raw_s16(int32_t size, const int16_t *input, int16_t *output) {
  for (int32_t i = 0; i < size; i++) {
    const int32_t x = input[i];
    output[i] = (int16_t)(uint16_t)(uint32_t)(x < 0 ? -x : x); /* 32768 wraps to -32768 */
  }
}
