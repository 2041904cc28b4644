/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: UNIDIRECTIONAL_SEQUENCE_LSTM on float32 (standard LSTM: no peephole,
 * projection, layer norm or CIFG; tanh cell gate), hidden and cell state kept in
 * variable tensors across inferences.
 *
 * A run walks `sequences` independent state groups; each group advances
 * `time_steps` steps over `rows` state rows at once (time-major input: one group
 * of B rows; batch-major: B groups of one row). Step (seq, t) reads
 * input + (seq*T + t)*rows*I and writes output + (seq*T + t)*rows*S.
 * Weights, re-laid out by the compiler: per state unit, its rows of the four input
 * matrices ([I] each; gates input, forget, cell, output), then of the four
 * recurrent matrices ([S] each). No scratch buffer. C99; uses <math.h>. */
#ifndef TA_LSTM_F32_H
#define TA_LSTM_F32_H
#include "ta_common.h"

/* float32 throughout; the cell gate uses tanh. */
typedef struct {
  int32_t sequences, rows, time_steps, input_size, state_size;
  const float *weights;   /* see above: per unit 4*I + 4*S */
  const float *bias;      /* per unit: the 4 gate biases */
  float cell_clip;        /* 0: no clipping */
} ta_lstm_f32_params_t;

void ta_lstm_f32(const ta_lstm_f32_params_t *p, const float *input, float *hidden, float *cell, float *output);

#endif
