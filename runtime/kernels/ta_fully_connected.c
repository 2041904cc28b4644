/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: FULLY_CONNECTED kernels (portable C, the reference tier). */
#include "ta_fully_connected.h"

static int32_t fc_multiplier(const ta_fc_params_t *p, int32_t channel) {
  return p->multipliers ? p->multipliers[channel] : p->multiplier;
}

static int32_t fc_shift(const ta_fc_params_t *p, int32_t channel) {
  return p->shifts ? p->shifts[channel] : p->shift;
}

void ta_fully_connected_s8(const ta_fc_params_t *p, const int8_t *input, const int8_t *weights,
                           const int32_t *bias, int8_t *output) {
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *in_row = input + (size_t)b * (size_t)p->accum_depth;
    int8_t *out_row = output + (size_t)b * (size_t)p->out_depth;
    for (int32_t c = 0; c < p->out_depth; c++) {
      const int8_t *w_row = weights + (size_t)c * (size_t)p->accum_depth;
      int32_t acc = 0;
      for (int32_t d = 0; d < p->accum_depth; d++) acc += (int32_t)w_row[d] * ((int32_t)in_row[d] + p->input_offset);
      if (bias) acc += bias[c];
      int32_t v = ta_requantize(acc, fc_multiplier(p, c), fc_shift(p, c)) + p->output_offset;
      out_row[c] = (int8_t)ta_clamp(v, p->act_min, p->act_max);
    }
  }
}

void ta_fully_connected_s16(const ta_fc_params_t *p, const int16_t *input, const int8_t *weights,
                            const int64_t *bias, int16_t *output) {
  for (int32_t b = 0; b < p->batches; b++) {
    const int16_t *in_row = input + (size_t)b * (size_t)p->accum_depth;
    int16_t *out_row = output + (size_t)b * (size_t)p->out_depth;
    for (int32_t c = 0; c < p->out_depth; c++) {
      const int8_t *w_row = weights + (size_t)c * (size_t)p->accum_depth;
      int64_t acc = 0;
      for (int32_t d = 0; d < p->accum_depth; d++) acc += (int32_t)w_row[d] * (int32_t)in_row[d];
      if (bias) acc += bias[c];
      int32_t v = ta_requantize64(acc, fc_multiplier(p, c), fc_shift(p, c));
      out_row[c] = (int16_t)ta_clamp(v, p->act_min, p->act_max);
    }
  }
}

void ta_fully_connected_s16_acc32(const ta_fc_params_t *p, const int16_t *input, const int8_t *weights,
                                  const int32_t *bias, int16_t *output) {
  for (int32_t b = 0; b < p->batches; b++) {
    const int16_t *in_row = input + (size_t)b * (size_t)p->accum_depth;
    int16_t *out_row = output + (size_t)b * (size_t)p->out_depth;
    for (int32_t c = 0; c < p->out_depth; c++) {
      const int8_t *w_row = weights + (size_t)c * (size_t)p->accum_depth;
      int32_t acc = 0;
      for (int32_t d = 0; d < p->accum_depth; d++) acc += (int32_t)w_row[d] * (int32_t)in_row[d];
      if (bias) acc += bias[c];
      int32_t v = ta_requantize(acc, fc_multiplier(p, c), fc_shift(p, c));
      out_row[c] = (int16_t)ta_clamp(v, p->act_min, p->act_max);
    }
  }
}

void ta_fully_connected_f32(const ta_fc_f32_params_t *p, const float *input, const float *weights,
                            const float *bias, float *output) {
  for (int32_t b = 0; b < p->batches; b++) {
    const float *in_row = input + (size_t)b * (size_t)p->accum_depth;
    float *out_row = output + (size_t)b * (size_t)p->out_depth;
    for (int32_t c = 0; c < p->out_depth; c++) {
      const float *w_row = weights + (size_t)c * (size_t)p->accum_depth;
      float total = 0.f;
      for (int32_t d = 0; d < p->accum_depth; d++) total += in_row[d] * w_row[d];
      /* bias is added after the dot product, as the reference kernel does */
      float v = total + (bias ? bias[c] : 0.f);
      v = v < p->act_min ? p->act_min : v;
      out_row[c] = v > p->act_max ? p->act_max : v;
    }
  }
}
