/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: float32 activations, following TFLite's reference kernels. */
#include "ta_activation_f32.h"

#include <math.h>

/* Saturates above the point where the result rounds to 1 and uses exp(x) directly
 * far below zero, like TFLite's reference logistic. */
void ta_logistic_f32(int32_t size, const float *input, float *output) {
  const float upper_cutoff = 16.619047164916992188f;
  const float lower_cutoff = -9.0f;
  for (int32_t i = 0; i < size; i++) {
    const float x = input[i];
    if (x > upper_cutoff)
      output[i] = 1.0f;
    else if (x < lower_cutoff)
      output[i] = expf(x);
    else
      output[i] = 1.0f / (1.0f + expf(-x));
  }
}

void ta_tanh_f32(int32_t size, const float *input, float *output) {
  for (int32_t i = 0; i < size; i++) output[i] = tanhf(input[i]);
}

void ta_relu_f32(int32_t size, const float *input, float *output) {
  for (int32_t i = 0; i < size; i++) output[i] = input[i] < 0.0f ? 0.0f : input[i];
}

void ta_relu6_f32(int32_t size, const float *input, float *output) {
  for (int32_t i = 0; i < size; i++) {
    const float x = input[i];
    output[i] = x > 6.0f ? 6.0f : (x < 0.0f ? 0.0f : x);
  }
}
