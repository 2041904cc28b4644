/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 DEPTHWISE_CONV_2D (depth multiplier 1) for Cortex-M cores with MVE (Helium).
 *
 * Pixels go in runs that share a border class (one call each). Channels go 8 at a time:
 * int8 inputs widened to int16 lanes, multiplied by pre-widened
 * int16 weights into two int32 accumulators, one for the even channels (0, 2, 4, 6) of the
 * group and one for the odd channels (1, 3, 5, 7). Every per-channel table is laid out in
 * that lane order and padded to a multiple of 8 channels; the last group is predicated.
 * As in the DSP tier, the compiler lists per output row/column the taps that read inside
 * the image and a border class, and folds the input zero point into one bias table per
 * (row class, column class), so padded taps cost nothing.
 * Requantisation is TFLite's MultiplyByQuantizedMultiplier: a wrapping left shift, the
 * rounding doubling high multiply (exactly VQRDMULH), and a rounding right shift whose
 * ties go away from zero (VRSHL rounds them up: negative values are first lowered by 1
 * when the shift is not 0; skipped when every negative result is clamped anyway). The
 * wrapping left shift is skipped where no channel shifts left (simple, no_left_shift).
 * Layers of 16 channels or more (lanes16) go 16 channels at a time instead (when the
 * count is not a multiple of 16, the last group is the last 16 channels, overlapping the
 * group before it, so nothing is read or written past a pixel's channels): int8 weights
 * and inputs multiplied into int16 products (vmullb/vmullt.s8), the products of two taps
 * summed in int16 before they are widened into four int32 accumulators. That sum cannot overflow: |x| <= 128 and the compiler only picks this
 * layout when no weight is -128, so each product is within 128 * 127 and two within
 * 32512. The accumulators hold channels {0,4,8,12}, {2,6,10,14}, {1,5,9,13} and
 * {3,7,11,15} of the group (lane l of accumulator a: channel 4l + {0,2,1,3}[a]); the
 * per-channel tables list the 16 channels in that order.
 * Layers of 8 channels or fewer with stride_w 1 (pack) also take the 16-channel loops:
 * `pack` neighbouring output pixels of a row read 16 contiguous input bytes per tap, so
 * one vector holds them all, with the weights and tables repeated per pixel.
 * Without __ARM_FEATURE_MVE the same arithmetic runs in plain C. */
#ifndef TA_DEPTHWISE_CONV_MVE_H
#define TA_DEPTHWISE_CONV_MVE_H
#include "ta_common.h"
#include "ta_depthwise_conv_mve_contract.h"

typedef struct ta_depthwise_conv_mve_params_t {
  int32_t batches;
  int32_t in_h, in_w, channels;
  int32_t out_h, out_w;
  int32_t k_h, k_w;
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_h, pad_w;
  int32_t col_classes;
  int32_t output_zero_point;
  int32_t act_min, act_max;
  int32_t negative_fix;      /* 0 when act_min >= output_zero_point; 2 (lanes16 only): and every channel
                                shifts right */
  int32_t simple;            /* no left shift and no negative fix in the layer */
  int32_t no_left_shift;     /* no left shift in the layer (the 16-channel general loops skip it) */
  const int16_t *rows;       /* [out_h][3]: first tap, end tap, class */
  const int16_t *cols;       /* [out_w][3] */
  const int32_t *bias;       /* [row class][column class][groups][8], lane order */
  const int16_t *weights;    /* [groups][k_h * k_w][8], channel order */
  const int32_t *quant;      /* [groups][3][8]: multiplier, left shift, -right shift; lane order */
  int32_t lanes16;           /* 16-channel groups (2: in the layer form, TA_DW_MVE_BIT_LAYER): weights8, and
                                bias/quant with 16 per group:
                                bias [row class][column class][groups][16], quant [groups][3][16],
                                both in lane order */
  const int8_t *weights8;    /* lanes16: [groups][k_h * k_w][16], channel order; pack: [k_h * k_w][16] */
  int32_t pack;              /* > 1: a layer of 16 / pack channels (stride_w 1): `pack` neighbouring pixels
                                of a row run as one 16-channel group (lane j: channel j % channels of
                                pixel j / channels; weights8, pack_bias and pack_quant in that lane
                                layout); the pixels left over run in 8-channel groups */
  const int32_t *pack_bias;  /* pack: [row class][column class][16], lane order */
  const int32_t *pack_quant; /* pack: [3][16], lane order */
} ta_depthwise_conv_mve_params_t;

/* Loops compiled: see ta_depthwise_conv_mve_contract.h. */
#ifndef TA_DEPTHWISE_CONV_MVE_VARIANTS
#define TA_DEPTHWISE_CONV_MVE_VARIANTS 0xffffffffu
#endif

void ta_depthwise_conv_mve_s8(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output);
/* In place (issue 17): writes the output at `temp` (over the dying input, where the
 * operator's in-place contract allows), then moves its `bytes` to `output`. */
void ta_depthwise_conv_mve_s8_inplace(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *temp,
                                      int8_t *output, int32_t bytes);

#endif
