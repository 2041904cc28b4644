/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: L2_POOL_2D (see ta_l2_pool.h). */
#include "ta_l2_pool.h"

#include <math.h>

void ta_l2_pool_f32(const ta_pool_params_t *p, const float *input, float *output) {
  for (int32_t b = 0; b < p->batches; b++)
    for (int32_t oy = 0; oy < p->out_h; oy++)
      for (int32_t ox = 0; ox < p->out_w; ox++) {
        const int32_t origin_y = oy * p->stride_h - p->pad_h, origin_x = ox * p->stride_w - p->pad_w;
        const int32_t y0 = TA_MAX(origin_y, 0), y1 = TA_MIN(origin_y + p->filter_h, p->in_h);
        const int32_t x0 = TA_MAX(origin_x, 0), x1 = TA_MIN(origin_x + p->filter_w, p->in_w);
        const size_t image = (size_t)b * (size_t)p->in_h * (size_t)p->in_w;
        float *out = output + (((size_t)b * (size_t)p->out_h + (size_t)oy) * (size_t)p->out_w + (size_t)ox) *
                                  (size_t)p->depth;
        for (int32_t c = 0; c < p->depth; c++) {
          float sum_squares = 0.0f;
          int32_t count = 0;
          for (int32_t y = y0; y < y1; y++)
            for (int32_t x = x0; x < x1; x++, count++) {
              const float v = input[(image + (size_t)y * (size_t)p->in_w + (size_t)x) * (size_t)p->depth + (size_t)c];
              sum_squares += v * v;
            }
          float r = sqrtf(sum_squares / (float)count);
          r = r < p->act_min_f ? p->act_min_f : r;
          out[c] = r > p->act_max_f ? p->act_max_f : r;
        }
      }
}
