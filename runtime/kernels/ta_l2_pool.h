/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: L2_POOL_2D (float32, NHWC): sqrt of the mean square over each
 * window clipped to the input, as TFLite's reference L2Pool. */
#ifndef TA_L2_POOL_H
#define TA_L2_POOL_H
#include "ta_pooling.h"

void ta_l2_pool_f32(const ta_pool_params_t *p, const float *input, float *output);

#endif
