/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: 8-bit table lookup (see ta_lut.h). */
#include "ta_lut.h"

void ta_lut_s8(const ta_lut8_params_t *p, const int8_t *input, int8_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = p->table[(uint8_t)input[i]];
}

void ta_lut_u8_s8(const ta_lut8_params_t *p, const uint8_t *input, int8_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = p->table[input[i]];
}
