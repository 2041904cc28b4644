/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the int8 LSTM's MVE tier (see ta_lstm_mve.h). VMLADAVA adds the 16
 * products of a vector to a 32-bit accumulator modulo 2^32, as the portable kernel's
 * wrapping sum does; the tail's loads are predicated (inactive lanes read nothing and
 * are zero), so the eight dot products, and everything after them, are the same. */
#include "ta_lstm_mve.h"

#include <string.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* acc[0..3] += the four gates' rows (n apart, from w) . x over n elements. */
static void lstm_mve_side(const int8_t *w, const int8_t *x, int32_t n, int32_t *acc) {
  const int8_t *w1 = w + n, *w2 = w + 2 * n, *w3 = w + 3 * n;
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
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
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}
#else
/* Plain C, the same sums modulo 2^32. */
static void lstm_mve_side(const int8_t *w, const int8_t *x, int32_t n, int32_t *acc) {
  int32_t g, k;
  for (g = 0; g < 4; g++) {
    uint32_t a = (uint32_t)acc[g];
    for (k = 0; k < n; k++) a += (uint32_t)(w[g * n + k] * x[k]);
    acc[g] = a <= 0x7FFFFFFFu ? (int32_t)a : -(int32_t)(~a) - 1;
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
        for (j = 0; j < p->state_size; j++) {
          const int8_t *w = p->weights + (size_t)j * unit_len;
          const int32_t *b = p->bias + (size_t)j * 8u;
          int32_t acc[8];
          for (g = 0; g < 8; g++) acc[g] = b[g];
          lstm_mve_side(w, x + ri, p->input_size, acc);
          lstm_mve_side(w + (size_t)4 * (size_t)p->input_size, h + rs, p->state_size, acc + 4);
          y[rs + (size_t)j] = ta_lstm_gate_unit(p, acc, c + rs + j);
        }
      }
      /* Every gate of this step has read the old hidden state: publish the new one. */
      memcpy(h, y, state_step * sizeof *h);
    }
  }
}
