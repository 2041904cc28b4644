/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: UNIDIRECTIONAL_SEQUENCE_LSTM (standard LSTM: no peephole, no
 * projection, no layer norm, no CIFG) on int8 activations with an int16 cell state,
 * hidden and cell state kept in variable tensors across inferences. The float32
 * variant, same layout and walk, is in ta_lstm_f32.h.
 *
 * A run walks `sequences` independent state groups; each group advances
 * `time_steps` steps over `rows` state rows at once. Time-major input [T][B][I]
 * is one group of B rows; batch-major input [B][T][I] is B groups of one row.
 * Step (seq, t) reads input + (seq*T + t)*rows*I and writes output + (seq*T + t)*rows*S;
 * group seq owns hidden/cell rows seq*rows .. seq*rows + rows - 1.
 *
 * Weights are re-laid out by the compiler: for each state unit, its rows of the
 * four input weight matrices ([I] each, gates in the order input, forget, cell,
 * output) followed by its rows of the four recurrent matrices ([S] each).
 * No scratch buffer: each step writes the new hidden state into its output slot,
 * then copies it to the hidden state. C99. */
#ifndef TA_LSTM_H
#define TA_LSTM_H
#include "ta_common.h"

enum { TA_LSTM_GATE_INPUT = 0, TA_LSTM_GATE_FORGET = 1, TA_LSTM_GATE_CELL = 2, TA_LSTM_GATE_OUTPUT = 3 };

/* int8 activations and weights, int16 cell state (TFLM's 8x8->16 integer LSTM). */
typedef struct {
  int32_t sequences, rows, time_steps, input_size, state_size;
  const int8_t *weights;  /* see above: per unit 4*I + 4*S */
  const int32_t *bias;    /* per unit: 4 input-side then 4 recurrent-side biases, zero points folded in */
  const int16_t *sigmoid_table; /* 256 entries: sigmoid(i / 24) in Q0.16 minus 32768, as TFLite's
                                   int16 sigmoid/tanh interpolate (computed by the compiler) */
  int32_t in_multiplier[4], in_shift[4];   /* input FC -> Q3.12 gate pre-activation */
  int32_t rec_multiplier[4], rec_shift[4]; /* recurrent FC -> Q3.12 */
  int32_t forget_multiplier, forget_shift; /* forget gate (Q0.15) x cell -> cell */
  int32_t update_multiplier, update_shift; /* input gate x cell gate (Q0.15 each) -> cell */
  int32_t hidden_multiplier, hidden_shift, hidden_zero_point; /* tanh(cell) x output gate -> hidden */
  int32_t cell_tanh_multiplier, cell_tanh_shift; /* cell -> tanh input: (c * m + round) >> shift */
  int32_t clip_cell;      /* nonzero: clamp the cell state to [-cell_clip, cell_clip] */
  int32_t cell_clip;
} ta_lstm_s8_params_t;

void ta_lstm_s8(const ta_lstm_s8_params_t *p, const int8_t *input, int8_t *hidden, int16_t *cell, int8_t *output);

/* int16 activations (zero points 0), int8 weights, int64 biases, int16 cell state
 * (TFLM's 16x8->16 integer LSTM): the fully connected parts accumulate in int64 and
 * requantise with ta_requantize64; the gates and the cell are as in the int8 form. */
typedef struct {
  int32_t sequences, rows, time_steps, input_size, state_size;
  const int8_t *weights;  /* as for int8 */
  const int64_t *bias;    /* per unit: the 4 input-side gate biases (the recurrent side has none) */
  const int16_t *sigmoid_table;
  int32_t in_multiplier[4], in_shift[4];
  int32_t rec_multiplier[4], rec_shift[4];
  int32_t forget_multiplier, forget_shift;
  int32_t update_multiplier, update_shift;
  int32_t hidden_multiplier, hidden_shift;
  int32_t cell_tanh_multiplier, cell_tanh_shift;
  int32_t clip_cell;
  int32_t cell_clip;
} ta_lstm_s16_params_t;

void ta_lstm_s16(const ta_lstm_s16_params_t *p, const int16_t *input, int16_t *hidden, int16_t *cell,
                 int16_t *output);

#endif
