/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: 8-bit table lookup. Any elementwise map from an 8-bit input to
 * an int8 output (LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, RELU, RELU6, requantizing
 * QUANTIZE) is tabulated by the compiler with TFLite's exact integer arithmetic, so
 * the run time cost is one load per element. */
#ifndef TA_LUT_H
#define TA_LUT_H
#include "ta_common.h"

typedef struct ta_lut8_params_t {
  int32_t size;        /* elements */
  const int8_t *table; /* 256 entries, indexed by the input's byte value (int8 -1 -> 255) */
} ta_lut8_params_t;

void ta_lut_s8(const ta_lut8_params_t *p, const int8_t *input, int8_t *output);
void ta_lut_u8_s8(const ta_lut8_params_t *p, const uint8_t *input, int8_t *output);

#endif
