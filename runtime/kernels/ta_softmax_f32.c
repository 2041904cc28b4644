/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: float32 SOFTMAX (portable C, the reference tier). */
#include <math.h>

#include "ta_softmax_f32.h"

void ta_softmax_f32(const ta_softmax_f32_params_t *p, const float *input, float *output) {
  for (int32_t r = 0; r < p->outer; r++) {
    const float *in = input + (size_t)r * (size_t)p->depth;
    float *out = output + (size_t)r * (size_t)p->depth;
    /* subtracting the row maximum keeps expf in range without changing the result */
    float max_in_row = -3.40282347e+38f;
    for (int32_t c = 0; c < p->depth; c++) max_in_row = max_in_row < in[c] ? in[c] : max_in_row;
    float sum = 0.f;
    for (int32_t c = 0; c < p->depth; c++) {
      out[c] = expf((in[c] - max_in_row) * p->beta);
      sum += out[c];
    }
    for (int32_t c = 0; c < p->depth; c++) out[c] = out[c] / sum;
  }
}
