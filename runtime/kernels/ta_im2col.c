/* tinyaot runtime: im2col for one output pixel (portable C99). */
#include "ta_im2col.h"

/* Short runs by hand: a library call costs more than a few bytes. */
static void im2col_copy(int8_t *dst, const int8_t *src, int32_t n) {
  if (n >= 16) {
    memcpy(dst, src, (size_t)n);
    return;
  }
  for (int32_t i = 0; i < n; i++) dst[i] = src[i];
}

static void im2col_fill(int8_t *dst, int8_t value, int32_t n) {
  if (n >= 16) {
    memset(dst, value, (size_t)n);
    return;
  }
  for (int32_t i = 0; i < n; i++) dst[i] = value;
}

const int8_t *ta_im2col_s8(const ta_im2col_geom_t *g, const int8_t *image, int32_t oy, int32_t ox, int8_t *buf) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h;
  const int32_t ix0 = ox * g->stride_w - g->pad_w;
  if (g->direct) return image + ((size_t)iy0 * (size_t)g->in_w + (size_t)ix0) * (size_t)g->in_c;
  const size_t row_bytes = (size_t)g->in_w * (size_t)g->in_c;
  /* Without dilation a filter row inside the image reads one contiguous run. */
  const int row_inside = g->dil_w == 1 && ix0 >= 0 && ix0 + g->k_w <= g->in_w;
  const int32_t run = g->k_w * g->in_c;
  int8_t *dst = buf;
  for (int32_t ky = 0; ky < g->k_h; ky++) {
    const int32_t iy = iy0 + ky * g->dil_h;
    if (iy < 0 || iy >= g->in_h) {
      im2col_fill(dst, (int8_t)g->pad_value, run);
      dst += run;
      continue;
    }
    const int8_t *src_row = image + (size_t)iy * row_bytes;
    if (row_inside) {
      im2col_copy(dst, src_row + (size_t)ix0 * (size_t)g->in_c, run);
      dst += run;
      continue;
    }
    for (int32_t kx = 0; kx < g->k_w; kx++, dst += g->in_c) {
      const int32_t ix = ix0 + kx * g->dil_w;
      if (ix < 0 || ix >= g->in_w)
        im2col_fill(dst, (int8_t)g->pad_value, g->in_c);
      else
        im2col_copy(dst, src_row + (size_t)ix * (size_t)g->in_c, g->in_c);
    }
  }
  return buf;
}
