/* int16x8 dot-product layers on the Cortex-M55 MVE tier: selection and constants. */
#include "gemm_s16_mve.h"

#include <string.h>

#include "../../ir/quant.h"

/* Set to 0 to keep the portable int16x8 kernels on Cortex-M55 (e.g. to bisect a mismatch). */
#define GEMM_S16_MVE_ENABLED 1

bool gemm_s16_mve_available(const Platform *platform) {
  return GEMM_S16_MVE_ENABLED && platform && platform->mve;
}

/* The fold form of one channel (ta_gemm_s16_mve.h): the int32 bias the sum starts at and
 * m = reduced * 2^(32-t). False when a bound it needs does not hold: 1 <= t <= 32,
 * |m| < 2^31, |bias| + 2^15 * sum|w| < 2^31 (every partial sum stays inside int32). */
static bool s16_fold_row(const Tensor *bias, int32_t r, int32_t mult, int32_t shift, int64_t abs_sum,
                         int32_t *b_out, int32_t *m_out) {
  const int64_t reduced = mult < 0x7FFF0000 ? ((int64_t)mult + (1 << 15)) >> 16 : 0x7FFF;
  const int64_t t = 15 - (int64_t)shift;
  const int64_t b = bias ? const_i64(bias, r) : 0;
  if (t < 1 || t > 32 || b > INT32_MAX || b < -(int64_t)INT32_MAX) return false;
  const int64_t m = reduced * ((int64_t)1 << (32 - t)); /* |reduced| <= 2^15: no overflow */
  if (m > INT32_MAX || m < -(int64_t)INT32_MAX) return false;
  if ((b < 0 ? -b : b) + abs_sum * 32768 > INT32_MAX) return false;
  *b_out = (int32_t)b, *m_out = (int32_t)m;
  return true;
}

/* Fills bias/mult with the fold form of every channel; false when one cannot take it. */
static bool s16_fold_plan(const Tensor *bias, int32_t rows, const int32_t *mult, const int32_t *shift,
                          int32_t scalar_mult, int32_t scalar_shift, const int64_t *abs_sums, int32_t *b,
                          int32_t *m) {
  for (int32_t r = 0; r < rows; r++)
    if (!s16_fold_row(bias, r, mult ? mult[r] : scalar_mult, shift ? shift[r] : scalar_shift, abs_sums[r], &b[r],
                      &m[r]))
      return false;
  return true;
}

/* TFLite's form of one channel: k = bias * reduced + 2^(t-1) as two words, reduced, t.
 * False when t is outside [1, 62] or |bias| > 2^47 (then a term could leave int64). */
static bool s16_general_row(const Tensor *bias, int32_t r, int32_t mult, int32_t shift, int32_t *rq) {
  const int64_t reduced = mult < 0x7FFF0000 ? ((int64_t)mult + (1 << 15)) >> 16 : 0x7FFF;
  const int64_t t = 15 - (int64_t)shift;
  const int64_t b = bias ? const_i64(bias, r) : 0;
  if (t < 1 || t > 62 || b > ((int64_t)1 << 47) || b < -((int64_t)1 << 47)) return false;
  const int64_t k = b * reduced + ((int64_t)1 << (t - 1));
  rq[0] = (int32_t)(uint32_t)((uint64_t)k & 0xFFFFFFFFu);
  rq[1] = (int32_t)(k >> 32);
  rq[2] = (int32_t)reduced, rq[3] = (int32_t)t;
  return true;
}

/* The wide form of one row (ta_gemm_s16_mve.h): t in [33, 62], its sum from 0 inside
 * int32, |bias| <= 2^47 and |k high| + 2^14 + 1 < 2^31. Fills reduced, k high, k low and
 * 32 - t at q[0], q[4], q[8], q[12] (the row's lane of its block). */
static bool s16_wide_row(const Tensor *bias, int32_t r, int32_t mult, int32_t shift, int64_t abs_sum, int32_t *q) {
  const int64_t reduced = mult < 0x7FFF0000 ? ((int64_t)mult + (1 << 15)) >> 16 : 0x7FFF;
  const int64_t t = 15 - (int64_t)shift;
  const int64_t b = bias ? const_i64(bias, r) : 0;
  if (t < 33 || t > 62 || b > ((int64_t)1 << 47) || b < -((int64_t)1 << 47) || abs_sum * 32768 > INT32_MAX)
    return false;
  const int64_t k = b * reduced + ((int64_t)1 << (t - 1));
  const int64_t kh = k >> 32; /* arithmetic: floor(k / 2^32) */
  if (kh > INT32_MAX - (1 << 14) - 2 || kh < INT32_MIN + (1 << 14) + 2) return false;
  q[0] = (int32_t)reduced, q[4] = (int32_t)kh, q[8] = (int32_t)(uint32_t)((uint64_t)k & 0xFFFFFFFFu);
  q[12] = (int32_t)(32 - t);
  return true;
}

/* The fold form for most rows: rows with t > 32 take the wide form, the others outside
 * its bounds (at most half) get bias and mult 0 and an entry of g->fix (index, then
 * TFLite's form as s16_general_row makes it), which the kernel sums again in int64.
 * False when that does not apply. */
static bool s16_fold_fix_plan(Arena *arena, const Tensor *bias, int32_t rows, const int32_t *mult,
                              const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift, const int64_t *abs_sums,
                              int32_t *b, int32_t *m, GemmS16MvePlan *g) {
  int32_t n = 0, n_wide = 0;
  int32_t *fix = arena_calloc(arena, (size_t)rows * 5, sizeof(int32_t));
  int32_t *wide = arena_calloc(arena, (size_t)((rows + 3) & ~3) * 4, sizeof(int32_t));
  if (!fix || !wide) return false;
  for (int32_t r = 0; r < rows; r++) {
    const int32_t rm = mult ? mult[r] : scalar_mult, rs = shift ? shift[r] : scalar_shift;
    if (s16_fold_row(bias, r, rm, rs, abs_sums[r], &b[r], &m[r])) continue;
    b[r] = 0, m[r] = 0;
    if (s16_wide_row(bias, r, rm, rs, abs_sums[r], wide + 16 * (r >> 2) + (r & 3))) {
      n_wide++;
      continue;
    }
    if (2 * (n + 1) > rows || !s16_general_row(bias, r, rm, rs, fix + 5 * n + 1)) return false;
    fix[5 * n] = r, n++;
  }
  g->bias = b, g->mult = m, g->n_fix = n, g->fix = n ? fix : NULL, g->wide = n_wide ? wide : NULL;
  return true;
}

static bool s16_bias_usable(const Tensor *bias, int32_t rows) {
  return !bias || (bias->type == TT_INT64 && bias->data && bias->elems == rows);
}

bool gemm_s16_mve_plan(Arena *arena, int32_t rows, int32_t depth, const int8_t *weights, const Tensor *bias,
                       const int32_t *mult, const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift,
                       int32_t act_min, int32_t act_max, GemmS16MvePlan **out) {
  *out = NULL;
  if (rows <= 0 || depth <= 0 || rows > (1 << 24) || depth > (1 << 24) || !s16_bias_usable(bias, rows)) return true;
  GemmS16MvePlan *g = arena_calloc(arena, 1, sizeof *g);
  int64_t *sums = arena_calloc(arena, (size_t)rows, sizeof(int64_t));
  const int32_t rows4 = (rows + 3) & ~3; /* the kernel reads whole blocks of 4 */
  int32_t *b = arena_calloc(arena, (size_t)rows4, sizeof(int32_t));
  int32_t *m = arena_calloc(arena, (size_t)rows4, sizeof(int32_t));
  if (!g || !sums || !b || !m) return false;
  for (int32_t r = 0; r < rows; r++)
    for (int32_t k = 0; k < depth; k++) {
      const int32_t v = weights[(size_t)r * (size_t)depth + (size_t)k];
      sums[r] += v < 0 ? -v : v;
    }
  if (s16_fold_plan(bias, rows, mult, shift, scalar_mult, scalar_shift, sums, b, m)) {
    g->bias = b, g->mult = m;
  } else if (!s16_fold_fix_plan(arena, bias, rows, mult, shift, scalar_mult, scalar_shift, sums, b, m, g)) {
    if (!(g->rq = arena_calloc(arena, (size_t)rows * 4, sizeof(int32_t)))) return false;
    for (int32_t r = 0; r < rows; r++) {
      if (!s16_general_row(bias, r, mult ? mult[r] : scalar_mult, shift ? shift[r] : scalar_shift, g->rq + 4 * r))
        return true;
      if (sums[r] * 32768 > INT32_MAX) g->acc64 = true;
    }
  }
  g->rows = rows, g->depth = depth, g->stride = (depth + 7) & ~7;
  g->act_min = act_min, g->act_max = act_max;
  g->w8 = arena_calloc(arena, (size_t)rows4 * (size_t)g->stride, 1);
  if (!g->w8) return false;
  /* row r, depth k -> block r / 4, chunk k / 8, slot r % 4, lane k % 8 */
  for (int32_t r = 0; r < rows; r++)
    for (int32_t k = 0; k < depth; k++)
      g->w8[(size_t)(r >> 2) * 4 * (size_t)g->stride + (size_t)(k >> 3) * 32 + (size_t)(r & 3) * 8 + (size_t)(k & 7)] =
          weights[(size_t)r * (size_t)depth + (size_t)k];
  *out = g;
  return true;
}

const char *gemm_s16_mve_emit_params(EmitCtx *ec, const GemmS16MvePlan *g) {
  const char *name = em_op_name(ec);
  const char *bias = g->bias ? em_table_i32(ec, "gemm16m_bias", g->bias, (size_t)((g->rows + 3) & ~3)) : "NULL";
  const char *mult = g->bias ? em_table_i32(ec, "gemm16m_mult", g->mult, (size_t)((g->rows + 3) & ~3)) : "NULL";
  const char *rq = g->rq ? em_table_i32(ec, "gemm16m_rq", g->rq, (size_t)g->rows * 4) : "NULL";
  const char *fix = g->n_fix ? em_table_i32(ec, "gemm16m_fix", g->fix, (size_t)g->n_fix * 5) : "NULL";
  const char *wide = g->wide ? em_table_i32(ec, "gemm16m_wide", g->wide, (size_t)((g->rows + 3) & ~3) * 4) : "NULL";
  em_decl(ec,
          "static const ta_gemm_s16_mve_params_t %s_gemm16m = {\n  .rows = %d, .depth = %d, .stride = %d,\n"
          "  .bias = %s, .mult = %s, .act_min = %d, .act_max = %d,\n  .rq = %s, .acc64 = %d,\n"
          "  .wide = %s, .n_fix = %d, .fix = %s,\n};",
          name, (int)g->rows, (int)g->depth, (int)g->stride, bias, mult, (int)g->act_min, (int)g->act_max, rq,
          g->acc64 ? 1 : 0, wide, (int)g->n_fix, fix);
  return em_table_i8_from(ec, "gemm16m_weights", EM_FROM_WEIGHTS, g->w8,
                          (size_t)((g->rows + 3) & ~3) * (size_t)g->stride);
}

/* Depthwise: every channel in the fold form or, with t > 32, the wide form (bias and m 0),
 * its words in the block's lane order (ta_depthwise_conv_s16_mve.h: per block of 8
 * channels reduced, k high, k low, 32 - t, 8 words each, even channels' lanes first).
 * False when a channel fits neither. */
static bool dw_s16_fold_wide_plan(const Tensor *bias, int32_t channels, const int32_t *mult, const int32_t *shift,
                                  const int64_t *abs_sums, int32_t *b, int32_t *m, int32_t *wide) {
  for (int32_t c = 0; c < channels; c++) {
    if (s16_fold_row(bias, c, mult[c], shift[c], abs_sums[c], &b[c], &m[c])) continue;
    int32_t q[16] = {0};
    if (!s16_wide_row(bias, c, mult[c], shift[c], abs_sums[c], q)) return false;
    int32_t *lane = wide + (size_t)(c / 8) * 32 + 4 * (c & 1) + ((c & 7) >> 1);
    lane[0] = q[0], lane[8] = q[4], lane[16] = q[8], lane[24] = q[12];
    b[c] = 0, m[c] = 0;
  }
  return true;
}

bool dw_s16_mve_plan(Arena *arena, int32_t channels, int32_t taps, const int8_t *filter, const Tensor *bias,
                     const int32_t *mult, const int32_t *shift, DwS16MvePlan **out) {
  *out = NULL;
  if (channels <= 0 || taps <= 0 || channels > (1 << 24) || taps > (1 << 16) || !s16_bias_usable(bias, channels))
    return true;
  DwS16MvePlan *d = arena_calloc(arena, 1, sizeof *d);
  int64_t *sums = arena_calloc(arena, (size_t)channels, sizeof(int64_t));
  int32_t *b = arena_calloc(arena, (size_t)channels, sizeof(int32_t));
  int32_t *m = arena_calloc(arena, (size_t)channels, sizeof(int32_t));
  if (!d || !sums || !b || !m) return false;
  for (int32_t t = 0; t < taps; t++)
    for (int32_t c = 0; c < channels; c++) {
      const int32_t v = filter[(size_t)t * (size_t)channels + (size_t)c];
      sums[c] += v < 0 ? -v : v;
    }
  const int32_t blocks = (channels + 7) / 8;
  if (!s16_fold_plan(bias, channels, mult, shift, 0, 0, sums, b, m)) {
    if (!(d->wide = arena_calloc(arena, (size_t)blocks * 32, sizeof(int32_t)))) return false;
    if (!dw_s16_fold_wide_plan(bias, channels, mult, shift, sums, b, m, d->wide)) {
      /* TFLite's int64 form per channel over int32 sums from 0, where those cannot wrap */
      d->wide = NULL;
      if (!(d->general = arena_calloc(arena, (size_t)channels * 4, sizeof(int32_t)))) return false;
      for (int32_t c = 0; c < channels; c++) {
        if (sums[c] * 32768 > INT32_MAX || !s16_general_row(bias, c, mult[c], shift[c], d->general + 4 * c))
          return true;
        b[c] = 0, m[c] = 0;
      }
    }
  }
  d->n_rq = (size_t)blocks * 16;
  d->rq = arena_calloc(arena, d->n_rq, sizeof(int32_t));
  if (!d->rq) return false;
  d->n_w8 = (size_t)blocks * (size_t)taps * 8;
  if (!(d->w8 = arena_calloc(arena, d->n_w8, 1))) return false;
  for (int32_t t = 0; t < taps; t++)
    for (int32_t c = 0; c < channels; c++)
      d->w8[((size_t)(c / 8) * (size_t)taps + (size_t)t) * 8 + (size_t)(c % 8)] =
          filter[(size_t)t * (size_t)channels + (size_t)c];
  /* lane l of the even half is channel 8 * block + 2l, of the odd half 8 * block + 2l + 1 */
  for (int32_t c = 0; c < channels; c++) {
    int32_t *blk = d->rq + (size_t)(c / 8) * 16;
    const int32_t slot = 4 * (c & 1) + ((c & 7) >> 1);
    blk[slot] = b[c], blk[8 + slot] = m[c];
  }
  *out = d;
  return true;
}
