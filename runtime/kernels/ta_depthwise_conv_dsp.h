/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 DEPTHWISE_CONV_2D (depth multiplier 1) for Cortex-M cores with the DSP extension.
 *
 * Everything that does not depend on the data is decided by the compiler:
 * - rows/cols: for each output row (column) the filter taps [lo, hi) that read inside the
 *   image, and a border class; padded taps are never visited.
 * - bias: one table per (row class, column class): bias - input_zero_point * sum of the
 *   weights of the taps that read inside the image, so padding costs nothing.
 * - weights: per group of 4 channels, filter column by column (kx outer, ky inner), per tap
 *   two words of int16 pairs (w[c], w[c+2]) and (w[c+1], w[c+3]), the operand order of the
 *   16-bit multiplies.
 * - scale: bias and weights are multiplied by 2^(left shift + 1) of their channel, so the
 *   accumulator is directly the doubled, left-shifted value the requantisation needs; the
 *   compiler proved that it fits in int32 (see ta_depthwise_conv_dsp.c for the formula).
 * - quant: per channel {multiplier, rounding addend with the output zero point, right shift,
 *   negative-rounding mask, left shift + 1}.
 * - mode: TA_DW_DSP_SIMPLE (no negative rounding fix, activation range [-128, 127]),
 *   TA_DW_DSP_NEGFIX (negative fix on every channel: all right shifts > 0, range
 *   [-128, 127]) or TA_DW_DSP_CLAMP (anything else: per-channel mask and the clamp).
 * Channels past the last full group of 4 read the model's filter directly.
 * Without __ARM_FEATURE_DSP the same arithmetic runs in plain C. */
#ifndef TA_DEPTHWISE_CONV_DSP_H
#define TA_DEPTHWISE_CONV_DSP_H
#include "ta_common.h"
#include "ta_depthwise_conv_dsp_contract.h"

#ifndef TA_DEPTHWISE_CONV_DSP_VARIANTS
#define TA_DEPTHWISE_CONV_DSP_VARIANTS 0x7Fu
#endif

typedef struct ta_depthwise_conv_dsp_params_t {
  int32_t batches;
  int32_t in_h, in_w, channels;
  int32_t out_h, out_w;
  int32_t k_h, k_w;
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_h, pad_w;
  int32_t col_classes;       /* border classes of the columns */
  int32_t act_min, act_max;
  int32_t mode;              /* TA_DW_DSP_SIMPLE / NEGFIX / CLAMP */
  int32_t form;              /* TA_DW_DSP_CLASSIC / ROWPAIR */
  int32_t zero_point;        /* ROWPAIR: the input zero point, the value of its padding */
  const int16_t *rows;       /* [out_h][3]: first tap, end tap, class */
  const int16_t *cols;       /* [out_w][3] */
  const int32_t *bias;       /* [row class][column class][channels], scaled; ROWPAIR: [channels] */
  const int32_t *weights;    /* CLASSIC: [channels / 4][k_w][k_h][2] packed scaled int16 pairs; ROWPAIR: see above */
  const int32_t *quant;      /* [channels][5] */
} ta_depthwise_conv_dsp_params_t;

/* scratch: form TA_DW_DSP_ROWPAIR only (32 * ((out_w - 1) * stride_w + k_w) bytes, word
 * aligned), else NULL; NULL for that form too when those bytes are at most
 * TA_DW_DSP_STACK_BYTES: the kernel then keeps them on its stack. */
#define TA_DW_DSP_STACK_BYTES 256
void ta_depthwise_conv_dsp_s8(const ta_depthwise_conv_dsp_params_t *p, const int8_t *input, const int8_t *filter,
                              int8_t *scratch, int8_t *output);

/* In place (--memory.optimize max), form CLASSIC only: the layer written into `temp`, which
 * overlaps the dying input, at most one row pair per column pass (so after writing a pixel
 * the kernel reads only windows from the next column of the row above on: the contract the
 * compiler declares), then moved to `output` (bytes long). */
void ta_depthwise_conv_dsp_s8_inplace(const ta_depthwise_conv_dsp_params_t *p, const int8_t *input,
                                      const int8_t *filter, int8_t *temp, int8_t *output, int32_t bytes);

#endif
