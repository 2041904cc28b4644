/* tinyaot runtime: int8 DEPTHWISE_CONV_2D for MVE (Helium); plain C with the same tables elsewhere. */
#include "ta_depthwise_conv_mve.h"

/* The channel-group bodies must inline into their callers: otherwise the accumulators
 * have their address taken and live in memory. */
#if defined(__GNUC__)
#define MVE_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MVE_ALWAYS_INLINE inline
#endif

/* The pixel's window: first inside tap and the inside tap counts. */
typedef struct mve_window_t {
  const int8_t *x;      /* input at the first inside tap, channel 0 */
  int32_t first_tap;    /* its index ky * k_w + kx */
  int32_t n_ky, n_kx;
  int32_t row_step, col_step;
  const int32_t *bias;  /* the border class's folded bias, group 0 */
} mve_window_t;

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

/* The taps of a clipped window, row by row, each row unrolled for up to 3 taps. */
static MVE_ALWAYS_INLINE void mve_window_taps(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win,
                                   const int8_t *x, const int16_t *w, mve_acc_t *acc) {
  const int32_t cs = win->col_step;
  for (int32_t i = 0; i < win->n_ky; i++, x += win->row_step, w += p->k_w * 8) {
    switch (win->n_kx) {
      case 3:
        mve_tap(x, w, acc);
        mve_tap(x + cs, w + 8, acc);
        mve_tap(x + 2 * cs, w + 16, acc);
        break;
      case 2:
        mve_tap(x, w, acc);
        mve_tap(x + cs, w + 8, acc);
        break;
      case 1: mve_tap(x, w, acc); break;
      default:
        for (int32_t j = 0; j < win->n_kx; j++) mve_tap(x + j * cs, w + 8 * j, acc);
    }
  }
}

static MVE_ALWAYS_INLINE void mve_group8(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t c,
                              int8_t *out, const int simple) {
  const int32_t taps = p->k_h * p->k_w;
  const int16_t *w = p->weights + ((c >> 3) * taps + win->first_tap) * 8;
  const int8_t *x = win->x + c;
  mve_acc_t acc;
  acc.even = vldrwq_s32(win->bias + c);
  acc.odd = vldrwq_s32(win->bias + c + 4);
  if (taps == 9 && win->n_ky == 3 && win->n_kx == 3) { /* the common full 3x3 window */
    const int32_t rs = win->row_step, cs = win->col_step;
    for (int i = 0; i < 3; i++, x += rs, w += 24) {
      mve_tap(x, w, &acc);
      mve_tap(x + cs, w + 8, &acc);
      mve_tap(x + 2 * cs, w + 16, &acc);
    }
  } else {
    mve_window_taps(p, win, x, w, &acc);
  }
  mve_store_group(p, &acc, c, out, simple, 0);
}

static void mve_groups_simple(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t end,
                              int8_t *out) {
  for (int32_t c = 0; c < end; c += 8) mve_group8(p, win, c, out, 1);
}

static void mve_groups_general(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t end,
                               int8_t *out) {
  for (int32_t c = 0; c < end; c += 8) mve_group8(p, win, c, out, 0);
}

#if defined(__GNUC__) && !defined(__clang__)
/* Three taps of one window row, `cs` bytes apart, as a fixed sequence: GCC's own
 * schedule of the unrolled taps runs out of vector registers and spills. The widening
 * byte loads only take r0-r7 ("l"). *w moves past the row's weights. */
static MVE_ALWAYS_INLINE void mve_row3(const int8_t *x, int32_t cs, const int16_t **w, mve_acc_t *acc) {
  int16x8_t xv, wv;
  int32x4_t t;
  const int16_t *wp = *w;
  __asm__("vldrh.16 %q[wv], [%[w]], #16\n\t"
          "vldrb.s16 %q[xv], [%[x]]\n\t"
          "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[e], %q[e], %q[t]\n\t"
          "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[o], %q[o], %q[t]\n\t"
          "add %[x], %[x], %[cs]\n\t"
          "vldrh.16 %q[wv], [%[w]], #16\n\t"
          "vldrb.s16 %q[xv], [%[x]]\n\t"
          "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[e], %q[e], %q[t]\n\t"
          "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[o], %q[o], %q[t]\n\t"
          "add %[x], %[x], %[cs]\n\t"
          "vldrh.16 %q[wv], [%[w]], #16\n\t"
          "vldrb.s16 %q[xv], [%[x]]\n\t"
          "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[e], %q[e], %q[t]\n\t"
          "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"
          "vadd.i32 %q[o], %q[o], %q[t]"
          : [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t), [e] "+w"(acc->even), [o] "+w"(acc->odd), [x] "+l"(x),
            [w] "+r"(wp)
          : [cs] "r"(cs));
  *w = wp;
}
#else
static MVE_ALWAYS_INLINE void mve_row3(const int8_t *x, int32_t cs, const int16_t **w, mve_acc_t *acc) {
  mve_tap(x, *w, acc);
  mve_tap(x + cs, *w + 8, acc);
  mve_tap(x + 2 * cs, *w + 16, acc);
  *w += 24;
}
#endif

/* A window wholly inside the image, every whole group: the pointers walk the tables
 * group after group (a full window starts at tap 0, so the weights are consecutive). */
static MVE_ALWAYS_INLINE void mve_groups_full(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win,
                                              int32_t end, int8_t *out, const int simple) {
  const int32_t k_h = p->k_h, k_w = p->k_w, rs = win->row_step, cs = win->col_step;
  const int16x8_t lo = vdupq_n_s16((int16_t)p->act_min), hi = vdupq_n_s16((int16_t)p->act_max);
  const int16_t *w = p->weights;
  const int32_t *q = p->quant, *bias = win->bias;
  const int8_t *x = win->x;
  for (int32_t c = 0; c < end; c += 8, x += 8, bias += 8, q += 24, out += 8) {
    mve_acc_t acc;
    acc.even = vldrwq_s32(bias);
    acc.odd = vldrwq_s32(bias + 4);
    const int8_t *xr = x;
    if (k_h == 3 && k_w == 3) {
      for (int i = 0; i < 3; i++, xr += rs) mve_row3(xr, cs, &w, &acc);
    } else if (k_w == 1) { /* tall kernels: one loop over the taps */
      for (int32_t i = 0; i < k_h; i++, xr += rs, w += 8) mve_tap(xr, w, &acc);
    } else {
      for (int32_t i = 0; i < k_h; i++, xr += rs) {
        const int8_t *xp = xr;
        for (int32_t j = 0; j < k_w; j++, xp += cs, w += 8) mve_tap(xp, w, &acc);
      }
    }
    int16x8_t narrow = vqmovnbq_s32(vdupq_n_s16(0), mve_requant(p, acc.even, q, simple));
    narrow = vqmovntq_s32(narrow, mve_requant(p, acc.odd, q + 4, simple));
    vstrbq_s16(out, vminq_s16(vmaxq_s16(narrow, lo), hi));
  }
}

static void mve_groups_full_simple(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t end,
                                   int8_t *out) {
  mve_groups_full(p, win, end, out, 1);
}

static void mve_groups_full_general(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t end,
                                    int8_t *out) {
  mve_groups_full(p, win, end, out, 0);
}

#else

/* Lane k of the group's tables holds channel 2k (k < 4) or 2(k - 4) + 1. */
static int32_t mve_lane_of(int32_t j) { return (j & 1) ? 4 + (j >> 1) : j >> 1; }

static int32_t mve_requant_lane(const ta_depthwise_conv_mve_params_t *p, int32_t acc, const int32_t *q, int32_t lane) {
  const int32_t shifted = (int32_t)((uint32_t)acc << q[8 + lane]);
  int32_t v = ta_sat_round_doubling_high_mul(shifted, q[lane]);
  const int32_t right = -q[16 + lane];
  if (p->negative_fix && right > 0 && v < 0) v -= 1;
  if (right > 0) v = (int32_t)(((int64_t)v + ((int64_t)1 << (right - 1))) >> right);
  v += p->output_zero_point;
  return ta_clamp(v, p->act_min, p->act_max);
}

static void mve_group_tail(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t c, int8_t *out);

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

static void mve_group_tail(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t c, int8_t *out) {
  mve_group8(p, win, c, out);
}

static void mve_groups_simple(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t end,
                              int8_t *out) {
  for (int32_t c = 0; c < end; c += 8) mve_group8(p, win, c, out);
}

static void mve_groups_general(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t end,
                               int8_t *out) {
  mve_groups_simple(p, win, end, out);
}

static void mve_groups_full_simple(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t end,
                                   int8_t *out) {
  mve_groups_simple(p, win, end, out);
}

static void mve_groups_full_general(const ta_depthwise_conv_mve_params_t *p, const mve_window_t *win, int32_t end,
                                    int8_t *out) {
  mve_groups_simple(p, win, end, out);
}

#endif

void ta_depthwise_conv_mve_s8(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output) {
  const int32_t ch = p->channels;
  const int32_t padded = (ch + 7) & ~7;
  const int32_t class_stride = p->col_classes * padded;
  mve_window_t win;
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
        win.bias = row_bias + col[2] * padded;
        const int32_t full = ch & ~7;
        const int whole = win.n_ky == p->k_h && win.n_kx == p->k_w;
        if (whole && p->simple)
          mve_groups_full_simple(p, &win, full, out);
        else if (whole)
          mve_groups_full_general(p, &win, full, out);
        else if (p->simple)
          mve_groups_simple(p, &win, full, out);
        else
          mve_groups_general(p, &win, full, out);
        if (full < ch) mve_group_tail(p, &win, full, out);
      }
    }
  }
}
