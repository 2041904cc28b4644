/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the contract between the compiler and ta_pooling: the bits of
 * TA_POOLING_VARIANTS by name and the window limit of the channel-group loop. Included by
 * the kernel and by the compiler, so neither writes these numbers itself. */
#ifndef TA_POOLING_CONTRACT_H
#define TA_POOLING_CONTRACT_H

/* The mask of one bit (the compiler names masks, the kernels test bits). */
#define TA_POOL_MASK(bit) (1u << (bit))

#define TA_POOL_AVG_GENERIC_BIT 0
#define TA_POOL_AVG_WORDS_BIT 1
#define TA_POOL_AVG16_WORDS_BIT 2
#define TA_POOL_AVG_WORDS_MAX_CELLS 256

#endif
