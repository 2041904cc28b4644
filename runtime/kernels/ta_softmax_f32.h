/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: float32 SOFTMAX over the last dimension (needs expf from libm). */
#ifndef TA_SOFTMAX_F32_H
#define TA_SOFTMAX_F32_H
#include "ta_common.h"

typedef struct ta_softmax_f32_params_t {
  int32_t outer; /* rows: product of all but the last dimension */
  int32_t depth; /* last dimension */
  float beta;
} ta_softmax_f32_params_t;

void ta_softmax_f32(const ta_softmax_f32_params_t *p, const float *input, float *output);

#endif
