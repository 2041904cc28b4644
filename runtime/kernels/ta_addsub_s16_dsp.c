/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16 ADD / SUB with DSP-extension instructions (ta_addsub_s16_dsp.h). */
#include "ta_addsub_s16_dsp.h"

#if defined(__GNUC__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* acc + floor((x * m + 2^31) / 2^32): SMMLAR. */
static inline int32_t as16_mla(int32_t x, int32_t m, int32_t acc) {
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(m), "r"(acc));
  return r;
}
#else
static inline int32_t as16_mla(int32_t x, int32_t m, int32_t acc) {
  return acc + (int32_t)(((int64_t)x * m + ((int64_t)1 << 31)) >> 32);
}
#endif

/* One rescale: x is twice TFLite's shifted value; n = -shift >= 0. */
typedef struct as16_scale_t {
  int32_t m, n, round, neg; /* round 2^(n-1) (0 for n = 0); neg -1 for n >= 1, else 0 */
} as16_scale_t;

static as16_scale_t as16_scale(int32_t multiplier, int32_t shift) {
  as16_scale_t s;
  s.m = multiplier;
  s.n = shift < 0 ? -shift : 0;
  s.round = s.n > 0 ? (int32_t)(1u << (s.n - 1)) : 0;
  s.neg = s.n > 0 ? -1 : 0;
  return s;
}

static inline int32_t as16_rescale(int32_t x, const as16_scale_t *s) {
  return as16_mla(x, s->m, s->round + ((x >> 31) & s->neg)) >> s->n;
}

/* Both inputs' top-half words (a << 16) of the two elements of a word. */
static inline int32_t as16_lo(int32_t w) { return (int32_t)((uint32_t)w << 16); }
static inline int32_t as16_hi(int32_t w) { return (int32_t)((uint32_t)w & 0xFFFF0000u); }

static inline int32_t as16_load(const int16_t *x) {
  int32_t v;
  memcpy(&v, x, sizeof v);
  return v;
}

#if defined(__GNUC__)
#define AS16_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define AS16_ALWAYS_INLINE inline
#endif

/* One output from both inputs' a << 16 values. */
static AS16_ALWAYS_INLINE int16_t as16_one(int32_t x1, int32_t x2, const as16_scale_t *s1, const as16_scale_t *s2,
                                           const as16_scale_t *so, int32_t out_left, int32_t lo, int32_t hi,
                                           int subtract) {
  const int32_t a = as16_rescale(x1, s1), b = as16_rescale(x2, s2);
  const int32_t r = subtract ? a - b : a + b;
  const int32_t y = as16_rescale((int32_t)((uint32_t)r << out_left), so);
  return (int16_t)ta_clamp(y, lo, hi);
}

static AS16_ALWAYS_INLINE void as16_run(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2,
                                        int16_t *out, int subtract) {
  const as16_scale_t s1 = as16_scale(p->in1_multiplier, p->in1_shift);
  const as16_scale_t s2 = as16_scale(p->in2_multiplier, p->in2_shift);
  const as16_scale_t so = as16_scale(p->out_multiplier, p->out_shift);
  const int32_t out_left = (p->out_shift > 0 ? p->out_shift : 0) + 1, lo = p->act_min, hi = p->act_max;
  const int32_t n = p->bc.dims[0];
  int32_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const int32_t w1 = as16_load(in1 + i), w2 = as16_load(in2 + i);
    out[i] = as16_one(as16_lo(w1), as16_lo(w2), &s1, &s2, &so, out_left, lo, hi, subtract);
    out[i + 1] = as16_one(as16_hi(w1), as16_hi(w2), &s1, &s2, &so, out_left, lo, hi, subtract);
  }
  if (i < n)
    out[i] = as16_one(as16_lo(in1[i]), as16_lo(in2[i]), &s1, &s2, &so, out_left, lo, hi, subtract);
}

void ta_add_s16_dsp(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  as16_run(p, in1, in2, out, 0);
}

void ta_sub_s16_dsp(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  as16_run(p, in1, in2, out, 1);
}
