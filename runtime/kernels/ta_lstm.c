/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: UNIDIRECTIONAL_SEQUENCE_LSTM kernels (see ta_lstm.h). Portable C99.
 *
 * The int8 kernel reproduces TFLM's integer LSTM bit for bit: each gate is the sum of
 * two requantised fully connected results (input and recurrent, saturated to int16
 * in Q3.12), squashed by the int16 sigmoid/tanh that interpolate a 256-entry table;
 * the cell and hidden updates are requantised element-wise products. */
#include "ta_lstm.h"

/* Node i of the interpolation table, sigmoid(i / 24) in unsigned Q0.16: the table
 * holds node - 32768 to fit int16 (every node is >= 1/2). tanh reuses the nodes
 * through tanh(x) = 2 sigmoid(2x) - 1. */
static uint32_t lstm_node(const int16_t *table, uint32_t i) { return (uint32_t)((int32_t)table[i] + 32768); }

/* x / 2^s rounded toward minus infinity, for either sign (an arithmetic shift). */
static int32_t lstm_floor_shift(int32_t x, int32_t s) {
  if (s <= 0) return x;
  return x >= 0 ? x >> s : -(int32_t)(((uint32_t)(-(x + 1)) >> s) + 1u);
}

static int16_t lstm_sat16(int32_t x) { return (int16_t)ta_clamp(x, -32768, 32767); }

/* Sigmoid of a Q3.12 value, result in Q0.15. */
static int16_t lstm_sigmoid_q12(const int16_t *table, int16_t x) {
  const int32_t v = (int32_t)x * 3; /* 3/4 range expansion, times 4 for the table step */
  const uint32_t a = (uint32_t)(v < 0 ? -v : v);
  const uint32_t idx = a >> 9;
  uint32_t r;
  if (idx >= 255u) {
    r = 0x7FFFu << 10;
  } else {
    const uint32_t lo = lstm_node(table, idx), hi = lstm_node(table, idx + 1u);
    r = (lo << 9) + (a & 0x1FFu) * (hi - lo);
  }
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return (int16_t)(r >> 10);
}

/* Tanh with result in Q0.15 of (x * multiplier + round) >> shift, the compiler having
 * chosen multiplier/shift so that this lands in the table's Q3.12 x 3 domain. */
static int16_t lstm_tanh(const int16_t *table, int16_t x, int32_t multiplier, int32_t shift) {
  const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
  const int32_t v = lstm_floor_shift((int32_t)x * multiplier + round, shift);
  const uint32_t a = (uint32_t)(v < 0 ? -v : v);
  const uint32_t idx = a >> 8;
  int32_t r;
  if (idx >= 255u) {
    r = 0xFFFF << 8;
  } else {
    const uint32_t lo = lstm_node(table, idx), hi = lstm_node(table, idx + 1u);
    r = (int32_t)((lo << 8) + (a & 0xFFu) * (hi - lo));
  }
  r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return (int16_t)lstm_floor_shift(r, 8);
}

/* uint32 -> int32 two's complement, without implementation-defined conversion. */
static int32_t lstm_wrap_i32(uint32_t u) { return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(~u) - 1; }

/* bias + w . x, wrapping modulo 2^32 like the reference's int32 accumulator. */
static int32_t lstm_dot_s8(int32_t bias, const int8_t *w, const int8_t *x, int32_t n) {
  uint32_t acc = (uint32_t)bias;
  int32_t k;
  for (k = 0; k < n; k++) acc += (uint32_t)((int32_t)w[k] * (int32_t)x[k]);
  return lstm_wrap_i32(acc);
}

/* Q3.12 pre-activation of gate g for one unit: input FC + recurrent FC, each
 * requantised and saturated on its own, then added with saturation. */
static int16_t lstm_gate_pre_s8(const ta_lstm_s8_params_t *p, int32_t g, const int8_t *unit_w,
                                const int32_t *unit_b, const int8_t *x, const int8_t *h) {
  const int8_t *w_in = unit_w + (size_t)g * (size_t)p->input_size;
  const int8_t *w_rec = unit_w + (size_t)4 * (size_t)p->input_size + (size_t)g * (size_t)p->state_size;
  int32_t a = lstm_dot_s8(unit_b[g], w_in, x, p->input_size);
  int32_t b = lstm_dot_s8(unit_b[4 + g], w_rec, h, p->state_size);
  a = lstm_sat16(ta_requantize(a, p->in_multiplier[g], p->in_shift[g]));
  b = lstm_sat16(ta_requantize(b, p->rec_multiplier[g], p->rec_shift[g]));
  return lstm_sat16(a + b);
}

/* One unit of one row: gates, new cell value (in place), new hidden value. */
static int8_t lstm_unit_s8(const ta_lstm_s8_params_t *p, int32_t j, const int8_t *x, const int8_t *h, int16_t *c) {
  const int8_t *unit_w = p->weights + (size_t)j * (size_t)4 * (size_t)(p->input_size + p->state_size);
  const int32_t *unit_b = p->bias + (size_t)j * 8u;
  const int16_t *nodes = p->sigmoid_table;
  const int16_t in_gate = lstm_sigmoid_q12(nodes, lstm_gate_pre_s8(p, TA_LSTM_GATE_INPUT, unit_w, unit_b, x, h));
  const int16_t forget_gate = lstm_sigmoid_q12(nodes, lstm_gate_pre_s8(p, TA_LSTM_GATE_FORGET, unit_w, unit_b, x, h));
  const int16_t cell_gate = lstm_tanh(nodes, lstm_gate_pre_s8(p, TA_LSTM_GATE_CELL, unit_w, unit_b, x, h), 3, 0);
  const int16_t out_gate = lstm_sigmoid_q12(nodes, lstm_gate_pre_s8(p, TA_LSTM_GATE_OUTPUT, unit_w, unit_b, x, h));
  int32_t kept = lstm_sat16(ta_requantize((int32_t)forget_gate * c[j], p->forget_multiplier, p->forget_shift));
  int32_t added = lstm_sat16(ta_requantize((int32_t)in_gate * cell_gate, p->update_multiplier, p->update_shift));
  int32_t cell = lstm_sat16(kept + added);
  if (p->clip_cell) cell = ta_clamp(cell, -p->cell_clip, p->cell_clip);
  c[j] = (int16_t)cell;
  {
    const int16_t squashed = lstm_tanh(nodes, (int16_t)cell, p->cell_tanh_multiplier, p->cell_tanh_shift);
    int32_t out = ta_requantize((int32_t)squashed * out_gate, p->hidden_multiplier, p->hidden_shift);
    return (int8_t)ta_clamp(out + p->hidden_zero_point, -128, 127);
  }
}

void ta_lstm_s8(const ta_lstm_s8_params_t *p, const int8_t *input, int8_t *hidden, int16_t *cell, int8_t *output) {
  const size_t in_step = (size_t)p->rows * (size_t)p->input_size;
  const size_t state_step = (size_t)p->rows * (size_t)p->state_size;
  int32_t seq, t, r, j;
  for (seq = 0; seq < p->sequences; seq++) {
    int8_t *h = hidden + (size_t)seq * state_step;
    int16_t *c = cell + (size_t)seq * state_step;
    for (t = 0; t < p->time_steps; t++) {
      const size_t step = (size_t)seq * (size_t)p->time_steps + (size_t)t;
      const int8_t *x = input + step * in_step;
      int8_t *y = output + step * state_step;
      for (r = 0; r < p->rows; r++) {
        const size_t ri = (size_t)r * (size_t)p->input_size, rs = (size_t)r * (size_t)p->state_size;
        for (j = 0; j < p->state_size; j++) y[rs + (size_t)j] = lstm_unit_s8(p, j, x + ri, h + rs, c + rs);
      }
      /* Every gate of this step has read the old hidden state: publish the new one. */
      memcpy(h, y, state_step * sizeof *h);
    }
  }
}

/* ---- int16 activations ---- */

static int64_t lstm_dot_s16(int64_t bias, const int8_t *w, const int16_t *x, int32_t n) {
  int64_t acc = bias;
  int32_t k;
  for (k = 0; k < n; k++) acc += (int64_t)((int32_t)w[k] * (int32_t)x[k]);
  return acc;
}

static int16_t lstm_gate_pre_s16(const ta_lstm_s16_params_t *p, int32_t g, const int8_t *unit_w,
                                 const int64_t *unit_b, const int16_t *x, const int16_t *h) {
  const int8_t *w_in = unit_w + (size_t)g * (size_t)p->input_size;
  const int8_t *w_rec = unit_w + (size_t)4 * (size_t)p->input_size + (size_t)g * (size_t)p->state_size;
  int32_t a = lstm_sat16(ta_requantize64(lstm_dot_s16(unit_b[g], w_in, x, p->input_size), p->in_multiplier[g],
                                         p->in_shift[g]));
  int32_t b = lstm_sat16(ta_requantize64(lstm_dot_s16(0, w_rec, h, p->state_size), p->rec_multiplier[g],
                                         p->rec_shift[g]));
  return lstm_sat16(a + b);
}

static int16_t lstm_unit_s16(const ta_lstm_s16_params_t *p, int32_t j, const int16_t *x, const int16_t *h,
                             int16_t *c) {
  const int8_t *unit_w = p->weights + (size_t)j * (size_t)4 * (size_t)(p->input_size + p->state_size);
  const int64_t *unit_b = p->bias + (size_t)j * 4u;
  const int16_t *nodes = p->sigmoid_table;
  const int16_t in_gate = lstm_sigmoid_q12(nodes, lstm_gate_pre_s16(p, TA_LSTM_GATE_INPUT, unit_w, unit_b, x, h));
  const int16_t forget_gate = lstm_sigmoid_q12(nodes, lstm_gate_pre_s16(p, TA_LSTM_GATE_FORGET, unit_w, unit_b, x, h));
  const int16_t cell_gate = lstm_tanh(nodes, lstm_gate_pre_s16(p, TA_LSTM_GATE_CELL, unit_w, unit_b, x, h), 3, 0);
  const int16_t out_gate = lstm_sigmoid_q12(nodes, lstm_gate_pre_s16(p, TA_LSTM_GATE_OUTPUT, unit_w, unit_b, x, h));
  int32_t kept = lstm_sat16(ta_requantize((int32_t)forget_gate * c[j], p->forget_multiplier, p->forget_shift));
  int32_t added = lstm_sat16(ta_requantize((int32_t)in_gate * cell_gate, p->update_multiplier, p->update_shift));
  int32_t cell = lstm_sat16(kept + added);
  if (p->clip_cell) cell = ta_clamp(cell, -p->cell_clip, p->cell_clip);
  c[j] = (int16_t)cell;
  {
    const int16_t squashed = lstm_tanh(nodes, (int16_t)cell, p->cell_tanh_multiplier, p->cell_tanh_shift);
    return lstm_sat16(ta_requantize((int32_t)squashed * out_gate, p->hidden_multiplier, p->hidden_shift));
  }
}

void ta_lstm_s16(const ta_lstm_s16_params_t *p, const int16_t *input, int16_t *hidden, int16_t *cell,
                 int16_t *output) {
  const size_t in_step = (size_t)p->rows * (size_t)p->input_size;
  const size_t state_step = (size_t)p->rows * (size_t)p->state_size;
  int32_t seq, t, r, j;
  for (seq = 0; seq < p->sequences; seq++) {
    int16_t *h = hidden + (size_t)seq * state_step;
    int16_t *c = cell + (size_t)seq * state_step;
    for (t = 0; t < p->time_steps; t++) {
      const size_t step = (size_t)seq * (size_t)p->time_steps + (size_t)t;
      const int16_t *x = input + step * in_step;
      int16_t *y = output + step * state_step;
      for (r = 0; r < p->rows; r++) {
        const size_t ri = (size_t)r * (size_t)p->input_size, rs = (size_t)r * (size_t)p->state_size;
        for (j = 0; j < p->state_size; j++) y[rs + (size_t)j] = lstm_unit_s16(p, j, x + ri, h + rs, c + rs);
      }
      memcpy(h, y, state_step * sizeof *h);
    }
  }
}
