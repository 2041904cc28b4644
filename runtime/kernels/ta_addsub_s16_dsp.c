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

/* The usual layer: one input has the larger scale, so its multiplier is exactly 0.5
 * (2^30, shift 0) and its rescale is exact: SRDHM(a << 15, 2^30) = a << 14, the top-half
 * word shifted right by 2. The other input's multiplier is then below 0.5 (shift <= -1)
 * and the output's shift is negative, so both rescales round with the negative correction
 * (n >= 1): addend 2^(n-1) + (x >> 31). `exact` is the exact input (1 or 2). */
static inline int32_t as16_rescale_n(int32_t x, int32_t m, int32_t n, int32_t round) {
  return as16_mla(x, m, round + (x >> 31)) >> n;
}

static AS16_ALWAYS_INLINE int16_t as16_one_fast(int32_t x1, int32_t x2, int32_t m, int32_t n, int32_t round,
                                                int32_t mo, int32_t no, int32_t ro, int32_t lo, int32_t hi,
                                                int subtract, int exact) {
  const int32_t a = exact == 1 ? x1 >> 2 : as16_rescale_n(x1, m, n, round);
  const int32_t b = exact == 2 ? x2 >> 2 : as16_rescale_n(x2, m, n, round);
  const int32_t r = subtract ? a - b : a + b;
  return (int16_t)ta_clamp(as16_rescale_n((int32_t)((uint32_t)r << 1), mo, no, ro), lo, hi);
}

#if defined(__GNUC__) && defined(__OPTIMIZE__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* The fast form in assembly where the clamp is one instruction (act range int16's whole
 * range: SSAT 16; [0, 32767]: USAT 15), one element per step, the same integers as
 * as16_one_fast: the rescaled input x = a << 16 (LDRSH, LSL), its addend
 * 2^(n-1) + (x >> 31) and SMMLAR, the shift; the exact input's b << 14 added to it
 * (`comb`: add, sub, or rsb when the exact input is the first of a SUB); the output's
 * addend from r << 1, SMMLAR, the shift, the saturation. */
#define AS16_STEP(comb, sat)                             \
  "ldrsh %[x], [%[po]], #2\n\t"                         \
  "lsl %[x], %[x], #16\n\t"                             \
  "add %[acc], %[rd], %[x], asr #31\n\t"                \
  "smmlar %[x], %[x], %[m], %[acc]\n\t"                 \
  "ldrsh %[acc], [%[pe]], #2\n\t"                       \
  "asr %[x], %[x], %[n]\n\t"                            \
  comb                                                  \
  "lsl %[x], %[x], #1\n\t"                              \
  "add %[acc], %[ro], %[x], asr #31\n\t"                \
  "smmlar %[x], %[x], %[mo], %[acc]\n\t"                \
  "asr %[x], %[x], %[no]\n\t" sat                       \
  "strh %[x], [%[o]], #2\n\t"
#define AS16_ADD "add %[x], %[x], %[acc], lsl #14\n\t"
#define AS16_SUB "sub %[x], %[x], %[acc], lsl #14\n\t"
#define AS16_RSB "rsb %[x], %[x], %[acc], lsl #14\n\t"
#define AS16_SSAT "ssat %[x], #16, %[x]\n\t"
#define AS16_USAT "usat %[x], #15, %[x]\n\t"
#define AS16_LOOP(comb, sat)                                                                                   \
  __asm__ volatile("1:\n\t" AS16_STEP(comb, sat) "cmp %[o], %[end]\n\t"                                        \
                   "bne 1b\n\t"                                                                                 \
                   : [po] "+&r"(po), [pe] "+&r"(pe), [o] "+&r"(o), [x] "=&r"(x), [acc] "=&r"(acc)              \
                   : [m] "r"(m), [rd] "r"(round), [n] "r"(n), [mo] "r"(mo), [ro] "r"(ro), [no] "r"(no),         \
                     [end] "r"(end)                                                                            \
                   : "cc", "memory")
#define AS16_HAS_ASM 1
/* count > 0 elements; `exact` names the input read as b << 14 */
static void as16_fast_asm(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out,
                          int32_t count, int subtract, int exact, int sat) {
  const int32_t m = exact == 1 ? p->in2_multiplier : p->in1_multiplier;
  const int32_t n = -(exact == 1 ? p->in2_shift : p->in1_shift), round = (int32_t)(1u << (n - 1));
  const int32_t mo = p->out_multiplier, no = -p->out_shift, ro = (int32_t)(1u << (no - 1));
  const int16_t *po = exact == 1 ? in2 : in1, *pe = exact == 1 ? in1 : in2;
  int16_t *o = out;
  const int16_t *end = out + count;
  int32_t x, acc;
  if (!subtract) {
    if (sat == 1) AS16_LOOP(AS16_ADD, AS16_SSAT);
    else AS16_LOOP(AS16_ADD, AS16_USAT);
  } else if (exact == 2) {
    if (sat == 1) AS16_LOOP(AS16_SUB, AS16_SSAT);
    else AS16_LOOP(AS16_SUB, AS16_USAT);
  } else {
    if (sat == 1) AS16_LOOP(AS16_RSB, AS16_SSAT);
    else AS16_LOOP(AS16_RSB, AS16_USAT);
  }
  (void)x, (void)acc;
}
#else
#define AS16_HAS_ASM 0
#endif

static AS16_ALWAYS_INLINE void as16_run_fast(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2,
                                             int16_t *out, int subtract, int exact) {
  const int32_t m = exact == 1 ? p->in2_multiplier : p->in1_multiplier;
  const int32_t n = -(exact == 1 ? p->in2_shift : p->in1_shift), round = (int32_t)(1u << (n - 1));
  const int32_t mo = p->out_multiplier, no = -p->out_shift, ro = (int32_t)(1u << (no - 1));
  const int32_t lo = p->act_min, hi = p->act_max, count = p->bc.dims[0];
  int32_t i = 0;
#if AS16_HAS_ASM
  const int sat = lo == -32768 && hi == 32767 ? 1 : lo == 0 && hi == 32767 ? 2 : 0;
  if (sat && count > 0) {
    as16_fast_asm(p, in1, in2, out, count, subtract, exact, sat);
    return;
  }
#endif
  for (; i + 2 <= count; i += 2) {
    const int32_t w1 = as16_load(in1 + i), w2 = as16_load(in2 + i);
    out[i] = as16_one_fast(as16_lo(w1), as16_lo(w2), m, n, round, mo, no, ro, lo, hi, subtract, exact);
    out[i + 1] = as16_one_fast(as16_hi(w1), as16_hi(w2), m, n, round, mo, no, ro, lo, hi, subtract, exact);
  }
  if (i < count)
    out[i] = as16_one_fast(as16_lo(in1[i]), as16_lo(in2[i]), m, n, round, mo, no, ro, lo, hi, subtract, exact);
}

/* Which input is exact (1 or 2) when the fast loop applies, else 0. */
static int as16_exact_input(const ta_addsub_params_t *p) {
  if (p->out_shift > -1) return 0;
  if (p->in2_multiplier == 1 << 30 && p->in2_shift == 0 && p->in1_shift <= -1) return 2;
  if (p->in1_multiplier == 1 << 30 && p->in1_shift == 0 && p->in2_shift <= -1) return 1;
  return 0;
}

void ta_add_s16_dsp(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  const int exact = as16_exact_input(p);
  if (exact == 2) as16_run_fast(p, in1, in2, out, 0, 2);
  else if (exact == 1) as16_run_fast(p, in1, in2, out, 0, 1);
  else as16_run(p, in1, in2, out, 0);
}

void ta_sub_s16_dsp(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  const int exact = as16_exact_input(p);
  if (exact == 2) as16_run_fast(p, in1, in2, out, 1, 2);
  else if (exact == 1) as16_run_fast(p, in1, in2, out, 1, 1);
  else as16_run(p, in1, in2, out, 1);
}
