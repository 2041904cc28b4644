/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the int8 LSTM's DSP tier (see ta_lstm_dsp.h). Each accumulator sums
 * products modulo 2^32 as the portable kernel's does (SMLAD wraps; its Q flag is
 * ignored), so the eight dot products, and everything after them, are the same. */
#include "ta_lstm_dsp.h"

#include <string.h>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>

static inline int32_t lstm_dsp_load32(const void *p) {
  int32_t v;
  memcpy(&v, p, sizeof v); /* unaligned-safe; one LDR on the M4 */
  return v;
}

/* Bytes 0 and 2, and bytes 1 and 3, sign-extended to halves. */
static inline int32_t lstm_dsp_even(int32_t v) { return (int32_t)__sxtb16((uint32_t)v); }
static inline int32_t lstm_dsp_odd(int32_t v) {
  int32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* acc[0..3] += the four gates' weights . x over n elements; returns the next side's weights. */
static inline const int8_t *lstm_dsp_side(const int8_t *w, const int8_t *x, int32_t n, int32_t *acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  int32_t groups = n >> 2, tail = n & 3, k;
  for (; groups > 0; groups--, x += 4, w += 16) {
    const int32_t xw = lstm_dsp_load32(x);
    const int32_t xe = lstm_dsp_even(xw), xo = lstm_dsp_odd(xw);
    int32_t ww = lstm_dsp_load32(w);
    a0 = (int32_t)__smlad((uint32_t)lstm_dsp_even(ww), (uint32_t)xe, (uint32_t)a0);
    a0 = (int32_t)__smlad((uint32_t)lstm_dsp_odd(ww), (uint32_t)xo, (uint32_t)a0);
    ww = lstm_dsp_load32(w + 4);
    a1 = (int32_t)__smlad((uint32_t)lstm_dsp_even(ww), (uint32_t)xe, (uint32_t)a1);
    a1 = (int32_t)__smlad((uint32_t)lstm_dsp_odd(ww), (uint32_t)xo, (uint32_t)a1);
    ww = lstm_dsp_load32(w + 8);
    a2 = (int32_t)__smlad((uint32_t)lstm_dsp_even(ww), (uint32_t)xe, (uint32_t)a2);
    a2 = (int32_t)__smlad((uint32_t)lstm_dsp_odd(ww), (uint32_t)xo, (uint32_t)a2);
    ww = lstm_dsp_load32(w + 12);
    a3 = (int32_t)__smlad((uint32_t)lstm_dsp_even(ww), (uint32_t)xe, (uint32_t)a3);
    a3 = (int32_t)__smlad((uint32_t)lstm_dsp_odd(ww), (uint32_t)xo, (uint32_t)a3);
  }
  for (k = 0; k < tail; k++) {
    const int32_t xv = x[k];
    a0 = (int32_t)((uint32_t)a0 + (uint32_t)(w[k] * xv));
    a1 = (int32_t)((uint32_t)a1 + (uint32_t)(w[tail + k] * xv));
    a2 = (int32_t)((uint32_t)a2 + (uint32_t)(w[2 * tail + k] * xv));
    a3 = (int32_t)((uint32_t)a3 + (uint32_t)(w[3 * tail + k] * xv));
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
  return w + 4 * tail;
}
#else
/* Plain C, same order and the same sums modulo 2^32. */
static const int8_t *lstm_dsp_side(const int8_t *w, const int8_t *x, int32_t n, int32_t *acc) {
  int32_t groups = n >> 2, tail = n & 3, g, k;
  uint32_t a[4];
  for (g = 0; g < 4; g++) a[g] = (uint32_t)acc[g];
  for (; groups > 0; groups--, x += 4, w += 16)
    for (g = 0; g < 4; g++)
      for (k = 0; k < 4; k++) a[g] += (uint32_t)(w[4 * g + k] * x[k]);
  for (g = 0; g < 4; g++)
    for (k = 0; k < tail; k++) a[g] += (uint32_t)(w[g * tail + k] * x[k]);
  for (g = 0; g < 4; g++) acc[g] = a[g] <= 0x7FFFFFFFu ? (int32_t)a[g] : -(int32_t)(~a[g]) - 1;
  return w + 4 * tail;
}
#endif

void ta_lstm_s8_dsp(const ta_lstm_s8_tier_params_t *p, const int8_t *input, int8_t *hidden, int16_t *cell,
                    int8_t *output) {
  const size_t in_step = (size_t)p->rows * (size_t)p->input_size;
  const size_t state_step = (size_t)p->rows * (size_t)p->state_size;
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
        const int8_t *w = p->weights;
        const int32_t *b = p->bias;
        for (j = 0; j < p->state_size; j++, b += 8) {
          int32_t acc[8];
          for (g = 0; g < 8; g++) acc[g] = b[g];
          w = lstm_dsp_side(w, x + ri, p->input_size, acc);
          w = lstm_dsp_side(w, h + rs, p->state_size, acc + 4);
          y[rs + (size_t)j] = ta_lstm_gate_unit(p, acc, c + rs + j);
        }
      }
      /* Every gate of this step has read the old hidden state: publish the new one. */
      memcpy(h, y, state_step * sizeof *h);
    }
  }
}
