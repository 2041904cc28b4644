/* tinyaot runtime: int8 DEPTHWISE_CONV_2D for the Cortex-M DSP extension (plain C elsewhere).
 *
 * Requantisation, TFLite's MultiplyByQuantizedMultiplier done with two roundings:
 *   x' = acc << left; t = round_half_up(x' * M / 2^31); out = round_half_away(t / 2^right)
 * With 2 * x' known (by the compiler) to fit in int32, the first rounding is exactly the
 * rounding high multiply SMMLAR of (acc << (left + 1)) and M, whose accumulator operand
 * adds 2^(right-1) + zero_point * 2^right: an arithmetic shift right by `right` then gives
 * out + zero_point, rounded half up. Negative ties must round away from zero, which
 * subtracting 1 from negative values does when right > 0 (the mask is INT32_MIN then;
 * the compiler leaves it 0 when every negative result is clamped to the zero point anyway). */
#include "ta_depthwise_conv_dsp.h"

/* The channel-group bodies must inline into their callers: otherwise the accumulators
 * have their address taken and live in memory. */
#if defined(__GNUC__)
#define DSP_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define DSP_ALWAYS_INLINE inline
#endif

#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>

/* Ra + ((a * b + 2^31) >> 32) on the high word of the 64-bit sum. */
static inline int32_t dsp_mul_high_round_acc(int32_t a, int32_t b, int32_t ra) {
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(ra));
  return r;
}

/* Four int8 lanes as int16 pairs: even lanes (0, 2) and odd lanes (1, 3). */
static inline int32_t dsp_even16(int32_t x) { return (int32_t)__sxtb16((uint32_t)x); }
/* GCC 12 does not fold a rotate into SXTB16's operand: spell it. */
static inline int32_t dsp_odd16(int32_t x) {
  int32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
  return r;
}
static inline int32_t dsp_sat8(int32_t x) { return __ssat(x, 8); }
#define DSP_MAC_LO(x, w, acc) __smlabb((x), (w), (acc))
#define DSP_MAC_HI(x, w, acc) __smlatt((x), (w), (acc))

#else

static inline int32_t dsp_mul_high_round_acc(int32_t a, int32_t b, int32_t ra) {
  const int64_t sum = (int64_t)ra * 4294967296LL + (int64_t)a * (int64_t)b + 2147483648LL;
  return (int32_t)(sum >> 32);
}
static inline int32_t dsp_pair16(int32_t lo, int32_t hi) {
  return (int32_t)(((uint32_t)(uint16_t)(int16_t)lo) | ((uint32_t)(uint16_t)(int16_t)hi << 16));
}
static inline int32_t dsp_even16(int32_t x) { return dsp_pair16((int8_t)(x & 0xFF), (int8_t)((x >> 16) & 0xFF)); }
static inline int32_t dsp_odd16(int32_t x) { return dsp_pair16((int8_t)((x >> 8) & 0xFF), (int8_t)((x >> 24) & 0xFF)); }
static inline int32_t dsp_sat8(int32_t x) { return ta_clamp(x, -128, 127); }
static inline int32_t dsp_lo16(int32_t x) { return (int16_t)(x & 0xFFFF); }
static inline int32_t dsp_hi16(int32_t x) { return (int16_t)((x >> 16) & 0xFFFF); }
#define DSP_MAC_LO(x, w, acc) ((acc) + dsp_lo16(x) * dsp_lo16(w))
#define DSP_MAC_HI(x, w, acc) ((acc) + dsp_hi16(x) * dsp_hi16(w))

#endif

static inline int32_t dsp_load4(const int8_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v); /* one unaligned word load on Cortex-M4 */
  return v;
}

/* q = {multiplier, left shift + 1, right shift, rounding addend, negative mask}; the result
 * is clamped to [act_min, act_max]. */
static inline int32_t dsp_requant(int32_t acc, const int32_t *q, int32_t act_min, int32_t act_max) {
  const int32_t doubled = (int32_t)((uint32_t)acc << q[1]);
  const int32_t addend = q[3] + ((acc & q[4]) >> 31);
  int32_t v = dsp_sat8(dsp_mul_high_round_acc(doubled, q[0], addend) >> q[2]);
  v = v < act_min ? act_min : v;
  return v > act_max ? act_max : v;
}

/* dsp_requant without the negative fix and the activation clamp (int8 saturation only). */
static inline int32_t dsp_requant_simple(int32_t acc, const int32_t *q) {
  const int32_t doubled = (int32_t)((uint32_t)acc << q[1]);
  return dsp_sat8(dsp_mul_high_round_acc(doubled, q[0], q[3]) >> q[2]);
}

/* Accumulators of 4 consecutive channels. */
typedef struct dsp_acc4_t {
  int32_t a0, a1, a2, a3;
} dsp_acc4_t;

static inline void dsp_tap(const int8_t *x, const int32_t *w, dsp_acc4_t *acc) {
  const int32_t v = dsp_load4(x);
  const int32_t even = dsp_even16(v), odd = dsp_odd16(v);
  acc->a0 = DSP_MAC_LO(even, w[0], acc->a0);
  acc->a2 = DSP_MAC_HI(even, w[0], acc->a2);
  acc->a1 = DSP_MAC_LO(odd, w[1], acc->a1);
  acc->a3 = DSP_MAC_HI(odd, w[1], acc->a3);
}

/* Three taps of one filter row, `step` bytes apart in the input. */
static inline void dsp_row3(const int8_t *x, int32_t step, const int32_t *w, dsp_acc4_t *acc) {
  dsp_tap(x, w, acc);
  dsp_tap(x + step, w + 2, acc);
  dsp_tap(x + 2 * step, w + 4, acc);
}

/* The pixel's window: first inside tap and the inside tap counts. */
typedef struct dsp_window_t {
  const int8_t *x;      /* input at the first inside tap, channel 0 */
  int32_t first_tap;    /* its index ky * k_w + kx */
  int32_t n_ky, n_kx;
  int32_t row_step, col_step;
  const int32_t *bias;  /* the border class's folded bias, channel 0 */
} dsp_window_t;

/* The taps of a clipped window, row by row, each row unrolled for up to 3 taps. */
static DSP_ALWAYS_INLINE void dsp_window_taps(const ta_depthwise_conv_dsp_params_t *p, const dsp_window_t *win,
                                   const int8_t *x, const int32_t *w, dsp_acc4_t *acc) {
  const int32_t cs = win->col_step;
  for (int32_t i = 0; i < win->n_ky; i++, x += win->row_step, w += p->k_w * 2) {
    switch (win->n_kx) {
      case 3: dsp_row3(x, cs, w, acc); break;
      case 2:
        dsp_tap(x, w, acc);
        dsp_tap(x + cs, w + 2, acc);
        break;
      case 1: dsp_tap(x, w, acc); break;
      default:
        for (int32_t j = 0; j < win->n_kx; j++) dsp_tap(x + j * cs, w + 2 * j, acc);
    }
  }
}

/* `simple`: the compiler found no negative rounding fix and no clamp narrower than int8. */
static DSP_ALWAYS_INLINE void dsp_group4(const ta_depthwise_conv_dsp_params_t *p, const dsp_window_t *win, int32_t c,
                              int8_t *out, const int simple) {
  const int32_t taps = p->k_h * p->k_w;
  const int32_t *w = p->weights + ((c >> 2) * taps + win->first_tap) * 2;
  const int8_t *x = win->x + c;
  const int32_t *bias = win->bias + c;
  dsp_acc4_t acc = {bias[0], bias[1], bias[2], bias[3]};
  if (taps == 9 && win->n_ky == 3 && win->n_kx == 3) { /* the common full 3x3 window */
    const int32_t rs = win->row_step, cs = win->col_step;
    for (int i = 0; i < 3; i++, x += rs, w += 6) dsp_row3(x, cs, w, &acc);
  } else {
    dsp_window_taps(p, win, x, w, &acc);
  }
  const int32_t *q = p->quant + c * 5;
  int32_t r0, r1, r2, r3;
  if (simple) {
    r0 = dsp_requant_simple(acc.a0, q);
    r1 = dsp_requant_simple(acc.a1, q + 5);
    r2 = dsp_requant_simple(acc.a2, q + 10);
    r3 = dsp_requant_simple(acc.a3, q + 15);
  } else {
    const int32_t act_min = p->act_min, act_max = p->act_max;
    r0 = dsp_requant(acc.a0, q, act_min, act_max);
    r1 = dsp_requant(acc.a1, q + 5, act_min, act_max);
    r2 = dsp_requant(acc.a2, q + 10, act_min, act_max);
    r3 = dsp_requant(acc.a3, q + 15, act_min, act_max);
  }
  out[c] = (int8_t)r0;
  out[c + 1] = (int8_t)r1;
  out[c + 2] = (int8_t)r2;
  out[c + 3] = (int8_t)r3;
}

static void dsp_groups_simple(const ta_depthwise_conv_dsp_params_t *p, const dsp_window_t *win, int32_t end,
                              int8_t *out) {
  for (int32_t c = 0; c < end; c += 4) dsp_group4(p, win, c, out, 1);
}

static void dsp_groups_general(const ta_depthwise_conv_dsp_params_t *p, const dsp_window_t *win, int32_t end,
                               int8_t *out) {
  for (int32_t c = 0; c < end; c += 4) dsp_group4(p, win, c, out, 0);
}

/* One channel past the last group of 4, from the model's filter [k_h][k_w][channels]. */
static void dsp_single(const ta_depthwise_conv_dsp_params_t *p, const dsp_window_t *win, const int8_t *filter,
                       int32_t c, int8_t *out) {
  int32_t acc = win->bias[c];
  const int8_t *x = win->x + c;
  const int8_t *w = filter + win->first_tap * p->channels + c;
  for (int32_t i = 0; i < win->n_ky; i++)
    for (int32_t j = 0; j < win->n_kx; j++)
      acc += (int32_t)x[i * win->row_step + j * win->col_step] * (int32_t)w[(i * p->k_w + j) * p->channels];
  out[c] = (int8_t)dsp_requant(acc, p->quant + c * 5, p->act_min, p->act_max);
}

void ta_depthwise_conv_dsp_s8(const ta_depthwise_conv_dsp_params_t *p, const int8_t *input, const int8_t *filter,
                              int8_t *output) {
  const int32_t ch = p->channels;
  const int32_t full = ch & ~3;
  const int32_t class_stride = p->col_classes * ch;
  dsp_window_t win;
  win.row_step = p->dil_h * p->in_w * ch;
  win.col_step = p->dil_w * ch;
  int8_t *out = output;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *image = input + b * p->in_h * p->in_w * ch;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int16_t *row = p->rows + 3 * oy;
      const int32_t iy = oy * p->stride_h - p->pad_h + row[0] * p->dil_h;
      const int32_t *row_bias = p->bias + row[2] * class_stride;
      win.n_ky = row[1] - row[0];
      for (int32_t ox = 0; ox < p->out_w; ox++, out += ch) {
        const int16_t *col = p->cols + 3 * ox;
        const int32_t ix = ox * p->stride_w - p->pad_w + col[0] * p->dil_w;
        win.x = image + (iy * p->in_w + ix) * ch;
        win.first_tap = row[0] * p->k_w + col[0];
        win.n_kx = col[1] - col[0];
        win.bias = row_bias + col[2] * ch;
        if (p->simple)
          dsp_groups_simple(p, &win, full, out);
        else
          dsp_groups_general(p, &win, full, out);
        for (int32_t c = full; c < ch; c++) dsp_single(p, &win, filter, c, out);
      }
    }
  }
}
