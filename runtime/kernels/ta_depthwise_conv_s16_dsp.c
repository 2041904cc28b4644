/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 depthwise convolution with DSP-extension (SIMD32) intrinsics. */
#include "ta_depthwise_conv_s16_dsp.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* acc + low halves' product, acc + high halves' product. */
static inline int32_t dw16_mac_lo(int32_t acc, int32_t x, int32_t w) { return __smlabb(x, w, acc); }
static inline int32_t dw16_mac_hi(int32_t acc, int32_t x, int32_t w) { return __smlatt(x, w, acc); }
#else
static inline int32_t dw16_lo(int32_t v) { return (int32_t)(int16_t)(uint16_t)((uint32_t)v & 0xFFFFu); }
static inline int32_t dw16_hi(int32_t v) { return (int32_t)(int16_t)(uint16_t)((uint32_t)v >> 16); }
static inline int32_t dw16_mac_lo(int32_t acc, int32_t x, int32_t w) { return acc + dw16_lo(x) * dw16_lo(w); }
static inline int32_t dw16_mac_hi(int32_t acc, int32_t x, int32_t w) { return acc + dw16_hi(x) * dw16_hi(w); }
#endif

/* Channels c, c+1 of one pixel (word aligned: the channel count is even). */
static inline int32_t dw16_load(const int16_t *x) {
  int32_t v;
  memcpy(&v, x, sizeof v);
  return v;
}

/* Taps [lo, hi) of one axis whose coordinate origin + dil * k lies in [0, size). */
static void dw16_taps(int32_t origin, int32_t dil, int32_t k, int32_t size, int32_t *lo, int32_t *hi) {
  int32_t a = 0, b = k;
  while (a < b && origin + dil * a < 0) a++;
  while (b > a && origin + dil * (b - 1) >= size) b--;
  *lo = a, *hi = b;
}

/* One output pixel: per group of 4 (then 2) channels, the clipped window's taps. `x`
 * points at tap (ky_lo, kx_lo) of channel 0, `w` at that tap's weights. */
#if defined(__GNUC__)
#define DW16_ALWAYS_INLINE inline __attribute__((always_inline))
#define DW16_NOINLINE __attribute__((noinline)) /* each variant keeps its own registers */
#else
#define DW16_ALWAYS_INLINE inline
#define DW16_NOINLINE
#endif

/* One tap for 4 channels: two input words, two weight words, four products. */
#define DW16_TAP4(xp, wp)                                                                 \
  do {                                                                                    \
    const int32_t x0_ = dw16_load(xp), x1_ = dw16_load((xp) + 2), w0_ = (wp)[0], w1_ = (wp)[1]; \
    a0 = dw16_mac_lo(a0, x0_, w0_), a1 = dw16_mac_hi(a1, x0_, w0_);                       \
    a2 = dw16_mac_lo(a2, x1_, w1_), a3 = dw16_mac_hi(a3, x1_, w1_);                       \
  } while (0)

/* `hi` and `sat` are constants in each inlined copy (the requantisation form). */
static DW16_ALWAYS_INLINE void dw16_pixel(const ta_depthwise_s16_dsp_params_t *p, const int16_t *x, const int32_t *w,
                                          int32_t rows, int32_t cols, int16_t *out, int hi, int sat) {
  const ta_s16_dsp_requant_t q = p->q; /* locals: the output stores cannot change them */
  const int32_t c2 = p->channels >> 1;
  const int32_t x_col = p->dil_w * p->channels, x_row = p->dil_h * p->in_w * p->channels;
  const int32_t w_row = p->k_w * c2;
  int32_t c = 0;
  for (; c + 4 <= p->channels; c += 4) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const int16_t *xr = x + c;
    const int32_t *wr = w + (c >> 1);
    for (int32_t ky = 0; ky < rows; ky++, xr += x_row, wr += w_row) {
      const int16_t *xp = xr;
      const int32_t *wp = wr;
      for (int32_t kx = 0; kx < cols; kx++, xp += x_col, wp += c2) DW16_TAP4(xp, wp);
    }
    out[c] = ta_s16_dsp_output_mode(&q, hi, sat, c, a0), out[c + 1] = ta_s16_dsp_output_mode(&q, hi, sat, c + 1, a1);
    out[c + 2] = ta_s16_dsp_output_mode(&q, hi, sat, c + 2, a2), out[c + 3] = ta_s16_dsp_output_mode(&q, hi, sat, c + 3, a3);
  }
  for (; c < p->channels; c += 2) {
    int32_t a0 = 0, a1 = 0;
    const int16_t *xr = x + c;
    const int32_t *wr = w + (c >> 1);
    for (int32_t ky = 0; ky < rows; ky++, xr += x_row, wr += w_row) {
      const int16_t *xp = xr;
      const int32_t *wp = wr;
      for (int32_t kx = 0; kx < cols; kx++, xp += x_col, wp += c2) {
        const int32_t x0 = dw16_load(xp), w0 = wp[0];
        a0 = dw16_mac_lo(a0, x0, w0), a1 = dw16_mac_hi(a1, x0, w0);
      }
    }
    out[c] = ta_s16_dsp_output_mode(&q, hi, sat, c, a0), out[c + 1] = ta_s16_dsp_output_mode(&q, hi, sat, c + 1, a1);
  }
}

/* The whole layer for one requantisation form (constants hi, sat). */
static DW16_ALWAYS_INLINE void dw16_layer(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input,
                                          const int32_t *weights, int16_t *output, int hi, int sat) {
  const int32_t image = p->in_h * p->in_w * p->channels, c2 = p->channels >> 1;
  for (int32_t b = 0; b < p->batches; b++) {
    const int16_t *in = input + b * image;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t ky_lo, ky_hi;
      dw16_taps(iy0, p->dil_h, p->k_h, p->in_h, &ky_lo, &ky_hi);
      for (int32_t ox = 0; ox < p->out_w; ox++, output += p->channels) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t kx_lo, kx_hi;
        dw16_taps(ix0, p->dil_w, p->k_w, p->in_w, &kx_lo, &kx_hi);
        const int16_t *x = in + ((iy0 + p->dil_h * ky_lo) * p->in_w + ix0 + p->dil_w * kx_lo) * p->channels;
        const int32_t *w = weights + (ky_lo * p->k_w + kx_lo) * c2;
        dw16_pixel(p, x, w, ky_hi - ky_lo, kx_hi - kx_lo, output, hi, sat);
      }
    }
  }
}

#define DW16_LAYER_DEF(hi, sat)                                                                                \
  static DW16_NOINLINE void dw16_layer_##hi##sat(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input, \
                                   const int32_t *weights, int16_t *output) {                               \
    dw16_layer(p, input, weights, output, hi, sat);                                                          \
  }
DW16_LAYER_DEF(0, 0)
#if TA_S16_DSP_HAS(1)
DW16_LAYER_DEF(0, 1)
#else
#define dw16_layer_01 dw16_layer_00 /* not compiled: the generic clamp */
#endif
#if TA_S16_DSP_HAS(2)
DW16_LAYER_DEF(0, 2)
#else
#define dw16_layer_02 dw16_layer_00 /* not compiled: the generic clamp */
#endif
DW16_LAYER_DEF(1, 0)
#if TA_S16_DSP_HAS(4)
DW16_LAYER_DEF(1, 1)
#else
#define dw16_layer_11 dw16_layer_10 /* not compiled: the generic clamp */
#endif
#if TA_S16_DSP_HAS(5)
DW16_LAYER_DEF(1, 2)
#else
#define dw16_layer_12 dw16_layer_10 /* not compiled: the generic clamp */
#endif

#define DW16_LAYER_CALL(hi, sat) dw16_layer_##hi##sat(p, input, weights, output)
void ta_depthwise_conv_s16_dsp(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input, const int32_t *weights,
                               int16_t *output) {
  TA_S16_DSP_MODES(&p->q, DW16_LAYER_CALL);
}
