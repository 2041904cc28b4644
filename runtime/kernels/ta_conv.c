/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: CONV_2D kernels, portable C99 (the reference the optimised tiers must equal). */
#include "ta_conv.h"

/* The filter window of one output pixel, clipped to the input image. */
typedef struct conv_window_t {
  int32_t iy0, ix0;        /* input coordinate of tap (0, 0); may be negative */
  int32_t ky_lo, ky_hi;    /* taps [lo, hi) of each axis that read inside the image */
  int32_t kx_lo, kx_hi;
  int clipped;             /* some taps read padding */
  int row_contiguous;      /* a filter row reads one contiguous run of input */
} conv_window_t;

/* Taps [lo, hi) of one axis whose coordinate origin + dil * k lies in [0, size). */
static void conv_tap_range(int32_t origin, int32_t dil, int32_t k, int32_t size, int32_t *lo, int32_t *hi) {
  int32_t a = 0, b = k;
  while (a < b && origin + dil * a < 0) a++;
  while (b > a && origin + dil * (b - 1) >= size) b--;
  *lo = a;
  *hi = b;
}

static void conv_window_row(const ta_conv_geom_t *g, int32_t oy, conv_window_t *w) {
  w->iy0 = oy * g->stride_h - g->pad_h;
  conv_tap_range(w->iy0, g->dil_h, g->k_h, g->in_h, &w->ky_lo, &w->ky_hi);
}

static void conv_window_col(const ta_conv_geom_t *g, int32_t ox, conv_window_t *w) {
  w->ix0 = ox * g->stride_w - g->pad_w;
  conv_tap_range(w->ix0, g->dil_w, g->k_w, g->in_w, &w->kx_lo, &w->kx_hi);
  w->clipped = w->ky_lo != 0 || w->ky_hi != g->k_h || w->kx_lo != 0 || w->kx_hi != g->k_w;
  /* Without groups the filter row (k_w x in_c) matches k_w adjacent input pixels. */
  w->row_contiguous = w->kx_lo == 0 && w->kx_hi == g->k_w && g->dil_w == 1 && g->groups == 1;
}

/* ---- int8 ---------------------------------------------------------------- */

static int32_t conv_dot_s8(const int8_t *x, const int8_t *w, int32_t n) {
  int32_t acc = 0;
  for (int32_t i = 0; i < n; i++) acc += (int32_t)x[i] * (int32_t)w[i];
  return acc;
}

/* Sum of input * filter over the clipped window for one output channel.
 * `in` points at the first channel of this group in the batch image. */
static int32_t conv_window_s8(const ta_conv_geom_t *g, const conv_window_t *win, const int8_t *in,
                              const int8_t *w_oc) {
  const int32_t row_len = g->k_w * g->filter_c;
  int32_t acc = 0;
  for (int32_t ky = win->ky_lo; ky < win->ky_hi; ky++) {
    const int8_t *x_row = in + (win->iy0 + g->dil_h * ky) * g->in_w * g->in_c;
    const int8_t *w_row = w_oc + ky * row_len;
    if (win->row_contiguous) {
      acc += conv_dot_s8(x_row + win->ix0 * g->in_c, w_row, row_len);
      continue;
    }
    for (int32_t kx = win->kx_lo; kx < win->kx_hi; kx++)
      acc += conv_dot_s8(x_row + (win->ix0 + g->dil_w * kx) * g->in_c, w_row + kx * g->filter_c, g->filter_c);
  }
  return acc;
}

/* Sum of the filter weights of the taps that read padding: the folded bias removed
 * zero_point * weight for every tap, TFLite skips padded taps, so these come back. */
static int32_t conv_padded_weight_sum(const ta_conv_geom_t *g, const conv_window_t *win, const int8_t *w_oc) {
  int32_t sum = 0;
  for (int32_t ky = 0; ky < g->k_h; ky++) {
    const int row_inside = ky >= win->ky_lo && ky < win->ky_hi;
    for (int32_t kx = 0; kx < g->k_w; kx++) {
      if (row_inside && kx >= win->kx_lo && kx < win->kx_hi) continue;
      const int8_t *w = w_oc + (ky * g->k_w + kx) * g->filter_c;
      for (int32_t i = 0; i < g->filter_c; i++) sum += w[i];
    }
  }
  return sum;
}

void ta_conv_s8(const ta_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                const int32_t *folded_bias, int8_t *output) {
  const ta_conv_geom_t *g = &p->g;
  const int32_t oc_per_group = g->out_c / g->groups;
  const int32_t filter_size = g->k_h * g->k_w * g->filter_c;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int8_t *in_b = input + b * image_size;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      conv_window_t win;
      conv_window_row(g, oy, &win);
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        conv_window_col(g, ox, &win);
        const int restore_padding = win.clipped && p->input_zero_point != 0;
        for (int32_t grp = 0; grp < g->groups; grp++) {
          const int8_t *in_g = in_b + grp * g->filter_c;
          for (int32_t oc = grp * oc_per_group; oc < (grp + 1) * oc_per_group; oc++) {
            const int8_t *w_oc = filter + oc * filter_size;
            int32_t acc = folded_bias[oc] + conv_window_s8(g, &win, in_g, w_oc);
            if (restore_padding) acc += p->input_zero_point * conv_padded_weight_sum(g, &win, w_oc);
            acc = ta_requantize(acc, p->multiplier[oc], p->shift[oc]) + p->output_zero_point;
            *out++ = (int8_t)ta_clamp(acc, p->act_min, p->act_max);
          }
        }
      }
    }
  }
}

/* ---- int16 x int8 -------------------------------------------------------- */

static int64_t conv_dot_s16_64(const int16_t *x, const int8_t *w, int32_t n) {
  int64_t acc = 0;
  for (int32_t i = 0; i < n; i++) acc += (int32_t)x[i] * (int32_t)w[i];
  return acc;
}

/* Wrapping 32-bit sum: TFLite Micro's int32 accumulator can overflow for 16x8. */
static uint32_t conv_dot_s16_32(const int16_t *x, const int8_t *w, int32_t n) {
  uint32_t acc = 0;
  for (int32_t i = 0; i < n; i++) acc += (uint32_t)((int32_t)x[i] * (int32_t)w[i]);
  return acc;
}

static int64_t conv_window_s16_64(const ta_conv_geom_t *g, const conv_window_t *win, const int16_t *in,
                                  const int8_t *w_oc) {
  const int32_t row_len = g->k_w * g->filter_c;
  int64_t acc = 0;
  for (int32_t ky = win->ky_lo; ky < win->ky_hi; ky++) {
    const int16_t *x_row = in + (win->iy0 + g->dil_h * ky) * g->in_w * g->in_c;
    const int8_t *w_row = w_oc + ky * row_len;
    if (win->row_contiguous) {
      acc += conv_dot_s16_64(x_row + win->ix0 * g->in_c, w_row, row_len);
      continue;
    }
    for (int32_t kx = win->kx_lo; kx < win->kx_hi; kx++)
      acc += conv_dot_s16_64(x_row + (win->ix0 + g->dil_w * kx) * g->in_c, w_row + kx * g->filter_c,
                             g->filter_c);
  }
  return acc;
}

static uint32_t conv_window_s16_32(const ta_conv_geom_t *g, const conv_window_t *win, const int16_t *in,
                                   const int8_t *w_oc) {
  const int32_t row_len = g->k_w * g->filter_c;
  uint32_t acc = 0;
  for (int32_t ky = win->ky_lo; ky < win->ky_hi; ky++) {
    const int16_t *x_row = in + (win->iy0 + g->dil_h * ky) * g->in_w * g->in_c;
    const int8_t *w_row = w_oc + ky * row_len;
    if (win->row_contiguous) {
      acc += conv_dot_s16_32(x_row + win->ix0 * g->in_c, w_row, row_len);
      continue;
    }
    for (int32_t kx = win->kx_lo; kx < win->kx_hi; kx++)
      acc += conv_dot_s16_32(x_row + (win->ix0 + g->dil_w * kx) * g->in_c, w_row + kx * g->filter_c,
                             g->filter_c);
  }
  return acc;
}

void ta_conv_s16(const ta_conv_s16_params_t *p, const int16_t *input, const int8_t *filter,
                 const int64_t *bias, int16_t *output) {
  const ta_conv_geom_t *g = &p->g;
  const int32_t oc_per_group = g->out_c / g->groups;
  const int32_t filter_size = g->k_h * g->k_w * g->filter_c;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  int16_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int16_t *in_b = input + b * image_size;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      conv_window_t win;
      conv_window_row(g, oy, &win);
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        conv_window_col(g, ox, &win);
        for (int32_t grp = 0; grp < g->groups; grp++) {
          const int16_t *in_g = in_b + grp * g->filter_c;
          for (int32_t oc = grp * oc_per_group; oc < (grp + 1) * oc_per_group; oc++) {
            int64_t acc = conv_window_s16_64(g, &win, in_g, filter + oc * filter_size);
            if (bias) acc += bias[oc];
            const int32_t scaled = ta_requantize64(acc, p->multiplier[oc], p->shift[oc]);
            *out++ = (int16_t)ta_clamp(scaled, p->act_min, p->act_max);
          }
        }
      }
    }
  }
}

void ta_conv_s16_acc32(const ta_conv_s16_params_t *p, const int16_t *input, const int8_t *filter,
                       const int32_t *bias, int16_t *output) {
  const ta_conv_geom_t *g = &p->g;
  const int32_t oc_per_group = g->out_c / g->groups;
  const int32_t filter_size = g->k_h * g->k_w * g->filter_c;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  int16_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int16_t *in_b = input + b * image_size;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      conv_window_t win;
      conv_window_row(g, oy, &win);
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        conv_window_col(g, ox, &win);
        for (int32_t grp = 0; grp < g->groups; grp++) {
          const int16_t *in_g = in_b + grp * g->filter_c;
          for (int32_t oc = grp * oc_per_group; oc < (grp + 1) * oc_per_group; oc++) {
            uint32_t acc = conv_window_s16_32(g, &win, in_g, filter + oc * filter_size);
            if (bias) acc += (uint32_t)bias[oc];
            const int32_t scaled = ta_requantize((int32_t)acc, p->multiplier[oc], p->shift[oc]);
            *out++ = (int16_t)ta_clamp(scaled, p->act_min, p->act_max);
          }
        }
      }
    }
  }
}

/* ---- float32 ------------------------------------------------------------- */

/* Continues the running total in TFLite's order (row, column, channel), so the
 * float rounding is the same as the reference kernel's. */
static float conv_dot_f32(float total, const float *x, const float *w, int32_t n) {
  for (int32_t i = 0; i < n; i++) total += x[i] * w[i];
  return total;
}

static float conv_window_f32(const ta_conv_geom_t *g, const conv_window_t *win, const float *in,
                             const float *w_oc) {
  const int32_t row_len = g->k_w * g->filter_c;
  float total = 0.0f;
  for (int32_t ky = win->ky_lo; ky < win->ky_hi; ky++) {
    const float *x_row = in + (win->iy0 + g->dil_h * ky) * g->in_w * g->in_c;
    const float *w_row = w_oc + ky * row_len;
    if (win->row_contiguous) {
      total = conv_dot_f32(total, x_row + win->ix0 * g->in_c, w_row, row_len);
      continue;
    }
    for (int32_t kx = win->kx_lo; kx < win->kx_hi; kx++)
      total = conv_dot_f32(total, x_row + (win->ix0 + g->dil_w * kx) * g->in_c, w_row + kx * g->filter_c,
                           g->filter_c);
  }
  return total;
}

void ta_conv_f32(const ta_conv_f32_params_t *p, const float *input, const float *filter,
                 const float *bias, float *output) {
  const ta_conv_geom_t *g = &p->g;
  const int32_t oc_per_group = g->out_c / g->groups;
  const int32_t filter_size = g->k_h * g->k_w * g->filter_c;
  const int32_t image_size = g->in_h * g->in_w * g->in_c;
  float *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const float *in_b = input + b * image_size;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      conv_window_t win;
      conv_window_row(g, oy, &win);
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        conv_window_col(g, ox, &win);
        for (int32_t grp = 0; grp < g->groups; grp++) {
          const float *in_g = in_b + grp * g->filter_c;
          for (int32_t oc = grp * oc_per_group; oc < (grp + 1) * oc_per_group; oc++) {
            float v = conv_window_f32(g, &win, in_g, filter + oc * filter_size) + (bias ? bias[oc] : 0.0f);
            v = v < p->act_min ? p->act_min : v;
            *out++ = v > p->act_max ? p->act_max : v;
          }
        }
      }
    }
  }
}

void ta_conv_s8_inplace(const ta_conv_s8_params_t *p, const int8_t *input, const int8_t *filter,
                        const int32_t *folded_bias, int8_t *temp, int8_t *output, int32_t bytes) {
  ta_conv_s8(p, input, filter, folded_bias, temp);
  ta_move_output(output, temp, bytes);
}
