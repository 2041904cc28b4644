/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: BATCH_MATMUL kernels (int8, int16, float32), out[b] = lhs[b] x rhs[b].
 *
 * Up to three broadcast batch dimensions. Both operands are read through
 * strides, so adj_x / adj_y (transposed operands) need no copy. */
#ifndef TA_BATCH_MATMUL_H
#define TA_BATCH_MATMUL_H
#include "ta_common.h"

typedef struct ta_batch_matmul_params_t {
  int32_t batch[3];                /* output batch dimensions, outermost first */
  int32_t lhs_batch_stride[3];     /* element strides; 0 where lhs broadcasts */
  int32_t rhs_batch_stride[3];     /* element strides; 0 where rhs broadcasts */
  int32_t rows, cols, depth;       /* output [rows x cols], dot products of depth */
  int32_t lhs_row_step, lhs_depth_step; /* lhs element (row, k) at row*row_step + k*depth_step */
  int32_t rhs_col_step, rhs_depth_step; /* rhs element (k, col) at col*col_step + k*depth_step */
  int32_t lhs_offset, rhs_offset;  /* -zero points */
  int32_t output_offset;
  int32_t multiplier, shift;
  int32_t act_min, act_max;
} ta_batch_matmul_params_t;

void ta_batch_matmul_s8(const ta_batch_matmul_params_t *p, const int8_t *lhs, const int8_t *rhs, int8_t *output);
/* int16: int64 accumulator, ta_requantize64 (TFLite's 16-bit path). */
void ta_batch_matmul_s16(const ta_batch_matmul_params_t *p, const int16_t *lhs, const int16_t *rhs,
                         int16_t *output);
/* float32: offsets, multiplier and clamp unused. */
void ta_batch_matmul_f32(const ta_batch_matmul_params_t *p, const float *lhs, const float *rhs, float *output);

#endif
