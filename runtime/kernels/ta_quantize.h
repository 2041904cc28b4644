/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: QUANTIZE (float32 -> int8/int16, requantization between
 * int8/uint8/int16/int32) and DEQUANTIZE (int8/int16/uint8 -> float32). 8-bit to int8
 * requantization is tabulated instead (ta_lut). */
#ifndef TA_QUANTIZE_H
#define TA_QUANTIZE_H
#include "ta_common.h"

typedef struct ta_affine_params_t {
  int32_t size;       /* elements */
  float scale;        /* of the quantized side */
  int32_t zero_point; /* of the quantized side */
} ta_affine_params_t;

typedef struct ta_requantize_params_t {
  int32_t size;
  int32_t in_zero_point, out_zero_point;
  int32_t multiplier, shift; /* input scale / output scale */
} ta_requantize_params_t;

/* round(x / scale) + zero_point, rounding half away from zero, saturated. */
void ta_quantize_f32_s8(const ta_affine_params_t *p, const float *input, int8_t *output);
void ta_quantize_f32_s16(const ta_affine_params_t *p, const float *input, int16_t *output);

/* requantize(x - in_zero_point) + out_zero_point, saturated to the output type. */
void ta_requantize_s16_s8(const ta_requantize_params_t *p, const int16_t *input, int8_t *output);
void ta_requantize_s16_s16(const ta_requantize_params_t *p, const int16_t *input, int16_t *output);
void ta_requantize_s16_s32(const ta_requantize_params_t *p, const int16_t *input, int32_t *output);
void ta_requantize_s8_s16(const ta_requantize_params_t *p, const int8_t *input, int16_t *output);
void ta_requantize_s32_s8(const ta_requantize_params_t *p, const int32_t *input, int8_t *output);
void ta_requantize_s32_s16(const ta_requantize_params_t *p, const int32_t *input, int16_t *output);
void ta_requantize_s8_s32(const ta_requantize_params_t *p, const int8_t *input, int32_t *output);
void ta_requantize_s8_u8(const ta_requantize_params_t *p, const int8_t *input, uint8_t *output);

/* scale * (x - zero_point) */
void ta_dequantize_s8_f32(const ta_affine_params_t *p, const int8_t *input, float *output);
void ta_dequantize_u8_f32(const ta_affine_params_t *p, const uint8_t *input, float *output);
void ta_dequantize_s16_f32(const ta_affine_params_t *p, const int16_t *input, float *output);

#endif
