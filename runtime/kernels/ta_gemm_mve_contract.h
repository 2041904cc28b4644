/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the contract between the compiler and ta_gemm_mve: the bits of
 * TA_GEMM_MVE_VARIANTS by name. Included by the kernel and by the compiler's tier code. */
#ifndef TA_GEMM_MVE_CONTRACT_H
#define TA_GEMM_MVE_CONTRACT_H

/* The mask of one bit (the compiler names masks, the kernels test bits). */
#define TA_GEMM_MVE_MASK(bit) (1u << (bit))

/* Requantisation modes: bit base + 2 * left_shift + negative_fix; base TA_GEMM_MVE_CONV_BIT
 * for CONV_2D's loops, TA_GEMM_MVE_FC_BIT for ta_gemm_s8_mve's. Byte-offset loops over n
 * chunks (n = 1..TA_GEMM_MVE_XR_MAX): bit TA_GEMM_MVE_XR_BIT + n, with 16-bit offsets
 * TA_GEMM_MVE_XW_BIT + n; two windows per weight load TA_GEMM_MVE_X2_BIT + n - 1 (n <= 2);
 * the loops unrolled by 3 TA_GEMM_MVE_TRIPLE_BIT; the pair runs TA_GEMM_MVE_RUN_BIT + run. */
#define TA_GEMM_MVE_CONV_BIT 0
#define TA_GEMM_MVE_XR_BIT 3
#define TA_GEMM_MVE_XW_BIT 7
#define TA_GEMM_MVE_FC_BIT 12
#define TA_GEMM_MVE_TRIPLE_BIT 16
#define TA_GEMM_MVE_X2_BIT 17
#define TA_GEMM_MVE_RUN_BIT 19
#define TA_GEMM_MVE_MODE(base, left_shift, fix) ((base) + 2 * (left_shift) + (fix))
/* The pair runs (gemm_run_t): 3 segments of exactly 3 chunks, 3 segments of a multiple of 3,
 * 1x1 windows of a multiple of 4 chunks, windows of 3 chunks gathered two at a time. */
#define TA_GEMM_MVE_RUN_S3C3 0
#define TA_GEMM_MVE_RUN_S3L3 1
#define TA_GEMM_MVE_RUN_S1L4 2
#define TA_GEMM_MVE_RUN_S1C3 3
/* the most chunks the byte-offset loops take */
#define TA_GEMM_MVE_XR_MAX 4
/* the most chunks the two-window byte-offset loops take */
#define TA_GEMM_MVE_X2_MAX 2
/* the widest window span (bytes) read through 8-bit offsets, through 16-bit ones */
#define TA_GEMM_MVE_XR_MAX_SPAN 256
#define TA_GEMM_MVE_XW_MAX_SPAN 65536

#endif
