/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: TRANSPOSE_CONV kernels, portable C99 (the reference the optimised tiers must equal). */
#include "ta_transpose_conv.h"

/* Output coordinate o receives tap k from input i when i * stride - pad + k == o.
 * For a given o the taps are k0, k0 + stride, ... with i falling by one each step;
 * `tconv_axis_t` tracks k0 and its input coordinate as o advances (no division). */
typedef struct tconv_axis_t {
  int32_t k0; /* first tap, (o + pad) mod stride */
  int32_t i0; /* its input coordinate, (o + pad) / stride */
} tconv_axis_t;

static tconv_axis_t tconv_axis_start(int32_t pad, int32_t stride) {
  tconv_axis_t a;
  a.k0 = pad % stride;
  a.i0 = pad / stride;
  return a;
}

static void tconv_axis_next(tconv_axis_t *a, int32_t stride) {
  if (++a->k0 == stride) {
    a->k0 = 0;
    a->i0++;
  }
}

static int32_t tconv_dot_s8(const int8_t *x, const int8_t *w, int32_t n, int32_t input_offset) {
  int32_t acc = 0;
  for (int32_t i = 0; i < n; i++) acc += ((int32_t)x[i] + input_offset) * (int32_t)w[i];
  return acc;
}

static int64_t tconv_dot_s16(const int16_t *x, const int8_t *w, int32_t n) {
  int64_t acc = 0;
  for (int32_t i = 0; i < n; i++) acc += (int32_t)x[i] * (int32_t)w[i];
  return acc;
}

/* Sum for one output element: `in` is the batch image, `w_oc` the filter of channel oc. */
static int32_t tconv_gather_s8(const ta_transpose_conv_geom_t *g, tconv_axis_t ay, tconv_axis_t ax,
                               const int8_t *in, const int8_t *w_oc, int32_t input_offset) {
  int32_t acc = 0;
  for (int32_t ky = ay.k0, iy = ay.i0; ky < g->k_h && iy >= 0; ky += g->stride_h, iy--) {
    if (iy >= g->in_h) continue;
    for (int32_t kx = ax.k0, ix = ax.i0; kx < g->k_w && ix >= 0; kx += g->stride_w, ix--) {
      if (ix >= g->in_w) continue;
      acc += tconv_dot_s8(in + (iy * g->in_w + ix) * g->in_c, w_oc + (ky * g->k_w + kx) * g->in_c, g->in_c,
                          input_offset);
    }
  }
  return acc;
}

static int64_t tconv_gather_s16(const ta_transpose_conv_geom_t *g, tconv_axis_t ay, tconv_axis_t ax,
                                const int16_t *in, const int8_t *w_oc) {
  int64_t acc = 0;
  for (int32_t ky = ay.k0, iy = ay.i0; ky < g->k_h && iy >= 0; ky += g->stride_h, iy--) {
    if (iy >= g->in_h) continue;
    for (int32_t kx = ax.k0, ix = ax.i0; kx < g->k_w && ix >= 0; kx += g->stride_w, ix--) {
      if (ix >= g->in_w) continue;
      acc += tconv_dot_s16(in + (iy * g->in_w + ix) * g->in_c, w_oc + (ky * g->k_w + kx) * g->in_c, g->in_c);
    }
  }
  return acc;
}

void ta_transpose_conv_s8(const ta_transpose_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                          const int32_t *bias, int8_t *output) {
  const ta_transpose_conv_geom_t *g = &p->g;
  const int32_t filter_size = g->k_h * g->k_w * g->in_c;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int8_t *in_b = input + b * image_size;
    tconv_axis_t ay = tconv_axis_start(g->pad_h, g->stride_h);
    for (int32_t oy = 0; oy < g->out_h; oy++, tconv_axis_next(&ay, g->stride_h)) {
      tconv_axis_t ax = tconv_axis_start(g->pad_w, g->stride_w);
      for (int32_t ox = 0; ox < g->out_w; ox++, tconv_axis_next(&ax, g->stride_w)) {
        for (int32_t oc = 0; oc < g->out_c; oc++) {
          int32_t acc = tconv_gather_s8(g, ay, ax, in_b, filter + oc * filter_size, p->input_offset);
          if (bias) acc += bias[oc];
          acc = ta_requantize(acc, p->multiplier[oc], p->shift[oc]) + p->output_zero_point;
          *out++ = (int8_t)ta_clamp(acc, p->act_min, p->act_max);
        }
      }
    }
  }
}

void ta_transpose_conv_s16(const ta_transpose_conv_s16_params_t *p, const int16_t *input, const int8_t *filter,
                           const int64_t *bias, int16_t *output) {
  const ta_transpose_conv_geom_t *g = &p->g;
  const int32_t filter_size = g->k_h * g->k_w * g->in_c;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  int16_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int16_t *in_b = input + b * image_size;
    tconv_axis_t ay = tconv_axis_start(g->pad_h, g->stride_h);
    for (int32_t oy = 0; oy < g->out_h; oy++, tconv_axis_next(&ay, g->stride_h)) {
      tconv_axis_t ax = tconv_axis_start(g->pad_w, g->stride_w);
      for (int32_t ox = 0; ox < g->out_w; ox++, tconv_axis_next(&ax, g->stride_w)) {
        for (int32_t oc = 0; oc < g->out_c; oc++) {
          int64_t acc = tconv_gather_s16(g, ay, ax, in_b, filter + oc * filter_size);
          if (bias) acc += bias[oc];
          const int32_t scaled = ta_requantize64(acc, p->multiplier[oc], p->shift[oc]);
          *out++ = (int16_t)ta_clamp(scaled, p->act_min, p->act_max);
        }
      }
    }
  }
}

/* Input coordinates whose taps reach output coordinate o, ascending: o + pad - i * stride
 * must lie in [0, k). */
static void tconv_f32_range(int32_t o, int32_t pad, int32_t stride, int32_t k, int32_t n_in, int32_t *lo,
                            int32_t *hi) {
  const int32_t top = o + pad; /* >= 0: padding is never negative */
  const int32_t first = top - (k - 1);
  *lo = first <= 0 ? 0 : (first + stride - 1) / stride;
  *hi = top / stride;
  if (*hi > n_in - 1) *hi = n_in - 1;
}

static float tconv_gather_f32(const ta_transpose_conv_geom_t *g, int32_t oy, int32_t ox, const float *in,
                              const float *w_oc) {
  float acc = 0.0f;
  int32_t y_lo, y_hi, x_lo, x_hi, iy, ix, c;
  tconv_f32_range(oy, g->pad_h, g->stride_h, g->k_h, g->in_h, &y_lo, &y_hi);
  tconv_f32_range(ox, g->pad_w, g->stride_w, g->k_w, g->in_w, &x_lo, &x_hi);
  for (iy = y_lo; iy <= y_hi; iy++) {
    const int32_t ky = oy + g->pad_h - iy * g->stride_h;
    for (ix = x_lo; ix <= x_hi; ix++) {
      const int32_t kx = ox + g->pad_w - ix * g->stride_w;
      const float *x = in + (iy * g->in_w + ix) * g->in_c;
      const float *w = w_oc + (ky * g->k_w + kx) * g->in_c;
      for (c = 0; c < g->in_c; c++) {
        const float product = x[c] * w[c]; /* rounded before the sum, as the reference */
        acc += product;
      }
    }
  }
  return acc;
}

void ta_transpose_conv_f32(const ta_transpose_conv_f32_params_t *p, const float *input, const float *filter,
                           const float *bias, float *output) {
  const ta_transpose_conv_geom_t *g = &p->g;
  const int32_t filter_size = g->k_h * g->k_w * g->in_c;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  float *out = output;
  int32_t b, oy, ox, oc;
  for (b = 0; b < g->batches; b++) {
    const float *in_b = input + b * image_size;
    for (oy = 0; oy < g->out_h; oy++)
      for (ox = 0; ox < g->out_w; ox++)
        for (oc = 0; oc < g->out_c; oc++) {
          float acc = tconv_gather_f32(g, oy, ox, in_b, filter + oc * filter_size);
          if (bias) acc += bias[oc];
          acc = acc < p->act_min ? p->act_min : acc;
          *out++ = acc > p->act_max ? p->act_max : acc;
        }
  }
}
