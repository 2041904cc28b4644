/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 matrix-vector kernels for Cortex-M4/M7/M33 (DSP extension).
 *
 * One int8 input vector of `depth` values against `rows` weight rows gives `rows`
 * int8 outputs (FULLY_CONNECTED per batch row, CONV_2D per output pixel). The
 * compiler re-lays the weights, pre-widened to int16 pairs, so that one pointer walks
 * them: rows in blocks of 4 (then single rows), per block and per group of 4 depth
 * values each row's two words (w0 | w2 << 16) and (w1 | w3 << 16), the depth zero
 * padded to a multiple of 4. SXTB16 unpacks 4 input bytes the same way (x0,x2 and
 * x1,x3), so each word feeds one dual 16-bit multiply-accumulate.
 * The input zero point is folded into `bias`; requantisation is TFLite's, bit for
 * bit, in one 64-bit multiply-accumulate (see gemm_requantize), or with `rq` in one
 * rounding whose constants the compiler precomputed (see gemm_out_fast). Only
 * compiled when the target has the DSP extension. */
#ifndef TA_GEMM_DSP_H
#define TA_GEMM_DSP_H
#include "ta_common.h"
#include "ta_im2col.h"
#include "ta_gemm_dsp_contract.h"

/* Block loops compiled (ta_config.h): bit v for loop v = input form (0 the input bytes,
 * 3 unpacked, 6 unpacked in whole 16-value passes) + requantisation (0, 1 with the
 * negative-rounding fix, 2 with the zero point added after the shift); bits 9 and 10 the
 * pair loops (`pairs`; depth a multiple of 16, of 64), 11 and 12 the same with rq_zp, 17
 * and 18 with neg_fix; 19 and 20 (+ neg_fix) depth a multiple of 48 but not 64, rq_zp 0;
 * ta_conv_s8_dsp_first's 3x3x3 image reader 13, its depth-28 pair loop 16, and 14 the pair
 * loop of depth 40 (any stream of that depth) with the first layers' reader of window rows
 * of 4 values; 15 the window gather of ta_conv_s8_dsp and _pairs (without it: a small byte
 * loop, and no ta_im2col_pixels_s8 linked); bit 21: some layer's 64-value pair loop makes
 * more than one pass (without it, those loops skip the test for another pass); bit 22 the
 * FULLY_CONNECTED stream loop (`fcs`); bit 23: a first layer (ta_conv_s8_dsp_first) of a
 * depth other than 28 and 40 (the general pair loops, which the 1x1 layers' pixel-pair
 * loops otherwise replace).
 * A layer whose loop is missing runs the C loops over the same tables (exact, slower). */
#ifndef TA_GEMM_DSP_VARIANTS
#define TA_GEMM_DSP_VARIANTS (0x1ffffu \
  | (0xfu << 17) /* bits 17-20: pair loops with the negative-rounding fix, of 48-value passes */ \
  | (0x7u << 21) /* 21: 64-value pair loops of several passes; 22: the FULLY_CONNECTED stream loop; \
                    23: first layers of other depths than 28 and 40 */ \
  )
#endif

typedef struct ta_gemm_dsp_params_t {
  int32_t rows;           /* output values per input vector */
  int32_t depth;          /* dot-product length */
  int32_t output_offset;  /* output zero point */
  int32_t act_min, act_max;
  const int32_t *bias;    /* [rows]: bias - input_zero_point * sum(row) */
  int32_t per_channel;    /* 1: mult/shift per row; 0: one pair for all */
  const int32_t *mult;    /* [rows] or [1]: quantized multipliers (>= 0) */
  const int32_t *shift;   /* [rows] or [1]: TFLite's shift, -31..30, > 0 shifts left */
  /* NULL, or [4 * rows] per row: multiplier, rounding constant low and high words (the
   * output zero point folded in unless rq_zp), right shift of the high word; every shift < 0 */
  const int32_t *rq;
  int32_t rq_zp;          /* with rq: added after the shift (the zero point when not folded), else 0 */
  int32_t neg_fix;        /* with rq: INT32_MIN, or 0 where clamping hides the correction */
  int32_t sat8;           /* with rq: the clamp is [-128, 127] */
  /* NULL, or for depth 8 with rq, sat8 and neg_fix, rq_zp 0: per row one run of 9 words, the
   * folded bias, the row's 4 weight words (as in a block) and its 4 rq words */
  const int32_t *k8;
  /* 1: the layer runs ta_conv_s8_dsp_pairs, its weights the pair stream (two input vectors
   * against two rows at a time, CONV_2D with 2 pixels or more per call): depth a multiple of 16, rows even, rq's
   * requantisation with sat8 and neg_fix 0 (the column form: or rq_zp 0); per pair of rows the two folded biases
   * twice (the 4 accumulators in one LDM), per group of 4 depth values both rows' two words
   * (as in a block), then both rows' 4 rq words. bias and rq are then unused (NULL). */
  int32_t pairs;
  /* 1: the layer runs ta_gemm_s8_dsp_fcs, its weights the FULLY_CONNECTED stream: rows a
   * multiple of 4, depth a multiple of 64, rq's requantisation with rq_zp 0; per block of 4
   * rows the 4 folded biases doubled, per group of 4 depth values the block's 8 words (as in
   * a block) doubled, then per row its multiplier, the high word of 2K (see gemm_out_fast:
   * the low word is 2^31) and its right shift. bias, rq, mult and shift are then unused (NULL). */
  int32_t fcs;
} ta_gemm_dsp_params_t;

/* `count` input vectors, `depth` apart, each giving `rows` outputs, `rows` apart. */
void ta_gemm_s8_dsp(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *input, const int32_t *weights,
                    int8_t *output);

/* The same for a layer with `fcs` set, its weights the stream: per input vector, the input
 * widened once onto the stack, then each block of 4 rows in one pass over it. */
void ta_gemm_s8_dsp_fcs(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *input, const int32_t *stream,
                        int8_t *output);

/* CONV_2D: per output pixel, the window (gathered into `scratch` unless direct). */
void ta_conv_s8_dsp(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                    const int32_t *weights, int8_t *scratch, int8_t *output);
/* In place (issue 17): writes the output at `temp` (over the dying input, where the
 * operator's in-place contract allows), then moves its `bytes` to `output`. */
void ta_conv_s8_dsp_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                            const int32_t *weights, int8_t *scratch, int8_t *temp, int8_t *output, int32_t bytes);

/* CONV_2D of a layer with `pairs` set: the same, its weights the pair stream. */
void ta_conv_s8_dsp_pairs(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                          const int32_t *stream, int8_t *scratch, int8_t *output);
void ta_conv_s8_dsp_pairs_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                                  const int32_t *stream, int8_t *scratch, int8_t *temp, int8_t *output,
                                  int32_t bytes);

/* CONV_2D of a first layer (fewer than 4 input channels) with `pairs` set, the stream's
 * depth the window's padded to a multiple of 4 (28: its own loop, bit 16; 40, bit 14) or of
 * 16 (zero weights): output pixels in pairs, each window unpacked straight from the image
 * where it lies inside (3x3 windows of 3 channels, bit 13; rows of 4 values, bit 14), else
 * gathered into `scratch` (p->depth bytes) first. */
void ta_conv_s8_dsp_first(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                          const int32_t *stream, int8_t *scratch, int8_t *output);
void ta_conv_s8_dsp_first_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                                  const int32_t *stream, int8_t *scratch, int8_t *temp, int8_t *output,
                                  int32_t bytes);

/* CONV_2D in column form (dil_w 1): per output row, strips of `g->chunk` output pixels;
 * the strip's image columns widened once (ta_im2col_cols_s8, g->window values each) into
 * `scratch` (word aligned), then each pixel's window is k_w consecutive columns read in
 * place, stride_w columns after the previous one. The weights are re-laid in the same
 * order (kx, ky, channel, each column zero padded to g->window), depth k_w * g->window. */
void ta_conv_s8_dsp_cols(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                         const int32_t *weights, int8_t *scratch, int8_t *output);
void ta_conv_s8_dsp_cols_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                                 const int32_t *weights, int8_t *scratch, int8_t *temp, int8_t *output,
                                 int32_t bytes);

/* The column form with `pairs` set (depth a multiple of 16, rows even): two windows of the
 * strip interleaved (4 * depth bytes in `scratch` after the strip's columns) against the
 * pair stream; neg_fix may be set there (zero point then folded). */
void ta_conv_s8_dsp_cols_pairs(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                               const int32_t *stream, int8_t *scratch, int8_t *output);
void ta_conv_s8_dsp_cols_pairs_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g,
                                       const int8_t *input, const int32_t *stream, int8_t *scratch, int8_t *temp,
                                       int8_t *output, int32_t bytes);

#endif
