/* The Cortex-M4 (DSP) tier of int8 matrix-vector work (FULLY_CONNECTED, CONV_2D): the
 * tables of ta_gemm_dsp.h and its descriptor. */
#include <stdlib.h>
#include <string.h>

#include "gemm_tier.h"
#include "../../../runtime/kernels/ta_gemm_dsp_contract.h"

/* DSP: rows in blocks of 4, then single rows; per block and group of 4 depth values
 * each row's two words (w0 | w2 << 16) and (w1 | w3 << 16), the pairs SXTB16 makes of
 * 4 input bytes; the depth zero padded to a multiple of 4. */
static void gemm_dsp_relayout(const int8_t *w, int32_t rows, int32_t depth, int32_t *out) {
  const int32_t groups = (depth + 3) / 4;
  const int32_t full = rows & ~3;
  for (int32_t r = 0; r < rows; r++) {
    const int32_t width = r < full ? 4 : 1; /* rows interleaved in this row's block */
    int32_t *block = out + (size_t)(r < full ? r & ~3 : r) * (size_t)groups * 2;
    const int32_t slot = r < full ? (r & 3) : 0;
    const int8_t *row = w + (size_t)r * (size_t)depth;
    for (int32_t g = 0; g < groups; g++) {
      int32_t v[4] = {0, 0, 0, 0};
      for (int32_t k = 0; k < 4 && 4 * g + k < depth; k++) v[k] = row[4 * g + k];
      int32_t *dst = block + (size_t)g * 2 * (size_t)width + (size_t)slot * 2;
      dst[0] = (int32_t)(((uint32_t)v[0] & 0xFFFFu) | ((uint32_t)v[2] << 16));
      dst[1] = (int32_t)(((uint32_t)v[1] & 0xFFFFu) | ((uint32_t)v[3] << 16));
    }
  }
}

/* DSP requantisation constants per row (ta_gemm_dsp.h): multiplier m, the 64-bit
 * K = 2^30 + 2^(30+r) + zero_point * 2^(31+r) as low and high words, and r - 1, for a
 * right shift r = -shift >= 1. When some r - 1 > 22 the zero point term could push K
 * and the sum out of int64 (or the high word out of int32): K then leaves it out and
 * g->rq_zp has the kernel add it. |acc * m| < 2^62 and K <= 2^61 + 2^30 always fit.
 * A row with multiplier 0 gives 0 + zero_point whatever its shift: it takes r = 1. Other
 * left shifts keep the generic requantisation: NULL. */
static int32_t gemm_dsp_right_shift(const GemmPlan *g, int32_t row) {
  const int32_t i = g->per_channel ? row : 0;
  return g->mult[i] == 0 ? 1 : -g->shift[i];
}

static int32_t *gemm_dsp_requant(Arena *arena, GemmPlan *g) {
  bool fold = true;
  for (int32_t r = 0; r < g->rows; r++) {
    const int32_t right = gemm_dsp_right_shift(g, r);
    if (right < 1) return NULL;
    if (right - 1 > 22) fold = false;
  }
  int32_t *rq = arena_calloc(arena, (size_t)g->rows * 4, sizeof(int32_t));
  if (!rq) return NULL;
  g->rq_zp = fold ? 0 : g->output_offset;
  for (int32_t r = 0; r < g->rows; r++) {
    const int32_t i = g->per_channel ? r : 0;
    const int32_t right = gemm_dsp_right_shift(g, r);
    const int64_t zp_term = fold ? (int64_t)g->output_offset * ((int64_t)1 << (31 + right)) : 0;
    const int64_t k = ((int64_t)1 << 30) + ((int64_t)1 << (30 + right)) + zp_term;
    rq[4 * r] = g->mult[i];
    rq[4 * r + 1] = (int32_t)(uint32_t)((uint64_t)k & 0xFFFFFFFFu);
    rq[4 * r + 2] = (int32_t)(k >> 32);
    rq[4 * r + 3] = right - 1;
  }
  return rq;
}

/* DSP depth 8 (ta_gemm_dsp.h k8): per row the folded bias, its 4 weight words and its 4
 * rq words, one stream the kernel walks with the 8 input values in registers. */
static int32_t *gemm_dsp_k8(Arena *arena, const GemmPlan *g, const int8_t *w) {
  if (g->depth != 8 || !g->rq || g->neg_fix != 0 || g->rq_zp != 0 || !g->sat8) return NULL;
  int32_t *k8 = arena_calloc(arena, (size_t)g->rows * 9, sizeof(int32_t));
  if (!k8) return NULL;
  for (int32_t r = 0; r < g->rows; r++) {
    const int8_t *v = w + (size_t)r * 8;
    int32_t *dst = k8 + (size_t)r * 9;
    dst[0] = g->bias[r];
    for (int32_t k = 0; k < 2; k++) {
      dst[1 + 2 * k] = (int32_t)(((uint32_t)v[4 * k] & 0xFFFFu) | ((uint32_t)v[4 * k + 2] << 16));
      dst[2 + 2 * k] = (int32_t)(((uint32_t)v[4 * k + 1] & 0xFFFFu) | ((uint32_t)v[4 * k + 3] << 16));
    }
    memcpy(dst + 5, g->rq + 4 * (size_t)r, 4 * sizeof(int32_t));
  }
  return k8;
}

/* The deepest layer the DSP pair loop unpacks on its stack (ta_gemm_dsp.c GEMM_PAIR_MAX_GROUPS). */
#define GEMM_DSP_PAIR_MAX_DEPTH (4 * TA_GEMM_DSP_PAIR_MAX_GROUPS)

/* The pair loop computes 8 SMLADs per 2 LDMs (the block loop 8 per 3) from 2 pixels
 * unpacked side by side; it keeps only rq's requantisation with an int8 clamp and no
 * negative-rounding fix (the zero point folded or added after the shift). Depth 40 (strww's
 * 40-channel 1x1 layer) has a loop of its own (TA_GEMM_DSP_BIT_FIRST_ROWS, shared with ta_conv_s8_dsp_first). */
static bool gemm_dsp_pairs_fit(const GemmPlan *g) {
  return g->tier == GEMM_DSP && !g->dsp_unpacked && g->rq && g->sat8 && g->neg_fix == 0 &&
         g->rows % 2 == 0 && (g->depth % 16 == 0 || (g->depth == 40 && g->rq_zp == 0)) && g->depth >= 16 &&
         g->depth <= GEMM_DSP_PAIR_MAX_DEPTH;
}

/* The column form (ta_conv_s8_dsp_cols_pairs) interleaves its pairs in scratch, so any
 * depth; its strip loops have the negative-rounding fix, and the zero point folded. */
static bool gemm_dsp_cols_pairs_fit(const GemmPlan *g) {
  return g->tier == GEMM_DSP && g->dsp_unpacked && g->rq && g->sat8 && g->rq_zp == 0 &&
         g->rows % 2 == 0 && g->depth % 16 == 0 && g->depth >= 16;
}

/* Per pair of rows: both biases twice (one LDM starts both vectors' accumulators), per group of 4 values both rows' SXTB16-ordered words, both
 * rows' rq words. */
bool gemm_dsp_use_pairs(Arena *arena, GemmPlan *g, const int8_t *weights, int32_t w_depth) {
  if (!(g->dsp_unpacked ? gemm_dsp_cols_pairs_fit(g) : gemm_dsp_pairs_fit(g))) return true;
  return gemm_dsp_pair_stream(arena, g, weights, w_depth);
}

/* Rows are w_depth values apart in `weights` (not g->depth: a gathered window's depth is
 * padded to whole groups after gemm_plan, issue 29); the values past w_depth are zero. */
bool gemm_dsp_pair_stream(Arena *arena, GemmPlan *g, const int8_t *weights, int32_t w_depth) {
  if (w_depth <= 0 || w_depth > g->depth) return false;
  const int32_t groups = g->depth / 4, per_pair = 4 + 4 * groups + 8;
  int32_t *s = arena_calloc(arena, (size_t)(g->rows / 2) * (size_t)per_pair, sizeof(int32_t));
  if (!s) return false;
  for (int32_t r = 0; r < g->rows; r += 2) {
    int32_t *dst = s + (size_t)(r / 2) * (size_t)per_pair;
    dst[0] = dst[2] = g->bias[r], dst[1] = dst[3] = g->bias[r + 1];
    for (int32_t k = 0; k < 2; k++) {
      const int8_t *v = weights + (size_t)(r + k) * (size_t)w_depth;
      for (int32_t q = 0; q < groups; q++) {
        int32_t x[4] = {0, 0, 0, 0};
        for (int32_t j = 0; j < 4 && 4 * q + j < w_depth; j++) x[j] = v[4 * q + j];
        dst[4 + 4 * q + 2 * k] = (int32_t)(((uint32_t)x[0] & 0xFFFFu) | ((uint32_t)x[2] << 16));
        dst[5 + 4 * q + 2 * k] = (int32_t)(((uint32_t)x[1] & 0xFFFFu) | ((uint32_t)x[3] << 16));
      }
      memcpy(dst + 4 + 4 * groups + 4 * k, g->rq + 4 * (size_t)(r + k), 4 * sizeof(int32_t));
    }
  }
  g->pairs = s;
  g->n_pairs = (size_t)(g->rows / 2) * (size_t)per_pair;
  return true;
}

/* The deepest input the DSP stream loop unpacks on its stack (ta_gemm_dsp.c: 4 *
 * GEMM_UNPACK_MAX_GROUPS values). */
#define GEMM_DSP_FCS_MAX_DEPTH (4 * TA_GEMM_DSP_UNPACK_MAX_GROUPS)

/* The stream loop keeps 4 accumulators, 4 input words and 4 weight words in registers (16
 * SMLADs per 5 loads, the block loop 8 per 3) in passes of 128 values, and rq's
 * requantisation with an int8 clamp and the zero point folded. Its accumulators are doubled
 * (weights and biases times 2: still int16 halves), which must fit in int32 whatever the
 * input: |bias| + 128 * sum |w| < 2^30 per row. */
static bool gemm_dsp_fcs_fit(const GemmPlan *g, const int8_t *weights) {
  if (g->tier != GEMM_DSP || !g->rq || !g->sat8 || g->rq_zp != 0 || g->k8 || g->rows % 4 != 0 ||
      g->depth % 128 != 0 || g->depth > GEMM_DSP_FCS_MAX_DEPTH)
    return false;
  for (int32_t r = 0; r < g->rows; r++) {
    int64_t bound = g->bias[r] < 0 ? -(int64_t)g->bias[r] : g->bias[r];
    for (int32_t k = 0; k < g->depth; k++) bound += 128 * (int64_t)abs(weights[(size_t)r * (size_t)g->depth + (size_t)k]);
    if (bound >= ((int64_t)1 << 30)) return false;
  }
  return true;
}

/* Per block of 4 rows: the 4 doubled biases, per group of 4 values the 4 rows' doubled
 * SXTB16-ordered words, the 4 rows' {m, 2K's high word, r} (K and r - 1 from rq; with the zero
 * point folded, 2K = 2^31 + 2^(31+r) + zp 2^(32+r) has the low word 2^31 for every r >= 1,
 * which the kernel's SMMLAR rounding adds). */
bool gemm_dsp_use_fcs(Arena *arena, GemmPlan *g, const int8_t *weights) {
  if (!gemm_dsp_fcs_fit(g, weights)) return true;
  const int32_t groups = g->depth / 4, per_block = 4 + 8 * groups + 12;
  for (int32_t r = 0; r < g->rows; r++) /* rq's low word of K: 2^30 (r >= 2), 2^30 + 2^31 (r = 1) */
    if (((uint32_t)g->rq[4 * (size_t)r + 1] & 0x7FFFFFFFu) != 0x40000000u) return true;
  int32_t *s = arena_calloc(arena, (size_t)(g->rows / 4) * (size_t)per_block, sizeof(int32_t));
  if (!s) return false;
  for (int32_t r = 0; r < g->rows; r++) {
    int32_t *dst = s + (size_t)(r / 4) * (size_t)per_block, *q = dst + 4 + 8 * groups + 3 * (r % 4);
    const int8_t *v = weights + (size_t)r * (size_t)g->depth;
    const int32_t *rq = g->rq + 4 * (size_t)r;
    dst[r % 4] = 2 * g->bias[r];
    for (int32_t k = 0; k < groups; k++) {
      const int8_t *x = v + 4 * k;
      int32_t *w = dst + 4 + 8 * k + 2 * (r % 4);
      w[0] = (int32_t)(((uint32_t)(2 * x[0]) & 0xFFFFu) | ((uint32_t)(2 * x[2]) << 16));
      w[1] = (int32_t)(((uint32_t)(2 * x[1]) & 0xFFFFu) | ((uint32_t)(2 * x[3]) << 16));
    }
    const uint64_t k2 = (((uint64_t)(uint32_t)rq[2] << 32) | (uint32_t)rq[1]) << 1;
    q[0] = rq[0];
    q[1] = (int32_t)(uint32_t)(k2 >> 32);
    q[2] = rq[3] + 1;
  }
  g->fcs = s;
  g->n_fcs = (size_t)(g->rows / 4) * (size_t)per_block;
  return true;
}

/* The DSP block loop the kernel runs for this layer (ta_gemm_dsp.c: gemm_rows_asm, or
 * gemm_rows_unpacked for the column form), as its TA_GEMM_DSP_VARIANTS bit; -1: none (C
 * requantisation, the depth-8 stream, or no block of 4 rows). */
static int gemm_dsp_variant(const GemmPlan *g) {
  if (g->pairs && g->dsp_unpacked) { /* the column form's strip loops (rq_zp 0), each also with neg_fix */
    const int fix = g->neg_fix ? 1 : 0;
    if (g->depth % 64 != 0 && g->depth % 48 == 0) return TA_GEMM_DSP_BIT_PAIRS48 + fix * TA_GEMM_DSP_PAIRS48_NEG;
    return (g->depth % 64 == 0 ? TA_GEMM_DSP_BIT_PAIRS64 : TA_GEMM_DSP_BIT_PAIRS) + fix * TA_GEMM_DSP_PAIRS_NEG;
  }
  /* ta_conv_s8_dsp_first's own depth-28 and depth-40 loops (rq_zp 0) */
  if (g->pairs && g->depth == TA_GEMM_DSP_FIRST_DEPTH28) return TA_GEMM_DSP_BIT_PAIRS28;
  if (g->pairs && g->depth == TA_GEMM_DSP_FIRST_DEPTH40) return TA_GEMM_DSP_BIT_FIRST_ROWS;
  if (g->pairs)
    return (g->depth % 64 == 0 ? TA_GEMM_DSP_BIT_PAIRS64 : TA_GEMM_DSP_BIT_PAIRS) +
           (g->rq_zp ? TA_GEMM_DSP_PAIRS_ZP : 0);
  if (g->fcs) return TA_GEMM_DSP_BIT_FCS;
  const int32_t groups = (g->depth + 3) / 4, blocks = g->rows / 4;
  if (!g->rq || !g->sat8 || (g->neg_fix != 0 && g->rq_zp != 0) || blocks == 0 || groups == 0) return -1;
  if (!g->dsp_unpacked && g->k8 && g->depth == 8 && g->rows % 2 == 0) return -1;
  const bool unpacked = g->dsp_unpacked || (groups <= TA_GEMM_DSP_UNPACK_MAX_GROUPS && blocks >= 3);
  const int form = !unpacked ? TA_GEMM_DSP_BIT_BYTES
                   : (groups & 3) == 0 ? TA_GEMM_DSP_BIT_UNPACKED16 : TA_GEMM_DSP_BIT_UNPACKED;
  return form + (g->neg_fix ? TA_GEMM_DSP_RQ_NEG : g->rq_zp ? TA_GEMM_DSP_RQ_ZP : 0);
}

bool gemm_dsp_plan(Arena *arena, GemmPlan *g, const int8_t *weights) {
  const int32_t rows = g->rows, depth = g->depth;
  const int32_t output_offset = g->output_offset, act_min = g->act_min, act_max = g->act_max;
  g->n_bias = (size_t)rows;
  g->n_w32 = (size_t)rows * (size_t)((depth + 3) / 4) * 2;
  g->w32 = arena_calloc(arena, g->n_w32, sizeof(int32_t));
  if (!g->w32) return false;
  gemm_dsp_relayout(weights, rows, depth, g->w32);
  g->rq = gemm_dsp_requant(arena, g);
  /* A negative accumulator rounds to at most the zero point, which a floor at or above
   * it clamps away whichever way the rounding goes. */
  g->neg_fix = act_min >= output_offset ? 0 : INT32_MIN;
  g->sat8 = act_min == -128 && act_max == 127;
  g->k8 = gemm_dsp_k8(arena, g, weights); /* NULL: the block loop (also when out of memory) */
  return true;
}

const char *gemm_dsp_emit_params(EmitCtx *ec, const GemmPlan *g, const char *name, const char *bias, const char *mult,
                                 const char *shift) {
  const int variant = gemm_dsp_variant(g);
  if (variant >= 0) em_kernel_variants(ec, "TA_GEMM_DSP_VARIANTS", TA_GEMM_DSP_MASK(variant));
  /* a 64-value pair loop of several passes keeps its test for another */
  if (g->pairs && g->depth % 64 == 0 && g->depth > 64)
    em_kernel_variants(ec, "TA_GEMM_DSP_VARIANTS", TA_GEMM_DSP_MASK(TA_GEMM_DSP_BIT_PAIRS64_MULTI));
  /* the pair and FULLY_CONNECTED streams carry the biases and rq words themselves */
  const char *rq = g->rq && !g->pairs && !g->fcs ? em_table_i32(ec, "gemm_rq", g->rq, (size_t)g->rows * 4) : "NULL";
  em_decl(ec,
          "static const ta_gemm_dsp_params_t %s_gemm = {\n  .rows = %d, .depth = %d,\n"
          "  .output_offset = %d, .act_min = %d, .act_max = %d,\n"
          "  .bias = %s, .per_channel = %d, .mult = %s, .shift = %s,\n"
          "  .rq = %s, .rq_zp = %d, .neg_fix = %s, .sat8 = %d,\n  .k8 = %s, .pairs = %d,%s\n};",
          name, (int)g->rows, (int)g->depth, (int)g->output_offset, (int)g->act_min, (int)g->act_max,
          bias, g->per_channel ? 1 : 0, mult, shift, rq, (int)g->rq_zp,
          g->neg_fix ? "INT32_MIN" : "0", g->sat8 ? 1 : 0,
          g->k8 ? em_table_i32(ec, "gemm_k8", g->k8, (size_t)g->rows * 9) : "NULL", g->pairs ? 1 : 0,
          g->fcs ? " .fcs = 1," : "");
  if (g->fcs) return em_table_i32_from(ec, "gemm_fcs", EM_FROM_WEIGHTS, g->fcs, g->n_fcs);
  if (g->pairs) return em_table_i32_from(ec, "gemm_pairs", EM_FROM_WEIGHTS, g->pairs, g->n_pairs);
  return em_table_i32_from(ec, "gemm_weights", EM_FROM_WEIGHTS, g->w32, g->n_w32);
}
