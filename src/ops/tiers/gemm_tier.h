/* Kernel tiers for int8 matrix-vector work (FULLY_CONNECTED, CONV_2D): picks the
 * Helium, DSP or portable kernels from the target platform and computes the
 * constants the optimised kernels take (runtime/kernels/ta_gemm_{mve,dsp}.h). */
#ifndef TINYAOT_GEMM_TIER_H
#define TINYAOT_GEMM_TIER_H
#include <stdbool.h>
#include <stdint.h>

#include "../op.h"

typedef enum GemmTier { GEMM_PORTABLE, GEMM_DSP, GEMM_MVE } GemmTier;

/* Compile-time constants of one optimised matrix-vector operator. */
typedef struct GemmPlan {
  GemmTier tier;
  int32_t rows, depth;
  const int32_t *bias;    /* [rows], zero point folded */
  bool per_channel;       /* else one multiplier and shift for every row */
  int32_t *mult, *shift;  /* n_quant entries (MVE: rows rounded up to 4, or 4 copies) */
  size_t n_quant;
  int8_t *w8;             /* re-laid weights; DSP: rows x depth rounded up to 4;
                             MVE: rows and depth rounded up to 4 and 16 */
  size_t n_bias;          /* bias entries (MVE: rows rounded up to 4, zero padded) */
  int32_t *w32;           /* DSP: weights pre-widened to int16 pairs, rows x depth/2 rounded up to 2 */
  size_t n_w32;
  int32_t *rq;            /* DSP: 4 requantisation constants per row, or NULL (see ta_gemm_dsp.h) */
  int32_t neg_fix;        /* DSP with rq: INT32_MIN, or 0 when the clamp hides negative rounding */
  int32_t rq_zp;          /* DSP with rq: the zero point when rq could not fold it, else 0 */
  bool sat8;              /* DSP with rq: the clamp is int8's whole range */
  int32_t *k8;            /* DSP depth 8 (rq, sat8, no neg_fix / rq_zp): 9 words per row, or NULL */
  bool dsp_unpacked;      /* DSP: the kernel reads unpacked input (CONV_2D's column form) */
  int32_t *pairs;         /* DSP pair stream (ta_gemm_dsp.h `pairs`), or NULL: then the weights table */
  size_t n_pairs;
  int32_t *fcs;           /* DSP FULLY_CONNECTED stream (ta_gemm_dsp.h `fcs`), or NULL */
  size_t n_fcs;
  int32_t *mve_quant;     /* MVE: per block of 4 rows, 4 biases, 4 multipliers, 4 shifts */
  bool mve_left_shift;    /* MVE: some shift is > 0 */
  int32_t output_offset, act_min, act_max;
} GemmPlan;

/* One file per tier: gemm_dsp.c, gemm_mve.c; gemm_tier.c picks one (gemm_plan,
 * gemm_emit_params) and holds what they share. */

/* The tier the platform affords: MVE, else DSP, else portable. */
GemmTier gemm_tier_for(const Platform *platform);

/* Fills `g` for `tier` != GEMM_PORTABLE. `mult`/`shift` are per row, or NULL
 * with the scalar pair for every row. False when out of memory. */
bool gemm_plan(Arena *arena, GemmTier tier, int32_t rows, int32_t depth, const int8_t *weights,
               const int32_t *bias, const int32_t *mult, const int32_t *shift, int32_t scalar_mult,
               int32_t scalar_shift, int32_t output_offset, int32_t act_min, int32_t act_max, GemmPlan *g);

/* DSP: lays out the pair stream (two input vectors against two rows per step) when the
 * layer qualifies (see ta_gemm_dsp.h `pairs`); for callers with 2 vectors or more per call
 * (CONV_2D). `weights` holds g->rows rows of `w_depth` values each (w_depth <= g->depth:
 * a caller that padded g->depth after gemm_plan passes the unpadded row length, and the
 * values from w_depth to g->depth are zero weights). False only when out of memory. */
bool gemm_dsp_use_pairs(Arena *arena, GemmPlan *g, const int8_t *weights, int32_t w_depth);
/* The pair stream of g->depth (a multiple of 4) whatever the layer: for the callers that
 * checked the layer (ta_conv_s8_dsp_first's depth 28); `weights` and `w_depth` as for
 * gemm_dsp_use_pairs. False only when out of memory. */
bool gemm_dsp_pair_stream(Arena *arena, GemmPlan *g, const int8_t *weights, int32_t w_depth);

/* DSP: lays out the FULLY_CONNECTED stream (ta_gemm_dsp.h `fcs`: one input vector against
 * 4 rows at a time, biases, weights and rq words in one table) when the layer qualifies.
 * `weights` as given to gemm_plan. False only when out of memory. */
bool gemm_dsp_use_fcs(Arena *arena, GemmPlan *g, const int8_t *weights);

/* The optimised kernels' requantisation is proven exact for multipliers >= 0 and
 * shifts in [-31, 30] (TFLite's own range in practice); other nodes stay portable. */
bool gemm_quant_supported(const int32_t *mult, const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift,
                          int32_t rows);

/* Kernel family and function-name suffix of a tier ("gemm_mve", "mve"). */
const char *gemm_family(GemmTier tier);
const char *gemm_suffix(GemmTier tier);

/* Emits the params descriptor "<op>_gemm" and its tables; returns the symbol of
 * the re-laid weights the kernel reads. */
const char *gemm_emit_params(EmitCtx *ec, const GemmPlan *g);
/* CONV_2D on the MVE tier: names the requantisation mode and the offset-gather window loops
 * its depth may use; window_span: bytes of the image from a window's first to its last value
 * (0: direct); seg_chunks: 16-value chunks per window row when the rows are whole chunks
 * (the kernel may read them in place), else 0; segs: window rows read in place (k_h, 1 if direct). */
void gemm_emit_conv_variants(EmitCtx *ec, const GemmPlan *g, int64_t window_span, int32_t seg_chunks, int32_t segs);

/* The tiers, called by gemm_plan once the requantisation is laid out (g->mult, g->shift):
 * plan fills the tier's tables (false when out of memory); emit_params writes the
 * descriptor (`bias`, `mult`, `shift`: the tables gemm_emit_params named) and returns the
 * symbol of the weights the kernel reads. */
bool gemm_dsp_plan(Arena *arena, GemmPlan *g, const int8_t *weights);
const char *gemm_dsp_emit_params(EmitCtx *ec, const GemmPlan *g, const char *name, const char *bias, const char *mult,
                                 const char *shift);
bool gemm_mve_plan(Arena *arena, GemmPlan *g, const int8_t *weights);
const char *gemm_mve_emit_params(EmitCtx *ec, const GemmPlan *g, const char *name);

#endif
