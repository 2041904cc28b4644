/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: flat int16 ADD / SUB with MVE (Helium) intrinsics; see ta_addsub_s16_mve.h. */
#include "ta_addsub_s16_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* One call's constants (copied out of the descriptor: the int16 stores could alias it). */
typedef struct as16m_ctx_t {
  int32_t m1, m2, mo;         /* multipliers */
  int32_t r1, r2, ro;         /* right shifts as VRSHL amounts (<= 0) */
  int32x4_t f1, f2, fo;       /* all ones where that right shift is >= 1, else 0 */
  int32_t left, out_left, out_offset;
  int32x4_t lo, hi;
} as16m_ctx_t;

/* TFLite's MultiplyByQuantizedMultiplier of x already shifted left: VQRDMULH, then the
 * rounding right shift with ties away from zero. */
static inline int32x4_t as16m_rescale(int32x4_t x, int32_t m, int32_t r, int32x4_t fix) {
  const int32x4_t h = vqrdmulhq_n_s32(x, m);
  return vrshlq_n_s32(vaddq_s32(h, vandq_s32(vshrq_n_s32(h, 31), fix)), r);
}

static inline int32x4_t as16m_four(const as16m_ctx_t *k, int32x4_t a, int32x4_t b, int subtract) {
  const int32x4_t sa = as16m_rescale(vshlq_r_s32(a, k->left), k->m1, k->r1, k->f1);
  const int32x4_t sb = as16m_rescale(vshlq_r_s32(b, k->left), k->m2, k->r2, k->f2);
  const int32x4_t raw = subtract ? vsubq_s32(sa, sb) : vaddq_s32(sa, sb);
  const int32x4_t y = vaddq_n_s32(as16m_rescale(vshlq_r_s32(raw, k->out_left), k->mo, k->ro, k->fo), k->out_offset);
  return vminq_s32(vmaxq_s32(y, k->lo), k->hi);
}

static inline int32x4_t as16m_fix(int32_t shift) { return vdupq_n_s32(shift < 0 ? -1 : 0); }

/* The usual residual ADD: in2's multiplier is exactly 0.5 (2^30, right shift 0) with
 * left_shift 15, so its rescale is b << 14 (VQRDMULH of the even b << 15 by 2^30 halves it
 * exactly, nothing to round); no left shift of the sum and no output offset (int16 zero
 * points are 0): 8 instructions fewer per 4 lanes. */
static inline int32x4_t as16m_four_half(const as16m_ctx_t *k, int32x4_t a, int32x4_t b) {
  const int32x4_t sa = as16m_rescale(vshlq_n_s32(a, 15), k->m1, k->r1, k->f1);
  const int32x4_t y = as16m_rescale(vaddq_s32(sa, vshlq_n_s32(b, 14)), k->mo, k->ro, k->fo);
  return vminq_s32(vmaxq_s32(y, k->lo), k->hi);
}

static void as16m_run(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out,
                      int subtract) {
  as16m_ctx_t k;
  k.m1 = p->in1_multiplier, k.m2 = p->in2_multiplier, k.mo = p->out_multiplier;
  k.r1 = p->in1_shift, k.r2 = p->in2_shift, k.ro = p->out_shift > 0 ? 0 : p->out_shift;
  k.f1 = as16m_fix(k.r1), k.f2 = as16m_fix(k.r2), k.fo = as16m_fix(k.ro);
  k.left = p->left_shift, k.out_left = p->out_shift > 0 ? p->out_shift : 0, k.out_offset = p->out_offset;
  k.lo = vdupq_n_s32(p->act_min), k.hi = vdupq_n_s32(p->act_max);
  int32_t n = p->bc.dims[0];
  if (!subtract && k.left == 15 && k.out_left == 0 && k.out_offset == 0) {
    /* an ADD with one input at exactly 0.5 (that one second) */
    const int h1 = k.m1 == (1 << 30) && k.r1 == 0, h2 = k.m2 == (1 << 30) && k.r2 == 0;
    if (h1 && !h2) {
      const int16_t *t = in1;
      in1 = in2, in2 = t, k.m1 = k.m2, k.r1 = k.r2, k.f1 = k.f2;
    }
    if (h1 || h2) {
      for (; n >= 4; n -= 4, in1 += 4, in2 += 4, out += 4)
        vstrhq_s32(out, as16m_four_half(&k, vldrhq_s32(in1), vldrhq_s32(in2)));
      if (n > 0) {
        const mve_pred16_t pr = vctp32q((uint32_t)n);
        vstrhq_p_s32(out, as16m_four_half(&k, vldrhq_z_s32(in1, pr), vldrhq_z_s32(in2, pr)), pr);
      }
      return;
    }
  }
  for (; n >= 4; n -= 4, in1 += 4, in2 += 4, out += 4)
    vstrhq_s32(out, as16m_four(&k, vldrhq_s32(in1), vldrhq_s32(in2), subtract));
  if (n > 0) {
    const mve_pred16_t pr = vctp32q((uint32_t)n);
    vstrhq_p_s32(out, as16m_four(&k, vldrhq_z_s32(in1, pr), vldrhq_z_s32(in2, pr), subtract), pr);
  }
}

#else

/* Plain C: TFLite's arithmetic as the portable kernel computes it. */
static int32_t as16m_rescale(int32_t x, int32_t m, int32_t shift) { return ta_requantize(x, m, shift); }

static void as16m_run(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out,
                      int subtract) {
  for (int32_t i = 0; i < p->bc.dims[0]; i++) {
    const int32_t sa = as16m_rescale((int32_t)((uint32_t)in1[i] << p->left_shift), p->in1_multiplier, p->in1_shift);
    const int32_t sb = as16m_rescale((int32_t)((uint32_t)in2[i] << p->left_shift), p->in2_multiplier, p->in2_shift);
    const int32_t raw = (int32_t)(subtract ? (uint32_t)sa - (uint32_t)sb : (uint32_t)sa + (uint32_t)sb);
    out[i] = (int16_t)ta_clamp(as16m_rescale(raw, p->out_multiplier, p->out_shift) + p->out_offset, p->act_min,
                               p->act_max);
  }
}

#endif

void ta_add_s16_mve(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  as16m_run(p, in1, in2, out, 0);
}

void ta_sub_s16_mve(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  as16m_run(p, in1, in2, out, 1);
}
