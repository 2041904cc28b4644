/* tinyaot runtime: int8 matrix-vector kernels with DSP-extension (SIMD32) intrinsics. */
#include "ta_gemm_dsp.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>

/* The dot-product bodies must inline: otherwise their accumulators live in memory. */
#if defined(__GNUC__)
#define GEMM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define GEMM_ALWAYS_INLINE inline
#endif


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

/* One input word (unaligned), in program order (see GEMM_LOAD_PAIR). */
static inline int32_t gemm_load_x(const int8_t *p, int32_t off) {
  int32_t v;
  __asm__ volatile("ldr %0, [%1, %2]" : "=r"(v) : "r"(p), "I"(off), "m"(*(const int8_t(*)[4])(p + off)));
  return v;
}

static inline int32_t gemm_sxtb16(int32_t v) { return (int32_t)__sxtb16((uint32_t)v); }

/* The last 1..3 depth values as one word, zero filled (their weights are zero too,
 * and the bytes past the row may lie outside the buffer). */
static inline int32_t gemm_tail_word(const int8_t *x, int32_t n) {
  uint32_t v = (uint8_t)x[0];
  if (n > 1) v |= (uint32_t)(uint8_t)x[1] << 8;
  if (n > 2) v |= (uint32_t)(uint8_t)x[2] << 16;
  return (int32_t)v;
}

/* Two consecutive weight words in one LDRD (GCC splits a memcpy of 8 bytes into two
 * loads); the weight tables are const int32_t arrays, so word aligned. Volatile, like
 * gemm_load_x, to keep the loads in program order: GCC hoists them otherwise and spills. */
#define GEMM_LOAD_PAIR(w, off, even, odd) \
  __asm__ volatile("ldrd %0, %1, [%2, %3]" : "=r"(even), "=r"(odd) : "r"(w), "I"((off) * 4), "m"(*(const int32_t(*)[2])((w) + (off))))

/* Adds one group of 4 depth values (unpacked input e = x0,x2 and o = x1,x3) times
 * 4 rows' weights (8 words) to the accumulators. */
#define GEMM_GROUP4(e, o, w, off)                                                                 \
  do {                                                                                            \
    int32_t w_e, w_o;                                                                             \
    GEMM_LOAD_PAIR(w, (off), w_e, w_o); a0 = __smlad((e), w_e, a0); a0 = __smlad((o), w_o, a0);     \
    GEMM_LOAD_PAIR(w, (off) + 2, w_e, w_o); a1 = __smlad((e), w_e, a1); a1 = __smlad((o), w_o, a1); \
    GEMM_LOAD_PAIR(w, (off) + 4, w_e, w_o); a2 = __smlad((e), w_e, a2); a2 = __smlad((o), w_o, a2); \
    GEMM_LOAD_PAIR(w, (off) + 6, w_e, w_o); a3 = __smlad((e), w_e, a3); a3 = __smlad((o), w_o, a3); \
  } while (0)

/* Dot products of one input row with 4 weight rows (pre-widened pairs, 8 words per
 * group of 4 depth values), added to acc[0..3]; four groups per iteration. */
static GEMM_ALWAYS_INLINE void gemm_dot4(const int8_t *x, const int32_t *w, int32_t depth, int32_t acc[4]) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  for (int32_t n = depth >> 4; n > 0; n--, x += 16, w += 32) { /* 16 values: less loop overhead */
    int32_t xw = gemm_load_x(x, 0), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 0);
    xw = gemm_load_x(x, 4), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 8);
    xw = gemm_load_x(x, 8), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 16);
    xw = gemm_load_x(x, 12), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 24);
  }
  if (depth & 8) {
    const int32_t xa = gemm_load32(x), xb = gemm_load32(x + 4);
    const int32_t ea = gemm_sxtb16(xa), oa = gemm_sxtb16_ror8(xa);
    GEMM_GROUP4(ea, oa, w, 0);
    const int32_t eb = gemm_sxtb16(xb), ob = gemm_sxtb16_ror8(xb);
    GEMM_GROUP4(eb, ob, w, 8);
    x += 8, w += 16;
  }
  if (depth & 4) {
    const int32_t xw = gemm_load32(x);
    const int32_t e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 0);
    x += 4, w += 8;
  }
  if (depth & 3) {
    const int32_t xw = gemm_tail_word(x, depth & 3);
    const int32_t e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 0);
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

static GEMM_ALWAYS_INLINE int32_t gemm_dot1(const int8_t *x, const int32_t *w, int32_t depth, int32_t acc) {
  const int8_t *end = x + (depth & ~3);
  for (; x != end; x += 4, w += 2) {
    const int32_t xw = gemm_load32(x);
    acc = __smlad(gemm_sxtb16(xw), w[0], acc);
    acc = __smlad(gemm_sxtb16_ror8(xw), w[1], acc);
  }
  if (depth & 3) {
    const int32_t xw = gemm_tail_word(x, depth & 3);
    acc = __smlad(gemm_sxtb16(xw), w[0], acc);
    acc = __smlad(gemm_sxtb16_ror8(xw), w[1], acc);
  }
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

/* gemm_requantize for a right shift r >= 1 with the constants folded at compile time:
 * q = {m, low and high words of K = 2^30 + 2^(30+r) + zero_point * 2^(31+r), r - 1}.
 * floor((acc*m + K - 2^31*[acc < 0]) / 2^(31+r)) is the rounded value plus the output
 * zero point (adding a multiple of the divisor commutes with the floor). For r > 23 the
 * zero point term could overflow: K leaves it out and the caller adds it. neg_fix is
 * INT32_MIN for the [acc < 0] term, or 0 when the activation floor is at or above the
 * zero point: a negative acc then gives at most the zero point either way, clamped. */
static inline int32_t gemm_out_fast(const int32_t *q, int32_t acc, int32_t neg_fix) {
  int32_t lo = q[1], hi = q[2];
  /* signed 32x32 -> 64 multiply-accumulates (GCC would widen the second one) */
  __asm__("smlal %0, %1, %2, %3" : "+r"(lo), "+r"(hi) : "r"(acc), "r"(q[0]));
  if (neg_fix) { /* a constant 0 in the relu_sat kernels */
    const int32_t negative = (int32_t)((uint32_t)acc >> 31);
    __asm__("smlal %0, %1, %2, %3" : "+r"(lo), "+r"(hi) : "r"(negative), "r"(neg_fix));
  }
  return hi >> q[3];
}

/* The clamp, one saturation when the range is int8's. */
static inline int8_t gemm_clamp_fast(int32_t v, int32_t sat8, int32_t lo, int32_t hi) {
  if (sat8) return (int8_t)__ssat(v, 8);
  return (int8_t)ta_clamp(v, lo, hi);
}

/* The generic requantisation (left shifts, or right shifts beyond rq's range). */
static void gemm_vector(const ta_gemm_dsp_params_t *p, const int8_t *x, const int32_t *w, int8_t *out) {
  const int32_t rows = p->rows, depth = p->depth;
  const int32_t words = ((depth + 3) >> 2) * 2; /* per row */
  int32_t acc[4];
  int32_t c = 0;
  for (; c + 4 <= rows; c += 4, w += 4 * words) {
    acc[0] = p->bias[c], acc[1] = p->bias[c + 1], acc[2] = p->bias[c + 2], acc[3] = p->bias[c + 3];
    gemm_dot4(x, w, depth, acc);
    out[c] = gemm_out(p, c, acc[0]), out[c + 1] = gemm_out(p, c + 1, acc[1]);
    out[c + 2] = gemm_out(p, c + 2, acc[2]), out[c + 3] = gemm_out(p, c + 3, acc[3]);
  }
  for (; c < rows; c++, w += words) out[c] = gemm_out(p, c, gemm_dot1(x, w, depth, p->bias[c]));
}

/* `count` input rows, `x_step` bytes apart, with rq's requantisation; `relu_sat`
 * (a compile-time constant in each caller): neg_fix and rq_zp are 0 and the clamp int8's range. */
static GEMM_ALWAYS_INLINE void gemm_rows_fast(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x,
                                              int32_t x_step, const int32_t *weights, int8_t *out,
                                              const int relu_sat) {
  const int32_t rows = p->rows, depth = p->depth;
  const int32_t block_words = ((depth + 3) >> 2) * 8; /* 4 rows' weights */
  const int32_t fix = relu_sat ? 0 : p->neg_fix, sat8 = relu_sat ? 1 : p->sat8;
  const int32_t lo = p->act_min, hi = p->act_max, zp = relu_sat ? 0 : p->rq_zp;
  for (; count > 0; count--, x += x_step, out += rows) {
    const int32_t *w = weights, *q = p->rq, *bias = p->bias;
    int8_t *o = out;
    for (int32_t blocks = rows >> 2; blocks > 0; blocks--, w += block_words, q += 16, bias += 4, o += 4) {
      int32_t acc[4] = {bias[0], bias[1], bias[2], bias[3]};
      gemm_dot4(x, w, depth, acc);
      o[0] = gemm_clamp_fast(gemm_out_fast(q, acc[0], fix) + zp, sat8, lo, hi);
      o[1] = gemm_clamp_fast(gemm_out_fast(q + 4, acc[1], fix) + zp, sat8, lo, hi);
      o[2] = gemm_clamp_fast(gemm_out_fast(q + 8, acc[2], fix) + zp, sat8, lo, hi);
      o[3] = gemm_clamp_fast(gemm_out_fast(q + 12, acc[3], fix) + zp, sat8, lo, hi);
    }
    for (int32_t r = rows & 3; r > 0; r--, w += block_words >> 2, q += 4, bias++, o++)
      o[0] = gemm_clamp_fast(gemm_out_fast(q, gemm_dot1(x, w, depth, bias[0]), fix) + zp, sat8, lo, hi);
  }
}

static void gemm_rows_relu_sat(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                               const int32_t *weights, int8_t *out) {
  gemm_rows_fast(p, count, x, x_step, weights, out, 1);
}

static void gemm_rows_any(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                          const int32_t *weights, int8_t *out) {
  gemm_rows_fast(p, count, x, x_step, weights, out, 0);
}

/* `count` input rows `x_step` bytes apart, each giving `rows` outputs. */
static void gemm_rows(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                      const int32_t *weights, int8_t *out) {
  if (!p->rq) {
    for (; count > 0; count--, x += x_step, out += p->rows) gemm_vector(p, x, weights, out);
  } else if (p->neg_fix == 0 && p->sat8 && p->rq_zp == 0) {
    gemm_rows_relu_sat(p, count, x, x_step, weights, out);
  } else {
    gemm_rows_any(p, count, x, x_step, weights, out);
  }
}

void ta_gemm_s8_dsp(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *input, const int32_t *weights,
                    int8_t *output) {
  gemm_rows(p, count, input, p->depth, weights, output);
}

void ta_conv_s8_dsp(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                    const int32_t *weights, int8_t *scratch, int8_t *output) {
  const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int8_t *in = input + (size_t)b * image;
    if (g->direct && g->stride_w == 1 && g->stride_h == 1) { /* 1x1, stride 1: one matrix product */
      const int32_t pixels = g->out_h * g->out_w;
      gemm_rows(p, pixels, in, g->in_c, weights, out);
      out += (size_t)pixels * (size_t)p->rows;
      continue;
    }
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      if (g->direct) { /* 1x1 strided: one row of pixels stride_w * in_c bytes apart */
        gemm_rows(p, g->out_w, ta_im2col_s8(g, in, oy, 0, scratch), g->stride_w * g->in_c, weights, out);
        out += (size_t)g->out_w * (size_t)p->rows;
        continue;
      }
      for (int32_t ox = 0; ox < g->out_w; ox++, out += p->rows)
        gemm_rows(p, 1, ta_im2col_s8(g, in, oy, ox, scratch), 0, weights, out);
    }
  }
}

#else
typedef int ta_gemm_dsp_unused_t; /* ISO C forbids an empty translation unit */
#endif
