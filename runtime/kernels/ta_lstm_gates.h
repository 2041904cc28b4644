/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the int8 LSTM's gate and state arithmetic shared by its DSP and MVE
 * tiers (ta_lstm_dsp.h, ta_lstm_mve.h), which differ only in how they compute the eight
 * dot products of a unit. The arithmetic is the portable kernel's (ta_lstm.c), step for
 * step: each gate is the sum of two requantised fully connected results saturated to
 * int16 Q3.12, squashed by the int16 sigmoid/tanh that interpolate a 256-entry table;
 * the cell and hidden updates are requantised element-wise products. C99. */
#ifndef TA_LSTM_GATES_H
#define TA_LSTM_GATES_H
#include "ta_common.h"

/* The int8 LSTM of ta_lstm.h with a tier's weight layout (see the tier's header). */
typedef struct {
  int32_t sequences, rows, time_steps, input_size, state_size;
  const int8_t *weights;
  const int32_t *bias;          /* per unit: 4 input-side then 4 recurrent-side biases, zero points folded in */
  const int16_t *sigmoid_table; /* as ta_lstm_s8_params_t's */
  int32_t in_multiplier[4], in_shift[4];
  int32_t rec_multiplier[4], rec_shift[4];
  int32_t forget_multiplier, forget_shift;
  int32_t update_multiplier, update_shift;
  int32_t hidden_multiplier, hidden_shift, hidden_zero_point;
  int32_t cell_tanh_multiplier, cell_tanh_shift;
  int32_t clip_cell;
  int32_t cell_clip;
  int32_t small_sums; /* every requantised value is below 2^30 after its left shift (the
                         compiler's bound): ta_lstm_gate_requantize_small applies */
} ta_lstm_s8_tier_params_t;

/* Table node i, sigmoid(i / 24) in unsigned Q0.16 (stored minus 32768). */
static inline uint32_t ta_lstm_gate_node(const int16_t *table, uint32_t i) {
  return (uint32_t)((int32_t)table[i] + 32768);
}

/* x / 2^s rounded toward minus infinity, for either sign. */
static inline int32_t ta_lstm_gate_floor_shift(int32_t x, int32_t s) {
  if (s <= 0) return x;
  return x >= 0 ? x >> s : -(int32_t)(((uint32_t)(-(x + 1)) >> s) + 1u);
}

/* ta_requantize for a multiplier >= 0 (the compiler keeps the portable kernel
 * otherwise): the doubling high multiply cannot saturate then, and its nudged division
 * toward zero, (a*m + (a*m >= 0 ? 2^30 : 1 - 2^30)) / 2^31, equals
 * floor((a*m + 2^30) / 2^31) for either sign (for a negative numerator n, truncation
 * is floor((n + 2^31 - 1) / 2^31) and n + 2^31 - 1 = a*m + 2^30): one 64-bit
 * multiply-add and a shift. */
static inline int32_t ta_lstm_gate_requantize(int32_t x, int32_t multiplier, int32_t shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const int32_t a = (int32_t)((uint32_t)x << left); /* wraps like the reference's int32 multiply */
  const int32_t high = (int32_t)(((int64_t)a * multiplier + ((int64_t)1 << 30)) >> 31);
  return ta_rounding_divide_by_pot(high, right);
}

/* ta_requantize for a multiplier >= 0 and |x << shift| < 2^30: the doubling high
 * multiply floor((a*m + 2^30) / 2^31) is floor((2a*m + 2^31) / 2^32), SMMULR of 2a
 * (which fits), and the ties-away rounding shift by e >= 1 is
 * (h + 2^(e-1) - [h < 0]) >> e (see above), without overflow as |h| < 2^30. */
static inline int32_t ta_lstm_gate_requantize_small(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t a2 = (int32_t)((uint32_t)x << ((shift > 0 ? shift : 0) + 1));
  int32_t high;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && defined(__GNUC__)
  __asm__("smmulr %0, %1, %2" : "=r"(high) : "r"(a2), "r"(multiplier));
#else
  high = (int32_t)(((int64_t)a2 * multiplier + ((int64_t)1 << 31)) >> 32);
#endif
  if (shift >= 0) return high;
  return (high + ((int32_t)1 << (-shift - 1)) - (int32_t)((uint32_t)high >> 31)) >> -shift;
}

#if defined(__ARM_FEATURE_SAT) && __ARM_FEATURE_SAT
#include <arm_acle.h>
/* One SSAT on the Cortex-M cores. */
#define ta_lstm_gate_sat16(x) ((int32_t)__ssat((x), 16))
#define ta_lstm_gate_sat8(x) ((int32_t)__ssat((x), 8))
#else
static inline int32_t ta_lstm_gate_sat16(int32_t x) { return ta_clamp(x, -32768, 32767); }
static inline int32_t ta_lstm_gate_sat8(int32_t x) { return ta_clamp(x, -128, 127); }
#endif

/* Sigmoid of a Q3.12 value, result in Q0.15. */
static inline int32_t ta_lstm_gate_sigmoid(const int16_t *table, int32_t x) {
  const int32_t v = x * 3;
  const uint32_t a = (uint32_t)(v < 0 ? -v : v);
  const uint32_t idx = a >> 9;
  uint32_t r;
  if (idx >= 255u) {
    r = 0x7FFFu << 10;
  } else {
    const uint32_t lo = ta_lstm_gate_node(table, idx), hi = ta_lstm_gate_node(table, idx + 1u);
    r = (lo << 9) + (a & 0x1FFu) * (hi - lo);
  }
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return (int32_t)(int16_t)(r >> 10);
}

/* Tanh in Q0.15 of (x * multiplier + round) >> shift (the table's Q3.12 x 3 domain). */
static inline int32_t ta_lstm_gate_tanh(const int16_t *table, int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
  const int32_t v = ta_lstm_gate_floor_shift(x * multiplier + round, shift);
  const uint32_t a = (uint32_t)(v < 0 ? -v : v);
  const uint32_t idx = a >> 8;
  int32_t r;
  if (idx >= 255u) {
    r = 0xFFFF << 8;
  } else {
    const uint32_t lo = ta_lstm_gate_node(table, idx), hi = ta_lstm_gate_node(table, idx + 1u);
    r = (int32_t)((lo << 8) + (a & 0xFFu) * (hi - lo));
  }
  r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return (int32_t)(int16_t)ta_lstm_gate_floor_shift(r, 8);
}

/* One unit from its eight dot products (acc[g]: input side of gate g, acc[4 + g]:
 * recurrent side, biases included): updates the cell value *c, returns the hidden value. */
#define TA_LSTM_GATE_RQ(x, m, s) \
  (small ? ta_lstm_gate_requantize_small((x), (m), (s)) : ta_lstm_gate_requantize((x), (m), (s)))

static inline int8_t ta_lstm_gate_unit_with(const ta_lstm_s8_tier_params_t *p, const int32_t *acc, int16_t *c,
                                            int small) {
  int32_t pre[4], g;
  for (g = 0; g < 4; g++) {
    const int32_t a = ta_lstm_gate_sat16(TA_LSTM_GATE_RQ(acc[g], p->in_multiplier[g], p->in_shift[g]));
    const int32_t b =
        ta_lstm_gate_sat16(TA_LSTM_GATE_RQ(acc[4 + g], p->rec_multiplier[g], p->rec_shift[g]));
    pre[g] = ta_lstm_gate_sat16(a + b);
  }
  {
    const int16_t *t = p->sigmoid_table;
    const int32_t in_gate = ta_lstm_gate_sigmoid(t, pre[0]), forget_gate = ta_lstm_gate_sigmoid(t, pre[1]);
    const int32_t cell_gate = ta_lstm_gate_tanh(t, pre[2], 3, 0), out_gate = ta_lstm_gate_sigmoid(t, pre[3]);
    const int32_t kept = ta_lstm_gate_sat16(TA_LSTM_GATE_RQ(forget_gate * *c, p->forget_multiplier, p->forget_shift));
    const int32_t added =
        ta_lstm_gate_sat16(TA_LSTM_GATE_RQ(in_gate * cell_gate, p->update_multiplier, p->update_shift));
    int32_t cell = ta_lstm_gate_sat16(kept + added), squashed, out;
    if (p->clip_cell) cell = ta_clamp(cell, -p->cell_clip, p->cell_clip);
    *c = (int16_t)cell;
    squashed = ta_lstm_gate_tanh(t, cell, p->cell_tanh_multiplier, p->cell_tanh_shift);
    out = TA_LSTM_GATE_RQ(squashed * out_gate, p->hidden_multiplier, p->hidden_shift);
    return (int8_t)ta_lstm_gate_sat8(out + p->hidden_zero_point);
  }
}

/* The two forms instantiated apart, so that each inlines one requantisation. */
static inline int8_t ta_lstm_gate_unit(const ta_lstm_s8_tier_params_t *p, const int32_t *acc, int16_t *c) {
  return p->small_sums ? ta_lstm_gate_unit_with(p, acc, c, 1) : ta_lstm_gate_unit_with(p, acc, c, 0);
}

#undef TA_LSTM_GATE_RQ

#endif
