/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 matrix-vector kernels for Cortex-M55 (MVE / Helium).
 *
 * One int8 input vector of `depth` values against `rows` int8 weight rows gives
 * `rows` int8 outputs. The compiler re-lays the weights: rows in blocks of 4 (the
 * last block padded with zero rows), each block's rows interleaved per 16 values
 * (row0[0..15] row1[0..15] row2[0..15] row3[0..15] row0[16..31] ...), the depth
 * padded with zeros to a multiple of 16.
 * FULLY_CONNECTED runs it per batch row, CONV_2D per output pixel (1x1 directly
 * on the input, other windows on an im2col copy). The compiler folds the input
 * zero point into the biases; requantisation equals TFLite's MultiplyByQuantizedMultiplier bit
 * for bit. Only compiled when the target has MVE. */
#ifndef TA_GEMM_MVE_H
#define TA_GEMM_MVE_H
#include "ta_common.h"
#include "ta_im2col.h"
#include "ta_gemm_mve_contract.h"

typedef struct ta_gemm_mve_params_t {
  int32_t rows;            /* output values per input vector */
  int32_t depth;           /* dot-product length */
  int32_t output_offset;   /* output zero point */
  int32_t act_min, act_max;
  const int32_t *quant;    /* per block of 4 rows: 4 biases (bias - input_zero_point *
                              sum(row), 0 for padded rows), 4 quantized multipliers (>= 0),
                              4 TFLite shifts (-31..30, > 0 left) */
  int32_t left_shift;      /* 1 when some shift is > 0 */
  int32_t negative_fix;    /* 1 when act_min < output_offset: negative ties need TFLite's rounding */
} ta_gemm_mve_params_t;

/* Variants compiled (ta_config.h): bit 2 * left_shift + negative_fix for CONV_2D's loops
 * of each requantisation mode, bit 12 + the same for ta_gemm_s8_mve's (FULLY_CONNECTED:
 * typically the one layer without activation, whose mode would otherwise double the
 * convolution loops; a mask without bits 12-15 gives it CONV_2D's modes), bit 3 + n for CONV_2D's loop over n 16-value chunks read
 * through byte offsets (n = 1..4), bit 7 + n for the same loop reading windows that
 * span more than 256 bytes through 16-bit offsets. A layer whose mode is missing runs
 * the loops of a mode that does more (left shift and fix both exact when not needed); a
 * missing chunk count falls back to the gathered / segment loops. Bit 16: the two-window
 * loops over windows read in place unrolled by 3 chunks (segments of 3 chunks, 3x3 windows
 * of 16 channels, or a multiple of 3), for the layers whose segments have such counts.
 * Bits 17 + n - 1 (n = 1, 2): the byte-offset loop over n chunks takes two windows per
 * weight load (both windows' chunks in registers). Bits 19-22: the pair runs in assembly
 * (rows a multiple of 4; ta_gemm_mve.c, gemm_run_t) for windows read in place in 3 segments
 * of exactly 3 chunks (19) or of a multiple of 3 (20; both also pair the border pixels),
 * 1x1 windows of a multiple of 4 chunks (21, in place of the byte-offset loop), and windows
 * of 3 chunks gathered through offsets into a buffer two at a time (22). */
#ifndef TA_GEMM_MVE_VARIANTS
#define TA_GEMM_MVE_VARIANTS 0x7fffffu
#endif

/* `count` input vectors, `depth` apart, each giving `rows` outputs, `rows` apart. */
void ta_gemm_s8_mve(const ta_gemm_mve_params_t *p, int32_t count, const int8_t *input, const int8_t *weights,
                    int8_t *output);

/* CONV_2D: per output pixel, the window (gathered into `scratch`, k_h * k_w * in_c
 * bytes, unless direct). Windows inside the image are read in place instead when the
 * depth is at most 64 (gather offsets: 8-bit for a window span <= 256 bytes, else
 * 16-bit, two 8-lane gathers per 16 values) or each filter row is whole 16-value chunks
 * (then two output pixels share each weight load). */
void ta_conv_s8_mve(const ta_gemm_mve_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                    const int8_t *weights, int8_t *scratch, int8_t *output);
/* In place (issue 17): writes the output at `temp` (over the dying input, where the
 * operator's in-place contract allows), then moves its `bytes` to `output`. */
void ta_conv_s8_mve_inplace(const ta_gemm_mve_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                            const int8_t *weights, int8_t *scratch, int8_t *temp, int8_t *output, int32_t bytes);

#endif
