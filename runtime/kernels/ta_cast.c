/* SPDX-License-Identifier: MIT-0 */
#include "ta_cast.h"

/* Every source value is read into one of two carriers: int64_t (integers and bool)
 * or float; every destination is written from either. */

static int64_t f32_to_i32_host(float f) { /* x86 cvttss2si: out of range / NaN -> INT32_MIN */
  return (f > -2147483904.0f && f < 2147483648.0f) ? (int64_t)(int32_t)f : (int64_t)INT32_MIN;
}

static int64_t f32_to_i64_host(float f) { /* 64-bit cvttss2si */
  return (f > -9223373136366403584.0f && f < 9223372036854775808.0f) ? (int64_t)f : INT64_MIN;
}

/* Load: the carrier value of one element. */
#define TA_LOAD_b(v) ((int64_t)((v) != 0))
#define TA_LOAD_u8(v) ((int64_t)(v))
#define TA_LOAD_s8(v) ((int64_t)(v))
#define TA_LOAD_s16(v) ((int64_t)(v))
#define TA_LOAD_s32(v) ((int64_t)(v))
#define TA_LOAD_u32(v) ((int64_t)(v))
#define TA_LOAD_s64(v) ((int64_t)(v))
#define TA_LOAD_f32(v) (v)

/* Store from an integer carrier x (int64_t). */
#define TA_STORE_INT_b(x) ((uint8_t)((x) != 0))
#define TA_STORE_INT_u8(x) ((uint8_t)(uint64_t)(x))
#define TA_STORE_INT_s8(x) ((int8_t)(uint8_t)(uint64_t)(x))
#define TA_STORE_INT_s16(x) ((int16_t)(uint16_t)(uint64_t)(x))
#define TA_STORE_INT_s32(x) ((int32_t)(uint32_t)(uint64_t)(x))
#define TA_STORE_INT_u32(x) ((uint32_t)(uint64_t)(x))
#define TA_STORE_INT_s64(x) ((int64_t)(x))
#define TA_STORE_INT_f32(x) ((float)(x))

/* Store from a float carrier f. */
#define TA_STORE_FLT_b(f) ((uint8_t)((f) != 0.0f))
#define TA_STORE_FLT_u8(f) TA_STORE_INT_u8(f32_to_i32_host(f))
#define TA_STORE_FLT_s8(f) TA_STORE_INT_s8(f32_to_i32_host(f))
#define TA_STORE_FLT_s16(f) TA_STORE_INT_s16(f32_to_i32_host(f))
#define TA_STORE_FLT_s32(f) TA_STORE_INT_s32(f32_to_i32_host(f))
#define TA_STORE_FLT_u32(f) TA_STORE_INT_u32(f32_to_i64_host(f))
#define TA_STORE_FLT_s64(f) f32_to_i64_host(f)
#define TA_STORE_FLT_f32(f) (f)

/* The carrier kind of each source: INT, or FLT for float32. */
#define TA_KIND_b INT
#define TA_KIND_u8 INT
#define TA_KIND_s8 INT
#define TA_KIND_s16 INT
#define TA_KIND_s32 INT
#define TA_KIND_u32 INT
#define TA_KIND_s64 INT
#define TA_KIND_f32 FLT

/* Two levels so that TA_KIND_<from> expands before the paste. */
#define TA_STORE_KIND(kind, to, x) TA_STORE_X(kind, to, x)
#define TA_STORE_X(kind, to, x) TA_STORE_##kind##_##to(x)
#define TA_STORE_FROM(from, to, x) TA_STORE_KIND(TA_KIND_##from, to, x)

#define TA_CAST_ONE(from, FromT, to, ToT)                                     \
  void ta_cast_##from##_##to(int32_t size, const FromT *in, ToT *out) {       \
    for (int32_t i = 0; i < size; i++) out[i] = TA_STORE_FROM(from, to, TA_LOAD_##from(in[i])); \
  }

#define TA_CAST_DEFINE_TO(from, FromT)         \
  TA_CAST_ONE(from, FromT, b, uint8_t)         \
  TA_CAST_ONE(from, FromT, u8, uint8_t)        \
  TA_CAST_ONE(from, FromT, s8, int8_t)         \
  TA_CAST_ONE(from, FromT, s16, int16_t)       \
  TA_CAST_ONE(from, FromT, s32, int32_t)       \
  TA_CAST_ONE(from, FromT, u32, uint32_t)      \
  TA_CAST_ONE(from, FromT, s64, int64_t)       \
  TA_CAST_ONE(from, FromT, f32, float)

TA_CAST_TYPES(TA_CAST_DEFINE_TO)
