/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 AVERAGE_POOL_2D for Cortex-M cores with MVE (Helium).
 *
 * Same parameters and arithmetic as ta_avg_pool_s8 (ta_pooling.h): per output cell and
 * channel the int32 sum of the window clipped to the input, divided by the number of
 * summed values rounding half away from zero, clamped to the activation range. The
 * sums run 4 channels per vector; the divisions stay scalar (MVE has no vector
 * integer division). Without __ARM_FEATURE_MVE it calls ta_avg_pool_s8. */
#ifndef TA_POOLING_MVE_H
#define TA_POOLING_MVE_H
#include "ta_common.h"
#include "ta_pooling.h"

void ta_avg_pool_s8_mve(const ta_pool_params_t *p, const int8_t *input, int8_t *output);

#endif
