/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: QUANTIZE and DEQUANTIZE kernels, as TFLite Micro's reference
 * AffineQuantize / Requantize / Dequantize compute them. */
#include "ta_quantize.h"

/* roundf(q) for |q| < 2^30, without libm: the fraction of a float below 2^23 is
 * exact, and every float from 2^23 up is already an integer. */
static int32_t round_half_away(float q) {
  if (!(q > -1073741824.0f)) q = -1073741824.0f; /* also maps NaN somewhere defined */
  if (q > 1073741824.0f) q = 1073741824.0f;
  int32_t t = (int32_t)q;
  const float frac = q - (float)t;
  if (frac >= 0.5f) t++;
  if (frac <= -0.5f) t--;
  return t;
}

static int32_t quantize_one(const ta_affine_params_t *p, float x, int32_t lo, int32_t hi) {
  return ta_clamp(round_half_away(x / p->scale) + p->zero_point, lo, hi);
}

void ta_quantize_f32_s8(const ta_affine_params_t *p, const float *input, int8_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = (int8_t)quantize_one(p, input[i], -128, 127);
}

void ta_quantize_f32_s16(const ta_affine_params_t *p, const float *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = (int16_t)quantize_one(p, input[i], -32768, 32767);
}

static int32_t requantize_one(const ta_requantize_params_t *p, int32_t x) {
  return ta_requantize(x - p->in_zero_point, p->multiplier, p->shift) + p->out_zero_point;
}

void ta_requantize_s16_s8(const ta_requantize_params_t *p, const int16_t *input, int8_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = (int8_t)ta_clamp(requantize_one(p, input[i]), -128, 127);
}

void ta_requantize_s16_s16(const ta_requantize_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = (int16_t)ta_clamp(requantize_one(p, input[i]), -32768, 32767);
}

void ta_requantize_s16_s32(const ta_requantize_params_t *p, const int16_t *input, int32_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = requantize_one(p, input[i]);
}

void ta_requantize_s8_s16(const ta_requantize_params_t *p, const int8_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = (int16_t)ta_clamp(requantize_one(p, input[i]), -32768, 32767);
}

/* int32 input: the difference wraps like TFLite's int32 arithmetic instead of
 * overflowing (a C undefined behaviour). */
static int32_t requantize_one_s32(const ta_requantize_params_t *p, int32_t x) {
  const int32_t diff = (int32_t)((uint32_t)x - (uint32_t)p->in_zero_point);
  return ta_requantize(diff, p->multiplier, p->shift) + p->out_zero_point;
}

void ta_requantize_s32_s8(const ta_requantize_params_t *p, const int32_t *input, int8_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = (int8_t)ta_clamp(requantize_one_s32(p, input[i]), -128, 127);
}

void ta_requantize_s32_s16(const ta_requantize_params_t *p, const int32_t *input, int16_t *output) {
  for (int32_t i = 0; i < p->size; i++)
    output[i] = (int16_t)ta_clamp(requantize_one_s32(p, input[i]), -32768, 32767);
}

void ta_requantize_s8_s32(const ta_requantize_params_t *p, const int8_t *input, int32_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = requantize_one(p, input[i]);
}

void ta_requantize_s8_u8(const ta_requantize_params_t *p, const int8_t *input, uint8_t *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = (uint8_t)ta_clamp(requantize_one(p, input[i]), 0, 255);
}

/* A float product of two exact operands equals TFLite's double product rounded to
 * float: scale has 24 significant bits and x - zero_point at most 17. */
void ta_dequantize_s8_f32(const ta_affine_params_t *p, const int8_t *input, float *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = p->scale * (float)(input[i] - p->zero_point);
}

void ta_dequantize_u8_f32(const ta_affine_params_t *p, const uint8_t *input, float *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = p->scale * (float)(input[i] - p->zero_point);
}

void ta_dequantize_s16_f32(const ta_affine_params_t *p, const int16_t *input, float *output) {
  for (int32_t i = 0; i < p->size; i++) output[i] = p->scale * (float)(input[i] - p->zero_point);
}
