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

/* int16 operands, int64 accumulator, TFLite's 64-bit requantisation. */
static void matmul_s16(const ta_batch_matmul_params_t *p, const int16_t *lhs, const int16_t *rhs, int16_t *out) {
  for (int32_t r = 0; r < p->rows; r++) {
    const int16_t *lhs_row = lhs + (size_t)r * (size_t)p->lhs_row_step;
    for (int32_t c = 0; c < p->cols; c++) {
      const int16_t *rhs_col = rhs + (size_t)c * (size_t)p->rhs_col_step;
      int64_t acc = 0;
      for (int32_t k = 0; k < p->depth; k++)
        acc += ((int64_t)rhs_col[(size_t)k * (size_t)p->rhs_depth_step] + p->rhs_offset) *
               ((int64_t)lhs_row[(size_t)k * (size_t)p->lhs_depth_step] + p->lhs_offset);
      int32_t v = ta_requantize64(acc, p->multiplier, p->shift) + p->output_offset;
      out[(size_t)r * (size_t)p->cols + (size_t)c] = (int16_t)ta_clamp(v, p->act_min, p->act_max);
    }
  }
}

/* float32: products summed in depth order, as TFLite's reference. */
static void matmul_f32(const ta_batch_matmul_params_t *p, const float *lhs, const float *rhs, float *out) {
  for (int32_t r = 0; r < p->rows; r++) {
    const float *lhs_row = lhs + (size_t)r * (size_t)p->lhs_row_step;
    for (int32_t c = 0; c < p->cols; c++) {
      const float *rhs_col = rhs + (size_t)c * (size_t)p->rhs_col_step;
      float acc = 0.0f;
      for (int32_t k = 0; k < p->depth; k++)
        acc += lhs_row[(size_t)k * (size_t)p->lhs_depth_step] * rhs_col[(size_t)k * (size_t)p->rhs_depth_step];
      out[(size_t)r * (size_t)p->cols + (size_t)c] = acc;
    }
  }
}

/* Element offsets of the operands' matrices for batch (b0, b1, b2). */
static size_t batch_offset(const int32_t *stride, int32_t b0, int32_t b1, int32_t b2) {
  return (size_t)b0 * (size_t)stride[0] + (size_t)b1 * (size_t)stride[1] + (size_t)b2 * (size_t)stride[2];
}

/* The three batch loops around one matrix product per output matrix. */
#define TA_BMM_BATCHES(p, lhs, rhs, output, matmul)                                            \
  do {                                                                                       \
    const size_t matrix = (size_t)(p)->rows * (size_t)(p)->cols;                             \
    size_t out_at = 0;                                                                       \
    for (int32_t b0 = 0; b0 < (p)->batch[0]; b0++)                                           \
      for (int32_t b1 = 0; b1 < (p)->batch[1]; b1++)                                         \
        for (int32_t b2 = 0; b2 < (p)->batch[2]; b2++, out_at += matrix)                     \
          matmul(p, (lhs) + batch_offset((p)->lhs_batch_stride, b0, b1, b2),                 \
                 (rhs) + batch_offset((p)->rhs_batch_stride, b0, b1, b2), (output) + out_at); \
  } while (0)

void ta_batch_matmul_s8(const ta_batch_matmul_params_t *p, const int8_t *lhs, const int8_t *rhs, int8_t *output) {
  TA_BMM_BATCHES(p, lhs, rhs, output, matmul_s8);
}

void ta_batch_matmul_s16(const ta_batch_matmul_params_t *p, const int16_t *lhs, const int16_t *rhs,
                         int16_t *output) {
  TA_BMM_BATCHES(p, lhs, rhs, output, matmul_s16);
}

void ta_batch_matmul_f32(const ta_batch_matmul_params_t *p, const float *lhs, const float *rhs, float *output) {
  TA_BMM_BATCHES(p, lhs, rhs, output, matmul_f32);
}
