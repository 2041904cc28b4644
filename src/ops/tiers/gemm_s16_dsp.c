/* int16x8 matrix-vector work on the Cortex-M4 DSP tier: selection and constants. */
#include "gemm_s16_dsp.h"

#include <string.h>

#include "../../ir/quant.h"
#include "../../../runtime/kernels/ta_s16_dsp_contract.h"

/* Set to 0 to keep the portable int16x8 kernels (e.g. to bisect a mismatch). */
#define GEMM_S16_DSP_ENABLED 1

bool gemm_s16_dsp_available(const Platform *platform) {
  return GEMM_S16_DSP_ENABLED && platform && platform->dsp && !platform->mve;
}

/* Rows in blocks of 4 (then single rows); per block and pair of depth values the 4
 * rows' words w0 | w1 << 16 (the pair SMLAD multiplies with x0 | x1 << 16); an odd
 * depth's last pair has a zero high half. */
static void gemm_s16_relayout(const int8_t *w, int32_t rows, int32_t depth, int32_t *out) {
  const int32_t pairs = (depth + 1) / 2, full = rows & ~3;
  for (int32_t r = 0; r < rows; r++) {
    const int32_t width = r < full ? 4 : 1;
    int32_t *block = out + (size_t)(r < full ? r & ~3 : r) * (size_t)pairs;
    const int32_t slot = r < full ? (r & 3) : 0;
    const int8_t *row = w + (size_t)r * (size_t)depth;
    for (int32_t p = 0; p < pairs; p++) {
      const int32_t lo = row[2 * p], hi = 2 * p + 1 < depth ? row[2 * p + 1] : 0;
      block[(size_t)p * (size_t)width + (size_t)slot] = (int32_t)(((uint32_t)lo & 0xFFFFu) | ((uint32_t)hi << 16));
    }
  }
}

/* TFLite's 16x8 requantisation of one channel: the multiplier reduced to 16 bits
 * (rounded, saturated at 0x7FFF), a right shift t = 15 - shift with rounding 2^(t-1), and
 * the bias folded into k. |bias| <= 2^47 and reduced <= 2^15 keep k inside int64. */
static bool s16_requant_row(S16Requant *q, const Tensor *bias, int32_t r, int32_t m, int32_t s, int32_t *t) {
  const int32_t reduced = m < 0x7FFF0000 ? (int32_t)(((int64_t)m + (1 << 15)) >> 16) : 0x7FFF;
  const int64_t b = bias ? const_i64(bias, r) : 0;
  *t = 15 - s;
  if (*t < 1 || *t > 62 || b > ((int64_t)1 << 47) || b < -((int64_t)1 << 47)) return false;
  q->mult[r] = reduced;
  q->k[r] = b * reduced + ((int64_t)1 << (*t - 1));
  return true;
}

/* Whether channel r can take the high-word form: for t < 32, k and the multiplier
 * scaled by 2^(32-t) with the multiplier inside int32 and every v = k + dot * mult
 * inside int64, bounded by (|bias| + 2^15 * sum|w|) * |reduced| + 2^(t-1). Then
 * floor(v * 2^(32-t) / 2^32) = floor(v / 2^t): the same integer. */
static bool s16_hi_fits(const S16Requant *q, const Tensor *bias, int32_t r, int32_t t, int64_t abs_sum) {
  if (t >= 32) return true;
  const int64_t m = q->mult[r] < 0 ? -(int64_t)q->mult[r] : q->mult[r];
  if ((m << (32 - t)) > INT32_MAX) return false;
  const int64_t b = bias ? const_i64(bias, r) : 0;
  const uint64_t a = (uint64_t)(b < 0 ? -b : b) + (uint64_t)abs_sum * 32768u; /* <= 2^47 + 2^46 */
  const uint64_t v = a * (uint64_t)m + ((uint64_t)1 << (t - 1));           /* m <= 2^15: < 2^63 */
  return v < ((uint64_t)1 << (31 + t));
}

bool s16_requant_plan(Arena *arena, int32_t rows, const Tensor *bias, const int32_t *mult, const int32_t *shift,
                      int32_t scalar_mult, int32_t scalar_shift, const int64_t *abs_sums, int32_t act_min,
                      int32_t act_max, S16Requant *q, bool *ok) {
  *ok = false;
  if (bias && (bias->type != TT_INT64 || !bias->data || bias->elems != rows)) return true;
  q->rows = rows, q->act_min = act_min, q->act_max = act_max;
  q->k = arena_calloc(arena, (size_t)rows, sizeof(int64_t));
  q->mult = arena_calloc(arena, (size_t)rows, sizeof(int32_t));
  q->shift = arena_calloc(arena, (size_t)rows, sizeof(int32_t));
  q->rq = arena_calloc(arena, (size_t)rows * 4, sizeof(int32_t));
  int32_t *t = arena_calloc(arena, (size_t)rows, sizeof(int32_t));
  if (!q->k || !q->mult || !q->shift || !q->rq || !t) return false;
  q->acc64 = false, q->hi = true;
  for (int32_t r = 0; r < rows; r++) {
    if (!s16_requant_row(q, bias, r, mult ? mult[r] : scalar_mult, shift ? shift[r] : scalar_shift, &t[r]))
      return true;
    /* int32 sums are exact when no partial sum can leave int32: |x| <= 2^15 */
    if (abs_sums[r] * 32768 > INT32_MAX) q->acc64 = true;
    if (!s16_hi_fits(q, bias, r, t[r], abs_sums[r])) q->hi = false;
  }
  if (q->acc64) q->hi = false;
  for (int32_t r = 0; r < rows; r++) {
    q->shift[r] = q->hi ? (t[r] > 32 ? t[r] - 32 : 0) : t[r];
    if (q->hi && t[r] < 32) {
      q->mult[r] = (int32_t)((int64_t)q->mult[r] * ((int64_t)1 << (32 - t[r])));
      q->k[r] = (int64_t)((uint64_t)q->k[r] << (32 - t[r])); /* exact: |k| < 2^(31+t) */
    }
    q->rq[4 * r] = (int32_t)(uint32_t)((uint64_t)q->k[r] & 0xFFFFFFFFu);
    q->rq[4 * r + 1] = (int32_t)(q->k[r] >> 32);
    q->rq[4 * r + 2] = q->mult[r];
    q->rq[4 * r + 3] = q->shift[r];
  }
  *ok = true;
  return true;
}

/* The clamp as one saturation where the range allows (ta_s16_dsp_requant_t.sat). */
static int s16_requant_sat(const S16Requant *q) {
  return q->act_min == -32768 && q->act_max == 32767 ? 1 : q->act_min == 0 && q->act_max == 32767 ? 2 : 0;
}

/* The high-word form with every shift 0 is form 2: the result is the high word itself. */
static int s16_requant_form(const S16Requant *q) {
  int form = q->hi ? 2 : 0;
  for (int32_t r = 0; r < q->rows && form == 2; r++)
    if (q->shift[r] != 0) form = 1;
  return form;
}

const char *s16_requant_emit(EmitCtx *ec, const S16Requant *q, unsigned bit0) {
  const char *table = em_table_i32(ec, "rq16", q->rq, (size_t)q->rows * 4);
  const int sat = s16_requant_sat(q), form = s16_requant_form(q);
  em_kernel_variants(ec, "TA_S16_DSP_VARIANTS",
                     TA_S16_DSP_MASK(TA_S16_DSP_BIT_RQ(bit0, (unsigned)form, (unsigned)sat)));
  return em_name(ec, "{ .rq = %s, .hi = %d, .act_min = %d, .act_max = %d, .sat = %d }", table, form,
                 (int)q->act_min, (int)q->act_max, sat);
}

/* Depth 8 in the high-word form with a one-instruction clamp: the kernel's stream, per row
 * its 4 weight words then k low, k high, mult, shift (ta_gemm_s16_dsp_params_t.stream);
 * g->stream stays NULL otherwise. False only when out of memory. */
static bool gemm_s16_plan_stream(Arena *arena, GemmS16Plan *g) {
  if (g->depth != 8 || !g->q.hi || s16_requant_sat(&g->q) == 0) return true;
  g->stream = arena_calloc(arena, (size_t)g->rows * 8, sizeof(int32_t));
  if (!g->stream) return false;
  const int32_t full = g->rows & ~3;
  for (int32_t r = 0; r < g->rows; r++) {
    /* the row's 4 pairs in gemm_s16_relayout's order: blocks of 4 rows, then single rows */
    const int32_t *block = g->w32 + (size_t)(r < full ? r & ~3 : r) * 4;
    const int32_t width = r < full ? 4 : 1, slot = r < full ? (r & 3) : 0;
    for (int32_t p = 0; p < 4; p++) g->stream[8 * r + p] = block[p * width + slot];
    for (int32_t i = 0; i < 4; i++) g->stream[8 * r + 4 + i] = g->q.rq[4 * r + i];
  }
  return true;
}

bool gemm_s16_dsp_plan(Arena *arena, int32_t rows, int32_t depth, const int8_t *weights, const Tensor *bias,
                       const int32_t *mult, const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift,
                       int32_t act_min, int32_t act_max, GemmS16Plan **out) {
  *out = NULL;
  if (rows <= 0 || depth <= 0 || rows > (1 << 24) || depth > (1 << 24)) return true;
  GemmS16Plan *g = arena_calloc(arena, 1, sizeof *g);
  int64_t *sums = arena_calloc(arena, (size_t)rows, sizeof(int64_t));
  if (!g || !sums) return false;
  for (int32_t r = 0; r < rows; r++)
    for (int32_t k = 0; k < depth; k++) {
      const int32_t v = weights[(size_t)r * (size_t)depth + (size_t)k];
      sums[r] += v < 0 ? -v : v;
    }
  bool ok;
  if (!s16_requant_plan(arena, rows, bias, mult, shift, scalar_mult, scalar_shift, sums, act_min, act_max, &g->q, &ok))
    return false;
  if (!ok) return true;
  g->rows = rows, g->depth = depth;
  g->n_w32 = (size_t)rows * (size_t)((depth + 1) / 2);
  g->w32 = arena_calloc(arena, g->n_w32, sizeof(int32_t));
  if (!g->w32) return false;
  gemm_s16_relayout(weights, rows, depth, g->w32);
  if (!gemm_s16_plan_stream(arena, g)) return false;
  *out = g;
  return true;
}

bool gemm_s16_dsp_pad_depth(Arena *arena, GemmS16Plan *g, const int8_t *weights) {
  const int32_t padded = (g->depth + 7) & ~7;
  if (padded == g->depth || !g->q.hi || s16_requant_sat(&g->q) == 0 || padded > (1 << 24)) return true;
  int8_t *w = arena_calloc(arena, (size_t)g->rows * (size_t)padded, 1);
  int32_t *w32 = arena_calloc(arena, (size_t)g->rows * (size_t)(padded / 2), sizeof(int32_t));
  if (!w || !w32) return false;
  for (int32_t r = 0; r < g->rows; r++)
    memcpy(w + (size_t)r * (size_t)padded, weights + (size_t)r * (size_t)g->depth, (size_t)g->depth);
  g->depth = padded;
  g->w32 = w32;
  g->n_w32 = (size_t)g->rows * (size_t)(padded / 2);
  gemm_s16_relayout(w, g->rows, padded, g->w32);
  return g->stream || gemm_s16_plan_stream(arena, g);
}

void gemm_s16_dsp_emit_window(EmitCtx *ec, const GemmS16Plan *g, int32_t k_h, int32_t k_w, int32_t in_c,
                              int32_t dil_w) {
  const int64_t seg = (int64_t)k_w * in_c;
  if (dil_w == 1 && (g->rows & 3) == 0 && g->q.hi && !g->q.acc64 && s16_requant_sat(&g->q) != 0 && seg % 8 == 0 &&
      (int64_t)k_h * seg == g->depth)
    em_kernel_variants(ec, "TA_S16_DSP_VARIANTS",
                       TA_S16_DSP_MASK(TA_S16_DSP_BIT_WINDOW) |
                           TA_S16_DSP_MASK(seg % 16 == 0 ? TA_S16_DSP_BIT_U16 : TA_S16_DSP_BIT_U8));
}

const char *gemm_s16_dsp_emit_params(EmitCtx *ec, const GemmS16Plan *g) {
  const char *name = em_op_name(ec);
  const char *q = s16_requant_emit(ec, &g->q, TA_S16_DSP_GEMM_BASE);
  const char *stream = "0";
  /* the blocks at 16 values per loop iteration, else 8 */
  if (!g->stream && g->rows >= 4 && g->q.hi && !g->q.acc64 && s16_requant_sat(&g->q) != 0 && g->depth % 8 == 0)
    em_kernel_variants(ec, "TA_S16_DSP_VARIANTS",
                       TA_S16_DSP_MASK(g->depth % 16 == 0 ? TA_S16_DSP_BIT_U16 : TA_S16_DSP_BIT_U8));
  if (g->stream) {
    em_kernel_variants(ec, "TA_S16_DSP_VARIANTS", TA_S16_DSP_MASK(TA_S16_DSP_BIT_STREAM));
    stream = em_table_i32(ec, "gemm16_stream", g->stream, (size_t)g->rows * 8);
  }
  em_decl(ec,
          "static const ta_gemm_s16_dsp_params_t %s_gemm16 = {\n  .rows = %d, .depth = %d,\n  .q = %s,\n"
          "  .acc64 = %d,\n  .stream = %s,\n};",
          name, (int)g->rows, (int)g->depth, q, g->q.acc64 ? 1 : 0, stream);
  return em_table_i32_from(ec, "gemm16_weights", EM_FROM_WEIGHTS, g->w32, g->n_w32);
}

bool dw_s16_dsp_plan(Arena *arena, int32_t channels, int32_t taps, const int8_t *filter, const Tensor *bias,
                     const int32_t *mult, const int32_t *shift, int32_t act_min, int32_t act_max, DwS16Plan **out) {
  *out = NULL;
  if (channels <= 0 || (channels & 1) || taps <= 0 || channels > (1 << 24) || taps > (1 << 16)) return true;
  DwS16Plan *d = arena_calloc(arena, 1, sizeof *d);
  int64_t *sums = arena_calloc(arena, (size_t)channels, sizeof(int64_t));
  if (!d || !sums) return false;
  for (int32_t t = 0; t < taps; t++)
    for (int32_t c = 0; c < channels; c++) {
      const int32_t v = filter[(size_t)t * (size_t)channels + (size_t)c];
      sums[c] += v < 0 ? -v : v;
    }
  bool ok;
  if (!s16_requant_plan(arena, channels, bias, mult, shift, 0, 0, sums, act_min, act_max, &d->q, &ok)) return false;
  if (!ok || d->q.acc64) return true; /* the kernel sums in int32 only */
  d->n_w32 = (size_t)taps * (size_t)(channels / 2);
  d->w32 = arena_calloc(arena, d->n_w32, sizeof(int32_t));
  if (!d->w32) return false;
  /* ta_depthwise_conv_s16_dsp.h's order: per group of 4 channels, per tap, two words;
   * then per tap the last pair's word */
  const int32_t full = channels & ~3;
  for (int32_t c = 0; c < channels; c += 2) {
    const int32_t width = c < full ? 2 : 1, first = c < full ? (c & ~3) : c;
    for (int32_t t = 0; t < taps; t++) {
      const int8_t *f = filter + (size_t)t * (size_t)channels + (size_t)c;
      const size_t at = (size_t)first * (size_t)taps / 2 + (size_t)t * (size_t)width + (size_t)((c - first) >> 1);
      d->w32[at] = (int32_t)(((uint32_t)f[0] & 0xFFFFu) | ((uint32_t)f[1] << 16));
    }
  }
  *out = d;
  return true;
}
