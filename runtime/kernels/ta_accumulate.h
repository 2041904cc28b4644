/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: running and n-way sums (ADD_N, CUMSUM).
 *
 * The int8 forms follow TensorFlow Lite Micro's reference kernels: every input is
 * offset by minus its zero point, shifted left by 20 bits and rescaled to half its
 * scale; the sum is rescaled to the output. Their accumulator does not start at 0
 * but at the rescaled value of minus the input zero point (the rescale of a stored
 * 0), so for a non-zero input zero point every output carries one extra -zero_point
 * term. That is what TensorFlow Lite Micro computes, so it is what we compute. */
#ifndef TA_ACCUMULATE_H
#define TA_ACCUMULATE_H
#include "ta_common.h"

/* The int8 rescaling shared by ADD_N and CUMSUM. */
typedef struct ta_accum_s8_t {
  int32_t input_offset;                  /* -input zero point */
  int32_t left_shift;                    /* 20 */
  int32_t input_multiplier, input_shift; /* shift <= 0 */
  int32_t out_multiplier, out_shift;     /* shift <= 0 */
  int32_t out_offset;                    /* output zero point */
  int32_t act_min, act_max;
} ta_accum_s8_t;

/* out[i] = in[0][i] + ... + in[n-1][i], n >= 1, summed in input order. */
void ta_add_n_f32(int32_t size, int32_t n, const float *const *inputs, float *out);
void ta_add_n_s8(const ta_accum_s8_t *q, int32_t size, int32_t n, const int8_t *const *inputs, int8_t *out);

/* A tensor seen as [outer][depth][inner] with the running sum along depth. */
typedef struct ta_cumsum_params_t {
  int32_t outer, depth, inner;
  int32_t exclusive; /* each output leaves out its own element */
  int32_t reverse;   /* sums run from the end of the axis */
  ta_accum_s8_t q;   /* int8 only */
} ta_cumsum_params_t;

void ta_cumsum_f32(const ta_cumsum_params_t *p, const float *input, float *output);
void ta_cumsum_s8(const ta_cumsum_params_t *p, const int8_t *input, int8_t *output);

#endif
