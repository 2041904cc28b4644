/* int16x8 dot-product layers (FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D) on the
 * Cortex-M55 MVE tier: whether a layer can take it and the compile-time constants its
 * kernels read (runtime/kernels/ta_gemm_s16_mve.h and ta_depthwise_conv_s16_mve.h, which
 * argue the exactness). */
#ifndef TINYAOT_GEMM_S16_MVE_H
#define TINYAOT_GEMM_S16_MVE_H
#include <stdbool.h>
#include <stdint.h>

#include "../op.h"

typedef struct GemmS16MvePlan {
  int32_t rows, depth, stride; /* stride: depth rounded up to 8 */
  int8_t *w8;                  /* [rows / 4][stride / 8][4][8], zero padded */
  int32_t *bias, *mult;        /* fold form (NULL without) */
  int32_t *rq;                 /* without fold: per row k low, k high, reduced, t */
  bool acc64;                  /* without fold: some row's sum may leave int32 */
  int32_t *wide;               /* fold: NULL, or per block of 4 rows: reduced, k high, k low,
                                  32 - t of each row with t > 32 (0 for the others) */
  int32_t n_fix;               /* fold: rows outside its bounds (bias and mult 0 there) */
  int32_t *fix;                /* fold: per such row its index, k low, k high, reduced, t */
  int32_t act_min, act_max;
} GemmS16MvePlan;

/* True when the platform has MVE (the M55 tier). */
bool gemm_s16_mve_available(const Platform *platform);

/* Plans an int16x8 matrix layer, int8 weights [rows, depth], int64 bias (NULL: none),
 * per-channel mult/shift (or NULL with the scalar pair); *out NULL when it must stay
 * portable. False only when out of memory. */
bool gemm_s16_mve_plan(Arena *arena, int32_t rows, int32_t depth, const int8_t *weights, const Tensor *bias,
                       const int32_t *mult, const int32_t *shift, int32_t scalar_mult, int32_t scalar_shift,
                       int32_t act_min, int32_t act_max, GemmS16MvePlan **out);

/* Emits the params descriptor "<op>_gemm16m" and its tables; returns the weights' symbol. */
const char *gemm_s16_mve_emit_params(EmitCtx *ec, const GemmS16MvePlan *g);

/* DEPTHWISE_CONV_2D, depth multiplier 1: the fold requantisation per block of 8 channels,
 * channels with t > 32 in the wide form, else TFLite's int64 form for the whole layer
 * (ta_depthwise_conv_s16_mve.h). */
typedef struct DwS16MvePlan {
  int32_t *rq;                 /* [ceil(channels / 8)][16] */
  size_t n_rq;
  int8_t *w8;                  /* [ceil(channels / 8)][taps][8], zero padded */
  int32_t *general;            /* NULL, or per channel k low, k high, reduced, t */
  int32_t *wide;               /* NULL, or per block of 8 channels 32 words: the wide form of
                                  channels with t > 32 (ta_depthwise_conv_s16_mve.h) */
  size_t n_w8;
} DwS16MvePlan;

/* filter [taps][channels]; *out NULL when the layer must stay portable. False only
 * when out of memory. */
bool dw_s16_mve_plan(Arena *arena, int32_t channels, int32_t taps, const int8_t *filter, const Tensor *bias,
                     const int32_t *mult, const int32_t *shift, DwS16MvePlan **out);

#endif
