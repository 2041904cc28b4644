/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: float32 UNIDIRECTIONAL_SEQUENCE_LSTM kernel (see ta_lstm_f32.h).
 * Per element, the same float operations in the same order as TFLite's reference. */
#include <math.h>

#include "ta_lstm_f32.h"

enum { LSTM_F32_INPUT = 0, LSTM_F32_FORGET = 1, LSTM_F32_CELL = 2, LSTM_F32_OUTPUT = 3 };

static float lstm_sigmoid_f32(float x) {
  /* Same cut-offs as TFLite's reference logistic. */
  if (x > 16.619047164916992188f) return 1.0f;
  if (x < -9.0f) return expf(x);
  return 1.0f / (1.0f + expf(-x));
}

static float lstm_dot_f32(const float *w, const float *x, int32_t n) {
  float acc = 0.0f;
  int32_t k;
  for (k = 0; k < n; k++) acc += x[k] * w[k];
  return acc;
}

static float lstm_gate_pre_f32(const ta_lstm_f32_params_t *p, int32_t g, const float *unit_w, const float *unit_b,
                               const float *x, const float *h) {
  const float *w_in = unit_w + (size_t)g * (size_t)p->input_size;
  const float *w_rec = unit_w + (size_t)4 * (size_t)p->input_size + (size_t)g * (size_t)p->state_size;
  const float a = lstm_dot_f32(w_in, x, p->input_size) + unit_b[g];
  const float b = lstm_dot_f32(w_rec, h, p->state_size);
  return a + b;
}

static float lstm_unit_f32(const ta_lstm_f32_params_t *p, int32_t j, const float *x, const float *h, float *c) {
  const float *unit_w = p->weights + (size_t)j * (size_t)4 * (size_t)(p->input_size + p->state_size);
  const float *unit_b = p->bias + (size_t)j * 4u;
  const float in_gate = lstm_sigmoid_f32(lstm_gate_pre_f32(p, LSTM_F32_INPUT, unit_w, unit_b, x, h));
  const float forget_gate = lstm_sigmoid_f32(lstm_gate_pre_f32(p, LSTM_F32_FORGET, unit_w, unit_b, x, h));
  const float cell_gate = tanhf(lstm_gate_pre_f32(p, LSTM_F32_CELL, unit_w, unit_b, x, h));
  const float out_gate = lstm_sigmoid_f32(lstm_gate_pre_f32(p, LSTM_F32_OUTPUT, unit_w, unit_b, x, h));
  float cell = forget_gate * c[j];
  cell = cell + in_gate * cell_gate;
  if (p->cell_clip > 0.0f) {
    cell = cell < p->cell_clip ? cell : p->cell_clip;
    cell = cell > -p->cell_clip ? cell : -p->cell_clip;
  }
  c[j] = cell;
  return tanhf(cell) * out_gate;
}

void ta_lstm_f32(const ta_lstm_f32_params_t *p, const float *input, float *hidden, float *cell, float *output) {
  const size_t in_step = (size_t)p->rows * (size_t)p->input_size;
  const size_t state_step = (size_t)p->rows * (size_t)p->state_size;
  int32_t seq, t, r, j;
  for (seq = 0; seq < p->sequences; seq++) {
    float *h = hidden + (size_t)seq * state_step;
    float *c = cell + (size_t)seq * state_step;
    for (t = 0; t < p->time_steps; t++) {
      const size_t step = (size_t)seq * (size_t)p->time_steps + (size_t)t;
      const float *x = input + step * in_step;
      float *y = output + step * state_step;
      for (r = 0; r < p->rows; r++) {
        const size_t ri = (size_t)r * (size_t)p->input_size, rs = (size_t)r * (size_t)p->state_size;
        for (j = 0; j < p->state_size; j++) y[rs + (size_t)j] = lstm_unit_f32(p, j, x + ri, h + rs, c + rs);
      }
      memcpy(h, y, state_step * sizeof *h);
    }
  }
}
