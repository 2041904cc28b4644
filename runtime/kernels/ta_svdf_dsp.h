/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the int8 SVDF (int16 time weights and state) on the Cortex-M4 DSP
 * extension. Same parameters, layouts, walk and requantisation as ta_svdf_s8 (ta_svdf.h);
 * the feature dot products take 4 bytes per step (SXTB16 + SMLAD), the time dot products
 * 2 halves per step (SMLAD). A unit's rank filters are contiguous in both the time
 * weights and the state, so each unit is one dot product over rank x memory elements.
 * C99; without the DSP extension (host builds) the same sums run in plain C. */
#ifndef TA_SVDF_DSP_H
#define TA_SVDF_DSP_H
#include "ta_svdf.h"

void ta_svdf_s8_dsp(const ta_svdf_s8_params_t *p, const int8_t *input, const int8_t *weights_feature,
                    const int16_t *weights_time, int16_t *state, int8_t *output);

#endif
