/* tinyaot runtime: int8 matrix-vector kernels with DSP-extension (SIMD32) intrinsics. */
#include "ta_gemm_dsp.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>

static inline int32_t gemm_load32(const void *p) {
  int32_t v;
  memcpy(&v, p, sizeof v); /* unaligned-safe; a single LDR on these cores */
  return v;
}

/* SXTB16 of the word rotated right by 8: bytes 1 and 3 sign-extended to halves
 * (one instruction; GCC 12's arm_acle.h has no __ror to fold). */
static inline int32_t gemm_sxtb16_ror8(int32_t v) {
  int32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

static inline int32_t gemm_sxtb16(int32_t v) { return (int32_t)__sxtb16((uint32_t)v); }

/* Adds the dot product of 4 input values (unpacked as x0,x2 and x1,x3) with one
 * row's 4 weights, unpacked the same way. */
static inline int32_t gemm_mac4(int32_t even, int32_t odd, const int8_t *w, int32_t acc) {
  const int32_t ww = gemm_load32(w);
  acc = __smlad(even, gemm_sxtb16(ww), acc);
  return __smlad(odd, gemm_sxtb16_ror8(ww), acc);
}

static void gemm_dot4(const int8_t *x, const int8_t *w, int32_t depth, const int32_t *bias, int32_t acc[4]) {
  int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
  int32_t groups = depth >> 2;
  for (; groups > 0; groups--, x += 4, w += 16) {
    const int32_t xw = gemm_load32(x);
    const int32_t even = gemm_sxtb16(xw), odd = gemm_sxtb16_ror8(xw);
    a0 = gemm_mac4(even, odd, w, a0);
    a1 = gemm_mac4(even, odd, w + 4, a1);
    a2 = gemm_mac4(even, odd, w + 8, a2);
    a3 = gemm_mac4(even, odd, w + 12, a3);
  }
  for (int32_t i = 0; i < (depth & 3); i++) { /* the zero-padded last group */
    const int32_t xi = x[i];
    a0 += xi * w[i], a1 += xi * w[4 + i], a2 += xi * w[8 + i], a3 += xi * w[12 + i];
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

static int32_t gemm_dot1(const int8_t *x, const int8_t *w, int32_t depth, int32_t acc) {
  int32_t groups = depth >> 2;
  for (; groups > 0; groups--, x += 4, w += 4) {
    const int32_t xw = gemm_load32(x);
    acc = gemm_mac4(gemm_sxtb16(xw), gemm_sxtb16_ror8(xw), w, acc);
  }
  for (int32_t i = 0; i < (depth & 3); i++) acc += (int32_t)x[i] * w[i];
  return acc;
}

/* TFLite's MultiplyByQuantizedMultiplier in one rounding: with a = acc << left,
 * s = SaturatingRoundingDoublingHighMul(a, m) = floor((a*m + 2^30) / 2^31) for m >= 0,
 * and RoundingDivideByPOT(s, r) = floor((s + 2^(r-1) - [s < 0]) / 2^r). As
 * floor((floor(y) + k) / n) = floor((y + k) / n) for integers k, n, both fold into
 * floor((a*m + 2^30 + 2^31 * c) / 2^(31+r)) with c = 2^(r-1) - [a < 0]; [a < 0] may
 * replace [s < 0] because they differ only when s = 0, where the correction changes
 * nothing. 2^31 * c is added as (-c) * INT32_MIN (two multiply-accumulates), and
 * the division by 2^(31+r), r >= 1, is the high word shifted by r - 1. */
static inline int32_t gemm_requantize(int32_t acc, int32_t mult, int32_t shift) {
  if (shift >= 0) {
    const int32_t a = (int32_t)((uint32_t)acc << shift); /* wraps like TFLite's int32 multiply */
    return (int32_t)(((int64_t)a * mult + ((int64_t)1 << 30)) >> 31);
  }
  const int32_t right = -shift;
  const int32_t c = (int32_t)(1u << (right - 1)) + (acc >> 31);
  int64_t t = (int64_t)acc * mult + ((int64_t)1 << 30);
  t += (int64_t)(-c) * INT32_MIN;
  return (int32_t)(t >> 32) >> (right - 1);
}

static inline int8_t gemm_out(const ta_gemm_dsp_params_t *p, int32_t c, int32_t acc) {
  const int32_t i = p->per_channel ? c : 0;
  const int32_t v = gemm_requantize(acc, p->mult[i], p->shift[i]) + p->output_offset;
  return (int8_t)ta_clamp(v, p->act_min, p->act_max);
}

static void gemm_vector(const ta_gemm_dsp_params_t *p, const int8_t *x, const int8_t *w, int8_t *out) {
  const int32_t padded = (p->depth + 3) & ~3;
  int32_t acc[4];
  int32_t c = 0;
  for (; c + 4 <= p->rows; c += 4, w += 4 * padded) {
    gemm_dot4(x, w, p->depth, p->bias + c, acc);
    for (int32_t i = 0; i < 4; i++) out[c + i] = gemm_out(p, c + i, acc[i]);
  }
  for (; c < p->rows; c++, w += padded) out[c] = gemm_out(p, c, gemm_dot1(x, w, p->depth, p->bias[c]));
}

void ta_gemm_s8_dsp(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *input, const int8_t *weights,
                    int8_t *output) {
  for (int32_t i = 0; i < count; i++)
    gemm_vector(p, input + (size_t)i * (size_t)p->depth, weights, output + (size_t)i * (size_t)p->rows);
}

void ta_conv_s8_dsp(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                    const int8_t *weights, int8_t *scratch, int8_t *output) {
  const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++)
    for (int32_t oy = 0; oy < g->out_h; oy++)
      for (int32_t ox = 0; ox < g->out_w; ox++, out += p->rows)
        gemm_vector(p, ta_im2col_s8(g, input + (size_t)b * image, oy, ox, scratch), weights, out);
}

#else
typedef int ta_gemm_dsp_unused_t; /* ISO C forbids an empty translation unit */
#endif
