/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the contract between the compiler and ta_depthwise_conv_mve: the bits of
 * TA_DEPTHWISE_CONV_MVE_VARIANTS by name (and the values they name). Included by the kernel and by the
 * compiler's tier code, so neither writes these numbers itself. */
#ifndef TA_DEPTHWISE_CONV_MVE_CONTRACT_H
#define TA_DEPTHWISE_CONV_MVE_CONTRACT_H

/* The mask of one bit (the compiler names masks, the kernels test bits). */
#define TA_DW_MVE_MASK(bit) (1u << (bit))

/* Loops compiled (ta_config.h): 16-channel groups, bit TA_DW_MVE_BIT16(simple, shape) with
 * shape 0..5 = whole 3x3, its clipped 2x3, 3x2 and 2x2 parts, one column (k_w 1), any;
 * 8-channel groups, bit TA_DW_MVE_BIT8(simple, shape) with shape TA_DW_MVE_SHAPE8 (0 =
 * whole 3x3, 1..3 = rows of that many taps, 4 = any). A window whose loop is missing runs
 * the general loop of its shape, else the plain C loop over the same tables. */
#define TA_DW_MVE_BIT16(simple, shape) ((simple) ? 6 + (shape) : (shape))
#define TA_DW_MVE_BIT8(simple, shape) (12 + ((simple) ? 5 : 0) + (shape))
#define TA_DW_MVE_SHAPE8(full3x3, n_kx) ((full3x3) ? 0 : (n_kx) >= 1 && (n_kx) <= 3 ? (int)(n_kx) : 4)
/* The 16-channel loops also compile a loop for layers of exactly one group (16 channels,
 * or packed); BIT_PACK: some layer packs pixels (else the kernel skips the tests). */
#define TA_DW_MVE_BIT_ONE 22
#define TA_DW_MVE_BIT_PACK 23
/* The layer form (lanes16 == 2: the 16-channel tables, one call for the whole layer, the
 * window shape switched per pixel): bit TA_DW_MVE_BIT_LAYER(shape) per shape (0..5 as for
 * TA_DW_MVE_BIT16; bit 24 the whole 3x3, 25 its clipped parts, 26 one column, 27 any),
 * with the requantisation: TA_DW_MVE_BIT_LAYER_S (simple), _P (negative_fix 2 and no left
 * shift) or _G (general). A layer whose form is not compiled runs the loops above. */
#define TA_DW_MVE_BIT_LAYER(shape) (24 + ((shape) == 0 ? 0 : (shape) <= 3 ? 1 : (shape) - 2))
#define TA_DW_MVE_BIT_LAYER_S 28
#define TA_DW_MVE_BIT_LAYER_P 29
#define TA_DW_MVE_BIT_LAYER_G 30

/* In place, a one-pixel-wide layer runs its column in blocks of at most this many output
 * rows (channel groups inside a block), so that it reads no input row above its block
 * once it has written into it (the compiler's dw_inplace
 * relies on it). */
#define TA_DW_MVE_INPLACE_ROWS 1

#endif
