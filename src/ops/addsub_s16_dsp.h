/* int16 ADD / SUB on the Cortex-M4 DSP tier (runtime/kernels/ta_addsub_s16_dsp.h):
 * whether a layer's rescales fit the kernel's exact arithmetic. */
#ifndef TINYAOT_OPS_ADDSUB_S16_DSP_H
#define TINYAOT_OPS_ADDSUB_S16_DSP_H
#include <stdbool.h>

#include "elementwise.h"

/* True when the kernel computes TFLite's result for every pair of int16 inputs: zero
 * input and output offsets (the kernel adds no output zero point), left shift 15, non-negative multipliers, input shifts in [-31, 0], output
 * shift in [-31, 30], and twice the shifted sum (difference) inside int32 over the whole
 * input range (evaluated at the input extremes: each rescale is monotonic). */
bool addsub_s16_dsp_fits(const EwArith *d, bool subtract);

#endif
