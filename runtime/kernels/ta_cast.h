/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: CAST between bool, uint8, int8, int16, int32, uint32, int64 and
 * float32, elementwise, ignoring any quantization (as TensorFlow Lite Micro does).
 *
 * ta_cast_<from>_<to>(size, in, out) for every pair of the suffixes
 * b (bool, one byte), u8, s8, s16, s32, u32, s64, f32:
 *  - to bool: x != 0; from bool: a non-zero byte is 1;
 *  - integer to a narrower integer keeps the low bits (two's complement wrap);
 *  - float32 to an integer truncates toward zero; a value outside int32 (int64 for
 *    the int64 and uint32 outputs) or NaN becomes INT32_MIN (INT64_MIN) before the
 *    narrowing, which is what TensorFlow Lite Micro's static_cast does on the x86
 *    host its reference outputs come from (C leaves it undefined);
 *  - integer to float32 rounds to nearest. */
#ifndef TA_CAST_H
#define TA_CAST_H
#include "ta_common.h"

#define TA_CAST_TYPES(X) \
  X(b, uint8_t)          \
  X(u8, uint8_t)         \
  X(s8, int8_t)          \
  X(s16, int16_t)        \
  X(s32, int32_t)        \
  X(u32, uint32_t)       \
  X(s64, int64_t)        \
  X(f32, float)

#define TA_CAST_DECLARE_TO(from, FromT)                                            \
  void ta_cast_##from##_b(int32_t size, const FromT *in, uint8_t *out);            \
  void ta_cast_##from##_u8(int32_t size, const FromT *in, uint8_t *out);           \
  void ta_cast_##from##_s8(int32_t size, const FromT *in, int8_t *out);            \
  void ta_cast_##from##_s16(int32_t size, const FromT *in, int16_t *out);          \
  void ta_cast_##from##_s32(int32_t size, const FromT *in, int32_t *out);          \
  void ta_cast_##from##_u32(int32_t size, const FromT *in, uint32_t *out);         \
  void ta_cast_##from##_s64(int32_t size, const FromT *in, int64_t *out);          \
  void ta_cast_##from##_f32(int32_t size, const FromT *in, float *out);

TA_CAST_TYPES(TA_CAST_DECLARE_TO)

#endif
