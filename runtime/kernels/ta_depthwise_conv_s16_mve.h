/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 DEPTHWISE_CONV_2D (depth multiplier 1) for Cortex-M55/M85
 * (MVE, Helium).
 *
 * NHWC int16 input: 8 channels of one pixel are one vector, the same 8 channels of one
 * tap of the int8 filter are widened by the load (VLDRB.S16), the compiler having re-laid
 * the filter as [channels / 8][taps][8] (channels zero padded to 8) so that one pointer
 * walks a block's taps; VMULLB/VMULLT give the even and odd channels' int32 products, added to two
 * int32x4 sums that start at the bias. Only the taps inside the image are visited (the
 * int16 zero point is 0), the window range being worked out once per output pixel; the
 * last partial vector of channels is predicated.
 *
 * Exactness: the `fold` requantisation of ta_gemm_s16_mve.h, per lane: the compiler
 * proved |bias| + 2^15 * sum over taps |w| < 2^31, 1 <= t <= 32 and |reduced| * 2^(32-t) <
 * 2^31 for every channel, so (acc * m + 2^31) >> 32 (VRMULH) is TFLite's
 * ((bias + dot) * reduced + 2^(t-1)) >> t. The clamped lanes are narrowed back into
 * channel order (VMOVNB/VMOVNT). Where a channel fails those bounds but 2^15 * sum over
 * taps |w| < 2^31 still holds, the sums start at 0 and each is requantised in TFLite's
 * own int64 form (`general`, ta_gemm_s16_mve.h). Channels with t > 32 (a tiny scale beside a
 * large bias; the sums from 0 inside int32) take the `wide` form of ta_gemm_s16_mve.h in
 * their lanes instead (bias and m 0 there, the wide words 0 in the fold lanes, so the two
 * parts add), which keeps such a layer on the vector requantisation.
 * Windows inside the image run as one loop over the row's inner output pixels (3x3: the
 * nine taps straight-line); only border pixels work out their tap range. Only compiled
 * when the target has MVE. */
#ifndef TA_DEPTHWISE_CONV_S16_MVE_H
#define TA_DEPTHWISE_CONV_S16_MVE_H
#include "ta_common.h"
#include "ta_gemm_s16_mve.h"

typedef struct ta_depthwise_s16_mve_params_t {
  int32_t batches, in_h, in_w, channels, out_h, out_w;
  int32_t k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
  const int32_t *rq;     /* per block of 8 channels 16 words: bias of channels 0,2,4,6,
                            bias of 1,3,5,7, then m = reduced * 2^(32-t) in the same order */
  int32_t act_min, act_max;
  const int32_t *general; /* NULL, or per channel k low, k high, reduced, t (the rq
                             bias lanes then 0) */
  const int32_t *wide;    /* NULL, or per block of 8 channels 32 words in the rq lane order:
                             reduced, k high, k low, 32 - t (0 for fold channels) */
} ta_depthwise_s16_mve_params_t;

/* filter: [ceil(channels / 8)][k_h * k_w][8] int8. */
void ta_depthwise_conv_s16_mve(const ta_depthwise_s16_mve_params_t *p, const int16_t *input, const int8_t *filter,
                               int16_t *output);

#endif
