/* int16x8 matrix-vector work (FULLY_CONNECTED, CONV_2D) on the Cortex-M4 DSP tier:
 * whether a layer can take it and the compile-time constants its kernel reads
 * (runtime/kernels/ta_gemm_s16_dsp.h, which argues the exactness). */
#ifndef TINYAOT_GEMM_S16_DSP_H
#define TINYAOT_GEMM_S16_DSP_H
#include <stdbool.h>
#include <stdint.h>

#include "op.h"

typedef struct GemmS16Plan {
  int32_t rows, depth, act_min, act_max;
  int32_t *w32;          /* weights widened to int16 pairs, blocks of 4 rows then single rows */
  size_t n_w32;
  int64_t *k;            /* [rows] bias * reduced multiplier + rounding */
  int32_t *mult, *shift; /* [rows] reduced multiplier, total right shift */
  bool acc64;            /* some row's dot product may leave int32 */
} GemmS16Plan;

/* True when the platform has the DSP extension and no MVE (the M4 tier). */
bool gemm_s16_dsp_available(const Platform *platform);

/* Plans an int16x8 layer with an int64 bias (NULL: none) and int8 weights [rows, depth];
 * per-row mult/shift, or NULL with the scalar pair. Sets *out to NULL when the layer
 * must stay portable (a shift TFLite's 64-bit rounding cannot take, a bias beyond
 * 2^47). False only when out of memory. */
bool gemm_s16_dsp_plan(Arena *arena, int32_t rows, int32_t depth, const int8_t *weights, const Tensor *bias,
                       const int32_t *mult, const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift,
                       int32_t act_min, int32_t act_max, GemmS16Plan **out);

/* Emits the params descriptor "<op>_gemm16" and its tables; returns the weights' symbol. */
const char *gemm_s16_dsp_emit_params(EmitCtx *ec, const GemmS16Plan *g);

#endif
