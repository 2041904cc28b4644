/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 matrix-vector kernels for Cortex-M4/M7/M33 (DSP extension).
 *
 * One int16 input vector of `depth` values against `rows` int8 weight rows gives `rows`
 * int16 outputs (FULLY_CONNECTED per batch row, CONV_2D per output pixel). The input is
 * never widened: each aligned or unaligned word of it holds two int16 values (x0 | x1 << 16)
 * and feeds one SMLAD directly. The compiler widens the weights to the same pairs
 * (w0 | w1 << 16): rows in blocks of 4 (then single rows), per block and per pair of depth
 * values the 4 rows' words, the depth zero padded to a multiple of 2.
 *
 * Exactness against TFLite's 16x8 kernels (int64 bias, int64 accumulator, the 16-bit
 * "reduced" multiplier, int64 rounding): TFLite computes
 *   (int32)(((bias + dot) * reduced + 2^(t-1)) >> t),  t = 15 - shift,
 * with every term exact in int64 (the compiler refuses accumulators beyond 2^47). We
 * compute the same integer as (k + dot * reduced) >> t with k = bias * reduced + 2^(t-1)
 * precomputed per row, so only dot is summed at run time. dot is summed in int32 when
 * the compiler proved 32768 * sum|w| < 2^31 for every row (then no partial sum can wrap),
 * else in int64 (SMLALD): `acc64`. Zero points are 0 in TFLite's 16x8 scheme.
 * Only compiled when the target has the DSP extension. */
#ifndef TA_GEMM_S16_DSP_H
#define TA_GEMM_S16_DSP_H
#include "ta_common.h"

typedef struct ta_gemm_s16_dsp_params_t {
  int32_t rows;          /* output values per input vector */
  int32_t depth;         /* dot-product length */
  int32_t act_min, act_max;
  const int64_t *k;      /* [rows]: bias * reduced + 2^(t-1) */
  const int32_t *mult;   /* [rows]: TFLite's reduced (16-bit) multiplier */
  const int32_t *shift;  /* [rows]: t = 15 - shift, 1..62 */
  int32_t acc64;         /* 1: dot products summed in int64 */
} ta_gemm_s16_dsp_params_t;

/* CONV_2D window geometry (NHWC input, zero padding: int16 zero point is 0). */
typedef struct ta_conv_s16_dsp_geom_t {
  int32_t batches, in_h, in_w, in_c, out_h, out_w;
  int32_t k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
  int32_t direct;        /* 1x1 window, no padding: the input pixel is the vector */
} ta_conv_s16_dsp_geom_t;

/* `count` input vectors, `depth` apart, each giving `rows` outputs, `rows` apart. */
void ta_gemm_s16_dsp(const ta_gemm_s16_dsp_params_t *p, int32_t count, const int16_t *input,
                     const int32_t *weights, int16_t *output);

/* CONV_2D: per output pixel, the window (gathered into `scratch`, depth rounded up to
 * even values, unless direct). */
void ta_conv_s16_dsp(const ta_gemm_s16_dsp_params_t *p, const ta_conv_s16_dsp_geom_t *g, const int16_t *input,
                     const int32_t *weights, void *scratch, int16_t *output);

#endif
