/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: nearest-neighbour and bilinear resizing (see ta_resize.h). */
#include "ta_resize.h"

void ta_resize_nearest(const ta_resize_nearest_params_t *p, const void *input, void *output) {
  const uint8_t *in = (const uint8_t *)input;
  uint8_t *out = (uint8_t *)output;
  int32_t b, y, x;
  for (b = 0; b < p->batches; b++) {
    for (y = 0; y < p->out_height; y++) {
      const uint8_t *row = in + p->row_offset[y];
      for (x = 0; x < p->out_width; x++) {
        memcpy(out, row + p->col_offset[x], (size_t)p->pixel_bytes);
        out += p->pixel_bytes;
      }
    }
    in += p->in_batch_bytes;
  }
}

/* (sum + 2^19) / 2^20 for positive sums, (sum - 2^19) / 2^20 otherwise, truncating;
 * the result is narrowed to int8 with wrap-around as TFLite's static_cast does. */
static int8_t blend_to_s8(int64_t sum) {
  const int64_t half = (int64_t)1 << 19;
  const int64_t q = (sum > 0 ? sum + half : sum - half) / ((int64_t)1 << 20);
  const int32_t wrapped = (int32_t)((q & 0xFF) ^ 0x80) - 0x80;
  return (int8_t)wrapped;
}

void ta_resize_bilinear_s8(const ta_resize_bilinear_params_t *p, const int8_t *input, int8_t *output) {
  int32_t b, y, x, c;
  for (b = 0; b < p->batches; b++) {
    const int8_t *image = input + (ptrdiff_t)b * p->in_batch_bytes;
    for (y = 0; y < p->out_height; y++) {
      const int8_t *top = image + p->y0[y];
      const int8_t *bottom = image + p->y1[y];
      const int64_t wy1 = p->dy[y];
      const int64_t wy0 = 1024 - wy1;
      for (x = 0; x < p->out_width; x++) {
        const int32_t l = p->x0[x], r = p->x1[x];
        const int64_t wx1 = p->dx[x];
        const int64_t wx0 = 1024 - wx1;
        for (c = 0; c < p->channels; c++) {
          const int64_t sum = top[l + c] * wy0 * wx0 + bottom[l + c] * wy1 * wx0 + top[r + c] * wy0 * wx1 +
                              bottom[r + c] * wy1 * wx1;
          *output++ = blend_to_s8(sum);
        }
      }
    }
  }
}

void ta_resize_bilinear_f32(const ta_resize_bilinear_f32_params_t *p, const float *input, float *output) {
  int32_t b, y, x, c;
  for (b = 0; b < p->batches; b++) {
    const float *image = input + (ptrdiff_t)b * p->in_batch_bytes;
    for (y = 0; y < p->out_height; y++) {
      const float *top = image + p->y0[y];
      const float *bottom = image + p->y1[y];
      const float dy = p->dy[y];
      for (x = 0; x < p->out_width; x++) {
        const int32_t l = p->x0[x], r = p->x1[x];
        const float dx = p->dx[x];
        for (c = 0; c < p->channels; c++) {
          *output++ = top[l + c] * (1 - dy) * (1 - dx) + bottom[l + c] * dy * (1 - dx) +
                      top[r + c] * (1 - dy) * dx + bottom[r + c] * dy * dx;
        }
      }
    }
  }
}
