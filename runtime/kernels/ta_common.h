/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: fixed-point helpers shared by every kernel family.
 *
 * These reproduce TFLite's integer arithmetic bit for bit: the saturating rounding
 * doubling high multiply, rounding division by a power of two, and requantisation
 * by a (multiplier, shift) pair computed by the compiler. C99, no heap. */
#ifndef TA_COMMON_H
#define TA_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ta_config.h"

/* The widest assembly loops of the DSP and MVE kernels need every register but sp and
 * pc. A build that keeps a frame pointer (-fno-omit-frame-pointer: r7 on Thumb) must
 * define TA_NO_WIDE_ASM (with the module prefix: <PREFIX>_TA_NO_WIDE_ASM; the module's
 * Makefile and CMakeLists.txt add it when they see that flag), and those loops run their
 * C equivalents, with the same results. */

#define TA_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TA_MAX(a, b) ((a) > (b) ? (a) : (b))

static inline int32_t ta_clamp(int32_t x, int32_t lo, int32_t hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/* High 32 bits of 2*a*b, rounded half away from zero, saturated for INT32_MIN^2. */
static inline int32_t ta_sat_round_doubling_high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  int64_t ab = (int64_t)a * (int64_t)b;
  int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* x / 2^exponent, rounded to nearest with ties away from zero. */
static inline int32_t ta_rounding_divide_by_pot(int32_t x, int exponent) {
  int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* TFLite MultiplyByQuantizedMultiplier (int32 accumulator, double rounding). */
static inline int32_t ta_requantize(int32_t x, int32_t multiplier, int32_t shift) {
  int left = shift > 0 ? shift : 0;
  int right = shift > 0 ? 0 : -shift;
  int32_t shifted = (int32_t)((uint32_t)x << left); /* wraps like TFLite's int32 multiply */
  return ta_rounding_divide_by_pot(ta_sat_round_doubling_high_mul(shifted, multiplier), right);
}

/* TFLite MultiplyByQuantizedMultiplier for int64 accumulators (16x8 kernels). */
static inline int32_t ta_requantize64(int64_t x, int32_t multiplier, int32_t shift) {
  int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  int total_shift = 15 - shift;
  int64_t round = (int64_t)1 << (total_shift - 1);
  int64_t result = x * (int64_t)reduced + round;
  return (int32_t)(result >> total_shift);
}

/* In-place execution: moves an operator's output (n bytes) from the temporary its kernel
 * wrote to its own place in the same arena; the ranges may overlap. Both pointers are
 * 4-byte aligned (arena offsets are multiples of 16): whole words, in the direction that
 * reads every word before it is overwritten. */
static inline void ta_move_output(int8_t *dst, const int8_t *src, int32_t n) {
  uint32_t w;
  int32_t i;
  if (dst > src) {
    for (i = n; i & 3;) {
      i--;
      dst[i] = src[i];
    }
    for (; i > 0;) {
      i -= 4;
      memcpy(&w, src + i, 4);
      memcpy(dst + i, &w, 4);
    }
  } else if (dst < src) {
    for (i = 0; i + 4 <= n; i += 4) {
      memcpy(&w, src + i, 4);
      memcpy(dst + i, &w, 4);
    }
    for (; i < n; i++) dst[i] = src[i];
  }
}

#endif
