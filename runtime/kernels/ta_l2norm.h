/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: L2_NORMALIZATION over the last dimension, float32 and int8, as
 * TFLite Micro's reference kernels compute it. */
#ifndef TA_L2NORM_H
#define TA_L2NORM_H
#include "ta_common.h"

typedef struct ta_l2norm_params_t {
  int32_t outer;       /* rows */
  int32_t depth;       /* elements per row (the last dimension) */
  int32_t in_offset;   /* int8: input zero point */
} ta_l2norm_params_t;

/* x / max(sqrt(sum of squares), 1e-6) in single precision. */
void ta_l2norm_f32(const ta_l2norm_params_t *p, const float *input, float *output);
/* (x - zp) / sqrt(sum (x - zp)^2) in output steps of 1/128 (TFLite's fixed int8 output
 * scale, zero point 0), with TFLite's fixed-point inverse square root. */
void ta_l2norm_s8(const ta_l2norm_params_t *p, const int8_t *input, int8_t *output);

/* TFLite's GetInvSqrtQuantizedMultiplierExp (reversed shift): 1 / sqrt(x) as a
 * multiplier and shift for ta_requantize; x <= 1 gives (INT32_MAX, 0). */
void ta_inv_sqrt_multiplier(int32_t x, int32_t *multiplier, int32_t *shift);

#endif
