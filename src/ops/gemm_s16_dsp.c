/* int16x8 matrix-vector work on the Cortex-M4 DSP tier: selection and constants. */
#include "gemm_s16_dsp.h"

#include "../resolve/quant.h"

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

/* int32 sums are exact when no partial sum of any row can leave int32: the int16
 * inputs are at most 2^15 in magnitude, so 2^15 * sum|w| must stay below 2^31. */
static bool gemm_s16_needs_acc64(const int8_t *w, int32_t rows, int32_t depth) {
  for (int32_t r = 0; r < rows; r++) {
    int64_t sum = 0;
    for (int32_t k = 0; k < depth; k++) {
      const int32_t v = w[(size_t)r * (size_t)depth + (size_t)k];
      sum += v < 0 ? -v : v;
    }
    if (sum * 32768 > INT32_MAX) return true;
  }
  return false;
}

/* TFLite's 16x8 requantisation: the multiplier reduced to 16 bits (rounded, saturated
 * at 0x7FFF) and a right shift t = 15 - shift, with rounding 2^(t-1); k folds the bias.
 * |bias| <= 2^47 and reduced <= 2^15 keep k inside int64. */
static bool gemm_s16_requant(const GemmS16Plan *g, const Tensor *bias, int32_t r, int32_t m, int32_t s) {
  const int32_t reduced = m < 0x7FFF0000 ? (int32_t)(((int64_t)m + (1 << 15)) >> 16) : 0x7FFF;
  const int32_t t = 15 - s;
  const int64_t b = bias ? const_i64(bias, r) : 0;
  if (t < 1 || t > 62 || b > ((int64_t)1 << 47) || b < -((int64_t)1 << 47)) return false;
  g->mult[r] = reduced, g->shift[r] = t;
  g->k[r] = b * reduced + ((int64_t)1 << (t - 1));
  return true;
}

bool gemm_s16_dsp_plan(Arena *arena, int32_t rows, int32_t depth, const int8_t *weights, const Tensor *bias,
                       const int32_t *mult, const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift,
                       int32_t act_min, int32_t act_max, GemmS16Plan **out) {
  *out = NULL;
  if (rows <= 0 || depth <= 0 || rows > (1 << 24) || depth > (1 << 24)) return true;
  if (bias && (bias->type != TT_INT64 || !bias->data || bias->elems != rows)) return true;
  GemmS16Plan *g = arena_calloc(arena, 1, sizeof *g);
  if (!g) return false;
  g->rows = rows, g->depth = depth, g->act_min = act_min, g->act_max = act_max;
  g->k = arena_calloc(arena, (size_t)rows, sizeof(int64_t));
  g->mult = arena_calloc(arena, (size_t)rows, sizeof(int32_t));
  g->shift = arena_calloc(arena, (size_t)rows, sizeof(int32_t));
  g->n_w32 = (size_t)rows * (size_t)((depth + 1) / 2);
  g->w32 = arena_calloc(arena, g->n_w32, sizeof(int32_t));
  if (!g->k || !g->mult || !g->shift || !g->w32) return false;
  for (int32_t r = 0; r < rows; r++)
    if (!gemm_s16_requant(g, bias, r, mult ? mult[r] : scalar_mult, shift ? shift[r] : scalar_shift)) return true;
  gemm_s16_relayout(weights, rows, depth, g->w32);
  g->acc64 = gemm_s16_needs_acc64(weights, rows, depth);
  *out = g;
  return true;
}

const char *gemm_s16_dsp_emit_params(EmitCtx *ec, const GemmS16Plan *g) {
  const char *name = em_op_name(ec);
  const char *k = em_table_i64(ec, "gemm16_k", g->k, (size_t)g->rows);
  const char *mult = em_table_i32(ec, "gemm16_mult", g->mult, (size_t)g->rows);
  const char *shift = em_table_i32(ec, "gemm16_shift", g->shift, (size_t)g->rows);
  em_decl(ec,
          "static const ta_gemm_s16_dsp_params_t %s_gemm16 = {\n  .rows = %d, .depth = %d,\n"
          "  .act_min = %d, .act_max = %d,\n  .k = %s, .mult = %s, .shift = %s,\n  .acc64 = %d,\n};",
          name, (int)g->rows, (int)g->depth, (int)g->act_min, (int)g->act_max, k, mult, shift, g->acc64 ? 1 : 0);
  return em_table_i32(ec, "gemm16_weights", g->w32, g->n_w32);
}
