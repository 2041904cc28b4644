/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: gathers one convolution window (NHWC) into a contiguous row,
 * the padding filled with the input zero point, for the matrix-vector kernels. */
#ifndef TA_IM2COL_H
#define TA_IM2COL_H
#include "ta_common.h"

typedef struct ta_im2col_geom_t {
  int32_t batches;
  int32_t in_h, in_w, in_c;
  int32_t out_h, out_w;
  int32_t k_h, k_w;
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_h, pad_w;
  int32_t pad_value;  /* the input zero point: padded taps then add nothing */
  int32_t direct;     /* 1x1 window without padding: read the input pixel in place */
  int32_t chunk;      /* windows the scratch holds (ta_im2col_pixels_s8's count at most) */
  int32_t window;     /* bytes from one gathered window to the next: k_h * k_w * in_c, or a
                       * multiple of 4 above it, zero bytes after each window (meeting zero weights) */
} ta_im2col_geom_t;

/* Returns the row of output pixel (oy, ox) of image `image`: a pointer into the
 * image when direct, else `buf` (k_h * k_w * in_c bytes) filled. */
const int8_t *ta_im2col_s8(const ta_im2col_geom_t *g, const int8_t *image, int32_t oy, int32_t ox, int8_t *buf);

/* Gathers the windows of `count` consecutive output pixels of row oy, from column ox
 * on, into buf, `window` bytes apart. Not for direct. */
void ta_im2col_pixels_s8(const ta_im2col_geom_t *g, const int8_t *image, int32_t oy, int32_t ox, int32_t count,
                         int8_t *buf);

/* Column form (the Cortex-M4 DSP tier's ta_conv_s8_dsp_cols; in_c a multiple of 4,
 * window == k_h * in_c): the k_h taps of one image column (rows oy * stride_h - pad_h +
 * ky * dil_h, channels in order, the zero point outside the image), widened to int16 as
 * SXTB16 unpacks 4 bytes: per 4 values the words (x0 | x2 << 16) and (x1 | x3 << 16).
 * Writes `count` such columns, window / 2 words each, for the padded-image columns cx0 on
 * (image column cx - pad_w); a window with dil_w 1 is then k_w consecutive columns, whose
 * weights the compiler lays out in that order (kx, ky, channel). */
void ta_im2col_cols_s8(const ta_im2col_geom_t *g, const int8_t *image, int32_t oy, int32_t cx0, int32_t count,
                       int32_t *buf);

#endif
