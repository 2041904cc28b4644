/* tinyaot runtime: int8 DEPTHWISE_CONV_2D (depth multiplier 1) for Cortex-M cores with MVE (Helium).
 *
 * Channels go 8 at a time: int8 inputs widened to int16 lanes, multiplied by pre-widened
 * int16 weights into two int32 accumulators, one for the even channels (0, 2, 4, 6) of the
 * group and one for the odd channels (1, 3, 5, 7). Every per-channel table is laid out in
 * that lane order and padded to a multiple of 8 channels; the last group is predicated.
 * As in the DSP tier, the compiler lists per output row/column the taps that read inside
 * the image and a border class, and folds the input zero point into one bias table per
 * (row class, column class), so padded taps cost nothing.
 * Requantisation is TFLite's MultiplyByQuantizedMultiplier: a wrapping left shift, the
 * rounding doubling high multiply (exactly VQRDMULH), and a rounding right shift whose
 * ties go away from zero (VRSHL rounds them up: negative values are first lowered by 1
 * when the shift is not 0; skipped when every negative result is clamped anyway).
 * Without __ARM_FEATURE_MVE the same arithmetic runs in plain C. */
#ifndef TA_DEPTHWISE_CONV_MVE_H
#define TA_DEPTHWISE_CONV_MVE_H
#include "ta_common.h"

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
  int32_t negative_fix;      /* 0 when act_min >= output_zero_point */
  int32_t simple;            /* no left shift and no negative fix in the layer */
  const int16_t *rows;       /* [out_h][3]: first tap, end tap, class */
  const int16_t *cols;       /* [out_w][3] */
  const int32_t *bias;       /* [row class][column class][groups][8], lane order */
  const int16_t *weights;    /* [groups][k_h * k_w][8], channel order */
  const int32_t *quant;      /* [groups][3][8]: multiplier, left shift, -right shift; lane order */
} ta_depthwise_conv_mve_params_t;

void ta_depthwise_conv_mve_s8(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output);

#endif
