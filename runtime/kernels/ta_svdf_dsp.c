/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the int8 SVDF's DSP tier (see ta_svdf_dsp.h). Every accumulator sums
 * products modulo 2^32 as the portable kernel's wrapping sums do (SMLAD wraps; its Q
 * flag is ignored) and addition modulo 2^32 does not depend on order, so the sums, and
 * everything after them, are the same. */
#include "ta_svdf_dsp.h"

#include <string.h>

/* uint32 -> int32 two's complement, without implementation-defined conversion. */
static int32_t svdf_dsp_wrap(uint32_t u) { return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(~u) - 1; }

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>

static inline uint32_t svdf_dsp_load32(const void *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v); /* unaligned-safe; one LDR on the M4 */
  return v;
}

/* Bytes 0 and 2, and bytes 1 and 3, sign-extended to halves. */
static inline uint32_t svdf_dsp_even(uint32_t v) { return __sxtb16(v); }
static inline uint32_t svdf_dsp_odd(uint32_t v) {
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* acc + w . x over n int8 elements, modulo 2^32. Both operands' bytes get the same
 * pairing, so each SMLAD adds two of the products. */
static inline uint32_t svdf_dsp_dot_s8(const int8_t *w, const int8_t *x, int32_t n, uint32_t acc) {
  int32_t k;
  for (k = n >> 2; k > 0; k--, w += 4, x += 4) {
    const uint32_t ww = svdf_dsp_load32(w), xw = svdf_dsp_load32(x);
    acc = __smlad(svdf_dsp_even(ww), svdf_dsp_even(xw), acc);
    acc = __smlad(svdf_dsp_odd(ww), svdf_dsp_odd(xw), acc);
  }
  for (k = n & 3; k > 0; k--) acc += (uint32_t)((int32_t)*w++ * (int32_t)*x++);
  return acc;
}

/* a0 + w0 . x and a1 + w1 . x over n int8 elements, modulo 2^32: each word of x is
 * loaded and sign-extended once for two filters. */
static inline void svdf_dsp_dot2_s8(const int8_t *w0, const int8_t *w1, const int8_t *x, int32_t n, uint32_t *a0,
                                    uint32_t *a1) {
  uint32_t s0 = *a0, s1 = *a1;
  int32_t k;
  for (k = n >> 2; k > 0; k--, w0 += 4, w1 += 4, x += 4) {
    const uint32_t xw = svdf_dsp_load32(x), xe = svdf_dsp_even(xw), xo = svdf_dsp_odd(xw);
    const uint32_t v0 = svdf_dsp_load32(w0), v1 = svdf_dsp_load32(w1);
    s0 = __smlad(svdf_dsp_even(v0), xe, s0);
    s0 = __smlad(svdf_dsp_odd(v0), xo, s0);
    s1 = __smlad(svdf_dsp_even(v1), xe, s1);
    s1 = __smlad(svdf_dsp_odd(v1), xo, s1);
  }
  for (k = n & 3; k > 0; k--, x++) {
    s0 += (uint32_t)((int32_t)*w0++ * (int32_t)*x);
    s1 += (uint32_t)((int32_t)*w1++ * (int32_t)*x);
  }
  *a0 = s0, *a1 = s1;
}

/* acc + w . s over n int16 elements, modulo 2^32: one SMLAD per pair. */
static inline uint32_t svdf_dsp_dot_s16(const int16_t *w, const int16_t *s, int32_t n, uint32_t acc) {
  int32_t k;
  for (k = n >> 1; k > 0; k--, w += 2, s += 2) acc = __smlad(svdf_dsp_load32(w), svdf_dsp_load32(s), acc);
  if (n & 1) acc += (uint32_t)((int32_t)*w * (int32_t)*s);
  return acc;
}
#else
/* Plain C, the same sums modulo 2^32. */
static uint32_t svdf_dsp_dot_s8(const int8_t *w, const int8_t *x, int32_t n, uint32_t acc) {
  int32_t k;
  for (k = 0; k < n; k++) acc += (uint32_t)((int32_t)w[k] * (int32_t)x[k]);
  return acc;
}

static uint32_t svdf_dsp_dot_s16(const int16_t *w, const int16_t *s, int32_t n, uint32_t acc) {
  int32_t k;
  for (k = 0; k < n; k++) acc += (uint32_t)((int32_t)w[k] * (int32_t)s[k]);
  return acc;
}

static void svdf_dsp_dot2_s8(const int8_t *w0, const int8_t *w1, const int8_t *x, int32_t n, uint32_t *a0,
                             uint32_t *a1) {
  *a0 = svdf_dsp_dot_s8(w0, x, n, *a0);
  *a1 = svdf_dsp_dot_s8(w1, x, n, *a1);
}
#endif

/* The newest state slot of filter f from its feature sum (as ta_svdf_s8). */
static void svdf_dsp_store(const ta_svdf_s8_params_t *p, int16_t *state_row, int32_t f, uint32_t sum) {
  const int32_t acc = ta_requantize(svdf_dsp_wrap(sum), p->feature_multiplier, p->feature_shift) + p->state_zero_point;
  state_row[(size_t)f * (size_t)p->memory + (size_t)(p->memory - 1)] = (int16_t)ta_clamp(acc, -32768, 32767);
}

/* state[k] = state[k + 1] for k < total - 1, two halves per 32-bit copy (memmove of a
 * buffer shifted by 2 bytes goes byte by byte). Forward: each copy reads two halves
 * before it overwrites the first of them, and what it overwrites was read already. */
static void svdf_dsp_shift(int16_t *state, int32_t total) {
  int32_t k;
  for (k = 0; k + 2 < total; k += 2) memcpy(state + k, state + k + 1, 2 * sizeof *state);
  for (; k + 1 < total; k++) state[k] = state[k + 1];
}

void ta_svdf_s8_dsp(const ta_svdf_s8_params_t *p, const int8_t *input, const int8_t *weights_feature,
                    const int16_t *weights_time, int16_t *state, int8_t *output) {
  const size_t row = (size_t)p->filters * (size_t)p->memory;
  const int32_t unit_len = p->rank * p->memory;
  const int32_t total = p->batches * p->filters * p->memory;
  int32_t b, f, u;
  /* Drop the oldest slot of every state row (see ta_svdf.c: the slot crossing rows is overwritten next). */
  svdf_dsp_shift(state, total);
  for (b = 0; b < p->batches; b++) {
    const int8_t *x = input + (size_t)b * (size_t)p->input_size;
    int16_t *state_row = state + (size_t)b * row;
    for (f = 0; f + 1 < p->filters; f += 2) { /* two filters per pass over x */
      const int8_t *w0 = weights_feature + (size_t)f * (size_t)p->input_size;
      uint32_t s0 = (uint32_t)p->feature_offset[f], s1 = (uint32_t)p->feature_offset[f + 1];
      svdf_dsp_dot2_s8(w0, w0 + p->input_size, x, p->input_size, &s0, &s1);
      svdf_dsp_store(p, state_row, f, s0);
      svdf_dsp_store(p, state_row, f + 1, s1);
    }
    if (f < p->filters)
      svdf_dsp_store(p, state_row, f, svdf_dsp_dot_s8(weights_feature + (size_t)f * (size_t)p->input_size, x,
                                                      p->input_size, (uint32_t)p->feature_offset[f]));
    for (u = 0; u < p->units; u++) {
      const size_t at = (size_t)u * (size_t)unit_len;
      const uint32_t sum = svdf_dsp_dot_s16(weights_time + at, state_row + at, unit_len, (uint32_t)p->unit_bias[u]);
      const int32_t acc = ta_requantize(svdf_dsp_wrap(sum), p->output_multiplier, p->output_shift) +
                          p->output_zero_point;
      output[(size_t)b * (size_t)p->units + (size_t)u] = (int8_t)ta_clamp(acc, -128, 127);
    }
  }
}
