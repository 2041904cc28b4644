/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: ADD_N and CUMSUM (portable C); see ta_accumulate.h. */
#include "ta_accumulate.h"

/* One stored int8 value on the common scale of the sum. */
static int32_t accum_scaled(const ta_accum_s8_t *q, int32_t v) {
  return ta_requantize((v + q->input_offset) * (1 << q->left_shift), q->input_multiplier, q->input_shift);
}

static int8_t accum_output(const ta_accum_s8_t *q, int32_t sum) {
  return (int8_t)ta_clamp(ta_requantize(sum, q->out_multiplier, q->out_shift) + q->out_offset, q->act_min,
                          q->act_max);
}

void ta_add_n_f32(int32_t size, int32_t n, const float *const *inputs, float *out) {
  for (int32_t i = 0; i < size; i++) {
    float x = 0.0f;
    for (int32_t j = 0; j < n; j++) x += inputs[j][i];
    out[i] = x;
  }
}

void ta_add_n_s8(const ta_accum_s8_t *q, int32_t size, int32_t n, const int8_t *const *inputs, int8_t *out) {
  const int32_t start = accum_scaled(q, 0); /* TFLite Micro's starting value, see the header */
  for (int32_t i = 0; i < size; i++) {
    int32_t sum = start;
    for (int32_t j = 0; j < n; j++) sum += accum_scaled(q, inputs[j][i]);
    out[i] = accum_output(q, sum);
  }
}

/* Element k of the line (o, i) along the axis, in the order the sum visits it. */
static size_t cumsum_index(const ta_cumsum_params_t *p, int32_t o, int32_t i, int32_t k) {
  const int32_t kk = p->reverse ? p->depth - 1 - k : k;
  return ((size_t)o * (size_t)p->depth + (size_t)kk) * (size_t)p->inner + (size_t)i;
}

void ta_cumsum_f32(const ta_cumsum_params_t *p, const float *input, float *output) {
  for (int32_t o = 0; o < p->outer; o++)
    for (int32_t i = 0; i < p->inner; i++) {
      float acc = 0.0f;
      for (int32_t k = 0; k < p->depth; k++) {
        const size_t at = cumsum_index(p, o, i, k);
        const float v = input[at];
        if (p->exclusive) {
          output[at] = acc;
          acc += v;
        } else {
          acc += v;
          output[at] = acc;
        }
      }
    }
}

void ta_cumsum_s8(const ta_cumsum_params_t *p, const int8_t *input, int8_t *output) {
  const int32_t start = accum_scaled(&p->q, 0); /* TFLite Micro's starting value, see the header */
  for (int32_t o = 0; o < p->outer; o++)
    for (int32_t i = 0; i < p->inner; i++) {
      int32_t acc = start;
      for (int32_t k = 0; k < p->depth; k++) {
        const size_t at = cumsum_index(p, o, i, k);
        const int32_t v = accum_scaled(&p->q, input[at]);
        int32_t shown;
        if (p->exclusive) {
          shown = acc;
          acc += v;
        } else {
          acc += v;
          shown = acc;
        }
        output[at] = accum_output(&p->q, shown);
      }
    }
}
