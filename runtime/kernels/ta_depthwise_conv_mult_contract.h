/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the contract between the compiler and the depth-multiplier kernels
 * (ta_depthwise_conv_mult_dsp, ta_depthwise_conv_mult_mve): their shared descriptor, the
 * DSP weight layout and its limits by name. Included by the kernels and by the compiler's
 * tier code, so neither writes these numbers itself. */
#ifndef TA_DEPTHWISE_CONV_MULT_CONTRACT_H
#define TA_DEPTHWISE_CONV_MULT_CONTRACT_H

/* DSP: taps go in groups of TA_DW_MULT_TAP_GROUP (one word of int8 weights, unpacked by
 * two SXTB16 into the operands of two SMLAD); a channel's taps are padded with zero
 * weights to a whole group. Channels go in blocks of TA_DW_MULT_CH_BLOCK of one input
 * channel, interleaved per tap group: weights [in_c][block][group][channel][4]; the
 * multiplier's last (multiplier % 4) channels follow their blocks one by one, [group][4]. */
#define TA_DW_MULT_TAP_GROUP 4
#define TA_DW_MULT_CH_BLOCK 4
/* The window (k_h * k_w taps, rounded up to a group) is gathered on the kernel's stack
 * (DSP: every pixel, 3 bytes a tap; MVE: pixels on the border, 1 byte a tap); larger
 * windows stay on the portable kernel. */
#define TA_DW_MULT_MAX_TAPS 128

/* Defined (with the module's prefix), the kernels run their plain C on any core: the
 * suites' check of that code on the target. */
/* #define TA_DW_MULT_PLAIN_C */

#endif
