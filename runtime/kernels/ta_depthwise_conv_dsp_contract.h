/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the contract between the compiler and ta_depthwise_conv_dsp: the bits of
 * TA_DEPTHWISE_CONV_DSP_VARIANTS by name (and the values they name). Included by the kernel and by the
 * compiler's tier code, so neither writes these numbers itself. */
#ifndef TA_DEPTHWISE_CONV_DSP_CONTRACT_H
#define TA_DEPTHWISE_CONV_DSP_CONTRACT_H

/* The mask of one bit (the compiler names masks, the kernels test bits). */
#define TA_DW_DSP_MASK(bit) (1u << (bit))

/* Requantisation modes (ta_depthwise_conv_dsp_params_t.mode, see ta_depthwise_conv_dsp.h). */
#define TA_DW_DSP_SIMPLE 0
#define TA_DW_DSP_NEGFIX 1
#define TA_DW_DSP_CLAMP 2
/* Forms: TA_DW_DSP_CLASSIC the layout of ta_depthwise_conv_dsp.h; TA_DW_DSP_ROWPAIR (3x3, stride 1 and
 * dilation 1 both ways, channels a multiple of 4): weights per group of 4 channels
 * [k_w][channel][2] as scaled int16 pairs (w0, w1) and (w1, w2) of the filter column,
 * input rows widened in pairs into scratch (see ta_depthwise_conv_dsp.c), the padding as
 * the input zero point: one bias per channel, bias - zero point * the sum of all its taps
 * (a padded tap adds zero point * w, which that cancels). */
#define TA_DW_DSP_CLASSIC 0
#define TA_DW_DSP_ROWPAIR 1

/* Loops compiled (ta_config.h): bit TA_DW_DSP_<mode> for each requantisation mode's. A
 * layer whose mode is missing runs the CLAMP loops, exact for every layer. Bit
 * TA_DW_DSP_ROWPAIR_BIT: the row-pair form's code (needed by every ROWPAIR layer); bit
 * TA_DW_DSP_CLASSIC_BIT: the classic form's (every CLASSIC layer and every in-place call). */
#define TA_DW_DSP_ROWPAIR_BIT 3
#define TA_DW_DSP_CLASSIC_BIT 4
/* Bit TA_DW_DSP_NARROW_BIT: the row-pair form's widening set up once per channel group
 * (set for row-pair layers narrower than 6 output columns, kws; speed only, any layer
 * runs with or without it). */
#define TA_DW_DSP_NARROW_BIT 5
/* Bit TA_DW_DSP_LONE_BIT: the row-pair form's body for a lone last output row (layers of
 * an odd height, kws; without it that row runs as a pair whose lower row is dropped). */
#define TA_DW_DSP_LONE_BIT 6

#endif
