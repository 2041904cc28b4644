/* The Cortex-M55 (MVE) tier of int8 matrix-vector work (FULLY_CONNECTED, CONV_2D): the
 * tables of ta_gemm_mve.h, its descriptor and the loops a CONV_2D links. */
#include <string.h>

#include "gemm_tier.h"
#include "../../../runtime/kernels/ta_gemm_mve_contract.h"

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

/* MVE: one table with, per block of 4 rows, the 4 folded biases, multipliers and
 * shifts (padded rows all 0), so that the kernel walks a single pointer. */
static bool gemm_mve_quant(Arena *arena, GemmPlan *g) {
  g->mve_quant = arena_calloc(arena, (size_t)((g->rows + 3) / 4) * 12, sizeof(int32_t));
  if (!g->mve_quant) return false;
  for (int32_t r = 0; r < g->rows; r++) {
    const size_t i = g->per_channel ? (size_t)r : 0;
    int32_t *q = g->mve_quant + (size_t)(r / 4) * 12 + (size_t)(r % 4);
    q[0] = g->bias[r], q[4] = g->mult[i], q[8] = g->shift[i];
    if (g->shift[i] > 0) g->mve_left_shift = true;
  }
  return true;
}

bool gemm_mve_plan(Arena *arena, GemmPlan *g, const int8_t *weights) {
  const int32_t rows = g->rows, depth = g->depth;
  const int32_t *bias = g->bias;
  const size_t n = (size_t)((rows + 3) & ~3);
  const size_t padded = (size_t)((depth + 15) & ~15);
  int32_t *padded_bias = arena_calloc(arena, n, sizeof(int32_t));
  g->w8 = arena_calloc(arena, n * padded, 1);
  if (!padded_bias || !g->w8) return false;
  memcpy(padded_bias, bias, sizeof(int32_t) * (size_t)rows);
  g->bias = padded_bias;
  g->n_bias = n;
  gemm_mve_relayout(weights, rows, depth, g->w8);
  return gemm_mve_quant(arena, g);
}

/* MVE: the flags let the kernel drop the left shift and the negative-tie fix when
 * the layer needs neither. */
const char *gemm_mve_emit_params(EmitCtx *ec, const GemmPlan *g, const char *name) {
  const size_t blocks = (size_t)((g->rows + 3) / 4);
  const char *table = em_table_i32_from(ec, "gemm_quant", EM_FROM_BIAS, g->mve_quant, blocks * 12);
  const int left = g->mve_left_shift ? 1 : 0, fix = g->act_min < g->output_offset ? 1 : 0;
  /* ta_gemm_s8_mve's mode (from TA_GEMM_MVE_FC_BIT); a CONV_2D also names its own (gemm_emit_conv_variants).
   * Harmless for a convolution: ta_gemm_s8_mve is only linked when a layer calls it. */
  em_kernel_variants(ec, "TA_GEMM_MVE_VARIANTS", TA_GEMM_MVE_MASK(TA_GEMM_MVE_MODE(TA_GEMM_MVE_FC_BIT, left, fix)));
  em_decl(ec,
          "static const ta_gemm_mve_params_t %s_gemm = {\n  .rows = %d, .depth = %d,\n"
          "  .output_offset = %d, .act_min = %d, .act_max = %d,\n"
          "  .quant = %s,\n  .left_shift = %d, .negative_fix = %d,\n};",
          name, (int)g->rows, (int)g->depth, (int)g->output_offset, (int)g->act_min, (int)g->act_max, table, left,
          fix);
  return em_table_i8_from(ec, "gemm_weights", EM_FROM_WEIGHTS, g->w8, blocks * 4 * (size_t)((g->depth + 15) & ~15));
}

void gemm_emit_conv_variants(EmitCtx *ec, const GemmPlan *g, int64_t window_span, int32_t seg_chunks, int32_t segs) {
  /* ta_conv_s8_mve may read windows of n <= 4 chunks through byte offsets (TA_GEMM_MVE_XR_BIT + n),
   * and those inside the image that span more than 256 bytes through 16-bit ones (_XW_BIT + n). */
  const int32_t chunks = (g->depth + 15) / 16;
  if (g->tier == GEMM_MVE) /* ta_conv_s8_mve's requantisation mode */
    em_kernel_variants(ec, "TA_GEMM_MVE_VARIANTS",
                       TA_GEMM_MVE_MASK(TA_GEMM_MVE_MODE(TA_GEMM_MVE_CONV_BIT, g->mve_left_shift ? 1 : 0,
                                                         g->act_min < g->output_offset ? 1 : 0)));
  /* windows read in place two at a time (more than 4 chunks) in segments of a multiple of
   * 3 chunks: the loops unrolled by 3 (TA_GEMM_MVE_TRIPLE_BIT) */
  /* the pair runs in assembly (TA_GEMM_MVE_RUN_BIT + run, rows a multiple of 4): 3 segments of exactly 3
   * chunks, 3 segments of a multiple of 3 chunks, 1x1 windows of a multiple of 4 chunks (those
   * rather than byte offsets), windows of 3 chunks gathered through offsets; the first two
   * replace the unrolled loops */
  int run = -1;
  if (g->tier == GEMM_MVE && g->rows % 4 == 0 && seg_chunks > 0) {
    if (window_span > 0 && chunks > 4 && segs == 3)
      run = seg_chunks == 3 ? TA_GEMM_MVE_RUN_S3C3 : seg_chunks % 3 == 0 ? TA_GEMM_MVE_RUN_S3L3 : -1;
    else if (window_span == 0 && segs == 1 && seg_chunks % 4 == 0)
      run = TA_GEMM_MVE_RUN_S1L4;
  }
  if (run < 0 && g->tier == GEMM_MVE && g->rows % 4 == 0 && chunks == 3 && window_span <= TA_GEMM_MVE_XW_MAX_SPAN)
    run = TA_GEMM_MVE_RUN_S1C3; /* windows of 3 chunks gathered through offsets into a buffer, two at a time */
  if (run >= 0) em_kernel_variants(ec, "TA_GEMM_MVE_VARIANTS", TA_GEMM_MVE_MASK(TA_GEMM_MVE_RUN_BIT + run));
  if (g->tier == GEMM_MVE && run < 0 && chunks > 4 && seg_chunks > 0 && seg_chunks % 3 == 0)
    em_kernel_variants(ec, "TA_GEMM_MVE_VARIANTS", TA_GEMM_MVE_MASK(TA_GEMM_MVE_TRIPLE_BIT));
  if (run == TA_GEMM_MVE_RUN_S1L4) return; /* no byte-offset loop */
  if (g->tier == GEMM_MVE && chunks >= 1 && chunks <= TA_GEMM_MVE_XR_MAX) {
    em_kernel_variants(ec, "TA_GEMM_MVE_VARIANTS", TA_GEMM_MVE_MASK(TA_GEMM_MVE_XR_BIT + chunks));
    /* up to 2 chunks through byte offsets: two windows per weight load (TA_GEMM_MVE_X2_BIT + chunks - 1);
     * not for 1x1 layers (vww's 8-channel one would gain 93 k instructions for 1.3 KB of code,
     * which its budget lacks) */
    if (chunks <= TA_GEMM_MVE_X2_MAX && window_span > 0 && window_span <= TA_GEMM_MVE_XR_MAX_SPAN)
      em_kernel_variants(ec, "TA_GEMM_MVE_VARIANTS", TA_GEMM_MVE_MASK(TA_GEMM_MVE_X2_BIT + chunks - 1));
    if (window_span > TA_GEMM_MVE_XR_MAX_SPAN && window_span <= TA_GEMM_MVE_XW_MAX_SPAN)
      em_kernel_variants(ec, "TA_GEMM_MVE_VARIANTS", TA_GEMM_MVE_MASK(TA_GEMM_MVE_XW_BIT + chunks));
  }
}
