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
  if (tier == GEMM_MVE) return gemm_mve_plan(arena, g, weights);
  return gemm_dsp_plan(arena, g, weights);
}

const char *gemm_emit_params(EmitCtx *ec, const GemmPlan *g) {
  const char *name = em_op_name(ec);
  if (g->tier == GEMM_MVE) return gemm_mve_emit_params(ec, g, name);
  const char *bias = g->pairs || g->fcs ? "NULL" : em_table_i32_from(ec, "gemm_bias", EM_FROM_BIAS, g->bias, g->n_bias);
  /* the stream's kernel reads only its rq words */
  const char *mult = g->fcs ? "NULL" : em_table_i32(ec, "gemm_mult", g->mult, g->n_quant);
  const char *shift = g->fcs ? "NULL" : em_table_i32(ec, "gemm_shift", g->shift, g->n_quant);
  if (g->tier == GEMM_DSP) return gemm_dsp_emit_params(ec, g, name, bias, mult, shift);
  em_decl(ec,
          "static const ta_gemm_%s_params_t %s_gemm = {\n  .rows = %d, .depth = %d,\n"
          "  .output_offset = %d, .act_min = %d, .act_max = %d,\n"
          "  .bias = %s, .per_channel = %d, .mult = %s, .shift = %s,\n};",
          gemm_suffix(g->tier), name, (int)g->rows, (int)g->depth, (int)g->output_offset, (int)g->act_min,
          (int)g->act_max, bias, g->per_channel ? 1 : 0, mult, shift);
  return em_table_i8_from(ec, "gemm_weights", EM_FROM_WEIGHTS, g->w8,
                          (size_t)((g->rows + 3) & ~3) * (size_t)((g->depth + 15) & ~15));
}
