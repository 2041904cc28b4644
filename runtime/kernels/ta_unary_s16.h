/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16 elementwise maps with a sign-dependent requantisation
 * (RELU, RELU6, LEAKY_RELU, ABS), TFLite Micro's per-element arithmetic. int16 has
 * too many inputs for the 8-bit tables of ta_lut.h, so these compute each element. */
#ifndef TA_UNARY_S16_H
#define TA_UNARY_S16_H
#include "ta_common.h"

typedef struct ta_unary_s16_params_t {
  int32_t size;               /* elements */
  int32_t in_offset;          /* input zero point */
  int32_t out_offset;         /* output zero point */
  int32_t pos_multiplier, pos_shift; /* for x - in_offset >= 0 (ABS: every element) */
  int32_t neg_multiplier, neg_shift; /* for x - in_offset < 0 */
  int32_t act_min, act_max;   /* output clamp */
} ta_unary_s16_params_t;

/* out = clamp(out_offset + requantize(d, d >= 0 ? pos : neg), act), d = x - in_offset. */
void ta_requant_sign_s16(const ta_unary_s16_params_t *p, const int16_t *input, int16_t *output);
/* out = clamp(out_offset + requantize(|x - in_offset|, pos), act). */
void ta_abs_q_s16(const ta_unary_s16_params_t *p, const int16_t *input, int16_t *output);
/* Unquantized int16 ABS: |x| stored back to int16, so -32768 stays -32768 as in
 * TFLite Micro. */
void ta_abs_raw_s16(int32_t size, const int16_t *input, int16_t *output);

#endif
