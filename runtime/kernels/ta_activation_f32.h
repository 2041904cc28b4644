/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: float32 activations (LOGISTIC and TANH need expf / tanhf from libm). */
#ifndef TA_ACTIVATION_F32_H
#define TA_ACTIVATION_F32_H
#include "ta_common.h"

void ta_logistic_f32(int32_t size, const float *input, float *output);
void ta_tanh_f32(int32_t size, const float *input, float *output);
void ta_relu_f32(int32_t size, const float *input, float *output);
void ta_relu6_f32(int32_t size, const float *input, float *output);

#endif
