/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the contract between the compiler and the int16x8 DSP kernels
 * (ta_gemm_s16_dsp and ta_depthwise_conv_s16_dsp share one mask, TA_S16_DSP_VARIANTS): its
 * bits by name. Included by both kernels and by the compiler's tier code, so neither writes
 * these numbers itself. */
#ifndef TA_S16_DSP_CONTRACT_H
#define TA_S16_DSP_CONTRACT_H

/* The mask of one bit (the compiler names masks, the kernels test bits). */
#define TA_S16_DSP_MASK(bit) (1u << (bit))

/* Loops specialised per requantisation form (ta_s16_dsp_requant_t hi 0..2, sat 0..2): bit
 * base + 3 * hi + sat, base TA_S16_DSP_GEMM_BASE for the matrix kernel's, TA_S16_DSP_DW_BASE
 * for the depthwise kernel's. */
#define TA_S16_DSP_GEMM_BASE 0
#define TA_S16_DSP_DW_BASE 12
#define TA_S16_DSP_FORM(hi, sat) (3 * (hi) + (sat))
#define TA_S16_DSP_BIT_RQ(base, hi, sat) ((base) + TA_S16_DSP_FORM(hi, sat))
#define TA_S16_DSP_BIT_GEMM(hi, sat) TA_S16_DSP_BIT_RQ(TA_S16_DSP_GEMM_BASE, hi, sat)
#define TA_S16_DSP_BIT_DW(hi, sat) TA_S16_DSP_BIT_RQ(TA_S16_DSP_DW_BASE, hi, sat)
/* The generic clamps (sat 0) of the matrix kernel's forms 0 and 1: always compiled, exact
 * for every layer. */
#define TA_S16_DSP_ALWAYS \
  ((1u << TA_S16_DSP_BIT_GEMM(0, 0)) | (1u << TA_S16_DSP_BIT_GEMM(1, 0)))
/* the depth-8 stream of the matrix kernel (ta_gemm_s16_dsp_params_t.stream) */
#define TA_S16_DSP_BIT_STREAM 9
/* CONV_2D windows read in place (window rows of whole 8-value passes; else gathered) */
#define TA_S16_DSP_BIT_WINDOW 10
/* depthwise 3x3 border windows as whole-pixel blocks */
#define TA_S16_DSP_BIT_DW_EDGE 11
/* the block loops at 16 values per iteration (depths, window rows, multiples of 16) */
#define TA_S16_DSP_BIT_U16 21
/* with TA_S16_DSP_BIT_U16, the 8-value ones still (a depth or window row not a multiple of 16) */
#define TA_S16_DSP_BIT_U8 22

#endif
