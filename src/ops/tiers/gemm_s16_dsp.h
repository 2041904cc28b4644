/* int16x8 dot-product layers (FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D) on the
 * Cortex-M4 DSP tier: whether a layer can take it and the compile-time constants its
 * kernels read (runtime/kernels/ta_gemm_s16_dsp.h, which argues the exactness). */
#ifndef TINYAOT_GEMM_S16_DSP_H
#define TINYAOT_GEMM_S16_DSP_H
#include <stdbool.h>
#include <stdint.h>

#include "../op.h"

/* Per output channel: TFLite's 16x8 requantisation with the bias folded in. */
typedef struct S16Requant {
  int32_t rows, act_min, act_max;
  int64_t *k;            /* bias * reduced multiplier + rounding (scaled with hi) */
  int32_t *mult, *shift; /* reduced multiplier (scaled with hi), right shift */
  int32_t *rq;           /* the kernels' table: per channel k low, k high, mult, shift */
  bool hi;               /* result = high word >> shift (ta_s16_dsp_requant_t) */
  bool acc64;            /* some channel's dot product may leave int32 */
} S16Requant;

typedef struct GemmS16Plan {
  int32_t rows, depth;
  int32_t *w32;          /* weights widened to int16 pairs, blocks of 4 rows then single rows */
  size_t n_w32;
  S16Requant q;
  int32_t *stream;       /* depth 8, high-word form, sat 1 or 2: per row 4 weight words and
                            4 requantisation words; else NULL */
} GemmS16Plan;

/* True when the platform has the DSP extension and no MVE (the M4 tier). */
bool gemm_s16_dsp_available(const Platform *platform);

/* Fills q for `rows` channels with an int64 bias (NULL: none), per-channel mult/shift
 * (or NULL with the scalar pair) and each channel's sum of |weights|. Sets *ok false
 * when the layer must stay portable (a shift TFLite's 64-bit rounding cannot take, a
 * bias beyond 2^47). False only when out of memory. */
bool s16_requant_plan(Arena *arena, int32_t rows, const Tensor *bias, const int32_t *mult, const int32_t *shift,
                      int32_t scalar_mult, int32_t scalar_shift, const int64_t *abs_sums, int32_t act_min,
                      int32_t act_max, S16Requant *q, bool *ok);

/* Emits the requantisation tables and names the form's loops (bit bit0 + 3 * form + sat of
 * TA_S16_DSP_VARIANTS: bit0 0 for the matrix kernel, 12 for depthwise); returns the
 * ta_s16_dsp_requant_t initializer. */
const char *s16_requant_emit(EmitCtx *ec, const S16Requant *q, unsigned bit0);

/* Plans an int16x8 matrix layer, int8 weights [rows, depth]; *out NULL when it must
 * stay portable. False only when out of memory. */
bool gemm_s16_dsp_plan(Arena *arena, int32_t rows, int32_t depth, const int8_t *weights, const Tensor *bias,
                       const int32_t *mult, const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift,
                       int32_t act_min, int32_t act_max, GemmS16Plan **out);

/* A gathered window (CONV_2D) whose depth is not a multiple of 8, in the high-word form
 * with a one-instruction clamp: the weights re-laid at the depth rounded up to 8 (zero
 * weights; the kernel zeros the window's tail once per call), so the layer runs the
 * assembly blocks; g->depth becomes that depth. `weights` as given to the plan. False
 * only when out of memory. */
bool gemm_s16_dsp_pad_depth(Arena *arena, GemmS16Plan *g, const int8_t *weights);

/* CONV_2D with a gathered window: names the kernel's in-place window loops (bit 10 of
 * TA_S16_DSP_VARIANTS) when the layer can take them: window rows of whole 8-value passes
 * (dilation 1 across), whole blocks of 4 rows, the high-word form with a one-instruction
 * clamp. Windows that cross the border are still gathered. */
void gemm_s16_dsp_emit_window(EmitCtx *ec, const GemmS16Plan *g, int32_t k_h, int32_t k_w, int32_t in_c,
                              int32_t dil_w);

/* Emits the params descriptor "<op>_gemm16" and its tables; returns the weights' symbol. */
const char *gemm_s16_dsp_emit_params(EmitCtx *ec, const GemmS16Plan *g);

/* DEPTHWISE_CONV_2D, depth multiplier 1, an even channel count: the filter widened to
 * int16 channel pairs per tap (ta_depthwise_conv_s16_dsp.h). */
typedef struct DwS16Plan {
  int32_t *w32;          /* [taps][channels / 2] words w[c] | w[c + 1] << 16 */
  size_t n_w32;
  S16Requant q;
} DwS16Plan;

/* filter [taps][channels]; *out NULL when the layer must stay portable (odd channels,
 * int64 sums needed, requantisation out of range). False only when out of memory. */
bool dw_s16_dsp_plan(Arena *arena, int32_t channels, int32_t taps, const int8_t *filter, const Tensor *bias,
                     const int32_t *mult, const int32_t *shift, int32_t act_min, int32_t act_max, DwS16Plan **out);

#endif
