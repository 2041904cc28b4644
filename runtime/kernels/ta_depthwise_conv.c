/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: DEPTHWISE_CONV_2D kernels, portable C99 (the reference the optimised tiers must equal). */
#include "ta_depthwise_conv.h"

/* The filter window of one output pixel, clipped to the input image. */
typedef struct dw_window_t {
  int32_t iy0, ix0;     /* input coordinate of tap (0, 0); may be negative */
  int32_t ky_lo, ky_hi; /* taps [lo, hi) of each axis that read inside the image */
  int32_t kx_lo, kx_hi;
  int clipped;          /* some taps read padding */
} dw_window_t;

/* Taps [lo, hi) of one axis whose coordinate origin + dil * k lies in [0, size). */
static void dw_tap_range(int32_t origin, int32_t dil, int32_t k, int32_t size, int32_t *lo, int32_t *hi) {
  int32_t a = 0, b = k;
  while (a < b && origin + dil * a < 0) a++;
  while (b > a && origin + dil * (b - 1) >= size) b--;
  *lo = a;
  *hi = b;
}

static void dw_window_row(const ta_depthwise_geom_t *g, int32_t oy, dw_window_t *w) {
  w->iy0 = oy * g->stride_h - g->pad_h;
  dw_tap_range(w->iy0, g->dil_h, g->k_h, g->in_h, &w->ky_lo, &w->ky_hi);
}

static void dw_window_col(const ta_depthwise_geom_t *g, int32_t ox, dw_window_t *w) {
  w->ix0 = ox * g->stride_w - g->pad_w;
  dw_tap_range(w->ix0, g->dil_w, g->k_w, g->in_w, &w->kx_lo, &w->kx_hi);
  w->clipped = w->ky_lo != 0 || w->ky_hi != g->k_h || w->kx_lo != 0 || w->kx_hi != g->k_w;
}

/* Sum over the clipped window of input[ic] * filter[oc]; `in` is the batch image
 * offset to channel ic, `w` the filter offset to channel oc. */
static int32_t dw_window_s8(const ta_depthwise_geom_t *g, const dw_window_t *win, const int8_t *in,
                            const int8_t *w) {
  int32_t acc = 0;
  for (int32_t ky = win->ky_lo; ky < win->ky_hi; ky++) {
    const int8_t *x_row = in + (win->iy0 + g->dil_h * ky) * g->in_w * g->in_c;
    const int8_t *w_row = w + ky * g->k_w * g->out_c;
    for (int32_t kx = win->kx_lo; kx < win->kx_hi; kx++)
      acc += (int32_t)x_row[(win->ix0 + g->dil_w * kx) * g->in_c] * (int32_t)w_row[kx * g->out_c];
  }
  return acc;
}

/* Filter weights of the taps that read padding (see ta_conv.c: the folded bias
 * removed zero_point * weight for every tap). */
static int32_t dw_padded_weight_sum(const ta_depthwise_geom_t *g, const dw_window_t *win, const int8_t *w) {
  int32_t sum = 0;
  for (int32_t ky = 0; ky < g->k_h; ky++) {
    const int row_inside = ky >= win->ky_lo && ky < win->ky_hi;
    for (int32_t kx = 0; kx < g->k_w; kx++)
      if (!row_inside || kx < win->kx_lo || kx >= win->kx_hi) sum += w[(ky * g->k_w + kx) * g->out_c];
  }
  return sum;
}

void ta_depthwise_conv_s8(const ta_depthwise_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                          const int32_t *folded_bias, int8_t *output) {
  const ta_depthwise_geom_t *g = &p->g;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int8_t *in_b = input + b * image_size;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      dw_window_t win;
      dw_window_row(g, oy, &win);
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        dw_window_col(g, ox, &win);
        const int restore_padding = win.clipped && p->input_zero_point != 0;
        int32_t oc = 0;
        for (int32_t ic = 0; ic < g->in_c; ic++) {
          for (int32_t m = 0; m < g->depth_multiplier; m++, oc++) {
            int32_t acc = folded_bias[oc] + dw_window_s8(g, &win, in_b + ic, filter + oc);
            if (restore_padding) acc += p->input_zero_point * dw_padded_weight_sum(g, &win, filter + oc);
            acc = ta_requantize(acc, p->multiplier[oc], p->shift[oc]) + p->output_zero_point;
            *out++ = (int8_t)ta_clamp(acc, p->act_min, p->act_max);
          }
        }
      }
    }
  }
}

static int64_t dw_window_s16(const ta_depthwise_geom_t *g, const dw_window_t *win, const int16_t *in,
                             const int8_t *w) {
  int64_t acc = 0;
  for (int32_t ky = win->ky_lo; ky < win->ky_hi; ky++) {
    const int16_t *x_row = in + (win->iy0 + g->dil_h * ky) * g->in_w * g->in_c;
    const int8_t *w_row = w + ky * g->k_w * g->out_c;
    for (int32_t kx = win->kx_lo; kx < win->kx_hi; kx++)
      acc += (int32_t)x_row[(win->ix0 + g->dil_w * kx) * g->in_c] * (int32_t)w_row[kx * g->out_c];
  }
  return acc;
}

void ta_depthwise_conv_s16(const ta_depthwise_conv_s16_params_t *p, const int16_t *input, const int8_t *filter,
                           const int64_t *bias, int16_t *output) {
  const ta_depthwise_geom_t *g = &p->g;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  int16_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int16_t *in_b = input + b * image_size;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      dw_window_t win;
      dw_window_row(g, oy, &win);
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        dw_window_col(g, ox, &win);
        int32_t oc = 0;
        for (int32_t ic = 0; ic < g->in_c; ic++) {
          for (int32_t m = 0; m < g->depth_multiplier; m++, oc++) {
            int64_t acc = dw_window_s16(g, &win, in_b + ic, filter + oc);
            if (bias) acc += bias[oc];
            const int32_t scaled = ta_requantize64(acc, p->multiplier[oc], p->shift[oc]);
            *out++ = (int16_t)ta_clamp(scaled, p->act_min, p->act_max);
          }
        }
      }
    }
  }
}

/* Running total in TFLite's tap order, so float rounding matches the reference. */
static float dw_window_f32(const ta_depthwise_geom_t *g, const dw_window_t *win, const float *in, const float *w) {
  float total = 0.0f;
  for (int32_t ky = win->ky_lo; ky < win->ky_hi; ky++) {
    const float *x_row = in + (win->iy0 + g->dil_h * ky) * g->in_w * g->in_c;
    const float *w_row = w + ky * g->k_w * g->out_c;
    for (int32_t kx = win->kx_lo; kx < win->kx_hi; kx++)
      total += x_row[(win->ix0 + g->dil_w * kx) * g->in_c] * w_row[kx * g->out_c];
  }
  return total;
}

void ta_depthwise_conv_f32(const ta_depthwise_conv_f32_params_t *p, const float *input, const float *filter,
                           const float *bias, float *output) {
  const ta_depthwise_geom_t *g = &p->g;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  float *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const float *in_b = input + b * image_size;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      dw_window_t win;
      dw_window_row(g, oy, &win);
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        dw_window_col(g, ox, &win);
        int32_t oc = 0;
        for (int32_t ic = 0; ic < g->in_c; ic++) {
          for (int32_t m = 0; m < g->depth_multiplier; m++, oc++) {
            float v = dw_window_f32(g, &win, in_b + ic, filter + oc) + (bias ? bias[oc] : 0.0f);
            v = v < p->act_min ? p->act_min : v;
            *out++ = v > p->act_max ? p->act_max : v;
          }
        }
      }
    }
  }
}

void ta_depthwise_conv_s8_inplace(const ta_depthwise_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                                  const int32_t *folded_bias, int8_t *temp, int8_t *output, int32_t bytes) {
  ta_depthwise_conv_s8(p, input, filter, folded_bias, temp);
  ta_move_output(output, temp, bytes);
}
