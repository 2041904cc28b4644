/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: flat int8 ADD / SUB with compile-time folded constants; see ta_addsub_flat.h. */
#include "ta_addsub_flat.h"

/* Without an activation beyond int8's range the clamp is a saturation (one SSAT). */
#if defined(__ARM_FEATURE_SAT)
#include <arm_acle.h>
static inline int32_t flat_sat8(int32_t x) { return __ssat(x, 8); }
#else
static inline int32_t flat_sat8(int32_t x) { return x < -128 ? -128 : (x > 127 ? 127 : x); }
#endif

/* out_add is 0 for this kernel (the compiler folds the constant into the table). The
 * parameters are copied to locals: the int8 stores could alias *p, and GCC would
 * reload every field per element. */
void ta_addsub_s8_flat(const ta_addsub_flat_params_t *p, const int8_t *table_in, const int8_t *affine_in,
                       int8_t *out) {
  const int32_t *table = p->table;
  const int32_t n = p->size, step = p->lin_mult, mult = p->out_mult, shift = p->out_shift;
  const int32_t lo = p->act_min, hi = p->act_max;
  if (lo == -128 && hi == 127) {
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) { /* unrolled: the loop test is a fifth of the work otherwise */
      const int32_t s0 = table[(uint8_t)table_in[i]] + affine_in[i] * step;
      const int32_t s1 = table[(uint8_t)table_in[i + 1]] + affine_in[i + 1] * step;
      const int32_t s2 = table[(uint8_t)table_in[i + 2]] + affine_in[i + 2] * step;
      const int32_t s3 = table[(uint8_t)table_in[i + 3]] + affine_in[i + 3] * step;
      out[i] = (int8_t)flat_sat8((int32_t)(((int64_t)s0 * mult) >> 32) >> shift);
      out[i + 1] = (int8_t)flat_sat8((int32_t)(((int64_t)s1 * mult) >> 32) >> shift);
      out[i + 2] = (int8_t)flat_sat8((int32_t)(((int64_t)s2 * mult) >> 32) >> shift);
      out[i + 3] = (int8_t)flat_sat8((int32_t)(((int64_t)s3 * mult) >> 32) >> shift);
    }
    for (; i < n; i++) {
      const int32_t sum = table[(uint8_t)table_in[i]] + affine_in[i] * step;
      out[i] = (int8_t)flat_sat8((int32_t)(((int64_t)sum * mult) >> 32) >> shift);
    }
    return;
  }
  for (int32_t i = 0; i < n; i++) {
    const int32_t sum = table[(uint8_t)table_in[i]] + affine_in[i] * step;
    out[i] = (int8_t)ta_clamp((int32_t)(((int64_t)sum * mult) >> 32) >> shift, lo, hi);
  }
}

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

typedef struct mve_flat_t {
  const int32_t *table;
  int32_t step, add, right;
  int32x4_t mult, lo, hi;
} mve_flat_t;

/* Rescales four sums, clamps them. */
static inline int32x4_t mve_out(const mve_flat_t *k, int32x4_t sum) {
  const int32x4_t r = vshlq_r_s32(vqrdmlashq_n_s32(sum, k->mult, k->add), k->right);
  return vminq_s32(vmaxq_s32(r, k->lo), k->hi);
}

static inline void mve_four(const mve_flat_t *k, const int8_t *t, const int8_t *a, int8_t *o) {
  const int32x4_t sum = vldrwq_gather_shifted_offset_s32(k->table, vldrbq_u32((const uint8_t *)t));
  vstrbq_s32(o, mve_out(k, vmlaq_n_s32(sum, vldrbq_s32(a), k->step)));
}

static inline void mve_four_tail(const mve_flat_t *k, const int8_t *t, const int8_t *a, int8_t *o,
                                 mve_pred16_t pred) {
  const int32x4_t sum = vldrwq_gather_shifted_offset_z_s32(k->table, vldrbq_z_u32((const uint8_t *)t, pred), pred);
  vstrbq_p_s32(o, mve_out(k, vmlaq_n_s32(sum, vldrbq_z_s32(a, pred), k->step)), pred);
}

void ta_addsub_s8_flat_mve(const ta_addsub_flat_params_t *p, const int8_t *table_in, const int8_t *affine_in,
                           int8_t *out) {
  mve_flat_t k;
  k.table = p->table;
  k.step = p->lin_mult;
  k.add = p->out_add;
  k.right = -p->out_shift;
  k.mult = vdupq_n_s32(p->out_mult);
  k.lo = vdupq_n_s32(p->act_min);
  k.hi = vdupq_n_s32(p->act_max);
  int32_t n = p->size;
  for (; n >= 16; n -= 16, table_in += 16, affine_in += 16, out += 16) {
    mve_four(&k, table_in, affine_in, out);
    mve_four(&k, table_in + 4, affine_in + 4, out + 4);
    mve_four(&k, table_in + 8, affine_in + 8, out + 8);
    mve_four(&k, table_in + 12, affine_in + 12, out + 12);
  }
  for (; n > 0; n -= 4, table_in += 4, affine_in += 4, out += 4)
    mve_four_tail(&k, table_in, affine_in, out, vctp32q((uint32_t)n));
}

#else

/* Plain C with the MVE kernel's rounding (doubled product, rounded at 2^31). */
void ta_addsub_s8_flat_mve(const ta_addsub_flat_params_t *p, const int8_t *table_in, const int8_t *affine_in,
                           int8_t *out) {
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t sum = p->table[(uint8_t)table_in[i]] + affine_in[i] * p->lin_mult;
    const int32_t h = p->out_add + (int32_t)((2 * (int64_t)sum * p->out_mult + ((int64_t)1 << 31)) >> 32);
    out[i] = (int8_t)ta_clamp(h >> p->out_shift, p->act_min, p->act_max);
  }
}

#endif
