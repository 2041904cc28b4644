/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16 ADD / SUB of two same-shape inputs for Cortex-M55/M85 (MVE,
 * Helium), TFLite Micro's general-scale arithmetic (ta_elementwise.h) bit for bit.
 *
 * Four elements per vector, widened to int32 lanes by the loads (VLDRH.S32), the last
 * partial vector tail-predicated. Each input is shifted left by left_shift, rescaled and
 * the sum (or difference) rescaled to the output, every rescale TFLite's
 * MultiplyByQuantizedMultiplier:
 * - SaturatingRoundingDoublingHighMul is VQRDMULH: both are floor((2ab + 2^31) / 2^32),
 *   saturated for INT32_MIN * INT32_MIN (gemmlowp's nudge 1 - 2^30 for a negative product
 *   with truncating division makes its ties round up, like VQRDMULH's);
 * - RoundingDivideByPOT by n >= 1 rounds ties away from zero, VRSHL by -n rounds them up:
 *   (x + 2^(n-1) - [x < 0]) >> n is TFLite's, so a negative x is lowered by 1 first
 *   (never wrapping: after VQRDMULH x > INT32_MIN), and nothing is added when n = 0.
 * Input zero points are 0 (the compiler only picks this kernel then; TFLite requires it for
 * int16). Without __ARM_FEATURE_MVE the same is computed in plain C. */
#ifndef TA_ADDSUB_S16_MVE_H
#define TA_ADDSUB_S16_MVE_H
#include "ta_common.h"
#include "ta_elementwise.h"

/* p->bc is one contiguous run (p->bc.dims[0] elements, both steps 1). */
void ta_add_s16_mve(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out);
void ta_sub_s16_mve(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out);

#endif
