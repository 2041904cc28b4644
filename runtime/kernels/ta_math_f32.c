/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: float32 elementwise math (see ta_math_f32.h). */
#include "ta_math_f32.h"

#include <math.h>

/* One loop per function: out[i] = EXPR(x), x = in[i]. */
#define TA_MATH_F32_MAP(name, expr)                                          \
  void name(int32_t size, const float *input, float *output) {              \
    for (int32_t i = 0; i < size; i++) {                                    \
      const float x = input[i];                                             \
      output[i] = (expr);                                                   \
    }                                                                       \
  }

/* Nearest integer, ties to the even neighbour (floorf keeps it exact in float). */
static float round_half_even(float x) {
  const float below = floorf(x);
  const float diff = x - below;
  if (diff < 0.5f) return below;
  if (diff > 0.5f) return below + 1.0f;
  return fmodf(below, 2.0f) == 0.0f ? below : below + 1.0f;
}

TA_MATH_F32_MAP(ta_abs_f32, fabsf(x))
TA_MATH_F32_MAP(ta_neg_f32, -x)
TA_MATH_F32_MAP(ta_sqrt_f32, sqrtf(x))
TA_MATH_F32_MAP(ta_rsqrt_f32, 1.0f / sqrtf(x))
TA_MATH_F32_MAP(ta_square_f32, x * x)
TA_MATH_F32_MAP(ta_exp_f32, expf(x))
TA_MATH_F32_MAP(ta_log_f32, logf(x))
TA_MATH_F32_MAP(ta_sin_f32, sinf(x))
TA_MATH_F32_MAP(ta_cos_f32, cosf(x))
TA_MATH_F32_MAP(ta_ceil_f32, ceilf(x))
TA_MATH_F32_MAP(ta_floor_f32, floorf(x))
TA_MATH_F32_MAP(ta_round_f32, round_half_even(x))
TA_MATH_F32_MAP(ta_elu_f32, x < 0.0f ? expm1f(x) : x)
TA_MATH_F32_MAP(ta_hard_swish_f32, x * TA_MIN(6.0f, TA_MAX(0.0f, x + 3.0f)) / 6.0f)

void ta_leaky_relu_f32(const ta_leaky_relu_f32_params_t *p, const float *input, float *output) {
  for (int32_t i = 0; i < p->size; i++) {
    const float x = input[i];
    output[i] = x > 0.0f ? x : x * p->alpha;
  }
}
