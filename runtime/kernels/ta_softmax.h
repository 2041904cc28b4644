/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: SOFTMAX kernels over the last dimension (int8 -> int8,
 * int8 -> int16, int16 -> int16).
 *
 * int8 input follows TFLite Micro's fixed-point path: a Q5.26 exp of the scaled
 * difference to the row maximum, a Q12.19 sum and a Newton-Raphson reciprocal.
 * int16 input uses two 513-entry interpolated tables (exp on [-10, 0] and
 * 1/(1+x) on [0, 1]) that the compiler generates. No floating point here; the
 * float32 kernel lives in ta_softmax_f32. */
#ifndef TA_SOFTMAX_H
#define TA_SOFTMAX_H
#include "ta_common.h"

typedef struct ta_softmax_params_t {
  int32_t outer;            /* rows: product of all but the last dimension */
  int32_t depth;            /* last dimension */
  int32_t input_multiplier; /* beta * input scale, as a multiplier ... */
  int32_t input_shift;      /* ... and its (left) shift */
  int32_t diff_min;         /* int8: differences below this contribute zero */
  const int16_t *exp_lut;   /* int16: exp(x), x in [-10, 0], 513 entries */
  const int16_t *recip_lut; /* int16: 1/(1+x), x in [0, 1], 513 entries */
} ta_softmax_params_t;

void ta_softmax_s8(const ta_softmax_params_t *p, const int8_t *input, int8_t *output);
void ta_softmax_s8_s16(const ta_softmax_params_t *p, const int8_t *input, int16_t *output);
void ta_softmax_s16(const ta_softmax_params_t *p, const int16_t *input, int16_t *output);

#endif
