/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 DEPTHWISE_CONV_2D for MVE (Helium); plain C with the same tables elsewhere. */
#include "ta_depthwise_conv_mve.h"

/* The channel-group bodies must inline into their callers: otherwise the accumulators
 * have their address taken and live in memory. */
#if defined(__GNUC__)
#define MVE_ALWAYS_INLINE inline __attribute__((always_inline))
#define MVE_NOINLINE __attribute__((noinline))
#else
#define MVE_ALWAYS_INLINE inline
#define MVE_NOINLINE
#endif

/* A layer that packs pixels (ta_depthwise_conv_mve.h), in a module that has one. */
#define MVE_PACKED(p) ((((TA_DEPTHWISE_CONV_MVE_VARIANTS) >> TA_DW_MVE_BIT_PACK) & 1u) && (p)->pack > 1)

/* The pixel's window: first inside tap and the inside tap counts. */
typedef struct mve_window_t {
  const int8_t *x;      /* input at the first inside tap, channel 0 */
  int32_t first_tap;    /* its index ky * k_w + kx */
  int32_t n_ky, n_kx;
  int32_t row_step, col_step;
  const int32_t *bias;  /* the border class's folded bias, group 0 */
} mve_window_t;

/* Window shapes of the 16-channel loop: the whole window of a 3x3 kernel and its clipped
 * 2x3, 3x2 and 2x2 parts as fixed sequences, one column of taps (k_w 1, paired down the
 * column), or any (paired along each row). */
enum { MVE16_FULL3X3, MVE16_2X3, MVE16_3X2, MVE16_2X2, MVE16_COLUMN, MVE16_ANY };

typedef void (*mve_groups_fn)(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t count,
                              int32_t x_step, int8_t *out);

/* The plain C loops over the same tables: the whole kernel without MVE, and with MVE the
 * loop of any window shape whose specialised loop the module did not compile
 * (TA_DEPTHWISE_CONV_MVE_VARIANTS). */
/* Lane k of the group's tables holds channel 2k (k < 4) or 2(k - 4) + 1. */
static int32_t mve_lane_of(int32_t j) { return (j & 1) ? 4 + (j >> 1) : j >> 1; }

/* TFLite's requantisation of one accumulator, clamped. */
static int32_t mve_requant_c(const ta_depthwise_conv_mve_params_t *p, int32_t acc, int32_t mult, int32_t left,
                             int32_t right) {
  const int32_t shifted = (int32_t)((uint32_t)acc << left);
  int32_t v = ta_sat_round_doubling_high_mul(shifted, mult);
  if (p->negative_fix && right > 0 && v < 0) v -= 1;
  if (right > 0) v = (int32_t)(((int64_t)v + ((int64_t)1 << (right - 1))) >> right);
  v += p->output_zero_point;
  return ta_clamp(v, p->act_min, p->act_max);
}

static int32_t mve_requant_lane(const ta_depthwise_conv_mve_params_t *p, int32_t acc, const int32_t *q, int32_t lane) {
  return mve_requant_c(p, acc, q[lane], q[8 + lane], -q[16 + lane]);
}


static void mve_group8(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t c, int8_t *out) {
  const int32_t taps = p->k_h * p->k_w;
  const int16_t *w = p->weights + ((c >> 3) * taps + win->first_tap) * 8;
  const int32_t *q = p->quant + (c >> 3) * 24;
  const int32_t n = TA_MIN(8, p->channels - c);
  for (int32_t j = 0; j < n; j++) {
    const int32_t lane = mve_lane_of(j);
    int32_t acc = win->bias[c + lane];
    for (int32_t i = 0; i < win->n_ky; i++)
      for (int32_t k = 0; k < win->n_kx; k++)
        acc += (int32_t)win->x[c + j + i * win->row_step + k * win->col_step] * (int32_t)w[(i * p->k_w + k) * 8 + j];
    out[c + j] = (int8_t)mve_requant_lane(p, acc, q, lane);
  }
}

static void mve_groups_any(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t count,
                           int32_t x_step, int8_t *out) {
  mve_window_t pixel = *win;
  for (int32_t n = 0; n < count; n++, pixel.x += x_step, out += p->channels)
    for (int32_t c = 0; c < p->channels; c += 8) mve_group8(p, &pixel, c, out);
}

/* Position of channel j (0..15) of a 16-channel group in its tables. */
static int32_t mve16_pos(int32_t j) {
  static const int32_t acc_of[4] = {0, 2, 1, 3};
  return 4 * acc_of[j & 3] + (j >> 2);
}

static void mve16_groups_c(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t count,
                           int32_t x_step, int8_t *out) {
  const int32_t taps = p->k_h * p->k_w;
  /* pack: one 16-channel group of `pack` pixels, its own quant table */
  const int32_t channels = MVE_PACKED(p) ? 16 : p->channels;
  for (int32_t n = 0; n < count; n++, out += channels) {
    for (int32_t g = 0; 16 * g < channels; g++) {
      /* the last group holds the last 16 channels */
      const int32_t c = TA_MIN(16 * g, channels - 16);
      const int8_t *w = p->weights8 + (g * taps + win->first_tap) * 16;
      const int32_t *q = (MVE_PACKED(p) ? p->pack_quant : p->quant) + g * 48;
      for (int32_t j = 0; j < 16; j++) {
        const int32_t pos = mve16_pos(j);
        int32_t acc = win->bias[16 * g + pos];
        for (int32_t i = 0; i < win->n_ky; i++)
          for (int32_t k = 0; k < win->n_kx; k++)
            acc += (int32_t)win->x[n * x_step + c + j + i * win->row_step + k * win->col_step] *
                   (int32_t)w[(i * p->k_w + k) * 16 + j];
        out[c + j] = (int8_t)mve_requant_c(p, acc, q[pos], q[16 + pos], -q[32 + pos]);
      }
    }
  }
}

/* The 16-channel loop's shape for a window. */
static int mve16_shape(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win) {
  if (p->k_w == 1) return MVE16_COLUMN;
  if (p->k_h == 3 && p->k_w == 3 && win->n_ky >= 2 && win->n_kx >= 2)
    return win->n_ky == 3 ? (win->n_kx == 3 ? MVE16_FULL3X3 : MVE16_3X2)
                          : (win->n_kx == 3 ? MVE16_2X3 : MVE16_2X2);
  return MVE16_ANY;
}

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

typedef struct mve_acc_t {
  int32x4_t even, odd;
} mve_acc_t;

static inline void mve_tap(const int8_t *x, const int16_t *w, mve_acc_t *acc) {
  const int16x8_t xv = vldrbq_s16(x);
  const int16x8_t wv = vldrhq_s16(w);
  acc->even = vaddq_s32(acc->even, vmullbq_int_s16(xv, wv));
  acc->odd = vaddq_s32(acc->odd, vmulltq_int_s16(xv, wv));
}

static inline void mve_tap_tail(const int8_t *x, const int16_t *w, mve_acc_t *acc, mve_pred16_t pred) {
  const int16x8_t xv = vldrbq_z_s16(x, pred);
  const int16x8_t wv = vldrhq_s16(w); /* padded with zeros */
  acc->even = vaddq_s32(acc->even, vmullbq_int_s16(xv, wv));
  acc->odd = vaddq_s32(acc->odd, vmulltq_int_s16(xv, wv));
}

/* q: multipliers at q[0..3], left shifts at q[8..11], negated right shifts at q[16..19].
 * Returns the unclamped result plus the output zero point. `simple`: no left shift and
 * no negative rounding fix anywhere in the layer. */
static inline int32x4_t mve_requant(const ta_depthwise_conv_mve_params_t *p, int32x4_t acc, const int32_t *q,
                                    const int simple) {
  const int32x4_t neg_right = vldrwq_s32(q + 16);
  int32x4_t v;
  if (simple) {
    v = vqrdmulhq_s32(acc, vldrwq_s32(q));
  } else {
    v = vqrdmulhq_s32(vshlq_s32(acc, vldrwq_s32(q + 8)), vldrwq_s32(q));
    if (p->negative_fix) v = vaddq_s32(v, vshrq_n_s32(vandq_s32(v, neg_right), 31));
  }
  return vaddq_n_s32(vrshlq_s32(v, neg_right), p->output_zero_point);
}

/* Requantises both halves, narrows with saturation, clamps on 16-bit lanes and stores
 * the group's bytes (predicated when short). */
static inline void mve_store_group(const ta_depthwise_conv_mve_params_t *p, const mve_acc_t *acc, int32_t c,
                                   int8_t *out, const int simple, const int tail) {
  const int32_t *q = p->quant + (c >> 3) * 24;
  int16x8_t narrow = vqmovnbq_s32(vdupq_n_s16(0), mve_requant(p, acc->even, q, simple));
  narrow = vqmovntq_s32(narrow, mve_requant(p, acc->odd, q + 4, simple));
  narrow = vminq_s16(vmaxq_s16(narrow, vdupq_n_s16((int16_t)p->act_min)), vdupq_n_s16((int16_t)p->act_max));
  if (tail)
    vstrbq_p_s16(out + c, narrow, vctp16q((uint32_t)(p->channels - c)));
  else
    vstrbq_s16(out + c, narrow);
}

/* The last, partial group of channels: inputs loaded under a tail predicate. */
static void mve_group_tail(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t c, int8_t *out) {
  const int16_t *w = p->weights + ((c >> 3) * p->k_h * p->k_w + win->first_tap) * 8;
  const mve_pred16_t pred = vctp16q((uint32_t)(p->channels - c));
  mve_acc_t acc;
  acc.even = vldrwq_s32(win->bias + c);
  acc.odd = vldrwq_s32(win->bias + c + 4);
  for (int32_t i = 0; i < win->n_ky; i++)
    for (int32_t j = 0; j < win->n_kx; j++)
      mve_tap_tail(win->x + c + i * win->row_step + j * win->col_step, w + (i * p->k_w + j) * 8, &acc, pred);
  mve_store_group(p, &acc, c, out, 0, 1);
}

#if defined(__GNUC__) && !defined(__clang__)
/* Three taps of one window row, `cs` bytes apart, as a fixed sequence: GCC's own
 * schedule of the unrolled taps runs out of vector registers and spills. The widening
 * byte loads only take r0-r7 ("l"). */
static MVE_ALWAYS_INLINE void mve_row3(const int8_t *x, int32_t cs, const int16_t *w, mve_acc_t *acc) {
  int16x8_t xv, wv;
  int32x4_t t;
  __asm__("vldrh.16 %q[wv], [%[w]]\n\t"
          "vldrb.s16 %q[xv], [%[x]]\n\t"
          "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[e], %q[e], %q[t]\n\t"
          "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[o], %q[o], %q[t]\n\t"
          "add %[x], %[x], %[cs]\n\t"
          "vldrh.16 %q[wv], [%[w], #16]\n\t"
          "vldrb.s16 %q[xv], [%[x]]\n\t"
          "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[e], %q[e], %q[t]\n\t"
          "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[o], %q[o], %q[t]\n\t"
          "add %[x], %[x], %[cs]\n\t"
          "vldrh.16 %q[wv], [%[w], #32]\n\t"
          "vldrb.s16 %q[xv], [%[x]]\n\t"
          "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[e], %q[e], %q[t]\n\t"
          "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[o], %q[o], %q[t]"
          : [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t), [e] "+w"(acc->even), [o] "+w"(acc->odd), [x] "+l"(x)
          : [cs] "r"(cs), [w] "r"(w)
          : "memory");
}

/* Two taps `cs` bytes apart (see mve_row3). */
static MVE_ALWAYS_INLINE void mve_row2(const int8_t *x, int32_t cs, const int16_t *w, mve_acc_t *acc) {
  int16x8_t xv, wv;
  int32x4_t t;
  __asm__("vldrh.16 %q[wv], [%[w]]\n\t"
          "vldrb.s16 %q[xv], [%[x]]\n\t"
          "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[e], %q[e], %q[t]\n\t"
          "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[o], %q[o], %q[t]\n\t"
          "add %[x], %[x], %[cs]\n\t"
          "vldrh.16 %q[wv], [%[w], #16]\n\t"
          "vldrb.s16 %q[xv], [%[x]]\n\t"
          "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[e], %q[e], %q[t]\n\t"
          "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[o], %q[o], %q[t]"
          : [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t), [e] "+w"(acc->even), [o] "+w"(acc->odd), [x] "+l"(x)
          : [cs] "r"(cs), [w] "r"(w)
          : "memory");
}
#else
static MVE_ALWAYS_INLINE void mve_row3(const int8_t *x, int32_t cs, const int16_t *w, mve_acc_t *acc) {
  mve_tap(x, w, acc);
  mve_tap(x + cs, w + 8, acc);
  mve_tap(x + 2 * cs, w + 16, acc);
}

static MVE_ALWAYS_INLINE void mve_row2(const int8_t *x, int32_t cs, const int16_t *w, mve_acc_t *acc) {
  mve_tap(x, w, acc);
  mve_tap(x + cs, w + 8, acc);
}
#endif

/* Window shapes the group loop is specialised for: rows of 1, 2 or 3 taps, the whole
 * 3x3 window, and any. */
enum { MVE_KX_ANY = 0, MVE_KX_FULL3X3 = 9 };

/* The layer's output constants, loaded once per pixel. */
typedef struct mve_out_t {
  int16x8_t lo, hi;
  int32_t zero_point, negative_fix, no_left_shift;
  int32_t act_min, act_max, clamp;
} mve_out_t;

/* Requantises both halves of a whole group (q: its quant entries), narrows with
 * saturation, clamps and stores 8 bytes. */
static MVE_ALWAYS_INLINE void mve_finish(const mve_acc_t *acc, const int32_t *q, const mve_out_t *o, int8_t *out,
                                         const int simple) {
  int32x4_t e, d;
  if (simple) {
    e = vqrdmulhq_s32(acc->even, vldrwq_s32(q));
    d = vqrdmulhq_s32(acc->odd, vldrwq_s32(q + 4));
  } else {
    e = vqrdmulhq_s32(vshlq_s32(acc->even, vldrwq_s32(q + 8)), vldrwq_s32(q));
    d = vqrdmulhq_s32(vshlq_s32(acc->odd, vldrwq_s32(q + 12)), vldrwq_s32(q + 4));
  }
  const int32x4_t ne = vldrwq_s32(q + 16), nd = vldrwq_s32(q + 20);
  if (!simple && o->negative_fix) {
    e = vaddq_s32(e, vshrq_n_s32(vandq_s32(e, ne), 31));
    d = vaddq_s32(d, vshrq_n_s32(vandq_s32(d, nd), 31));
  }
  e = vaddq_n_s32(vrshlq_s32(e, ne), o->zero_point);
  d = vaddq_n_s32(vrshlq_s32(d, nd), o->zero_point);
  int16x8_t narrow = vqmovnbq_s32(vreinterpretq_s16_s32(e), e);
  narrow = vqmovntq_s32(narrow, d);
  vstrbq_s16(out, vminq_s16(vmaxq_s16(narrow, o->lo), o->hi));
}

/* Every whole group of one pixel whose window has win->n_ky rows of `kx` inside taps
 * (MVE_KX_ANY: win->n_kx of them); the pointers walk the tables group after group. */
static MVE_ALWAYS_INLINE void mve_groups(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win,
                                         int32_t count, int32_t x_step, int8_t *out, const int simple, const int kx) {
  const int32_t end = p->channels & ~7;
  const int32_t n_ky = win->n_ky, n_kx = win->n_kx, rs = win->row_step, cs = win->col_step;
  const int32_t w_row = p->k_w * 8, w_group = p->k_h * p->k_w * 8;
  mve_out_t o;
  o.lo = vdupq_n_s16((int16_t)p->act_min);
  o.hi = vdupq_n_s16((int16_t)p->act_max);
  o.zero_point = p->output_zero_point;
  o.negative_fix = p->negative_fix;
  const int16_t *first_w = p->weights + win->first_tap * 8;
  const int8_t *pixel = win->x;
  for (int32_t n = 0; n < count; n++, pixel += x_step) {
    const int16_t *wg = first_w;
    const int32_t *q = p->quant, *bias = win->bias;
    const int8_t *x = pixel;
    for (int32_t c = 0; c < end; c += 8, x += 8, bias += 8, q += 24, out += 8, wg += w_group) {
      mve_acc_t acc;
      acc.even = vldrwq_s32(bias);
      acc.odd = vldrwq_s32(bias + 4);
      const int8_t *xr = x;
      const int16_t *w = wg;
      if (kx == MVE_KX_FULL3X3) {
        mve_row3(xr, cs, w, &acc);
        mve_row3(xr + rs, cs, w + 24, &acc);
        mve_row3(xr + 2 * rs, cs, w + 48, &acc);
      } else if (kx == 1) { /* tall windows: two taps per step */
        int32_t i = n_ky;
        for (; i >= 2; i -= 2, xr += 2 * rs, w += 2 * w_row) {
          mve_tap(xr, w, &acc);
          mve_tap(xr + rs, w + w_row, &acc);
        }
        if (i) mve_tap(xr, w, &acc);
      } else {
        for (int32_t i = 0; i < n_ky; i++, xr += rs, w += w_row) {
          if (kx == 3)
            mve_row3(xr, cs, w, &acc);
          else if (kx == 2)
            mve_row2(xr, cs, w, &acc);
          else
            for (int32_t j = 0; j < n_kx; j++) mve_tap(xr + j * cs, w + 8 * j, &acc);
        }
      }
      mve_finish(&acc, q, &o, out, simple);
    }
    if (end < p->channels) { /* the last, partial group */
      mve_window_t tail = *win;
      tail.x = pixel;
      mve_group_tail(p, &tail, end, out - end);
      out += p->channels - end;
    }
  }
}

/* ---- 16 channels per group (lanes16) ---------------------------------------------- */

typedef struct mve16_acc_t {
  int32x4_t a0, a1, a2, a3;
} mve16_acc_t;


#if defined(__GNUC__) && !defined(__clang__)
/* Assembly for GCC, which otherwise computes every tap address ahead, spills them and
 * reloads them, and moves the accumulators through memory around loops.
 * MVE16_PAIR: two taps, inputs at [xa] and [xb], weights at [w] and [w + 16], w moving
 * past them; their int16 products summed per channel and widened into the accumulators.
 * It uses all eight Q registers: the second tap's weights are loaded twice because its
 * bottom product overwrites them (a widening multiply of 8-bit lanes may write one of
 * its sources). MVE16_SINGLE: one tap. */
#define MVE16_LD(xa) "vldrb.8 %q[xv], [" xa "]\n\t"
#define MVE16_WIDEN                        \
  "vmovlb.s16 %q[xv], %q[e]\n\t"           \
  "vadd.i32 %q[a0], %q[a0], %q[xv]\n\t"    \
  "vmovlt.s16 %q[xv], %q[e]\n\t"           \
  "vadd.i32 %q[a1], %q[a1], %q[xv]\n\t"    \
  "vmovlb.s16 %q[xv], %q[o]\n\t"           \
  "vadd.i32 %q[a2], %q[a2], %q[xv]\n\t"    \
  "vmovlt.s16 %q[xv], %q[o]\n\t"           \
  "vadd.i32 %q[a3], %q[a3], %q[xv]\n\t"
#define MVE16_PAIR_WITH(LD, xa, xb)               \
  LD(xa)                                          \
  "vldrb.8 %q[wv], [%[w]]\n\t"                    \
  "vmullb.s8 %q[e], %q[xv], %q[wv]\n\t"           \
  "vmullt.s8 %q[o], %q[xv], %q[wv]\n\t"           \
  LD(xb)                                          \
  "vldrb.8 %q[wv], [%[w], #16]!\n\t"              \
  "vmullb.s8 %q[wv], %q[xv], %q[wv]\n\t"          \
  "vadd.i16 %q[e], %q[e], %q[wv]\n\t"             \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"               \
  "vmullt.s8 %q[xv], %q[xv], %q[wv]\n\t"          \
  "vadd.i16 %q[o], %q[o], %q[xv]\n\t" MVE16_WIDEN
#define MVE16_SINGLE_WITH(LD, xa)                 \
  LD(xa)                                          \
  "vldrb.8 %q[wv], [%[w]], #16\n\t"               \
  "vmullb.s8 %q[e], %q[xv], %q[wv]\n\t"           \
  "vmullt.s8 %q[o], %q[xv], %q[wv]\n\t" MVE16_WIDEN
#define MVE16_OUTPUTS                                                                                           \
  [xv] "=&w"(xv), [wv] "=&w"(wv), [e] "=&w"(e), [o] "=&w"(o), [a0] "+w"(acc->a0), [a1] "+w"(acc->a1),          \
      [a2] "+w"(acc->a2), [a3] "+w"(acc->a3), [w] "+r"(*w)

/* The whole 3x3 window, taps in row order paired across row ends. */
#define MVE16_WINDOW3X3(LD)                        \
  "add %[px], %[x], %[cs]\n\t"                     \
  MVE16_PAIR_WITH(LD, "%[x]", "%[px]")             \
  "add %[px], %[px], %[cs]\n\t"                    \
  "add %[row], %[x], %[rs]\n\t"                    \
  MVE16_PAIR_WITH(LD, "%[px]", "%[row]")           \
  "add %[px], %[row], %[cs]\n\t"                   \
  "add %[row], %[px], %[cs]\n\t"                   \
  MVE16_PAIR_WITH(LD, "%[px]", "%[row]")           \
  "add %[row], %[x], %[rs]\n\t"                    \
  "add %[row], %[row], %[rs]\n\t"                  \
  "add %[px], %[row], %[cs]\n\t"                   \
  MVE16_PAIR_WITH(LD, "%[row]", "%[px]")           \
  "add %[px], %[px], %[cs]\n\t"                    \
  MVE16_SINGLE_WITH(LD, "%[px]")

/* Clipped windows of a 3x3 kernel: 2 rows of 3 taps, 3 rows of 2 taps (the weights of
 * the third column skipped), 2 rows of 2 taps. */
#define MVE16_WINDOW2X3(LD)                        \
  "add %[px], %[x], %[cs]\n\t"                     \
  MVE16_PAIR_WITH(LD, "%[x]", "%[px]")             \
  "add %[px], %[px], %[cs]\n\t"                    \
  "add %[row], %[x], %[rs]\n\t"                    \
  MVE16_PAIR_WITH(LD, "%[px]", "%[row]")           \
  "add %[px], %[row], %[cs]\n\t"                   \
  "add %[row], %[px], %[cs]\n\t"                   \
  MVE16_PAIR_WITH(LD, "%[px]", "%[row]")
#define MVE16_WINDOW3X2(LD)                        \
  "add %[px], %[x], %[cs]\n\t"                     \
  MVE16_PAIR_WITH(LD, "%[x]", "%[px]")             \
  "add %[w], %[w], #16\n\t"                        \
  "add %[row], %[x], %[rs]\n\t"                    \
  "add %[px], %[row], %[cs]\n\t"                   \
  MVE16_PAIR_WITH(LD, "%[row]", "%[px]")           \
  "add %[w], %[w], #16\n\t"                        \
  "add %[row], %[row], %[rs]\n\t"                  \
  "add %[px], %[row], %[cs]\n\t"                   \
  MVE16_PAIR_WITH(LD, "%[row]", "%[px]")
#define MVE16_WINDOW2X2(LD)                        \
  "add %[px], %[x], %[cs]\n\t"                     \
  MVE16_PAIR_WITH(LD, "%[x]", "%[px]")             \
  "add %[w], %[w], #16\n\t"                        \
  "add %[row], %[x], %[rs]\n\t"                    \
  "add %[px], %[row], %[cs]\n\t"                   \
  MVE16_PAIR_WITH(LD, "%[row]", "%[px]")

/* One of the fixed windows of a 3x3 kernel (shape: MVE16_FULL3X3, _2X3, _3X2, _2X2);
 * *w moves on. */
#define MVE16_FIXED(SEQ)                                                                 \
  __asm__(SEQ(MVE16_LD)                                                                  \
          : MVE16_OUTPUTS, [px] "=&r"(px), [row] "=&r"(row)                              \
          : [x] "r"(x), [rs] "r"(rs), [cs] "r"(cs)                                       \
          : "memory")

static MVE_ALWAYS_INLINE void mve16_window_fixed(const int8_t *x, int32_t rs, int32_t cs, const int8_t **w,
                                                 mve16_acc_t *acc, const int shape) {
  int8x16_t xv, wv;
  int16x8_t e, o;
  const int8_t *px, *row;
  if (shape == MVE16_FULL3X3)
    MVE16_FIXED(MVE16_WINDOW3X3);
  else if (shape == MVE16_2X3)
    MVE16_FIXED(MVE16_WINDOW2X3);
  else if (shape == MVE16_3X2)
    MVE16_FIXED(MVE16_WINDOW3X2);
  else
    MVE16_FIXED(MVE16_WINDOW2X2);
}

/* Any window: n_rows rows of n_cols taps, rows rs and taps cs bytes apart, taps paired
 * along each row; *w moves past each row's weights and then w_skip bytes (the weights
 * of the taps outside the window). The loops are in the assembly. */
#define MVE16_WINDOW(LD)                           \
  "cmp %[rows], #0\n\t"                            \
  "beq 9f\n"                                       \
  "1:\n\t"                                         \
  "mov %[px], %[x]\n\t"                            \
  "subs %[j], %[cols], #2\n\t"                     \
  "blt 3f\n"                                       \
  "2:\n\t"                                         \
  "add %[pn], %[px], %[cs]\n\t"                    \
  MVE16_PAIR_WITH(LD, "%[px]", "%[pn]")            \
  "add %[px], %[pn], %[cs]\n\t"                    \
  "subs %[j], %[j], #2\n\t"                        \
  "bge 2b\n"                                       \
  "3:\n\t"                                         \
  "adds %[j], %[j], #2\n\t"                        \
  "beq 4f\n\t"                                     \
  MVE16_SINGLE_WITH(LD, "%[px]")                   \
  "4:\n\t"                                         \
  "add %[x], %[x], %[rs]\n\t"                      \
  "add %[w], %[w], %[skip]\n\t"                    \
  "subs %[rows], %[rows], #1\n\t"                  \
  "bne 1b\n"                                       \
  "9:"

static MVE_ALWAYS_INLINE void mve16_window(const int8_t *x, int32_t n_rows, int32_t n_cols, int32_t rs, int32_t cs,
                                           int32_t w_skip, const int8_t **w, mve16_acc_t *acc) {
  int8x16_t xv, wv;
  int16x8_t e, o;
  const int8_t *px, *pn;
  int32_t j;
  __asm__(MVE16_WINDOW(MVE16_LD)
          : MVE16_OUTPUTS, [px] "=&r"(px), [pn] "=&r"(pn), [j] "=&r"(j), [x] "+r"(x), [rows] "+r"(n_rows)
          : [cols] "r"(n_cols), [rs] "r"(rs), [cs] "r"(cs), [skip] "r"(w_skip)
          : "memory", "cc");
}

/* One column of n taps rs bytes apart (k_w 1), paired down the column. */
static MVE_ALWAYS_INLINE void mve16_column(const int8_t *x, int32_t n, int32_t rs, const int8_t **w,
                                           mve16_acc_t *acc) {
  int8x16_t xv, wv;
  int16x8_t e, o;
  const int8_t *pn;
  int32_t j;
  __asm__("subs %[j], %[n], #2\n\t"
          "blt 3f\n"
          "2:\n\t"
          "add %[pn], %[x], %[rs]\n\t"
          MVE16_PAIR_WITH(MVE16_LD, "%[x]", "%[pn]")
          "add %[x], %[pn], %[rs]\n\t"
          "subs %[j], %[j], #2\n\t"
          "bge 2b\n"
          "3:\n\t"
          "adds %[j], %[j], #2\n\t"
          "beq 4f\n\t"
          MVE16_SINGLE_WITH(MVE16_LD, "%[x]")
          "4:"
          : MVE16_OUTPUTS, [pn] "=&r"(pn), [j] "=&r"(j), [x] "+r"(x)
          : [n] "r"(n), [rs] "r"(rs)
          : "memory", "cc");
}

/* Loads a group's four bias vectors; *b moves past them. */
static MVE_ALWAYS_INLINE void mve16_start(const int32_t **b, mve16_acc_t *acc) {
  __asm__("vldrw.32 %q[a0], [%[b]], #64\n\t"
          "vldrw.32 %q[a1], [%[b], #-48]\n\t"
          "vldrw.32 %q[a2], [%[b], #-32]\n\t"
          "vldrw.32 %q[a3], [%[b], #-16]"
          : [a0] "=w"(acc->a0), [a1] "=w"(acc->a1), [a2] "=w"(acc->a2), [a3] "=w"(acc->a3), [b] "+r"(*b)
          :
          : "memory");
}

/* Requantisation of accumulator a with the group's tables at q (multipliers at byte
 * offset off, left shifts 64 bytes further, negated right shifts 128 bytes further). */
#define MVE16_RQ_SIMPLE(a, off)                          \
  "vldrw.32 %q[t0], [%[q], #" #off "]\n\t"              \
  "vldrw.32 %q[t1], [%[q], #" #off " + 128]\n\t"        \
  "vqrdmulh.s32 %q[" a "], %q[" a "], %q[t0]\n\t"       \
  "vrshl.s32 %q[" a "], %q[" a "], %q[t1]\n\t"
/* The same with TFLite's rounding of negative ties (t1: the negated right shifts). */
#define MVE16_RQ_SIMPLE_FIX(a, off)                      \
  "vldrw.32 %q[t0], [%[q], #" #off "]\n\t"              \
  "vldrw.32 %q[t1], [%[q], #" #off " + 128]\n\t"        \
  "vqrdmulh.s32 %q[" a "], %q[" a "], %q[t0]\n\t"       \
  "vand %q[t0], %q[" a "], %q[t1]\n\t"                  \
  "vshr.s32 %q[t0], %q[t0], #31\n\t"                    \
  "vadd.i32 %q[" a "], %q[" a "], %q[t0]\n\t"           \
  "vrshl.s32 %q[" a "], %q[" a "], %q[t1]\n\t"
/* The same when every channel shifts right (negative_fix 2): the sign alone is the fix. */
#define MVE16_RQ_POS_FIX(a, off)                         \
  "vldrw.32 %q[t0], [%[q], #" #off "]\n\t"              \
  "vldrw.32 %q[t1], [%[q], #" #off " + 128]\n\t"        \
  "vqrdmulh.s32 %q[" a "], %q[" a "], %q[t0]\n\t"       \
  "vshr.s32 %q[t0], %q[" a "], #31\n\t"                 \
  "vadd.i32 %q[" a "], %q[" a "], %q[t0]\n\t"           \
  "vrshl.s32 %q[" a "], %q[" a "], %q[t1]\n\t"
#define MVE16_RQ_SHIFTED(a, off)                         \
  "vldrw.32 %q[t0], [%[q], #" #off " + 64]\n\t"         \
  "vldrw.32 %q[t1], [%[q], #" #off "]\n\t"              \
  "vshl.s32 %q[" a "], %q[" a "], %q[t0]\n\t"           \
  "vldrw.32 %q[t0], [%[q], #" #off " + 128]\n\t"        \
  "vqrdmulh.s32 %q[" a "], %q[" a "], %q[t1]\n\t"
#define MVE16_RQ_FIX(a)                                  \
  "vand %q[t1], %q[" a "], %q[t0]\n\t"                  \
  "vshr.s32 %q[t1], %q[t1], #31\n\t"                    \
  "vadd.i32 %q[" a "], %q[" a "], %q[t1]\n\t"
#define MVE16_RQ_ROUND(a)                                \
  "vrshl.s32 %q[" a "], %q[" a "], %q[t0]\n\t"
#define MVE16_RQ_GENERAL(a, off) MVE16_RQ_SHIFTED(a, off) MVE16_RQ_FIX(a) MVE16_RQ_ROUND(a)
#define MVE16_RQ_NOFIX(a, off) MVE16_RQ_SHIFTED(a, off) MVE16_RQ_ROUND(a)
/* Narrows int32 -> int16 -> int8 with saturation back to channel order, into a0, adding
 * the output zero point on the int16 lanes with saturation: |zero point| <= 128, so
 * sat8(sat16(sat16(v) + zp)) = sat8(v + zp) for every int32 v. */
#define MVE16_NARROW                           \
  "vqmovnb.s32 %q[t0], %q[a0]\n\t"             \
  "vqmovnt.s32 %q[t0], %q[a1]\n\t"             \
  "vqadd.s16 %q[t0], %q[t0], %[zp]\n\t"        \
  "vqmovnb.s32 %q[t1], %q[a2]\n\t"             \
  "vqmovnt.s32 %q[t1], %q[a3]\n\t"             \
  "vqadd.s16 %q[t1], %q[t1], %[zp]\n\t"        \
  "vqmovnb.s16 %q[a0], %q[t0]\n\t"             \
  "vqmovnt.s16 %q[a0], %q[t1]\n\t"
#define MVE16_FINISH_OPERANDS                                                                                 \
  : [t0] "=&w"(t0), [t1] "=&w"(t1), [a0] "+w"(acc->a0), [a1] "+w"(acc->a1), [a2] "+w"(acc->a2),              \
    [a3] "+w"(acc->a3)                                                                                        \
  : [q] "r"(q), [zp] "r"(o->zero_point)                                                                      \
  : "memory"

/* Requantises a group into the bytes of acc->a0, in channel order. */
static MVE_ALWAYS_INLINE int8x16_t mve16_requant_group(mve16_acc_t *acc, const int32_t *q, const mve_out_t *o,
                                                       const int simple) {
  int32x4_t t0, t1;
  if (simple == 1)
    __asm__(MVE16_RQ_SIMPLE("a0", 0) MVE16_RQ_SIMPLE("a1", 16) MVE16_RQ_SIMPLE("a2", 32) MVE16_RQ_SIMPLE("a3", 48)
            MVE16_NARROW MVE16_FINISH_OPERANDS);
  else if (simple == 2 || (o->negative_fix == 2 && o->no_left_shift)) /* every channel shifts right: no vand */
    __asm__(MVE16_RQ_POS_FIX("a0", 0) MVE16_RQ_POS_FIX("a1", 16) MVE16_RQ_POS_FIX("a2", 32)
            MVE16_RQ_POS_FIX("a3", 48) MVE16_NARROW MVE16_FINISH_OPERANDS);
  else if (o->negative_fix && o->no_left_shift) /* the general loop's common case: no vshl */
    __asm__(MVE16_RQ_SIMPLE_FIX("a0", 0) MVE16_RQ_SIMPLE_FIX("a1", 16) MVE16_RQ_SIMPLE_FIX("a2", 32)
            MVE16_RQ_SIMPLE_FIX("a3", 48) MVE16_NARROW MVE16_FINISH_OPERANDS);
  else if (o->negative_fix)
    __asm__(MVE16_RQ_GENERAL("a0", 0) MVE16_RQ_GENERAL("a1", 16) MVE16_RQ_GENERAL("a2", 32)
            MVE16_RQ_GENERAL("a3", 48) MVE16_NARROW MVE16_FINISH_OPERANDS);
  else
    __asm__(MVE16_RQ_NOFIX("a0", 0) MVE16_RQ_NOFIX("a1", 16) MVE16_RQ_NOFIX("a2", 32) MVE16_RQ_NOFIX("a3", 48)
            MVE16_NARROW MVE16_FINISH_OPERANDS);
  return vreinterpretq_s8_s32(acc->a0);
}
#else
static MVE_ALWAYS_INLINE void mve16_widen(int16x8_t e, int16x8_t o, mve16_acc_t *acc) {
  acc->a0 = vaddq_s32(acc->a0, vmovlbq_s16(e));
  acc->a1 = vaddq_s32(acc->a1, vmovltq_s16(e));
  acc->a2 = vaddq_s32(acc->a2, vmovlbq_s16(o));
  acc->a3 = vaddq_s32(acc->a3, vmovltq_s16(o));
}

static MVE_ALWAYS_INLINE void mve16_tap(const int8_t *x, const int8_t **w, mve16_acc_t *acc) {
  const int8x16_t x0 = vldrbq_s8(x), w0 = vldrbq_s8(*w);
  mve16_widen(vmullbq_int_s8(x0, w0), vmulltq_int_s8(x0, w0), acc);
  *w += 16;
}

static MVE_ALWAYS_INLINE void mve16_window(const int8_t *x, int32_t n_rows, int32_t n_cols, int32_t rs, int32_t cs,
                                           int32_t w_skip, const int8_t **w, mve16_acc_t *acc) {
  for (int32_t i = 0; i < n_rows; i++, x += rs, *w += w_skip)
    for (int32_t j = 0; j < n_cols; j++) mve16_tap(x + j * cs, w, acc);
}

static MVE_ALWAYS_INLINE void mve16_window_fixed(const int8_t *x, int32_t rs, int32_t cs, const int8_t **w,
                                                 mve16_acc_t *acc, const int shape) {
  const int32_t rows = shape == MVE16_FULL3X3 || shape == MVE16_3X2 ? 3 : 2;
  const int32_t cols = shape == MVE16_FULL3X3 || shape == MVE16_2X3 ? 3 : 2;
  mve16_window(x, rows, cols, rs, cs, (3 - cols) * 16, w, acc);
}

static MVE_ALWAYS_INLINE void mve16_column(const int8_t *x, int32_t n, int32_t rs, const int8_t **w,
                                           mve16_acc_t *acc) {
  mve16_window(x, 1, n, 0, rs, 0, w, acc);
}

static MVE_ALWAYS_INLINE void mve16_start(const int32_t **b, mve16_acc_t *acc) {
  acc->a0 = vldrwq_s32(*b);
  acc->a1 = vldrwq_s32(*b + 4);
  acc->a2 = vldrwq_s32(*b + 8);
  acc->a3 = vldrwq_s32(*b + 12);
  *b += 16;
}

/* One accumulator's requantisation (q: its 4 multipliers; left shifts 16 and negated
 * right shifts 32 entries further), plus the output zero point. */
static MVE_ALWAYS_INLINE int32x4_t mve16_requant(int32x4_t acc, const int32_t *q, const mve_out_t *o,
                                                 const int simple) {
  const int32x4_t neg_right = vldrwq_s32(q + 32);
  int32x4_t v;
  if (simple == 1) {
    v = vqrdmulhq_s32(acc, vldrwq_s32(q));
  } else {
    v = vqrdmulhq_s32(vshlq_s32(acc, vldrwq_s32(q + 16)), vldrwq_s32(q));
    if (o->negative_fix) v = vaddq_s32(v, vshrq_n_s32(vandq_s32(v, neg_right), 31));
  }
  return vaddq_n_s32(vrshlq_s32(v, neg_right), o->zero_point);
}

static MVE_ALWAYS_INLINE int8x16_t mve16_requant_group(mve16_acc_t *acc, const int32_t *q, const mve_out_t *o,
                                                       const int simple) {
  const int32x4_t r0 = mve16_requant(acc->a0, q, o, simple), r1 = mve16_requant(acc->a1, q + 4, o, simple);
  int16x8_t even = vqmovnbq_s32(vreinterpretq_s16_s32(r0), r0); /* channels 0, 2, .. 14 */
  even = vqmovntq_s32(even, r1);
  const int32x4_t r2 = mve16_requant(acc->a2, q + 8, o, simple), r3 = mve16_requant(acc->a3, q + 12, o, simple);
  int16x8_t odd = vqmovnbq_s32(vreinterpretq_s16_s32(r2), r2); /* channels 1, 3, .. 15 */
  odd = vqmovntq_s32(odd, r3);
  const int8x16_t bytes = vqmovnbq_s16(vreinterpretq_s8_s16(even), even);
  return vqmovntq_s16(bytes, odd);
}
#endif

/* Requantises a group, narrows it back to channel order (the saturation is the clamp to
 * int8), clamps again when the activation range is narrower (o->clamp) and stores its
 * 16 bytes. */
static MVE_ALWAYS_INLINE void mve16_finish(mve16_acc_t *acc, const int32_t *q, const mve_out_t *o, int8_t *out,
                                           const int simple) {
  int8x16_t bytes = mve16_requant_group(acc, q, o, simple);
  if (o->clamp) bytes = vminq_s8(vmaxq_s8(bytes, vdupq_n_s8((int8_t)o->act_min)), vdupq_n_s8((int8_t)o->act_max));
  vstrbq_s8(out, bytes);
}

/* The window of a run of pixels, in registers: the "memory" clobbers of the assembly
 * would make GCC reload it from *win. */
typedef struct mve16_shape_t {
  int32_t rs, cs, n_ky, n_kx, w_skip;
} mve16_shape_t;

/* One group's taps and output. */
static MVE_ALWAYS_INLINE void mve16_group(const mve16_shape_t *sh, const int8_t *x, const int8_t *w,
                                          const int32_t **bias, const int32_t *q, const mve_out_t *o, int8_t *out,
                                          const int simple, const int shape) {
  mve16_acc_t acc;
  mve16_start(bias, &acc);
  if (shape <= MVE16_2X2)
    mve16_window_fixed(x, sh->rs, sh->cs, &w, &acc, shape);
  else if (shape == MVE16_COLUMN) /* k_w == 1: the column is one row of taps rs apart */
    mve16_column(x, sh->n_ky, sh->rs, &w, &acc);
  else
    mve16_window(x, sh->n_ky, sh->n_kx, sh->rs, sh->cs, sh->w_skip, &w, &acc);
  mve16_finish(&acc, q, o, out, simple);
}

/* Every group of `count` pixels x_step input bytes apart that share one window shape. */
static MVE_ALWAYS_INLINE void mve16_groups(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win,
                                           int32_t count, int32_t x_step, int8_t *out, const int simple,
                                           const int shape, const int one) {
  /* pack: one 16-channel group of `pack` pixels, its own quant table */
  const int32_t channels = MVE_PACKED(p) ? 16 : p->channels;
  const int32_t w_group = p->k_h * p->k_w * 16, whole = channels & ~15, rem = channels & 15;
  mve_out_t o;
  o.zero_point = p->output_zero_point;
  o.negative_fix = p->negative_fix;
  o.no_left_shift = p->no_left_shift;
  o.act_min = p->act_min;
  o.act_max = p->act_max;
  o.clamp = p->act_min > -128 || p->act_max < 127;
  mve16_shape_t sh;
  sh.rs = win->row_step;
  sh.cs = win->col_step;
  sh.n_ky = win->n_ky;
  sh.n_kx = win->n_kx;
  sh.w_skip = (p->k_w - win->n_kx) * 16;
  const int8_t *first_w = p->weights8 + win->first_tap * 16, *pixel = win->x;
  const int32_t *first_bias = win->bias, *quant = MVE_PACKED(p) ? p->pack_quant : p->quant;
  if (one) { /* p->channels == 16 (every packed layer): one group per pixel, no group loop */
    for (int32_t n = 0; n < count; n++, pixel += x_step, out += 16) {
      const int32_t *bias = first_bias;
      mve16_group(&sh, pixel, first_w, &bias, quant, &o, out, simple, shape);
    }
    return;
  }
  for (int32_t n = 0; n < count; n++, pixel += x_step) {
    const int8_t *w = first_w, *x = pixel;
    const int32_t *q = quant, *bias = first_bias;
    for (int32_t c = 0; c < whole; c += 16, x += 16, q += 48, w += w_group, out += 16)
      mve16_group(&sh, x, w, &bias, q, &o, out, simple, shape);
    if (rem) { /* the last 16 channels again, overlapping the previous group */
      mve16_group(&sh, x + rem - 16, w, &bias, q, &o, out + rem - 16, simple, shape);
      out += rem;
    }
  }
}

/* The loops the module compiled (TA_DEPTHWISE_CONV_MVE_VARIANTS; the mask is a compile-time
 * constant, so the loops it leaves out are never referenced and not linked). */
#define MVE_HAS(bit) ((TA_DEPTHWISE_CONV_MVE_VARIANTS >> (bit)) & 1u)

/* Every group of `count` pixels x_step input bytes apart that share one window shape. */
#define MVE_GROUPS_FN(name, simple, kx)                                                                        \
  static void name(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t count,           \
                   int32_t x_step, int8_t *out) {                                                             \
    mve_groups(p, win, count, x_step, out, simple, kx);                                                        \
  }
MVE_GROUPS_FN(mve_groups_s_full3x3, 1, MVE_KX_FULL3X3)
MVE_GROUPS_FN(mve_groups_s_kx3, 1, 3)
MVE_GROUPS_FN(mve_groups_s_kx2, 1, 2)
MVE_GROUPS_FN(mve_groups_s_kx1, 1, 1)
MVE_GROUPS_FN(mve_groups_s_any, 1, MVE_KX_ANY)
MVE_GROUPS_FN(mve_groups_g_full3x3, 0, MVE_KX_FULL3X3)
MVE_GROUPS_FN(mve_groups_g_kx3, 0, 3)
MVE_GROUPS_FN(mve_groups_g_kx2, 0, 2)
MVE_GROUPS_FN(mve_groups_g_kx1, 0, 1)
MVE_GROUPS_FN(mve_groups_g_any, 0, MVE_KX_ANY)

/* name##_one: layers of one 16-channel group (and packed ones), compiled when
 * TA_DW_MVE_BIT_ONE is; a loop of its own so that the group loop keeps its registers. */
#define MVE16_GROUPS_FN(name, simple, shape)                                                             \
  static void name##_one(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t count,    \
                         int32_t x_step, int8_t *out) {                                                      \
    mve16_groups(p, win, count, x_step, out, simple, shape, 1);                                              \
  }                                                                                                          \
  static void name(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t count,          \
                   int32_t x_step, int8_t *out) {                                                            \
    if (MVE_HAS(TA_DW_MVE_BIT_ONE) && (p->channels == 16 || MVE_PACKED(p)))                                  \
      name##_one(p, win, count, x_step, out);                                                                \
    else                                                                                                     \
      mve16_groups(p, win, count, x_step, out, simple, shape, 0);                                            \
  }
MVE16_GROUPS_FN(mve16_s_full3x3, 1, MVE16_FULL3X3)
MVE16_GROUPS_FN(mve16_s_2x3, 1, MVE16_2X3)
MVE16_GROUPS_FN(mve16_s_3x2, 1, MVE16_3X2)
MVE16_GROUPS_FN(mve16_s_2x2, 1, MVE16_2X2)
MVE16_GROUPS_FN(mve16_s_column, 1, MVE16_COLUMN)
MVE16_GROUPS_FN(mve16_s_any, 1, MVE16_ANY)
MVE16_GROUPS_FN(mve16_g_full3x3, 0, MVE16_FULL3X3)
MVE16_GROUPS_FN(mve16_g_2x3, 0, MVE16_2X3)
MVE16_GROUPS_FN(mve16_g_3x2, 0, MVE16_3X2)
MVE16_GROUPS_FN(mve16_g_2x2, 0, MVE16_2X2)
MVE16_GROUPS_FN(mve16_g_column, 0, MVE16_COLUMN)
MVE16_GROUPS_FN(mve16_g_any, 0, MVE16_ANY)

/* ---- the layer form (lanes16 == 2) ---------------------------------------------------
 * One call runs the whole layer, pixel after pixel, the window shape switched per pixel
 * into its group loop (compiled per TA_DW_MVE_BIT_LAYER(shape) and the requantisation
 * bits): no call, prologue and pick per run of pixels, which on narrow maps (kws's
 * 25x5, strww's one-pixel-wide columns) cost more than the taps of the run. */
#define MVE_LAYER_HAS(simple, shape)      \
  (MVE_HAS(TA_DW_MVE_BIT_LAYER(shape)) && \
   MVE_HAS((simple) == 1 ? TA_DW_MVE_BIT_LAYER_S : (simple) == 2 ? TA_DW_MVE_BIT_LAYER_P : TA_DW_MVE_BIT_LAYER_G))

/* Every group of one pixel whose window has the given shape. */
static MVE_ALWAYS_INLINE void mve16_pixel(const mve16_shape_t *sh, const int8_t *x, const int8_t *w,
                                          const int32_t *bias, const int32_t *q, const mve_out_t *o,
                                          int8_t *out, int32_t groups, int32_t rem, int32_t w_group,
                                          const int simple, const int shape) {
  for (int32_t g = 0; g < groups; g++, x += 16, q += 48, w += w_group, out += 16)
    mve16_group(sh, x, w, &bias, q, o, out, simple, shape);
  if (rem) /* the last 16 channels again, overlapping the previous group */
    mve16_group(sh, x + rem - 16, w, &bias, q, o, out + rem - 16, simple, shape);
}

/* A one-pixel-wide column layer whose windows are all whole (no padding, k_w 1: strww's
 * layers): channel group after group, each down the whole column, so that a pixel costs
 * its group's taps and requantisation alone, not the window and table work per pixel. */
static MVE_ALWAYS_INLINE void mve16_column_layer(const ta_depthwise_conv_mve_params_t *p, const int8_t *input,
                                                 int8_t *output, const mve_out_t *o, const int simple) {
  const int32_t ch = p->channels, padded = (ch + 15) & ~15, groups = ch >> 4, rem = ch & 15;
  const int32_t w_group = p->k_h * 16, x_step = p->stride_h * ch;
  const int32_t *bias0 = p->bias + (p->rows[2] * p->col_classes + p->cols[2]) * padded;
  mve16_shape_t sh;
  sh.rs = p->dil_h * ch;
  sh.cs = 0;
  sh.n_ky = p->k_h;
  sh.n_kx = 1;
  sh.w_skip = 0;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *image = input + b * p->in_h * ch;
    int8_t *image_out = output + b * p->out_h * ch;
    for (int32_t g = 0; g <= groups; g++) {
      int32_t c = g * 16;
      if (g == groups) { /* the last 16 channels again, overlapping the previous group */
        if (!rem) break;
        c = ch - 16;
      }
      const int8_t *x = image + c, *w = p->weights8 + g * w_group;
      const int32_t *q = p->quant + g * 48, *bias = bias0 + g * 16;
      int8_t *out = image_out + c;
      for (int32_t oy = 0; oy < p->out_h; oy++, x += x_step, out += ch) {
        const int32_t *b16 = bias;
        mve16_group(&sh, x, w, &b16, q, o, out, simple, MVE16_COLUMN);
      }
    }
  }
}

/* The layer form needs the int8 activation range (no clamp after narrowing). */
static MVE_ALWAYS_INLINE void mve16_layer_form(const ta_depthwise_conv_mve_params_t *p, const int8_t *input,
                                               int8_t *output, const int simple) {
  const int32_t ch = p->channels, padded = (ch + 15) & ~15, groups = ch >> 4, rem = ch & 15;
  const int32_t w_group = p->k_h * p->k_w * 16, col_step = p->stride_w * ch;
  const int k3x3 = p->k_h == 3 && p->k_w == 3, column = p->k_w == 1;
  mve_out_t o;
  o.zero_point = p->output_zero_point;
  o.negative_fix = p->negative_fix;
  o.no_left_shift = p->no_left_shift;
  o.act_min = -128;
  o.act_max = 127;
  o.clamp = 0;
  mve16_shape_t sh;
  sh.rs = p->dil_h * p->in_w * ch;
  sh.cs = p->dil_w * ch;
  if (MVE_LAYER_HAS(simple, MVE16_COLUMN) && column && p->in_w == 1 && p->out_w == 1 && p->out_h > 1 &&
      p->pad_h == 0 && p->pad_w == 0 && (p->out_h - 1) * p->stride_h + (p->k_h - 1) * p->dil_h < p->in_h) {
    mve16_column_layer(p, input, output, &o, simple);
    return;
  }
  int8_t *out = output;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *image = input + b * p->in_h * p->in_w * ch;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int16_t *row = p->rows + 3 * oy;
      const int32_t iy = oy * p->stride_h - p->pad_h + row[0] * p->dil_h;
      const int32_t *row_bias = p->bias + row[2] * p->col_classes * padded;
      const int8_t *x_row = image + (iy * p->in_w - p->pad_w) * ch, *w_row = p->weights8 + row[0] * p->k_w * 16;
      sh.n_ky = row[1] - row[0];
      for (int32_t ox = 0; ox < p->out_w; ox++, out += ch, x_row += col_step) {
        const int16_t *col = p->cols + 3 * ox;
        const int8_t *x = x_row + col[0] * sh.cs, *w = w_row + col[0] * 16;
        const int32_t *bias = row_bias + col[2] * padded;
        sh.n_kx = col[1] - col[0];
        sh.w_skip = (p->k_w - sh.n_kx) * 16;
        const int shape = column ? MVE16_COLUMN
                          : k3x3 && sh.n_ky >= 2 && sh.n_kx >= 2
                              ? (sh.n_ky == 3 ? (sh.n_kx == 3 ? MVE16_FULL3X3 : MVE16_3X2)
                                              : (sh.n_kx == 3 ? MVE16_2X3 : MVE16_2X2))
                              : MVE16_ANY;
        switch (shape) {
#define MVE_LAYER_CASE(s)                                                                      \
  case s:                                                                                      \
    if (MVE_LAYER_HAS(simple, s)) {                                                            \
      mve16_pixel(&sh, x, w, bias, p->quant, &o, out, groups, rem, w_group, simple, s);         \
      continue;                                                                                \
    }                                                                                          \
    break;
          MVE_LAYER_CASE(MVE16_FULL3X3)
          MVE_LAYER_CASE(MVE16_2X3)
          MVE_LAYER_CASE(MVE16_3X2)
          MVE_LAYER_CASE(MVE16_2X2)
          MVE_LAYER_CASE(MVE16_COLUMN)
#undef MVE_LAYER_CASE
          default: break;
        }
        if (MVE_LAYER_HAS(simple, MVE16_ANY)) { /* any window (also a shape not compiled) */
          mve16_pixel(&sh, x, w, bias, p->quant, &o, out, groups, rem, w_group, simple, MVE16_ANY);
        } else {
          mve_window_t win;
          win.x = x;
          win.first_tap = row[0] * p->k_w + col[0];
          win.n_ky = sh.n_ky;
          win.n_kx = sh.n_kx;
          win.row_step = sh.rs;
          win.col_step = sh.cs;
          win.bias = bias;
          mve16_groups_c(p, &win, 1, 0, out);
        }
      }
    }
  }
}

static void mve16_layer_s(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output) {
  mve16_layer_form(p, input, output, 1);
}

static void mve16_layer_p(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output) {
  mve16_layer_form(p, input, output, 2);
}

static void mve16_layer_g(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output) {
  mve16_layer_form(p, input, output, 0);
}

/* The layer form of a layer that takes it, if the module compiled it. */
static int mve16_layer(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output) {
  if (p->lanes16 != 2 || p->act_min > -128 || p->act_max < 127) return 0;
  if (MVE_HAS(TA_DW_MVE_BIT_LAYER_S) && p->simple)
    mve16_layer_s(p, input, output);
  else if (MVE_HAS(TA_DW_MVE_BIT_LAYER_P) && p->negative_fix == 2 && p->no_left_shift)
    mve16_layer_p(p, input, output);
  else if (MVE_HAS(TA_DW_MVE_BIT_LAYER_G))
    mve16_layer_g(p, input, output);
  else
    return 0;
  return 1;
}

typedef mve_groups_fn mve16_groups_fn;

/* A loop's function when the module compiled it, else NULL. */
#define MVE_IF(bit, fn) (MVE_HAS(bit) ? (fn) : (mve_groups_fn)0)

/* A switch case returning `fn` when its loop is compiled, else NULL. */
#define MVE_CASE(bit, fn) \
  case bit: return MVE_IF(bit, fn);

static mve16_groups_fn mve16_compiled(int simple, int shape) {
  switch (TA_DW_MVE_BIT16(simple, shape)) {
    MVE_CASE(TA_DW_MVE_BIT16(0, MVE16_FULL3X3), mve16_g_full3x3)
    MVE_CASE(TA_DW_MVE_BIT16(0, MVE16_2X3), mve16_g_2x3)
    MVE_CASE(TA_DW_MVE_BIT16(0, MVE16_3X2), mve16_g_3x2)
    MVE_CASE(TA_DW_MVE_BIT16(0, MVE16_2X2), mve16_g_2x2)
    MVE_CASE(TA_DW_MVE_BIT16(0, MVE16_COLUMN), mve16_g_column)
    MVE_CASE(TA_DW_MVE_BIT16(0, MVE16_ANY), mve16_g_any)
    MVE_CASE(TA_DW_MVE_BIT16(1, MVE16_FULL3X3), mve16_s_full3x3)
    MVE_CASE(TA_DW_MVE_BIT16(1, MVE16_2X3), mve16_s_2x3)
    MVE_CASE(TA_DW_MVE_BIT16(1, MVE16_3X2), mve16_s_3x2)
    MVE_CASE(TA_DW_MVE_BIT16(1, MVE16_2X2), mve16_s_2x2)
    MVE_CASE(TA_DW_MVE_BIT16(1, MVE16_COLUMN), mve16_s_column)
    MVE_CASE(TA_DW_MVE_BIT16(1, MVE16_ANY), mve16_s_any)
    default: return 0;
  }
}

static mve_groups_fn mve8_compiled(int simple, int shape) {
  switch (TA_DW_MVE_BIT8(simple, shape)) {
    MVE_CASE(TA_DW_MVE_BIT8(0, 0), mve_groups_g_full3x3)
    MVE_CASE(TA_DW_MVE_BIT8(0, 1), mve_groups_g_kx1)
    MVE_CASE(TA_DW_MVE_BIT8(0, 2), mve_groups_g_kx2)
    MVE_CASE(TA_DW_MVE_BIT8(0, 3), mve_groups_g_kx3)
    MVE_CASE(TA_DW_MVE_BIT8(0, 4), mve_groups_g_any)
    MVE_CASE(TA_DW_MVE_BIT8(1, 0), mve_groups_s_full3x3)
    MVE_CASE(TA_DW_MVE_BIT8(1, 1), mve_groups_s_kx1)
    MVE_CASE(TA_DW_MVE_BIT8(1, 2), mve_groups_s_kx2)
    MVE_CASE(TA_DW_MVE_BIT8(1, 3), mve_groups_s_kx3)
    MVE_CASE(TA_DW_MVE_BIT8(1, 4), mve_groups_s_any)
    default: return 0;
  }
}

/* The 16-channel group loop for a window: the layer's own (simple requantisation or
 * general) if compiled, else the general one (exact for every layer), else plain C. */
static mve16_groups_fn mve16_pick(int simple, int shape) {
  mve16_groups_fn fn = simple ? mve16_compiled(1, shape) : 0;
  if (!fn) fn = mve16_compiled(0, shape);
  return fn ? fn : mve16_groups_c;
}

/* The 8-channel group loop: shape 0 = whole 3x3, else rows of 1, 2, 3 or any taps. */
static mve_groups_fn mve_pick(int simple, int full3x3, int32_t n_kx) {
  const int shape = TA_DW_MVE_SHAPE8(full3x3, n_kx);
  mve_groups_fn fn = simple ? mve8_compiled(1, shape) : 0;
  if (!fn) fn = mve8_compiled(0, shape);
  return fn ? fn : mve_groups_any;
}

#else

static mve_groups_fn mve_pick(int simple, int full3x3, int32_t n_kx) {
  (void)simple;
  (void)full3x3;
  (void)n_kx;
  return mve_groups_any;
}

typedef mve_groups_fn mve16_groups_fn;

static mve16_groups_fn mve16_pick(int simple, int shape) {
  (void)simple;
  (void)shape;
  return mve16_groups_c;
}

static int mve16_layer(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output) {
  (void)p;
  (void)input;
  (void)output;
  return 0;
}

#endif

/* pack: a run's whole sets of `pack` pixels in the 16-channel loop (their bias at the
 * run's border class in pack_bias), the pixels left over in 8-channel groups. Out of
 * line, so that mve_layer's registers stay as they are for the other layers. */
static MVE_NOINLINE void mve_run_packed(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win,
                                        int32_t class_offset, int32_t count, int32_t x_step, int8_t *out) {
  const int32_t done = count / p->pack * p->pack;
  mve_window_t rest = *win;
  rest.bias = p->pack_bias + class_offset * 16;
  mve16_pick(p->simple, mve16_shape(p, &rest))(p, &rest, done / p->pack, x_step * p->pack, out);
  if (done == count) return;
  rest.bias = win->bias;
  rest.x += done * x_step;
  const int whole3x3 = p->k_h == 3 && p->k_w == 3 && rest.n_ky == 3 && rest.n_kx == 3;
  mve_pick(p->simple, whole3x3, rest.n_kx)(p, &rest, count - done, x_step, out + done * p->channels);
}

/* Runs of neighbouring pixels with the same border class (so the same window shape and
 * bias) go through one call; along the rows, or down the column when the output is one
 * pixel wide. */
static void mve_layer(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output) {
  if (mve16_layer(p, input, output)) return;
  const int32_t ch = p->channels, padded = p->lanes16 ? (ch + 15) & ~15 : (ch + 7) & ~7;
  const int column = p->out_w == 1;
  mve_window_t win;
  win.row_step = p->dil_h * p->in_w * ch;
  win.col_step = p->dil_w * ch;
  const int32_t x_step = column ? p->stride_h * p->in_w * ch : p->stride_w * ch;
  int8_t *out = output;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *image = input + b * p->in_h * p->in_w * ch;
    for (int32_t oy = 0; oy < p->out_h;) {
      const int16_t *row = p->rows + 3 * oy;
      int32_t rows = 1;
      if (column)
        while (oy + rows < p->out_h && p->rows[3 * (oy + rows) + 2] == row[2]) rows++;
      const int32_t iy = oy * p->stride_h - p->pad_h + row[0] * p->dil_h;
      const int32_t *row_bias = p->bias + row[2] * p->col_classes * padded;
      win.n_ky = row[1] - row[0];
      for (int32_t ox = 0; ox < p->out_w;) {
        const int16_t *col = p->cols + 3 * ox;
        int32_t run = column ? rows : 1;
        while (ox + run < p->out_w && p->cols[3 * (ox + run) + 2] == col[2]) run++;
        const int32_t ix = ox * p->stride_w - p->pad_w + col[0] * p->dil_w;
        win.x = image + (iy * p->in_w + ix) * ch;
        win.first_tap = row[0] * p->k_w + col[0];
        win.n_kx = col[1] - col[0];
        win.bias = row_bias + col[2] * padded;
        if (MVE_PACKED(p) && run >= p->pack) {
          mve_run_packed(p, &win, row[2] * p->col_classes + col[2], run, x_step, out);
        } else {
          const int whole3x3 = p->k_h == 3 && p->k_w == 3 && win.n_ky == 3 && win.n_kx == 3;
          const mve_groups_fn fn =
              p->lanes16 ? mve16_pick(p->simple, mve16_shape(p, &win)) : mve_pick(p->simple, whole3x3, win.n_kx);
          fn(p, &win, run, x_step, out);
        }
        out += run * ch;
        ox += column ? 1 : run;
      }
      oy += rows;
    }
  }
}

void ta_depthwise_conv_mve_s8(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output) {
  mve_layer(p, input, output);
}

void ta_depthwise_conv_mve_s8_inplace(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *temp,
                                      int8_t *output, int32_t bytes) {
  if (p->out_w == 1 && p->batches == 1) {
    /* One pixel wide, the whole column runs per channel group: in place, blocks of
     * TA_DW_MVE_INPLACE_ROWS output rows, each a layer of its own (its rows' classes, its
     * input rows), so nothing above a block is read once the block is written. */
    ta_depthwise_conv_mve_params_t block = *p;
    const int32_t in_step = p->stride_h * p->in_w * p->channels;
    for (int32_t oy = 0; oy < p->out_h; oy += TA_DW_MVE_INPLACE_ROWS) {
      block.out_h = p->out_h - oy < TA_DW_MVE_INPLACE_ROWS ? p->out_h - oy : TA_DW_MVE_INPLACE_ROWS;
      block.rows = p->rows + 3 * oy;
      mve_layer(&block, input + oy * in_step, temp + oy * p->channels);
    }
  } else {
    mve_layer(p, input, temp);
  }
  ta_move_output(output, temp, bytes);
}
