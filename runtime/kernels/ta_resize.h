/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR on NHWC tensors.
 *
 * The compiler resolves the coordinate mapping (align_corners, half_pixel_centers,
 * scales) into per-row and per-column tables, so the kernels only index and blend. */
#ifndef TA_RESIZE_H
#define TA_RESIZE_H
#include "ta_common.h"

typedef struct ta_resize_nearest_params_t {
  int32_t batches, out_height, out_width;
  int32_t pixel_bytes;        /* channels * element size */
  int32_t in_batch_bytes;     /* bytes of one input image */
  const int32_t *row_offset;  /* [out_height] input byte offset of the source row */
  const int32_t *col_offset;  /* [out_width] byte offset of the source pixel in a row */
} ta_resize_nearest_params_t;

void ta_resize_nearest(const ta_resize_nearest_params_t *p, const void *input, void *output);

/* Bilinear, int8, in TFLite's integer arithmetic: positions in 1/1024 pixel units,
 * products summed in int64 and divided by 2^20 rounding half away from zero. */
typedef struct ta_resize_bilinear_params_t {
  int32_t batches, out_height, out_width, channels;
  int32_t in_batch_bytes;     /* height * width * channels */
  const int32_t *y0;          /* [out_height] upper source row, as a byte offset */
  const int32_t *y1;          /* [out_height] lower source row, as a byte offset */
  const int32_t *dy;          /* [out_height] weight of the lower row, 1/1024 units */
  const int32_t *x0;          /* [out_width] left source pixel, as a byte offset */
  const int32_t *x1;          /* [out_width] right source pixel, as a byte offset */
  const int32_t *dx;          /* [out_width] weight of the right pixel, 1/1024 units */
} ta_resize_bilinear_params_t;

void ta_resize_bilinear_s8(const ta_resize_bilinear_params_t *p, const int8_t *input, int8_t *output);

/* Bilinear, float32, as TFLite's float kernel: each output is
 * tl*(1-dy)*(1-dx) + bl*dy*(1-dx) + tr*(1-dy)*dx + br*dy*dx, summed in that order. */
typedef struct ta_resize_bilinear_f32_params_t {
  int32_t batches, out_height, out_width, channels;
  int32_t in_batch_bytes;     /* elements of one input image (height * width * channels) */
  const int32_t *y0, *y1;     /* [out_height] source rows, as element offsets */
  const float *dy;            /* [out_height] weight of the lower row */
  const int32_t *x0, *x1;     /* [out_width] source pixels, as element offsets in a row */
  const float *dx;            /* [out_width] weight of the right pixel */
} ta_resize_bilinear_f32_params_t;

void ta_resize_bilinear_f32(const ta_resize_bilinear_f32_params_t *p, const float *input, float *output);

#endif
