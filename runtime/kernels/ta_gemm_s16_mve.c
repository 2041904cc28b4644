/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 matrix-vector kernels with MVE (Helium) intrinsics. */
#include "ta_gemm_s16_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define G16M_MVE 1
#endif

#if defined(G16M_MVE)
/* One input vector against 4 rows: a0..a3 += x . w_i, int32 (see the header for why no
 * partial sum wraps). Whole vectors first, then one tail-predicated input load (its
 * zero lanes meet the zero padding of the weights). */
static inline void g16m_dot4(const int16_t *x, const int8_t *w, int32_t depth, int32_t stride, int32_t acc[4]) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int8_t *w1 = w + stride, *w2 = w1 + stride, *w3 = w2 + stride;
  int32_t k = 0;
  for (; k + 8 <= depth; k += 8) {
    const int16x8_t xv = vldrhq_s16(x + k);
    a0 = vmladavaq_s16(a0, xv, vldrbq_s16(w + k));
    a1 = vmladavaq_s16(a1, xv, vldrbq_s16(w1 + k));
    a2 = vmladavaq_s16(a2, xv, vldrbq_s16(w2 + k));
    a3 = vmladavaq_s16(a3, xv, vldrbq_s16(w3 + k));
  }
  if (k < depth) {
    const int16x8_t xv = vldrhq_z_s16(x + k, vctp16q((uint32_t)(depth - k)));
    a0 = vmladavaq_s16(a0, xv, vldrbq_s16(w + k));
    a1 = vmladavaq_s16(a1, xv, vldrbq_s16(w1 + k));
    a2 = vmladavaq_s16(a2, xv, vldrbq_s16(w2 + k));
    a3 = vmladavaq_s16(a3, xv, vldrbq_s16(w3 + k));
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

static inline int32_t g16m_dot1(const int16_t *x, const int8_t *w, int32_t depth, int32_t a) {
  int32_t k = 0;
  for (; k + 8 <= depth; k += 8) a = vmladavaq_s16(a, vldrhq_s16(x + k), vldrbq_s16(w + k));
  if (k < depth) a = vmladavaq_s16(a, vldrhq_z_s16(x + k, vctp16q((uint32_t)(depth - k))), vldrbq_s16(w + k));
  return a;
}

static int64_t g16m_dot64(const int16_t *x, const int8_t *w, int32_t depth) {
  int64_t a = 0;
  int32_t k = 0;
  for (; k + 8 <= depth; k += 8) a = vmlaldavaq_s16(a, vldrhq_s16(x + k), vldrbq_s16(w + k));
  if (k < depth) a = vmlaldavaq_s16(a, vldrhq_z_s16(x + k, vctp16q((uint32_t)(depth - k))), vldrbq_s16(w + k));
  return a;
}
#else
/* The same sums in plain C (builds without MVE). */
static int32_t g16m_dot1(const int16_t *x, const int8_t *w, int32_t depth, int32_t a) {
  for (int32_t k = 0; k < depth; k++) a = (int32_t)((uint32_t)a + (uint32_t)((int32_t)x[k] * w[k]));
  return a;
}
static void g16m_dot4(const int16_t *x, const int8_t *w, int32_t depth, int32_t stride, int32_t acc[4]) {
  for (int32_t i = 0; i < 4; i++) acc[i] = g16m_dot1(x, w + i * stride, depth, acc[i]);
}
static int64_t g16m_dot64(const int16_t *x, const int8_t *w, int32_t depth) {
  int64_t a = 0;
  for (int32_t k = 0; k < depth; k++) a += (int64_t)x[k] * w[k];
  return a;
}
#endif

/* All rows for one input vector. */
static void g16m_vector(const ta_gemm_s16_mve_params_t *p, const int16_t *x, const int8_t *w, int16_t *out) {
  const int32_t full = p->rows & ~3, depth = p->depth, stride = p->stride;
  int32_t r = 0;
  if (p->bias) {
    for (; r < full; r += 4, w += 4 * stride) {
      int32_t acc[4] = {p->bias[r], p->bias[r + 1], p->bias[r + 2], p->bias[r + 3]};
      g16m_dot4(x, w, depth, stride, acc);
      for (int32_t i = 0; i < 4; i++) out[r + i] = ta_s16_mve_fold(acc[i], p->mult[r + i], p->act_min, p->act_max);
    }
    for (; r < p->rows; r++, w += stride)
      out[r] = ta_s16_mve_fold(g16m_dot1(x, w, depth, p->bias[r]), p->mult[r], p->act_min, p->act_max);
    return;
  }
  if (p->acc64) {
    for (; r < p->rows; r++, w += stride)
      out[r] = ta_s16_mve_general(p->rq + 4 * r, g16m_dot64(x, w, depth), p->act_min, p->act_max);
    return;
  }
  for (; r < full; r += 4, w += 4 * stride) {
    int32_t acc[4] = {0, 0, 0, 0};
    g16m_dot4(x, w, depth, stride, acc);
    for (int32_t i = 0; i < 4; i++) out[r + i] = ta_s16_mve_general(p->rq + 4 * (r + i), acc[i], p->act_min, p->act_max);
  }
  for (; r < p->rows; r++, w += stride)
    out[r] = ta_s16_mve_general(p->rq + 4 * r, g16m_dot1(x, w, depth, 0), p->act_min, p->act_max);
}

void ta_gemm_s16_mve(const ta_gemm_s16_mve_params_t *p, int32_t count, const int16_t *input, const int8_t *weights,
                     int16_t *output) {
  for (int32_t i = 0; i < count; i++) g16m_vector(p, input + i * p->depth, weights, output + i * p->rows);
}

/* Copies the window of output pixel (oy, ox) into x, taps outside the image as 0 (the
 * int16 zero point); whole window rows at once where they lie inside. */
static void g16m_gather(const ta_conv_s16_mve_geom_t *g, const int16_t *in, int32_t oy, int32_t ox, int16_t *x) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
  const int32_t row_len = g->k_w * g->in_c;
  const int row_inside = g->dil_w == 1 && ix0 >= 0 && ix0 + g->k_w - 1 < g->in_w;
  for (int32_t ky = 0; ky < g->k_h; ky++, x += row_len) {
    const int32_t iy = iy0 + g->dil_h * ky;
    if (iy < 0 || iy >= g->in_h) {
      memset(x, 0, sizeof(int16_t) * (size_t)row_len);
      continue;
    }
    const int16_t *src = in + iy * g->in_w * g->in_c;
    if (row_inside) {
      memcpy(x, src + ix0 * g->in_c, sizeof(int16_t) * (size_t)row_len);
      continue;
    }
    for (int32_t kx = 0; kx < g->k_w; kx++) {
      const int32_t ix = ix0 + g->dil_w * kx;
      int16_t *dst = x + kx * g->in_c;
      if (ix < 0 || ix >= g->in_w) memset(dst, 0, sizeof(int16_t) * (size_t)g->in_c);
      else memcpy(dst, src + ix * g->in_c, sizeof(int16_t) * (size_t)g->in_c);
    }
  }
}

void ta_conv_s16_mve(const ta_gemm_s16_mve_params_t *p, const ta_conv_s16_mve_geom_t *g, const int16_t *input,
                     const int8_t *weights, void *scratch, int16_t *output) {
  const int32_t image = g->in_h * g->in_w * g->in_c;
  int16_t *window = (int16_t *)scratch;
  for (int32_t b = 0; b < g->batches; b++) {
    const int16_t *in = input + b * image;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      for (int32_t ox = 0; ox < g->out_w; ox++, output += p->rows) {
        const int16_t *x = in + ((oy * g->stride_h) * g->in_w + ox * g->stride_w) * g->in_c;
        if (!g->direct) {
          g16m_gather(g, in, oy, ox, window);
          x = window;
        }
        g16m_vector(p, x, weights, output);
      }
    }
  }
}
