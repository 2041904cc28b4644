/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: AVERAGE_POOL_2D and MAX_POOL_2D kernels (int8, int16, float32), NHWC.
 *
 * The window of each output is clipped to the input (padding cells are never read
 * or counted), as TFLite Micro's reference kernels do. */
#ifndef TA_POOLING_H
#define TA_POOLING_H
#include "ta_common.h"
#include "ta_pooling_contract.h"

typedef struct ta_pool_params_t {
  int32_t batches, depth;
  int32_t in_h, in_w;
  int32_t out_h, out_w;
  int32_t filter_h, filter_w;
  int32_t stride_h, stride_w;
  int32_t pad_h, pad_w;     /* padding before the first row / column */
  int32_t act_min, act_max; /* quantized kernels */
  float act_min_f, act_max_f; /* float kernels */
} ta_pool_params_t;

/* Variant mask of ta_avg_pool_s8 (the compiler writes TA_POOLING_VARIANTS into ta_config.h):
 * bit 0 the generic loop, bit 1 the channel-group loop for depth % 8 == 0 and windows of at
 * most 256 cells (8 channels summed per two word loads, SXTAB16 on DSP); bit 2 ta_avg_pool_s16's
 * loop for depth % 8 == 0 (8 channels per four word loads; without it the generic loop). */
#ifndef TA_POOLING_VARIANTS
#define TA_POOLING_VARIANTS 0x7u
#endif

void ta_avg_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output);
void ta_avg_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output);
void ta_avg_pool_f32(const ta_pool_params_t *p, const float *input, float *output);
void ta_max_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output);
void ta_max_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output);
void ta_max_pool_f32(const ta_pool_params_t *p, const float *input, float *output);

#endif
