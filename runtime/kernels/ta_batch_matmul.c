/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: BATCH_MATMUL kernel (portable C, the reference tier). */
#include "ta_batch_matmul.h"

/* One [rows x cols] product of int8 matrices, requantised to int8. */
static void matmul_s8(const ta_batch_matmul_params_t *p, const int8_t *lhs, const int8_t *rhs, int8_t *out) {
  for (int32_t r = 0; r < p->rows; r++) {
    const int8_t *lhs_row = lhs + (size_t)r * (size_t)p->lhs_row_step;
    for (int32_t c = 0; c < p->cols; c++) {
      const int8_t *rhs_col = rhs + (size_t)c * (size_t)p->rhs_col_step;
      int32_t acc = 0;
      for (int32_t k = 0; k < p->depth; k++)
        acc += ((int32_t)rhs_col[(size_t)k * (size_t)p->rhs_depth_step] + p->rhs_offset) *
               ((int32_t)lhs_row[(size_t)k * (size_t)p->lhs_depth_step] + p->lhs_offset);
      int32_t v = ta_requantize(acc, p->multiplier, p->shift) + p->output_offset;
      out[(size_t)r * (size_t)p->cols + (size_t)c] = (int8_t)ta_clamp(v, p->act_min, p->act_max);
    }
  }
}

void ta_batch_matmul_s8(const ta_batch_matmul_params_t *p, const int8_t *lhs, const int8_t *rhs, int8_t *output) {
  const size_t matrix = (size_t)p->rows * (size_t)p->cols;
  size_t out_at = 0;
  for (int32_t b0 = 0; b0 < p->batch[0]; b0++)
    for (int32_t b1 = 0; b1 < p->batch[1]; b1++)
      for (int32_t b2 = 0; b2 < p->batch[2]; b2++, out_at += matrix) {
        size_t l = (size_t)b0 * (size_t)p->lhs_batch_stride[0] + (size_t)b1 * (size_t)p->lhs_batch_stride[1] +
                   (size_t)b2 * (size_t)p->lhs_batch_stride[2];
        size_t r = (size_t)b0 * (size_t)p->rhs_batch_stride[0] + (size_t)b1 * (size_t)p->rhs_batch_stride[1] +
                   (size_t)b2 * (size_t)p->rhs_batch_stride[2];
        matmul_s8(p, lhs + l, rhs + r, output + out_at);
      }
}
