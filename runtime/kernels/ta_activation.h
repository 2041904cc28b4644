/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16 LOGISTIC and TANH, TFLite Micro's table-interpolation
 * kernels. (int8 activations use ta_lut; float32 ones ta_activation_f32.) */
#ifndef TA_ACTIVATION_H
#define TA_ACTIVATION_H
#include "ta_common.h"

typedef struct ta_sigmoid16_params_t {
  int32_t size;        /* elements */
  int32_t multiplier;  /* input rescale: x' = (x * multiplier + round) >> shift */
  int32_t shift;       /* >= 0 */
  const int16_t *table; /* 256 entries: sigmoid(i / 24) in Q0.16, minus 32768 */
} ta_sigmoid16_params_t;

void ta_logistic_s16(const ta_sigmoid16_params_t *p, const int16_t *input, int16_t *output);
void ta_tanh_s16(const ta_sigmoid16_params_t *p, const int16_t *input, int16_t *output);

#endif
