/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 matrix-vector kernels with MVE (Helium) intrinsics. */
#include "ta_gemm_s16_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define G16M_MVE 1
#endif

#if defined(G16M_MVE)
typedef int16x8_t g16m_vec_t;

/* One input vector against one block of 4 rows (weights [chunk][4 rows][8], see the
 * header), int32 sums from a[0..3]: whole chunks, then the tail chunk against `xt`, the
 * input's last partial vector loaded once per input vector (lanes past depth 0). */
static inline void g16m_block(const int16_t *x, const int8_t *w, int32_t chunks, int32_t tail, g16m_vec_t xt,
                              int32_t a[4]) {
  int32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
  for (int32_t i = chunks; i > 0; i--, x += 8, w += 32) {
    const int16x8_t xv = vldrhq_s16(x);
    a0 = vmladavaq_s16(a0, xv, vldrbq_s16(w));
    a1 = vmladavaq_s16(a1, xv, vldrbq_s16(w + 8));
    a2 = vmladavaq_s16(a2, xv, vldrbq_s16(w + 16));
    a3 = vmladavaq_s16(a3, xv, vldrbq_s16(w + 24));
  }
  if (tail) {
    a0 = vmladavaq_s16(a0, xt, vldrbq_s16(w));
    a1 = vmladavaq_s16(a1, xt, vldrbq_s16(w + 8));
    a2 = vmladavaq_s16(a2, xt, vldrbq_s16(w + 16));
    a3 = vmladavaq_s16(a3, xt, vldrbq_s16(w + 24));
  }
  a[0] = a0, a[1] = a1, a[2] = a2, a[3] = a3;
}

/* One row of a block (int64 sums). */
static int64_t g16m_row64(const int16_t *x, const int8_t *w, int32_t chunks, int32_t tail, g16m_vec_t xt) {
  int64_t a = 0;
  for (int32_t i = chunks; i > 0; i--, x += 8, w += 32) a = vmlaldavaq_s16(a, vldrhq_s16(x), vldrbq_s16(w));
  if (tail) a = vmlaldavaq_s16(a, xt, vldrbq_s16(w));
  return a;
}

static inline g16m_vec_t g16m_tail(const int16_t *x, int32_t depth) {
  return vldrhq_z_s16(x + (depth & ~7), vctp16q((uint32_t)(depth & 7)));
}

/* The fold requantisation of n <= 4 sums in one vector: VRMULH, clamp, narrowing store. */
static inline void g16m_fold4(const int32_t a[4], const int32_t *m, int32_t n, int32_t lo, int32_t hi, int16_t *out) {
  int32x4_t v = vdupq_n_s32(a[0]);
  v = vsetq_lane_s32(a[1], v, 1), v = vsetq_lane_s32(a[2], v, 2), v = vsetq_lane_s32(a[3], v, 3);
  v = vmaxq_s32(vminq_s32(vrmulhq_s32(v, vldrwq_s32(m)), vdupq_n_s32(hi)), vdupq_n_s32(lo));
  if (n == 4) vstrhq_s32(out, v);
  else vstrhq_p_s32(out, v, vctp32q((uint32_t)n));
}
#else
/* The fold requantisation (ta_gemm_s16_mve.h): SMMULR is (acc * m + 2^31) >> 32. */
static inline int16_t g16m_fold(int32_t acc, int32_t m, int32_t lo, int32_t hi) {
#if defined(__GNUC__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  int32_t y;
  __asm__("smmulr %0, %1, %2" : "=r"(y) : "r"(acc), "r"(m));
  return (int16_t)ta_clamp(y, lo, hi);
#else
  return ta_s16_mve_fold(acc, m, lo, hi);
#endif
}

/* The same sums in plain C (builds without MVE); xt unused. */
typedef int g16m_vec_t;
static inline void g16m_block(const int16_t *x, const int8_t *w, int32_t chunks, int32_t tail, g16m_vec_t xt,
                              int32_t a[4]) {
  (void)xt;
  for (int32_t k = 0; k < chunks * 8 + tail; k++)
    for (int32_t i = 0; i < 4; i++)
      a[i] = (int32_t)((uint32_t)a[i] + (uint32_t)((int32_t)x[k] * w[(k >> 3) * 32 + i * 8 + (k & 7)]));
}
static int64_t g16m_row64(const int16_t *x, const int8_t *w, int32_t chunks, int32_t tail, g16m_vec_t xt) {
  (void)xt;
  int64_t a = 0;
  for (int32_t k = 0; k < chunks * 8 + tail; k++) a += (int64_t)x[k] * w[(k >> 3) * 32 + (k & 7)];
  return a;
}
static inline g16m_vec_t g16m_tail(const int16_t *x, int32_t depth) { return (void)x, (void)depth, 0; }
static inline void g16m_fold4(const int32_t a[4], const int32_t *m, int32_t n, int32_t lo, int32_t hi, int16_t *out) {
  for (int32_t i = 0; i < n; i++) out[i] = g16m_fold(a[i], m[i], lo, hi);
}
#endif

/* All rows for one input vector, in blocks of 4 (the last block's missing rows are zero
 * weights; their outputs are not stored). */
static void g16m_vector(const ta_gemm_s16_mve_params_t *p, const int16_t *x, const int8_t *w, int16_t *out) {
  const int32_t rows = p->rows, chunks = p->depth >> 3, tail = p->depth & 7, lo = p->act_min, hi = p->act_max;
  const int32_t block_bytes = 4 * p->stride;
  const g16m_vec_t xt = g16m_tail(x, p->depth);
  for (int32_t r = 0; r < rows; r += 4, w += block_bytes) {
    const int32_t n = rows - r < 4 ? rows - r : 4;
    int32_t a[4] = {0, 0, 0, 0};
    if (p->bias) {
      a[0] = p->bias[r], a[1] = p->bias[r + 1], a[2] = p->bias[r + 2], a[3] = p->bias[r + 3];
      g16m_block(x, w, chunks, tail, xt, a);
      g16m_fold4(a, p->mult + r, n, lo, hi, out + r);
    } else if (p->acc64) {
      for (int32_t i = 0; i < n; i++)
        out[r + i] = ta_s16_mve_general(p->rq + 4 * (r + i), g16m_row64(x, w + 8 * i, chunks, tail, xt), lo, hi);
    } else {
      g16m_block(x, w, chunks, tail, xt, a);
      for (int32_t i = 0; i < n; i++) out[r + i] = ta_s16_mve_general(p->rq + 4 * (r + i), a[i], lo, hi);
    }
  }
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
