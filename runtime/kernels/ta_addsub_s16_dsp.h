/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16 ADD / SUB of two same-shape inputs for Cortex-M4/M7/M33 (DSP
 * extension), TFLite Micro's general-scale arithmetic (ta_elementwise.h) bit for bit.
 *
 * TFLite: each input a (zero point 0) becomes RoundingDivideByPOT(SRDHM(a << 15, M), e),
 * the sum or difference r of the two becomes RoundingDivideByPOT(SRDHM(r << l, Mo), eo),
 * clamped. Here:
 * - SRDHM(x, M) is floor((2xM + 2^31) / 2^32) (gemmlowp's nudge with truncating division
 *   rounds ties up), which SMMULR computes from 2x: for an input 2 (a << 15) is a << 16,
 *   the int16 in the top half of a word; for the output 2 (r << l) = r << (l + 1), which
 *   the compiler proved stays inside int32 for every pair of int16 inputs (else this
 *   kernel is not used);
 * - RoundingDivideByPOT by n is (y + 2^(n-1) - [y < 0]) >> n for n >= 1 and y for n = 0;
 *   the multipliers are positive, so y < 0 exactly when the multiplied x < 0 (y = 0
 *   either way gives the same result), and the addend goes into SMMLAR's accumulator:
 *   y + addend = SMMLAR(2x, M, addend).
 * Without __ARM_FEATURE_DSP the same integers in plain C. */
#ifndef TA_ADDSUB_S16_DSP_H
#define TA_ADDSUB_S16_DSP_H
#include "ta_common.h"
#include "ta_elementwise.h"

/* p->bc is one contiguous run (p->bc.dims[0] elements, both steps 1); zero input
 * offsets and output offset (p->out_offset is not read), left_shift 15, input shifts in [-31, 0], output shift in [-31, 30]. */
void ta_add_s16_dsp(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out);
void ta_sub_s16_dsp(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out);

#endif
