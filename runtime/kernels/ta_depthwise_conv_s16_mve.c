/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 depthwise convolution with MVE (Helium) intrinsics. */
#include "ta_depthwise_conv_s16_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define D16M_MVE 1
#endif

/* The taps k in [*lo, *hi) of one window dimension that land inside [0, size). */
static void d16m_range(int32_t start, int32_t dil, int32_t k, int32_t size, int32_t *lo, int32_t *hi) {
  int32_t a = 0, b = k;
  while (a < b && start + dil * a < 0) a++;
  while (b > a && start + dil * (b - 1) >= size) b--;
  *lo = a, *hi = b;
}

#if defined(D16M_MVE)
/* A compiler barrier (no instruction) on the sums: keeps GCC from computing all nine
 * taps' products first, which spills them to the stack (MVE has 8 vector registers). */
#if defined(__GNUC__)
#define D16M_BARRIER() __asm__ volatile("" : "+w"(ae), "+w"(ao))
#else
#define D16M_BARRIER() ((void)0)
#endif

/* One tap of a block: the even and odd channels' products added to ae and ao. */
#define D16M_TAP(xp, wp)                                 \
  do {                                                   \
    const int16x8_t xv_ = vldrhq_s16(xp);                \
    const int16x8_t wv_ = vldrbq_s16(wp);                \
    ae = vaddq_s32(ae, vmullbq_int_s16(xv_, wv_));       \
    ao = vaddq_s32(ao, vmulltq_int_s16(xv_, wv_));       \
    D16M_BARRIER();                                      \
  } while (0)

/* The fold requantisation of a block's even and odd sums, narrowed back into channel
 * order; the store predicated to the channels left. */
static inline void d16m_store(const int32_t *rq, int32x4_t ae, int32x4_t ao, int32x4_t vmin, int32x4_t vmax,
                              int16_t *out, int32_t left) {
  const int32x4_t ye = vmaxq_s32(vminq_s32(vrmulhq_s32(ae, vldrwq_s32(rq + 8)), vmax), vmin);
  const int32x4_t yo = vmaxq_s32(vminq_s32(vrmulhq_s32(ao, vldrwq_s32(rq + 12)), vmax), vmin);
  int16x8_t y = vdupq_n_s16(0);
  y = vmovnbq_s32(y, ye);
  y = vmovntq_s32(y, yo);
  vstrhq_p_s16(out, y, vctp16q((uint32_t)left));
}

/* A whole 3x3 window inside the image, fold form: the nine taps of each whole block of 8
 * channels as straight-line code; returns the channels done. */
static int32_t d16m_pixel3x3(const ta_depthwise_s16_mve_params_t *p, const int16_t *x0, const int8_t *w0,
                             int16_t *out) {
  const int32_t ch = p->channels, dy = p->dil_h * p->in_w * ch, dx = p->dil_w * ch;
  const int32x4_t vmin = vdupq_n_s32(p->act_min), vmax = vdupq_n_s32(p->act_max);
  const int32_t *rq = p->rq;
  int32_t c = 0;
  for (; c + 8 <= ch; c += 8, rq += 16, x0 += 8, w0 += 72) {
    int32x4_t ae = vldrwq_s32(rq), ao = vldrwq_s32(rq + 4);
    const int16_t *x = x0;
    D16M_TAP(x, w0);
    D16M_TAP(x + dx, w0 + 8);
    D16M_TAP(x + 2 * dx, w0 + 16);
    x += dy;
    D16M_TAP(x, w0 + 24);
    D16M_TAP(x + dx, w0 + 32);
    D16M_TAP(x + 2 * dx, w0 + 40);
    x += dy;
    D16M_TAP(x, w0 + 48);
    D16M_TAP(x + dx, w0 + 56);
    D16M_TAP(x + 2 * dx, w0 + 64);
    d16m_store(rq, ae, ao, vmin, vmax, out + c, 8);
  }
  return c;
}

/* One output pixel: every block of 8 channels over the taps inside the image; whole
 * blocks unpredicated, the last partial one predicated. */
static void d16m_pixel(const ta_depthwise_s16_mve_params_t *p, const int16_t *in, const int8_t *filter,
                       int32_t iy0, int32_t ix0, int32_t ky0, int32_t ky1, int32_t kx0, int32_t kx1, int16_t *out) {
  const int32_t ch = p->channels, row = p->in_w * ch, taps = p->k_h * p->k_w, n = kx1 - kx0;
  const int32_t xstep = p->dil_w * ch;
  const int32x4_t vmin = vdupq_n_s32(p->act_min), vmax = vdupq_n_s32(p->act_max);
  const int32_t *rq = p->rq;
  const int16_t *x0 = in + (iy0 + ky0 * p->dil_h) * row + (ix0 + kx0 * p->dil_w) * ch;
  const int8_t *w0 = filter + (ky0 * p->k_w + kx0) * 8;
  int32_t c = 0;
  if (p->k_h == 3 && p->k_w == 3 && ky1 - ky0 == 3 && n == 3 && !p->general) {
    c = d16m_pixel3x3(p, x0, w0, out);
    rq += 2 * c, x0 += c, w0 += taps * c;
  }
  for (; c < ch; c += 8, rq += 16, x0 += 8, w0 += taps * 8) {
    int32x4_t ae = vldrwq_s32(rq), ao = vldrwq_s32(rq + 4);
    const int16_t *xr = x0;
    const int8_t *wr = w0;
    if (c + 8 <= ch) {
      for (int32_t ky = ky0; ky < ky1; ky++, xr += p->dil_h * row, wr += p->k_w * 8) {
        const int16_t *x = xr;
        const int8_t *w = wr;
        for (int32_t k = n; k > 0; k--, x += xstep, w += 8) {
          const int16x8_t xv = vldrhq_s16(x), wv = vldrbq_s16(w);
          ae = vaddq_s32(ae, vmullbq_int_s16(xv, wv));
          ao = vaddq_s32(ao, vmulltq_int_s16(xv, wv));
        }
      }
    } else {
      const mve_pred16_t pr = vctp16q((uint32_t)(ch - c));
      for (int32_t ky = ky0; ky < ky1; ky++, xr += p->dil_h * row, wr += p->k_w * 8) {
        const int16_t *x = xr;
        const int8_t *w = wr;
        for (int32_t k = n; k > 0; k--, x += xstep, w += 8) {
          const int16x8_t xv = vldrhq_z_s16(x, pr), wv = vldrbq_s16(w);
          ae = vaddq_s32(ae, vmullbq_int_s16(xv, wv));
          ao = vaddq_s32(ao, vmulltq_int_s16(xv, wv));
        }
      }
    }
    if (p->general) {
      int32_t sums[8];
      vstrwq_s32(sums, ae), vstrwq_s32(sums + 4, ao);
      for (int32_t i = 0; i < 8 && c + i < ch; i++)
        out[c + i] = ta_s16_mve_general(p->general + 4 * (c + i), sums[4 * (i & 1) + (i >> 1)], p->act_min, p->act_max);
      continue;
    }
    d16m_store(rq, ae, ao, vmin, vmax, out + c, ch - c);
  }
}
#else
/* The same in plain C (builds without MVE). */
static void d16m_pixel(const ta_depthwise_s16_mve_params_t *p, const int16_t *in, const int8_t *filter,
                       int32_t iy0, int32_t ix0, int32_t ky0, int32_t ky1, int32_t kx0, int32_t kx1, int16_t *out) {
  const int32_t ch = p->channels;
  for (int32_t c = 0; c < ch; c++) {
    const int32_t *rq = p->rq + (c / 8) * 16, lane = (c & 7) >> 1, odd = c & 1;
    int32_t acc = rq[4 * odd + lane];
    if (p->general) acc = 0;
    for (int32_t ky = ky0; ky < ky1; ky++)
      for (int32_t kx = kx0; kx < kx1; kx++) {
        const int32_t iy = iy0 + ky * p->dil_h, ix = ix0 + kx * p->dil_w;
        acc += (int32_t)in[(iy * p->in_w + ix) * ch + c] * filter[((c / 8) * p->k_h * p->k_w + ky * p->k_w + kx) * 8 + c % 8];
      }
    if (p->general) {
      out[c] = ta_s16_mve_general(p->general + 4 * c, acc, p->act_min, p->act_max);
      continue;
    }
    const int32_t y = (int32_t)(((int64_t)acc * rq[8 + 4 * odd + lane] + ((int64_t)1 << 31)) >> 32);
    out[c] = (int16_t)ta_clamp(y, p->act_min, p->act_max);
  }
}
#endif

void ta_depthwise_conv_s16_mve(const ta_depthwise_s16_mve_params_t *p, const int16_t *input, const int8_t *filter,
                               int16_t *output) {
  const int32_t image = p->in_h * p->in_w * p->channels;
  for (int32_t b = 0; b < p->batches; b++) {
    const int16_t *in = input + b * image;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t ky0, ky1;
      d16m_range(iy0, p->dil_h, p->k_h, p->in_h, &ky0, &ky1);
      for (int32_t ox = 0; ox < p->out_w; ox++, output += p->channels) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t kx0, kx1;
        d16m_range(ix0, p->dil_w, p->k_w, p->in_w, &kx0, &kx1);
        d16m_pixel(p, in, filter, iy0, ix0, ky0, ky1, kx0, kx1, output);
      }
    }
  }
}
