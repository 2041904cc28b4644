/* Kernel tiers for int8 matrix-vector work: selection and compile-time constants. */
#include "gemm_tier.h"

#include <string.h>

/* Set to 0 to force the portable kernels everywhere (e.g. to bisect a mismatch). */
#define GEMM_TIERS_ENABLED 1

GemmTier gemm_tier_for(const Platform *platform) {
  if (!GEMM_TIERS_ENABLED || !platform) return GEMM_PORTABLE;
  if (platform->mve) return GEMM_MVE;
  if (platform->dsp) return GEMM_DSP;
  return GEMM_PORTABLE;
}

bool gemm_quant_supported(const int32_t *mult, const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift,
                          int32_t rows) {
  for (int32_t r = 0; r < rows; r++) {
    const int32_t m = mult ? mult[r] : scalar_mult;
    const int32_t s = shift ? shift[r] : scalar_shift;
    if (m < 0 || s < -31 || s > 30) return false;
  }
  return true;
}

const char *gemm_family(GemmTier tier) { return tier == GEMM_MVE ? "gemm_mve" : "gemm_dsp"; }
const char *gemm_suffix(GemmTier tier) { return tier == GEMM_MVE ? "mve" : "dsp"; }

/* DSP: rows in blocks of 4, then single rows; per block and group of 4 depth values
 * the rows' 4 weights in turn; the depth zero padded to a multiple of 4. */
static void gemm_dsp_relayout(const int8_t *w, int32_t rows, int32_t depth, int8_t *out) {
  const int32_t padded = (depth + 3) & ~3;
  const int32_t full = rows & ~3;
  for (int32_t r = 0; r < rows; r++) {
    const int32_t width = r < full ? 4 : 1; /* rows interleaved in this row's block */
    int8_t *block = out + (size_t)(r < full ? r & ~3 : r) * (size_t)padded;
    const int32_t slot = r < full ? (r & 3) : 0;
    const int8_t *row = w + (size_t)r * (size_t)depth;
    for (int32_t k = 0; k < depth; k++)
      block[(size_t)(k / 4) * 4 * (size_t)width + (size_t)slot * 4 + (size_t)(k % 4)] = row[k];
  }
}

/* Blocks of 4 rows (zero rows pad the last), each interleaving its rows per 16
 * values, the depth zero padded to a multiple of 16. */
static void gemm_mve_relayout(const int8_t *w, int32_t rows, int32_t depth, int8_t *out) {
  const int32_t padded = (depth + 15) & ~15;
  for (int32_t r = 0; r < rows; r++) {
    int8_t *block = out + (size_t)(r & ~3) * (size_t)padded;
    for (int32_t k = 0; k < depth; k++)
      block[(size_t)(k / 16) * 64 + (size_t)(r & 3) * 16 + (size_t)(k % 16)] = w[(size_t)r * (size_t)depth + (size_t)k];
  }
}

bool gemm_plan(Arena *arena, GemmTier tier, int32_t rows, int32_t depth, const int8_t *weights,
               const int32_t *bias, const int32_t *mult, const int32_t *shift, int32_t scalar_mult,
               int32_t scalar_shift, int32_t output_offset, int32_t act_min, int32_t act_max, GemmPlan *g) {
  memset(g, 0, sizeof *g);
  g->tier = tier;
  g->rows = rows, g->depth = depth, g->bias = bias;
  g->output_offset = output_offset, g->act_min = act_min, g->act_max = act_max;
  const size_t n = tier == GEMM_MVE ? (size_t)((rows + 3) & ~3) : (size_t)rows;
  g->per_channel = false;
  for (int32_t r = 1; r < rows; r++)
    if ((mult ? mult[r] : scalar_mult) != (mult ? mult[0] : scalar_mult) ||
        (shift ? shift[r] : scalar_shift) != (shift ? shift[0] : scalar_shift))
      g->per_channel = true;
  g->n_quant = g->per_channel ? n : tier == GEMM_MVE ? 4 : 1;
  g->mult = arena_calloc(arena, g->n_quant, sizeof(int32_t));
  g->shift = arena_calloc(arena, g->n_quant, sizeof(int32_t));
  if (!g->mult || !g->shift) return false;
  for (size_t i = 0; i < g->n_quant; i++) {
    const int32_t r = g->per_channel ? (int32_t)i : 0;
    if (r >= rows) break; /* padded rows: multiplier 0 */
    g->mult[i] = mult ? mult[r] : scalar_mult;
    g->shift[i] = shift ? shift[r] : scalar_shift;
  }
  if (tier == GEMM_MVE) {
    const size_t padded = (size_t)((depth + 15) & ~15);
    int32_t *padded_bias = arena_calloc(arena, n, sizeof(int32_t));
    g->w8 = arena_calloc(arena, n * padded, 1);
    if (!padded_bias || !g->w8) return false;
    memcpy(padded_bias, bias, sizeof(int32_t) * (size_t)rows);
    g->bias = padded_bias;
    g->n_bias = n;
    gemm_mve_relayout(weights, rows, depth, g->w8);
    return true;
  }
  g->n_bias = (size_t)rows;
  g->w8 = arena_calloc(arena, (size_t)rows * (size_t)((depth + 3) & ~3), 1);
  if (!g->w8) return false;
  gemm_dsp_relayout(weights, rows, depth, g->w8);
  return true;
}

const char *gemm_emit_params(EmitCtx *ec, const GemmPlan *g) {
  const char *name = em_op_name(ec);
  const char *bias = em_table_i32(ec, "gemm_bias", g->bias, g->n_bias);
  const char *mult = em_table_i32(ec, "gemm_mult", g->mult, g->n_quant);
  const char *shift = em_table_i32(ec, "gemm_shift", g->shift, g->n_quant);
  em_decl(ec,
          "static const ta_gemm_%s_params_t %s_gemm = {\n  .rows = %d, .depth = %d,\n"
          "  .output_offset = %d, .act_min = %d, .act_max = %d,\n"
          "  .bias = %s, .per_channel = %d, .mult = %s, .shift = %s,\n};",
          gemm_suffix(g->tier), name, (int)g->rows, (int)g->depth, (int)g->output_offset, (int)g->act_min,
          (int)g->act_max, bias, g->per_channel ? 1 : 0, mult, shift);
  if (g->tier == GEMM_MVE)
    return em_table_i8(ec, "gemm_weights", g->w8, (size_t)((g->rows + 3) & ~3) * (size_t)((g->depth + 15) & ~15));
  return em_table_i8(ec, "gemm_weights", g->w8, (size_t)g->rows * (size_t)((g->depth + 3) & ~3));
}
