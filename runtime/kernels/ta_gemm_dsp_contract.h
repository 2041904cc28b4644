/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the contract between the compiler and ta_gemm_dsp: the bits of
 * TA_GEMM_DSP_VARIANTS by name and the limits the kernel relies on. Included by the kernel
 * and by the compiler's tier code, so neither writes these numbers itself. */
#ifndef TA_GEMM_DSP_CONTRACT_H
#define TA_GEMM_DSP_CONTRACT_H

/* The mask of one bit (the compiler names masks, the kernels test bits). */
#define TA_GEMM_DSP_MASK(bit) (1u << (bit))

/* Block loops: bit input form + requantisation. Forms: the input bytes, unpacked, unpacked
 * in whole 16-value passes; requantisation: plain (+ 0), with the negative-rounding fix, with
 * the zero point added after the shift. */
#define TA_GEMM_DSP_BIT_BYTES 0
#define TA_GEMM_DSP_BIT_UNPACKED 3
#define TA_GEMM_DSP_BIT_UNPACKED16 6
#define TA_GEMM_DSP_RQ_NEG 1
#define TA_GEMM_DSP_RQ_ZP 2
/* Pair loops (`pairs`): depth a multiple of 16, of 64; + TA_GEMM_DSP_PAIRS_ZP with rq_zp,
 * + TA_GEMM_DSP_PAIRS_NEG with neg_fix; depth a multiple of 48 but not 64 (rq_zp 0), + 1 with
 * neg_fix. */
#define TA_GEMM_DSP_BIT_PAIRS 9
#define TA_GEMM_DSP_BIT_PAIRS64 10
#define TA_GEMM_DSP_PAIRS_ZP 2
#define TA_GEMM_DSP_PAIRS_NEG 8
#define TA_GEMM_DSP_BIT_PAIRS48 19
#define TA_GEMM_DSP_PAIRS48_NEG 1
/* ta_conv_s8_dsp_first's 3x3x3 image reader */
#define TA_GEMM_DSP_BIT_FIRST_333 13
/* the depth-40 pair loop with the first layers' reader of window rows of 4 values */
#define TA_GEMM_DSP_BIT_FIRST_ROWS 14
/* the window gather of ta_conv_s8_dsp and _pairs (ta_im2col_pixels_s8) */
#define TA_GEMM_DSP_BIT_GATHER 15
/* ta_conv_s8_dsp_first's depth-28 pair loop */
#define TA_GEMM_DSP_BIT_PAIRS28 16
/* some layer's 64-value pair loop makes more than one pass */
#define TA_GEMM_DSP_BIT_PAIRS64_MULTI 21
/* the FULLY_CONNECTED stream loop (`fcs`) */
#define TA_GEMM_DSP_BIT_FCS 22
/* a first layer of a depth other than 28 and 40 (the general pair loops) */
#define TA_GEMM_DSP_BIT_FIRST_ANY 23

/* The depths of ta_conv_s8_dsp_first's own pair loops (TA_GEMM_DSP_BIT_PAIRS28, _FIRST_ROWS). */
#define TA_GEMM_DSP_FIRST_DEPTH28 28
#define TA_GEMM_DSP_FIRST_DEPTH40 40
/* The block loops unpack the input once for all blocks, on the stack, up to this many
 * groups of 4 values (the compiler picks the unpacked loops only then). */
#define TA_GEMM_DSP_UNPACK_MAX_GROUPS 160
/* The deepest pair the pair loops unpack on the stack, in groups of 4 values (the compiler
 * keeps the pair stream to depth <= 4 * this). */
#define TA_GEMM_DSP_PAIR_MAX_GROUPS 80

#endif
