/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the int8 SVDF's MVE tier (see ta_svdf_mve.h). VMLADAVA adds a vector's
 * products to a 32-bit accumulator modulo 2^32, as the portable kernel's wrapping sums
 * do, and the tails' loads are predicated (inactive lanes read nothing and are zero);
 * addition modulo 2^32 does not depend on order, so the sums, and everything after them,
 * are the same. */
#include "ta_svdf_mve.h"

#include <string.h>

/* uint32 -> int32 two's complement, without implementation-defined conversion. */
static int32_t svdf_mve_wrap(uint32_t u) { return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(~u) - 1; }

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* acc + w . x over n int8 elements, modulo 2^32. */
static inline uint32_t svdf_mve_dot_s8(const int8_t *w, const int8_t *x, int32_t n, uint32_t acc) {
  int32_t a = svdf_mve_wrap(acc), k;
  for (k = n; k >= 16; k -= 16, w += 16, x += 16) a = vmladavaq_s8(a, vldrbq_s8(w), vldrbq_s8(x));
  if (k > 0) {
    const mve_pred16_t pr = vctp8q((uint32_t)k);
    a = vmladavaq_s8(a, vldrbq_z_s8(w, pr), vldrbq_z_s8(x, pr));
  }
  return (uint32_t)a;
}

/* acc + w . s over n int16 elements, modulo 2^32. */
static inline uint32_t svdf_mve_dot_s16(const int16_t *w, const int16_t *s, int32_t n, uint32_t acc) {
  int32_t a = svdf_mve_wrap(acc), k;
  for (k = n; k >= 8; k -= 8, w += 8, s += 8) a = vmladavaq_s16(a, vldrhq_s16(w), vldrhq_s16(s));
  if (k > 0) {
    const mve_pred16_t pr = vctp16q((uint32_t)k);
    a = vmladavaq_s16(a, vldrhq_z_s16(w, pr), vldrhq_z_s16(s, pr));
  }
  return (uint32_t)a;
}

/* ta_requantize per lane (the LSTM MVE tier's form, docs/kernels.md): the wrapping left
 * shift, VQRDMULH (TFLM's doubling high multiply for a multiplier >= 0), then the
 * rounding right shift with ties away from zero: negative lanes minus 1 (saturating)
 * before VRSHL's round-half-up. The compiler takes this tier only for multipliers >= 0
 * and shifts in [-31, 30]. */
static inline int32x4_t svdf_mve_requantize(int32x4_t x, int32_t multiplier, int32_t shift) {
  int32x4_t high = vqrdmulhq_n_s32(shift > 0 ? vshlq_r_s32(x, shift) : x, multiplier);
  if (shift < 0) high = vrshlq_n_s32(vqaddq_s32(high, vshrq_n_s32(high, 31)), shift);
  return high;
}

/* The newest state slot of n (<= 4) consecutive filters, memory halves apart from dst. */
static inline void svdf_mve_store_state(const ta_svdf_s8_params_t *p, const int32_t *sums, int32_t n, int16_t *dst) {
  const mve_pred16_t pr = vctp32q((uint32_t)n);
  int32x4_t v = svdf_mve_requantize(vldrwq_z_s32(sums, pr), p->feature_multiplier, p->feature_shift);
  v = vmaxq_s32(vminq_s32(vaddq_n_s32(v, p->state_zero_point), vdupq_n_s32(32767)), vdupq_n_s32(-32768));
  vstrhq_scatter_shifted_offset_p_s32(dst, vmulq_n_u32(vidupq_n_u32(0u, 1), (uint32_t)p->memory), v, pr);
}

/* n (<= 4) consecutive outputs. */
static inline void svdf_mve_store_output(const ta_svdf_s8_params_t *p, const int32_t *sums, int32_t n, int8_t *dst) {
  const mve_pred16_t pr = vctp32q((uint32_t)n);
  int32x4_t v = svdf_mve_requantize(vldrwq_z_s32(sums, pr), p->output_multiplier, p->output_shift);
  v = vmaxq_s32(vminq_s32(vaddq_n_s32(v, p->output_zero_point), vdupq_n_s32(127)), vdupq_n_s32(-128));
  vstrbq_p_s32(dst, v, pr);
}
#else
/* Plain C, the same sums modulo 2^32. */
static uint32_t svdf_mve_dot_s8(const int8_t *w, const int8_t *x, int32_t n, uint32_t acc) {
  int32_t k;
  for (k = 0; k < n; k++) acc += (uint32_t)((int32_t)w[k] * (int32_t)x[k]);
  return acc;
}

static uint32_t svdf_mve_dot_s16(const int16_t *w, const int16_t *s, int32_t n, uint32_t acc) {
  int32_t k;
  for (k = 0; k < n; k++) acc += (uint32_t)((int32_t)w[k] * (int32_t)s[k]);
  return acc;
}

static void svdf_mve_store_state(const ta_svdf_s8_params_t *p, const int32_t *sums, int32_t n, int16_t *dst) {
  int32_t j;
  for (j = 0; j < n; j++) {
    const int32_t acc = ta_requantize(sums[j], p->feature_multiplier, p->feature_shift) + p->state_zero_point;
    dst[(size_t)j * (size_t)p->memory] = (int16_t)ta_clamp(acc, -32768, 32767);
  }
}

static void svdf_mve_store_output(const ta_svdf_s8_params_t *p, const int32_t *sums, int32_t n, int8_t *dst) {
  int32_t j;
  for (j = 0; j < n; j++)
    dst[j] = (int8_t)ta_clamp(ta_requantize(sums[j], p->output_multiplier, p->output_shift) + p->output_zero_point,
                              -128, 127);
}
#endif

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
/* state[k] = state[k + 1] for k < total - 1, 8 halves per vector (memmove of a buffer
 * shifted by 2 bytes goes byte by byte). Forward: each vector is loaded before the
 * store that overwrites its first 7 halves, and the store overwrites only halves
 * loaded already; the tail's store is predicated to the halves left. */
static void svdf_mve_shift(int16_t *state, int32_t total) {
  int32_t k;
  for (k = 0; k < total - 1; k += 8) {
    const mve_pred16_t pr = vctp16q((uint32_t)(total - 1 - k));
    vstrhq_p_s16(state + k, vldrhq_z_s16(state + k + 1, pr), pr);
  }
}
#else
static void svdf_mve_shift(int16_t *state, int32_t total) {
  if (total > 1) memmove(state, state + 1, (size_t)(total - 1) * sizeof *state);
}
#endif

void ta_svdf_s8_mve(const ta_svdf_s8_params_t *p, const int8_t *input, const int8_t *weights_feature,
                    const int16_t *weights_time, int16_t *state, int8_t *output) {
  const size_t row = (size_t)p->filters * (size_t)p->memory;
  const int32_t unit_len = p->rank * p->memory;
  const int32_t total = p->batches * p->filters * p->memory;
  int32_t b, f, u, j;
  /* Drop the oldest slot of every state row (see ta_svdf.c: the slot crossing rows is overwritten next). */
  svdf_mve_shift(state, total);
  for (b = 0; b < p->batches; b++) {
    const int8_t *x = input + (size_t)b * (size_t)p->input_size;
    int16_t *state_row = state + (size_t)b * row;
    for (f = 0; f < p->filters; f += 4) { /* 4 filters' sums requantised per vector */
      const int32_t n = p->filters - f < 4 ? p->filters - f : 4;
      int32_t sums[4] = {0, 0, 0, 0};
      for (j = 0; j < n; j++)
        sums[j] = svdf_mve_wrap(svdf_mve_dot_s8(weights_feature + (size_t)(f + j) * (size_t)p->input_size, x,
                                                p->input_size, (uint32_t)p->feature_offset[f + j]));
      svdf_mve_store_state(p, sums, n, state_row + (size_t)f * (size_t)p->memory + (size_t)(p->memory - 1));
    }
    for (u = 0; u < p->units; u += 4) { /* 4 units' sums requantised per vector */
      const int32_t n = p->units - u < 4 ? p->units - u : 4;
      int32_t sums[4] = {0, 0, 0, 0};
      for (j = 0; j < n; j++) {
        const size_t at = (size_t)(u + j) * (size_t)unit_len;
        sums[j] = svdf_mve_wrap(
            svdf_mve_dot_s16(weights_time + at, state_row + at, unit_len, (uint32_t)p->unit_bias[u + j]));
      }
      svdf_mve_store_output(p, sums, n, output + (size_t)b * (size_t)p->units + (size_t)u);
    }
  }
}
