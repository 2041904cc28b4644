/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: constant padding (PAD, PADV2).
 *
 * The output is walked row by row (a row = the innermost dimension after the
 * compiler has merged trailing unpadded dimensions into it); rows inside the input
 * region get left padding, one input row and right padding, the others are all
 * padding. The input is read once, sequentially. */
#ifndef TA_PAD_H
#define TA_PAD_H
#include "ta_common.h"

#define TA_PAD_MAX_DIMS 6

typedef struct ta_pad_params_t {
  int32_t rank;                         /* 1..TA_PAD_MAX_DIMS */
  int32_t out_dims[TA_PAD_MAX_DIMS];
  int32_t in_dims[TA_PAD_MAX_DIMS];
  int32_t before[TA_PAD_MAX_DIMS];      /* padding ahead of the input, per dimension */
} ta_pad_params_t;

void ta_pad_s8(const ta_pad_params_t *p, const int8_t *input, int8_t pad_value, int8_t *output);
void ta_pad_f32(const ta_pad_params_t *p, const float *input, float pad_value, float *output);
void ta_pad_s16(const ta_pad_params_t *p, const int16_t *input, int16_t pad_value, int16_t *output);
void ta_pad_i32(const ta_pad_params_t *p, const int32_t *input, int32_t pad_value, int32_t *output);

/* MIRROR_PAD: the padding mirrors the input along each dimension. REFLECT leaves the
 * edge element out of the mirror (offset 1), SYMMETRIC repeats it (offset 0). Any
 * element size; the input is read in place. */
typedef struct ta_mirror_pad_params_t {
  int32_t rank;                         /* 1..TA_PAD_MAX_DIMS */
  int32_t out_dims[TA_PAD_MAX_DIMS];
  int32_t in_dims[TA_PAD_MAX_DIMS];
  int32_t before[TA_PAD_MAX_DIMS];
  int32_t offset;                       /* 1 REFLECT, 0 SYMMETRIC */
  int32_t elem_bytes;
} ta_mirror_pad_params_t;

void ta_mirror_pad(const ta_mirror_pad_params_t *p, const void *input, void *output);

#endif
