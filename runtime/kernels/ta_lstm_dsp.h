/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: UNIDIRECTIONAL_SEQUENCE_LSTM, int8 with an int16 cell state, on the
 * Cortex-M4 DSP extension (SMLAD on SXTB16-unpacked pairs). Same walk and arithmetic as
 * ta_lstm_s8 (ta_lstm.h); only the weight order differs, so that one pointer streams a
 * unit's four gates against each word of the input:
 *
 *   per unit, input side then recurrent side (n = input_size, then state_size):
 *     for each group of 4 elements k..k+3 (n / 4 groups): gate 0's 4 weights, gate 1's,
 *     gate 2's, gate 3's (16 bytes); then the n % 4 tail weights of gate 0, 1, 2, 3.
 *
 * The same bytes as the portable layout, reordered. C99; without the DSP extension
 * (host builds) the same loops run in plain C. */
#ifndef TA_LSTM_DSP_H
#define TA_LSTM_DSP_H
#include "ta_lstm_gates.h"

void ta_lstm_s8_dsp(const ta_lstm_s8_tier_params_t *p, const int8_t *input, int8_t *hidden, int16_t *cell,
                    int8_t *output);

#endif
