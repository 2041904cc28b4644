/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: SVDF kernels (see ta_svdf.h). Portable C99. */
#include "ta_svdf.h"

/* Drop the oldest slot of every state row. Shifting the whole buffer by one is
 * enough: the slot that crosses into the previous row is its newest one, which
 * the feature step overwrites right after. */
static void svdf_shift_state_s16(int16_t *state, int32_t total) {
  if (total > 1) memmove(state, state + 1, (size_t)(total - 1) * sizeof *state);
}

static void svdf_shift_state_f32(float *state, int32_t total) {
  if (total > 1) memmove(state, state + 1, (size_t)(total - 1) * sizeof *state);
}

/* uint32 -> int32 two's complement, without implementation-defined conversion. */
static int32_t svdf_wrap_i32(uint32_t u) { return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(~u) - 1; }

/* Newest state slot of each filter: the input projected by weights_feature,
 * requantised to the state scale and saturated to int16. */
static void svdf_feature_s8(const ta_svdf_s8_params_t *p, const int8_t *x, const int8_t *wf, int16_t *state_row) {
  int32_t f, c;
  for (f = 0; f < p->filters; f++) {
    const int8_t *w = wf + (size_t)f * (size_t)p->input_size;
    uint32_t sum = (uint32_t)p->feature_offset[f]; /* wraps like the reference's int32 */
    int32_t acc;
    for (c = 0; c < p->input_size; c++) sum += (uint32_t)((int32_t)w[c] * (int32_t)x[c]);
    acc = ta_requantize(svdf_wrap_i32(sum), p->feature_multiplier, p->feature_shift) + p->state_zero_point;
    state_row[(size_t)f * (size_t)p->memory + (size_t)(p->memory - 1)] = (int16_t)ta_clamp(acc, -32768, 32767);
  }
}

/* One output unit: bias plus the time-weighted state of its `rank` filters.
 * int16 x int16 products over the memory can exceed int32; the reference
 * accumulates in int32 and wraps, so accumulate modulo 2^32 (without UB). */
static int32_t svdf_unit_sum_s8(const ta_svdf_s8_params_t *p, const int16_t *wt, const int16_t *state_row, int32_t u) {
  uint32_t acc = (uint32_t)p->unit_bias[u];
  int32_t r, j;
  for (r = 0; r < p->rank; r++) {
    size_t f = (size_t)u * (size_t)p->rank + (size_t)r;
    const int16_t *w = wt + f * (size_t)p->memory;
    const int16_t *s = state_row + f * (size_t)p->memory;
    for (j = 0; j < p->memory; j++) acc += (uint32_t)((int32_t)w[j] * (int32_t)s[j]);
  }
  return svdf_wrap_i32(acc);
}

void ta_svdf_s8(const ta_svdf_s8_params_t *p, const int8_t *input, const int8_t *weights_feature,
                const int16_t *weights_time, int16_t *state, int8_t *output) {
  const size_t row = (size_t)p->filters * (size_t)p->memory;
  int32_t b, u;
  svdf_shift_state_s16(state, p->batches * p->filters * p->memory);
  for (b = 0; b < p->batches; b++) {
    int16_t *state_row = state + (size_t)b * row;
    svdf_feature_s8(p, input + (size_t)b * (size_t)p->input_size, weights_feature, state_row);
    for (u = 0; u < p->units; u++) {
      int32_t acc = svdf_unit_sum_s8(p, weights_time, state_row, u);
      acc = ta_requantize(acc, p->output_multiplier, p->output_shift) + p->output_zero_point;
      output[(size_t)b * (size_t)p->units + (size_t)u] = (int8_t)ta_clamp(acc, -128, 127);
    }
  }
}

/* int32 -> int8 keeping the low 8 bits (two's complement), without implementation-defined conversion. */
static int8_t svdf_wrap_i8(int32_t v) {
  const int32_t low = (int32_t)((uint32_t)v & 0xFFu);
  return (int8_t)(low > 127 ? low - 256 : low);
}

/* The int8-state form: the same three steps over int8 time weights and state. */
static void svdf_shift_state_s8(int8_t *state, int32_t total) {
  if (total > 1) memmove(state, state + 1, (size_t)(total - 1) * sizeof *state);
}

static void svdf_feature_state8(const ta_svdf_s8_params_t *p, const int8_t *x, const int8_t *wf, int8_t *state_row) {
  int32_t f, c;
  for (f = 0; f < p->filters; f++) {
    const int8_t *w = wf + (size_t)f * (size_t)p->input_size;
    uint32_t sum = (uint32_t)p->feature_offset[f];
    int32_t acc;
    for (c = 0; c < p->input_size; c++) sum += (uint32_t)((int32_t)w[c] * (int32_t)x[c]);
    /* saturated first, then offset: a large zero point wraps (the reference's order) */
    acc = ta_clamp(ta_requantize(svdf_wrap_i32(sum), p->feature_multiplier, p->feature_shift), -128, 127) +
          p->state_zero_point;
    state_row[(size_t)f * (size_t)p->memory + (size_t)(p->memory - 1)] = svdf_wrap_i8(acc);
  }
}

static int32_t svdf_unit_sum_state8(const ta_svdf_s8_params_t *p, const int8_t *wt, const int8_t *state_row, int32_t u) {
  uint32_t acc = (uint32_t)p->unit_bias[u];
  int32_t r, j;
  for (r = 0; r < p->rank; r++) {
    size_t f = (size_t)u * (size_t)p->rank + (size_t)r;
    const int8_t *w = wt + f * (size_t)p->memory;
    const int8_t *s = state_row + f * (size_t)p->memory;
    for (j = 0; j < p->memory; j++) acc += (uint32_t)((int32_t)w[j] * (int32_t)s[j]);
  }
  return svdf_wrap_i32(acc);
}

void ta_svdf_s8_state8(const ta_svdf_s8_params_t *p, const int8_t *input, const int8_t *weights_feature,
                       const int8_t *weights_time, int8_t *state, int8_t *output) {
  const size_t row = (size_t)p->filters * (size_t)p->memory;
  int32_t b, u;
  svdf_shift_state_s8(state, p->batches * p->filters * p->memory);
  for (b = 0; b < p->batches; b++) {
    int8_t *state_row = state + (size_t)b * row;
    svdf_feature_state8(p, input + (size_t)b * (size_t)p->input_size, weights_feature, state_row);
    for (u = 0; u < p->units; u++) {
      int32_t acc = svdf_unit_sum_state8(p, weights_time, state_row, u);
      acc = ta_requantize(acc, p->output_multiplier, p->output_shift) + p->output_zero_point;
      output[(size_t)b * (size_t)p->units + (size_t)u] = (int8_t)ta_clamp(acc, -128, 127);
    }
  }
}

void ta_svdf_f32(const ta_svdf_f32_params_t *p, const float *input, const float *weights_feature,
                 const float *weights_time, const float *bias, float *state, float *output) {
  const size_t row = (size_t)p->filters * (size_t)p->memory;
  int32_t b, f, c, u, r, j;
  svdf_shift_state_f32(state, p->batches * p->filters * p->memory);
  for (b = 0; b < p->batches; b++) {
    const float *x = input + (size_t)b * (size_t)p->input_size;
    float *state_row = state + (size_t)b * row;
    for (f = 0; f < p->filters; f++) {
      const float *w = weights_feature + (size_t)f * (size_t)p->input_size;
      float dot = 0.0f;
      for (c = 0; c < p->input_size; c++) dot += w[c] * x[c];
      state_row[(size_t)f * (size_t)p->memory + (size_t)(p->memory - 1)] = dot;
    }
    /* Same summation order as the reference: bias, then each filter's dot product. */
    for (u = 0; u < p->units; u++) {
      float acc = bias ? bias[u] : 0.0f;
      for (r = 0; r < p->rank; r++) {
        size_t fi = (size_t)u * (size_t)p->rank + (size_t)r;
        const float *w = weights_time + fi * (size_t)p->memory;
        const float *s = state_row + fi * (size_t)p->memory;
        float dot = 0.0f;
        for (j = 0; j < p->memory; j++) dot += w[j] * s[j];
        acc += dot;
      }
      acc = acc < p->act_min ? p->act_min : acc;
      acc = acc > p->act_max ? p->act_max : acc;
      output[(size_t)b * (size_t)p->units + (size_t)u] = acc;
    }
  }
}
