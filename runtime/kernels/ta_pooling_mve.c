/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 average pooling with MVE (Helium) intrinsics. */
#include "ta_pooling_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* sum / count rounded to nearest, ties away from zero, as the portable kernel. */
static int32_t avg_mve_mean(int32_t sum, int32_t count) {
  if (count <= 0) return 0;
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

/* One output cell: `rows` x `cols` input pixels from `first` (channel 0 of the top-left
 * one inside the input). */
static void avg_mve_cell(const ta_pool_params_t *p, const int8_t *first, int32_t rows, int32_t cols, int8_t *out) {
  const int32_t depth = p->depth;
  const size_t row_step = (size_t)p->in_w * (size_t)depth;
  const int32_t count = rows * cols;
  for (int32_t c = 0; c < depth; c += 4) {
    const mve_pred16_t pred = vctp32q((uint32_t)(depth - c));
    int32x4_t sum = vdupq_n_s32(0);
    const int8_t *row = first + c;
    for (int32_t y = 0; y < rows; y++, row += row_step) {
      const int8_t *x = row;
      for (int32_t i = 0; i < cols; i++, x += depth) sum = vaddq_s32(sum, vldrbq_z_s32(x, pred));
    }
    int32_t sums[4];
    vstrwq_s32(sums, sum);
    const int32_t n = TA_MIN(4, depth - c);
    for (int32_t j = 0; j < n; j++)
      out[c + j] = (int8_t)ta_clamp(avg_mve_mean(sums[j], count), p->act_min, p->act_max);
  }
}

void ta_avg_pool_s8_mve(const ta_pool_params_t *p, const int8_t *input, int8_t *output) {
  const size_t image = (size_t)p->in_h * (size_t)p->in_w * (size_t)p->depth;
  int8_t *out = output;
  for (int32_t b = 0; b < p->batches; b++)
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t origin_y = oy * p->stride_h - p->pad_h;
      const int32_t y0 = TA_MAX(origin_y, 0), y1 = TA_MIN(origin_y + p->filter_h, p->in_h);
      for (int32_t ox = 0; ox < p->out_w; ox++, out += p->depth) {
        const int32_t origin_x = ox * p->stride_w - p->pad_w;
        const int32_t x0 = TA_MAX(origin_x, 0), x1 = TA_MIN(origin_x + p->filter_w, p->in_w);
        const int8_t *first = input + (size_t)b * image + ((size_t)y0 * (size_t)p->in_w + (size_t)x0) * (size_t)p->depth;
        avg_mve_cell(p, first, TA_MAX(y1 - y0, 0), TA_MAX(x1 - x0, 0), out);
      }
    }
}

#else
void ta_avg_pool_s8_mve(const ta_pool_params_t *p, const int8_t *input, int8_t *output) {
  ta_avg_pool_s8(p, input, output);
}
#endif
