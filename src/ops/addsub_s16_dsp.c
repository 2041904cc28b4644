/* int16 ADD / SUB on the Cortex-M4 DSP tier: the exactness conditions of
 * ta_addsub_s16_dsp.h, checked at compile time. */
#include "addsub_s16_dsp.h"

#include <stdint.h>

/* TFLite's rescale of x (MultiplyByQuantizedMultiplier, shift <= 0), in int64. */
static int64_t as16_reference(int64_t x, int32_t multiplier, int32_t shift) {
  const int64_t y = (2 * x * multiplier + ((int64_t)1 << 31)) >> 32; /* SRDHM, |2xM| < 2^63 */
  const int32_t n = -shift;
  if (n == 0) return y;
  return (y + ((int64_t)1 << (n - 1)) - (y < 0 ? 1 : 0)) >> n;
}

/* One input's rescaled value for the int16 value a. */
static int64_t as16_input(int32_t a, int32_t multiplier, int32_t shift) {
  return as16_reference((int64_t)a * 32768, multiplier, shift);
}

bool addsub_s16_dsp_fits(const EwArith *d, bool subtract) {
  /* the kernel adds no output zero point (TFLite Micro allows any for int16 ADD/SUB) */
  if (d->in1_offset != 0 || d->in2_offset != 0 || d->out_offset != 0 || d->left_shift != 15) return false;
  if (d->in1_multiplier < 0 || d->in2_multiplier < 0 || d->out_multiplier < 0) return false;
  if (d->in1_shift > 0 || d->in1_shift < -31 || d->in2_shift > 0 || d->in2_shift < -31) return false;
  if (d->out_shift > 30 || d->out_shift < -31) return false;
  const int64_t a_lo = as16_input(-32768, d->in1_multiplier, d->in1_shift);
  const int64_t a_hi = as16_input(32767, d->in1_multiplier, d->in1_shift);
  const int64_t b_lo = as16_input(-32768, d->in2_multiplier, d->in2_shift);
  const int64_t b_hi = as16_input(32767, d->in2_multiplier, d->in2_shift);
  const int64_t r_lo = subtract ? a_lo - b_hi : a_lo + b_lo, r_hi = subtract ? a_hi - b_lo : a_hi + b_hi;
  const int32_t left = (d->out_shift > 0 ? d->out_shift : 0) + 1;
  /* |r| < 2^31 here, so the shifted bounds stay inside int64 */
  const int64_t lo = r_lo * ((int64_t)1 << left), hi = r_hi * ((int64_t)1 << left);
  return lo >= INT32_MIN && hi <= INT32_MAX;
}
