/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 depthwise convolution with DSP-extension (SIMD32) intrinsics.
 *
 * Loop structure: per output pixel, the taps of its window that read inside the image
 * (padded taps are skipped: the int16 zero point is 0), per group of 4 channels: two input
 * words (channels c..c+3 of one pixel), two weight words (the same channels of one tap,
 * adjacent in the re-laid filter), four 16x16 multiply-accumulates, no unpacking. A
 * 3-tap-wide window row (3x3 filters) is unrolled with the weight offsets as constants.
 * The requantisation is ta_gemm_s16_dsp.h's. */
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

#if defined(__GNUC__)
#define DW16_ALWAYS_INLINE inline __attribute__((always_inline))
#define DW16_NOINLINE __attribute__((noinline)) /* each variant keeps its own registers */
/* A word of an int16 tensor read as int32 (the pair x[c] | x[c+1] << 16); two adjacent
 * ones load with one LDRD when the tensor is word aligned. */
typedef int32_t dw16_word_t __attribute__((may_alias, aligned(4)));
#else
#define DW16_ALWAYS_INLINE inline
#define DW16_NOINLINE
#endif

/* Word i (channels 2i, 2i+1 from x) of one pixel: `al` 1 when x is word aligned. */
static DW16_ALWAYS_INLINE int32_t dw16_load(const int16_t *x, int32_t i, int al) {
#if defined(__GNUC__)
  if (al) return ((const dw16_word_t *)(const void *)x)[i];
#else
  (void)al;
#endif
  int32_t v;
  memcpy(&v, x + 2 * i, sizeof v);
  return v;
}

/* Taps [lo, hi) of one axis whose coordinate origin + dil * k lies in [0, size). */
static void dw16_taps(int32_t origin, int32_t dil, int32_t k, int32_t size, int32_t *lo, int32_t *hi) {
  int32_t a = 0, b = k;
  while (a < b && origin + dil * a < 0) a++;
  while (b > a && origin + dil * (b - 1) >= size) b--;
  *lo = a, *hi = b;
}

/* Layer constants of the pixel loops. */
typedef struct dw16_layer_t {
  int32_t channels, x_col, x_row; /* input elements between taps across and down */
  int32_t w_row;                  /* weight words between filter rows in a group of 4 (2 k_w) */
  int32_t group_words;            /* 2 * taps: one group of 4 channels' filter */
} dw16_layer_t;

/* Optimised GCC/clang builds run a window row of a 4-channel group in inline assembly
 * (LDRD of both input words and of both weight words of a tap, the weight offsets as
 * constants): C leaves the compiler too many live values and it spills. */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define DW16_ASM 1
#else
#define DW16_ASM 0
#endif

#if DW16_ASM
#define DW16_ASM_MAC4                          \
  "smlabb %[a0], %[x0], %[w0], %[a0]\n\t"      \
  "smlatt %[a1], %[x0], %[w0], %[a1]\n\t"      \
  "smlabb %[a2], %[x1], %[w1], %[a2]\n\t"      \
  "smlatt %[a3], %[x1], %[w1], %[a3]\n\t"
#define DW16_ASM_OUTPUTS                                                                           \
  : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x0] "=&r"(x0_), [x1] "=&r"(x1_),  \
    [w0] "=&r"(w0_), [w1] "=&r"(w1_)
/* Three taps x, x + x_col, x + 2 x_col against weight words wp[0..5]. */
#define DW16_ROW3(xp, wp)                                                                          \
  do {                                                                                             \
    int32_t x0_, x1_, w0_, w1_;                                                                    \
    const int16_t *t_;                                                                             \
    __asm__("ldrd %[x0], %[x1], [%[x]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w]]\n\t"                                                        \
            "add %[t], %[x], %[xc]\n\t" DW16_ASM_MAC4                                               \
            "ldrd %[x0], %[x1], [%[t]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w], #8]\n\t"                                                    \
            "add %[t], %[t], %[xc]\n\t" DW16_ASM_MAC4                                               \
            "ldrd %[x0], %[x1], [%[t]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w], #16]\n\t" DW16_ASM_MAC4 DW16_ASM_OUTPUTS, [t] "=&r"(t_)       \
            : [x] "r"(xp), [xc] "r"(x_col2), [w] "r"(wp));                 \
  } while (0)
/* Two taps x, x + x_col against weight words wp[0..3]. */
#define DW16_ROW2(xp, wp)                                                                          \
  do {                                                                                             \
    int32_t x0_, x1_, w0_, w1_;                                                                    \
    const int16_t *t_;                                                                             \
    __asm__("ldrd %[x0], %[x1], [%[x]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w]]\n\t"                                                        \
            "add %[t], %[x], %[xc]\n\t" DW16_ASM_MAC4                                               \
            "ldrd %[x0], %[x1], [%[t]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w], #8]\n\t" DW16_ASM_MAC4 DW16_ASM_OUTPUTS, [t] "=&r"(t_)        \
            : [x] "r"(xp), [xc] "r"(x_col2), [w] "r"(wp));                                         \
  } while (0)
/* One tap: x against weight words wp[0..1]. */
#define DW16_TAP4_AL(xp, wp)                                                                       \
  do {                                                                                             \
    int32_t x0_, x1_, w0_, w1_;                                                                    \
    __asm__("ldrd %[x0], %[x1], [%[x]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w]]\n\t" DW16_ASM_MAC4 DW16_ASM_OUTPUTS                         \
            : [x] "r"(xp), [w] "r"(wp));                                                           \
  } while (0)
#endif

/* One tap for 4 channels: two input words, two weight words, four products. */
#define DW16_TAP4_C(xp, wp)                                                                      \
  do {                                                                                           \
    const int32_t x0_ = dw16_load(xp, 0, al), x1_ = dw16_load(xp, 1, al);                         \
    const int32_t w0_ = (wp)[0], w1_ = (wp)[1];                                                  \
    a0 = dw16_mac_lo(a0, x0_, w0_), a1 = dw16_mac_hi(a1, x0_, w0_);                              \
    a2 = dw16_mac_lo(a2, x1_, w1_), a3 = dw16_mac_hi(a3, x1_, w1_);                              \
  } while (0)
#if DW16_ASM
#define DW16_TAP4(xp, wp)         \
  do {                            \
    if (al)                       \
      DW16_TAP4_AL(xp, wp);       \
    else                          \
      DW16_TAP4_C(xp, wp);        \
  } while (0)
#else
#define DW16_TAP4(xp, wp) DW16_TAP4_C(xp, wp)
#endif

/* Requantises and stores 4 channels from c. */
#if TA_S16_DSP_RQ_ASM
#define DW16_STORE4(out, c)                                                                                     \
  do {                                                                                                          \
    if (hi) {                                                                                                   \
      TA_S16_DSP_RQ4(q->rq + 4 * (c), sat, a0, a1, a2, a3);                                                     \
      if (sat == 0) {                                                                                           \
        a0 = ta_clamp(a0, q->act_min, q->act_max), a1 = ta_clamp(a1, q->act_min, q->act_max);                   \
        a2 = ta_clamp(a2, q->act_min, q->act_max), a3 = ta_clamp(a3, q->act_min, q->act_max);                   \
      }                                                                                                         \
      (out)[(c)] = (int16_t)a0, (out)[(c) + 1] = (int16_t)a1;                                                   \
      (out)[(c) + 2] = (int16_t)a2, (out)[(c) + 3] = (int16_t)a3;                                               \
    } else {                                                                                                    \
      DW16_STORE4_C(out, c);                                                                                    \
    }                                                                                                           \
  } while (0)
#else
#define DW16_STORE4(out, c) DW16_STORE4_C(out, c)
#endif
#define DW16_STORE4_C(out, c)                                                                                   \
  do {                                                                                                          \
    (out)[(c)] = ta_s16_dsp_output_mode(q, hi, sat, (c), a0);                                                   \
    (out)[(c) + 1] = ta_s16_dsp_output_mode(q, hi, sat, (c) + 1, a1);                                           \
    (out)[(c) + 2] = ta_s16_dsp_output_mode(q, hi, sat, (c) + 2, a2);                                           \
    (out)[(c) + 3] = ta_s16_dsp_output_mode(q, hi, sat, (c) + 3, a3);                                           \
  } while (0)

/* One output pixel: every group of 4 channels over the window's rows x cols inside taps,
 * then the last pair of channels (channels % 4 == 2). `x` points at the first inside tap,
 * channel 0; `tap` is that tap's index ky * k_w + kx. `wide3`: the filter is 3 taps wide
 * (the layer's constant), so a complete window row is unrolled. */
static DW16_ALWAYS_INLINE void dw16_pixel(const dw16_layer_t *l, const ta_s16_dsp_requant_t *q, const int16_t *x,
                                          const int32_t *weights, int32_t tap, int32_t rows, int32_t cols,
                                          int16_t *out, int hi, int sat, int al, int wide3) {
  const int32_t full = l->channels & ~3, x_col = l->x_col, x_row = l->x_row, w_row = l->w_row;
  const int32_t *wg = weights + 2 * tap;
  for (int32_t c = 0; c < full; c += 4, wg += l->group_words) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const int16_t *xr = x + c;
    const int32_t *wr = wg;
    int32_t left = rows;
    if (wide3 && cols == 3) {
#if DW16_ASM
      if (al && rows == 3) { /* the complete 3x3 window */
        const int32_t x_col2 = 2 * x_col; /* bytes */
        DW16_ROW3(xr, wr);
        DW16_ROW3(xr + x_row, wr + 6);
        DW16_ROW3(xr + 2 * x_row, wr + 12);
        left = 0;
      }
#endif
      for (int32_t ky = 0; ky < left; ky++, xr += x_row, wr += 6) {
#if DW16_ASM
        if (al) {
          const int16_t *xp = xr;
          const int32_t *wp = wr;
          const int32_t x_col2 = 2 * x_col; /* bytes */
          DW16_ROW3(xp, wp);
          continue;
        }
#endif
        DW16_TAP4(xr, wr);
        DW16_TAP4(xr + x_col, wr + 2);
        DW16_TAP4(xr + 2 * x_col, wr + 4);
      }
    } else {
#if DW16_ASM
      if (al && cols == 2) {
        const int32_t x_col2 = 2 * x_col; /* bytes */
        for (int32_t ky = 0; ky < rows; ky++, xr += x_row, wr += w_row) DW16_ROW2(xr, wr);
        left = 0;
      }
#endif
      for (int32_t ky = 0; ky < left; ky++, xr += x_row, wr += w_row) {
        const int16_t *xp = xr;
        const int32_t *wp = wr;
        for (int32_t kx = 0; kx < cols; kx++, xp += x_col, wp += 2) DW16_TAP4(xp, wp);
      }
    }
    DW16_STORE4(out, c);
  }
  if (full < l->channels) { /* the last two channels: one word per tap */
    const int32_t *wt = weights + (full >> 1) * (l->group_words >> 1) + tap;
    int32_t a0 = 0, a1 = 0;
    const int16_t *xr = x + full;
    for (int32_t ky = 0; ky < rows; ky++, xr += x_row, wt += w_row >> 1) {
      const int16_t *xp = xr;
      for (int32_t kx = 0; kx < cols; kx++, xp += x_col) {
        const int32_t x0 = dw16_load(xp, 0, al), w0 = wt[kx];
        a0 = dw16_mac_lo(a0, x0, w0), a1 = dw16_mac_hi(a1, x0, w0);
      }
    }
    out[full] = ta_s16_dsp_output_mode(q, hi, sat, full, a0);
    out[full + 1] = ta_s16_dsp_output_mode(q, hi, sat, full + 1, a1);
  }
}

/* The whole layer for one requantisation form (hi, sat), alignment and filter width. */
static DW16_ALWAYS_INLINE void dw16_layer(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input,
                                          const int32_t *weights, int16_t *output, int hi, int sat, int al,
                                          int wide3) {
  const ta_s16_dsp_requant_t q = p->q; /* a local: the output stores cannot change it */
  const int32_t image = p->in_h * p->in_w * p->channels;
  dw16_layer_t l;
  l.channels = p->channels;
  l.x_col = p->dil_w * p->channels;
  l.x_row = p->dil_h * p->in_w * p->channels;
  l.w_row = 2 * p->k_w;
  l.group_words = 2 * p->k_h * p->k_w;
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
        dw16_pixel(&l, &q, x, weights, ky_lo * p->k_w + kx_lo, ky_hi - ky_lo, kx_hi - kx_lo, output, hi, sat, al,
                   wide3);
      }
    }
  }
}

/* Word-aligned input (the planner aligns every arena tensor): one function per
 * requantisation form and filter width 3 or other. */
#define DW16_LAYER_DEF(hi, sat)                                                                                 \
  static DW16_NOINLINE void dw16_layer_##hi##sat(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input,  \
                                                 const int32_t *weights, int16_t *output) {                    \
    if (p->k_w == 3)                                                                                            \
      dw16_layer(p, input, weights, output, hi, sat, 1, 1);                                                     \
    else                                                                                                        \
      dw16_layer(p, input, weights, output, hi, sat, 1, 0);                                                     \
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

/* Input not word aligned (an aliased view at an odd element offset): unaligned word
 * loads, the form and clamp read at run time. */
static DW16_NOINLINE void dw16_layer_unaligned(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input,
                                               const int32_t *weights, int16_t *output) {
  dw16_layer(p, input, weights, output, p->q.hi, 0, 0, 0);
}

#define DW16_LAYER_CALL(hi, sat) dw16_layer_##hi##sat(p, input, weights, output)
void ta_depthwise_conv_s16_dsp(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input, const int32_t *weights,
                               int16_t *output) {
  if (((uintptr_t)(const void *)input & 3u) != 0) {
    dw16_layer_unaligned(p, input, weights, output);
    return;
  }
  TA_S16_DSP_MODES(&p->q, DW16_LAYER_CALL);
}
