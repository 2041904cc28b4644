/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the int8 LSTM's MVE tier (see ta_lstm_mve.h). VMLADAVA adds the 16
 * products of a vector to a 32-bit accumulator modulo 2^32, as the portable kernel's
 * wrapping sum does; the tail's loads are predicated (inactive lanes read nothing and
 * are zero), so the eight dot products, and everything after them, are the same. */
#include "ta_lstm_mve.h"

#include <string.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* acc[0], acc[4], acc[8], acc[12] += the four gates' rows (n apart, from w) . x over n
 * elements (acc: a block's accumulators, unit-minor). */
static inline void lstm_mve_side(const int8_t *w, const int8_t *x, int32_t n, int32_t *acc) {
  const int8_t *w1 = w + n, *w2 = w + 2 * n, *w3 = w + 3 * n;
  int32_t a0 = acc[0], a1 = acc[4], a2 = acc[8], a3 = acc[12];
  int32_t k;
  for (k = n; k >= 16; k -= 16, x += 16, w += 16, w1 += 16, w2 += 16, w3 += 16) {
    const int8x16_t xv = vldrbq_s8(x);
    a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w));
    a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w1));
    a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w2));
    a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w3));
  }
  if (k > 0) {
    const mve_pred16_t pr = vctp8q((uint32_t)k);
    const int8x16_t xv = vldrbq_z_s8(x, pr);
    a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w, pr));
    a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1, pr));
    a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2, pr));
    a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3, pr));
  }
  acc[0] = a0, acc[4] = a1, acc[8] = a2, acc[12] = a3;
}

/* ---- the gates of 4 units at once, one per 32-bit lane ---- */

static inline int32x4_t lstm_mve_clamp(int32x4_t x, int32_t lo, int32_t hi) {
  return vmaxq_s32(vminq_s32(x, vdupq_n_s32(hi)), vdupq_n_s32(lo));
}

/* ta_lstm_gate_requantize per lane: the wrapping left shift, VQRDMULH (= TFLM's doubling
 * high multiply for a multiplier >= 0: floor((a*m + 2^30) / 2^31), saturating only for
 * INT32_MIN^2), then the rounding right shift with ties away from zero: negative lanes
 * minus 1 (saturating: INT32_MIN divides exactly) before VRSHL's round-half-up. */
static inline int32x4_t lstm_mve_requantize(int32x4_t x, int32_t multiplier, int32_t shift) {
  int32x4_t high = vqrdmulhq_n_s32(shift > 0 ? vshlq_r_s32(x, shift) : x, multiplier);
  if (shift < 0) high = vrshlq_n_s32(vqaddq_s32(high, vshrq_n_s32(high, 31)), shift);
  return high;
}

/* Table nodes idx and idx + 1 (idx <= 254) per lane, unsigned Q0.16. */
static inline int32x4_t lstm_mve_node(const int16_t *table, int32x4_t idx) {
  return vaddq_n_s32(vldrhq_gather_shifted_offset_s32(table, vreinterpretq_u32_s32(idx)), 32768);
}

/* ta_lstm_gate_sigmoid per lane (x in int16 range). */
static inline int32x4_t lstm_mve_sigmoid(const int16_t *table, int32x4_t x) {
  const int32x4_t v = vmulq_n_s32(x, 3), a = vabsq_s32(v);
  const int32x4_t idx = vshrq_n_s32(a, 9), idx_c = vminq_s32(idx, vdupq_n_s32(254));
  const int32x4_t lo = lstm_mve_node(table, idx_c), hi = lstm_mve_node(table + 1, idx_c);
  int32x4_t r = vaddq_s32(vshlq_n_s32(lo, 9), vmulq_s32(vandq_s32(a, vdupq_n_s32(0x1FF)), vsubq_s32(hi, lo)));
  r = vpselq_s32(vdupq_n_s32(0x7FFF << 10), r, vcmpgtq_n_s32(idx, 254));
  r = vpselq_s32(vaddq_n_s32(r, 1 << 9), vsubq_s32(vdupq_n_s32((1 << 25) + (1 << 9) - 1), r), vcmpgeq_n_s32(v, 0));
  return vshrq_n_s32(r, 10);
}

/* ta_lstm_gate_tanh per lane: of (x * multiplier + round) >> shift. */
static inline int32x4_t lstm_mve_tanh(const int16_t *table, int32x4_t x, int32_t multiplier, int32_t shift) {
  int32x4_t v = vmulq_n_s32(x, multiplier);
  if (shift > 0) v = vshlq_r_s32(vaddq_n_s32(v, (int32_t)1 << (shift - 1)), -shift);
  {
    const int32x4_t a = vabsq_s32(v), idx = vshrq_n_s32(a, 8), idx_c = vminq_s32(idx, vdupq_n_s32(254));
    const int32x4_t lo = lstm_mve_node(table, idx_c), hi = lstm_mve_node(table + 1, idx_c);
    int32x4_t r = vaddq_s32(vshlq_n_s32(lo, 8), vmulq_s32(vandq_s32(a, vdupq_n_s32(0xFF)), vsubq_s32(hi, lo)));
    r = vpselq_s32(vdupq_n_s32(0xFFFF << 8), r, vcmpgtq_n_s32(idx, 254));
    r = vpselq_s32(vaddq_n_s32(r, -(1 << 23) + (1 << 7)), vsubq_s32(vdupq_n_s32((1 << 23) + (1 << 7) - 1), r),
                   vcmpgeq_n_s32(v, 0));
    return vshrq_n_s32(r, 8);
  }
}

/* Units j..j+3 (lanes; the first n valid) from their accumulators acc[g * 4 + lane]:
 * the cell values c[j..] in place, the hidden values to y[j..]. */
static inline void lstm_mve_gates(const ta_lstm_s8_tier_params_t *p, const int32_t *acc, int16_t *c, int8_t *y,
                                  int32_t n) {
  const mve_pred16_t pr = vctp32q((uint32_t)n);
  const int16_t *t = p->sigmoid_table;
  int32x4_t gate[4];
  int32_t g;
  for (g = 0; g < 4; g++) {
    const int32x4_t a =
        lstm_mve_clamp(lstm_mve_requantize(vldrwq_s32(acc + 4 * g), p->in_multiplier[g], p->in_shift[g]), -32768, 32767);
    const int32x4_t b = lstm_mve_clamp(
        lstm_mve_requantize(vldrwq_s32(acc + 16 + 4 * g), p->rec_multiplier[g], p->rec_shift[g]), -32768, 32767);
    gate[g] = lstm_mve_clamp(vaddq_s32(a, b), -32768, 32767);
  }
  gate[0] = lstm_mve_sigmoid(t, gate[0]);
  gate[1] = lstm_mve_sigmoid(t, gate[1]);
  gate[2] = lstm_mve_tanh(t, gate[2], 3, 0);
  gate[3] = lstm_mve_sigmoid(t, gate[3]);
  {
    const int32x4_t kept = lstm_mve_clamp(
        lstm_mve_requantize(vmulq_s32(gate[1], vldrhq_z_s32(c, pr)), p->forget_multiplier, p->forget_shift), -32768,
        32767);
    const int32x4_t added = lstm_mve_clamp(
        lstm_mve_requantize(vmulq_s32(gate[0], gate[2]), p->update_multiplier, p->update_shift), -32768, 32767);
    int32x4_t cell = lstm_mve_clamp(vaddq_s32(kept, added), -32768, 32767), out;
    if (p->clip_cell) cell = lstm_mve_clamp(cell, -p->cell_clip, p->cell_clip);
    vstrhq_p_s32(c, cell, pr);
    out = lstm_mve_requantize(vmulq_s32(lstm_mve_tanh(t, cell, p->cell_tanh_multiplier, p->cell_tanh_shift), gate[3]),
                              p->hidden_multiplier, p->hidden_shift);
    vstrbq_p_s32(y, lstm_mve_clamp(vaddq_n_s32(out, p->hidden_zero_point), -128, 127), pr);
  }
}
#else
/* Plain C, the same sums modulo 2^32 and the same gates, unit by unit. */
static void lstm_mve_side(const int8_t *w, const int8_t *x, int32_t n, int32_t *acc) {
  int32_t g, k;
  for (g = 0; g < 4; g++) {
    uint32_t a = (uint32_t)acc[4 * g];
    for (k = 0; k < n; k++) a += (uint32_t)(w[g * n + k] * x[k]);
    acc[4 * g] = a <= 0x7FFFFFFFu ? (int32_t)a : -(int32_t)(~a) - 1;
  }
}

static void lstm_mve_gates(const ta_lstm_s8_tier_params_t *p, const int32_t *acc, int16_t *c, int8_t *y,
                           int32_t n) {
  int32_t u, g;
  for (u = 0; u < n; u++) {
    int32_t unit_acc[8];
    for (g = 0; g < 8; g++) unit_acc[g] = acc[4 * g + u];
    y[u] = ta_lstm_gate_unit(p, unit_acc, c + u);
  }
}
#endif

void ta_lstm_s8_mve(const ta_lstm_s8_tier_params_t *p, const int8_t *input, int8_t *hidden, int16_t *cell,
                    int8_t *output) {
  const size_t in_step = (size_t)p->rows * (size_t)p->input_size;
  const size_t state_step = (size_t)p->rows * (size_t)p->state_size;
  const size_t unit_len = (size_t)4 * (size_t)(p->input_size + p->state_size);
  int32_t seq, t, r, j, g;
  for (seq = 0; seq < p->sequences; seq++) {
    int8_t *h = hidden + (size_t)seq * state_step;
    int16_t *c = cell + (size_t)seq * state_step;
    for (t = 0; t < p->time_steps; t++) {
      const size_t step = (size_t)seq * (size_t)p->time_steps + (size_t)t;
      const int8_t *x = input + step * in_step;
      int8_t *y = output + step * state_step;
      for (r = 0; r < p->rows; r++) {
        const size_t ri = (size_t)r * (size_t)p->input_size, rs = (size_t)r * (size_t)p->state_size;
        for (j = 0; j < p->state_size; j += 4) {
          /* 4 units at a time: acc[g * 4 + u], gate g's input side (g < 4) or
           * recurrent side (g >= 4) of unit j + u; lanes past the last unit stay 0 */
          const int32_t n = p->state_size - j < 4 ? p->state_size - j : 4;
          int32_t acc[32] = {0}, u;
          for (u = 0; u < n; u++) {
            const int8_t *w = p->weights + (size_t)(j + u) * unit_len;
            const int32_t *b = p->bias + (size_t)(j + u) * 8u;
            for (g = 0; g < 8; g++) acc[g * 4 + u] = b[g];
            lstm_mve_side(w, x + ri, p->input_size, acc + u);
            lstm_mve_side(w + (size_t)4 * (size_t)p->input_size, h + rs, p->state_size, acc + 16 + u);
          }
          lstm_mve_gates(p, acc, c + rs + j, y + rs + j, n);
        }
      }
      /* Every gate of this step has read the old hidden state: publish the new one. */
      memcpy(h, y, state_step * sizeof *h);
    }
  }
}
