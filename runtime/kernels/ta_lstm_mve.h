/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: UNIDIRECTIONAL_SEQUENCE_LSTM, int8 with an int16 cell state, on the
 * Cortex-M55 MVE (VMLADAVA over 16 bytes, tail-predicated). Same walk, weight layout and
 * arithmetic as ta_lstm_s8 (ta_lstm.h): per unit, the unit's rows of the four input
 * matrices, then of the four recurrent ones; each 16-byte vector of the input is loaded
 * once and multiplied against the four gates' rows. C99; without MVE (host builds) the
 * same sums run in plain C. */
#ifndef TA_LSTM_MVE_H
#define TA_LSTM_MVE_H
#include "ta_lstm_gates.h"

void ta_lstm_s8_mve(const ta_lstm_s8_tier_params_t *p, const int8_t *input, int8_t *hidden, int16_t *cell,
                    int8_t *output);

#endif
