/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: LOG_SOFTMAX over the last dimension, float32 and int8, as TFLite
 * Micro's reference kernels compute it (int8: gemmlowp fixed point, output scale
 * 16/256 and zero point 127). */
#ifndef TA_LOG_SOFTMAX_H
#define TA_LOG_SOFTMAX_H
#include "ta_common.h"

typedef struct ta_log_softmax_params_t {
  int32_t outer, depth;             /* rows, elements per row */
  /* int8 only */
  int32_t input_multiplier, input_left_shift; /* input difference -> Q5.26 */
  int32_t reverse_multiplier, reverse_shift;  /* Q5.26 -> input steps (shift <= 0) */
  int32_t diff_min;                 /* differences below it add nothing to the sum */
} ta_log_softmax_params_t;

/* x - max - log(sum exp(x - max)) in single precision. */
void ta_log_softmax_f32(const ta_log_softmax_params_t *p, const float *input, float *output);
void ta_log_softmax_s8(const ta_log_softmax_params_t *p, const int8_t *input, int8_t *output);

/* Building blocks, exposed for the unit tests (gemmlowp raw int32 fixed point). */
/* exp(a) for a <= 0 in Q5.26; result Q0.31. */
int32_t ta_exp_on_negative_q5(int32_t a);
/* log(x) for x >= 1 in Q12.19; result Q5.26. */
int32_t ta_log_q12_to_q5(int32_t x);

#endif
