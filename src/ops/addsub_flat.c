/* Compile-time plans of the flat int8 ADD / SUB kernels; see addsub_flat.h. */
#include "addsub_flat.h"

#include <string.h>

#include "fixed_point.h"

/* Pre-offsets of the sum tried, and the largest final shift: 2^(32 + e) times an
 * output value must stay far inside int64 in the interval arithmetic below. */
enum { SEARCH_OFFSETS = 256, MAX_FINAL_SHIFT = 22 };

#define BOUND_SUM ((int64_t)1 << 29) /* |rescaled sum|: leaves room for the pre-offset */
#define NO_BOUND ((int64_t)1 << 62)

/* One input byte on the common scale, as TFLite computes it. */
static int32_t input_scaled(const EwArith *d, int which, int32_t v) {
  const int32_t offset = which ? d->in2_offset : d->in1_offset;
  const int32_t mult = which ? d->in2_multiplier : d->in1_multiplier;
  const int32_t shift = which ? d->in2_shift : d->in1_shift;
  return fx_requantize((v + offset) * (1 << d->left_shift), mult, shift);
}

static int64_t clamp64(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* The output for a sum (or difference) of rescaled inputs, as TFLite computes it. */
static int32_t output_of_sum(const EwArith *d, int32_t raw) {
  const int32_t r = fx_requantize(raw, d->out_multiplier, d->out_shift) + d->out_offset;
  return (int32_t)clamp64(r, d->act_min, d->act_max);
}

int32_t addsub_flat_reference(const EwArith *d, bool subtract, int32_t a, int32_t b) {
  const int32_t sa = input_scaled(d, 0, a), sb = input_scaled(d, 1, b);
  return output_of_sum(d, subtract ? sa - sb : sa + sb);
}

/* The kernel's sum for a pair (int64 so that the plan can check it fits int32). */
static int64_t plan_sum(const AddFlatPlan *p, int32_t a, int32_t b) {
  const int32_t g = p->swap ? b : a, l = p->swap ? a : b;
  return (int64_t)p->table[(uint8_t)g] + (int64_t)l * p->lin_mult;
}

/* The kernel's value before the final shift. */
static int64_t plan_high(const AddFlatPlan *p, int64_t sum) {
  if (p->tier == ADDFLAT_MVE) return p->out_add + ((2 * sum * p->out_mult + ((int64_t)1 << 31)) >> 32);
  return p->out_add + ((sum * p->out_mult) >> 32);
}

int32_t addsub_flat_eval(const AddFlatPlan *p, int32_t a, int32_t b) {
  return (int32_t)clamp64(plan_high(p, plan_sum(p, a, b)) >> p->out_shift, p->act_min, p->act_max);
}

/* True when s[v + 128] = v * slope + s[128] for every byte v. */
static bool affine(const int32_t *s, int32_t *slope) {
  *slope = s[1] - s[0];
  for (int i = 2; i < 256; i++)
    if (s[i] - s[i - 1] != *slope) return false;
  return true;
}

/* The interval [*lo, *hi] of constants B with which floor((sum * m + B) / 2^shift)
 * clamped to the activation range is TFLite's result for every input pair. */
static bool constant_interval(const EwArith *d, const int32_t s[2][256], int gen, int64_t m,
                              int shift, int64_t *lo, int64_t *hi) {
  *lo = -NO_BOUND;
  *hi = NO_BOUND;
  for (int i = 0; i < 256; i++) {
    for (int j = 0; j < 256; j++) {
      const int64_t sum = (int64_t)s[gen][i] + s[1 - gen][j];
      if (sum > BOUND_SUM || sum < -BOUND_SUM) return false;
      const int64_t t = output_of_sum(d, (int32_t)sum);
      const int64_t x = sum * m;
      /* a result clamped from below only needs the kernel's to be as low; from above, as high */
      if (t > d->act_min && t * ((int64_t)1 << shift) - x > *lo) *lo = t * ((int64_t)1 << shift) - x;
      if (t < d->act_max && (t + 1) * ((int64_t)1 << shift) - 1 - x < *hi) *hi = (t + 1) * ((int64_t)1 << shift) - 1 - x;
    }
  }
  return *lo <= *hi;
}

/* Every pair gives TFLite's result (s: the inputs' rescaled values, input 2's negated
 * for SUB), and the kernel's int32 intermediates do not wrap (the MVE multiply-
 * accumulate would saturate). */
static bool plan_exact(const EwArith *d, const int32_t s[2][256], const AddFlatPlan *p) {
  for (int32_t a = -128; a < 128; a++) {
    for (int32_t b = -128; b < 128; b++) {
      const int64_t sum = plan_sum(p, a, b);
      if (sum > INT32_MAX || sum < INT32_MIN) return false;
      const int64_t high = plan_high(p, sum);
      if (high > INT32_MAX || high < INT32_MIN) return false;
      if (addsub_flat_eval(p, a, b) != output_of_sum(d, s[0][a + 128] + s[1][b + 128])) return false;
    }
  }
  return true;
}

/* Fills the table for a pre-offset of the sum and the additive constant, and checks. */
static bool plan_with(const EwArith *d, const int32_t s[2][256], int gen, int64_t offset, int32_t add,
                      AddFlatPlan *p) {
  p->out_add = add;
  for (int u = 0; u < 256; u++) {
    const int64_t v = (int64_t)s[gen][(int8_t)(uint8_t)u + 128] + s[1 - gen][128] + offset;
    if (v > INT32_MAX || v < INT32_MIN) return false;
    p->table[u] = (int32_t)v;
  }
  return plan_exact(d, s, p);
}

/* Rounds x / 2^32 up. */
static int64_t ceil_div32(int64_t x) { return -((-x) >> 32); }

bool addsub_flat_plan(const EwArith *d, bool subtract, AddFlatTier tier, AddFlatPlan *p) {
  memset(p, 0, sizeof *p);
  if (d->out_shift > 0 || d->out_multiplier <= 0) return false;
  int32_t s[2][256];
  for (int32_t v = -128; v < 128; v++) {
    s[0][v + 128] = input_scaled(d, 0, v);
    s[1][v + 128] = subtract ? -input_scaled(d, 1, v) : input_scaled(d, 1, v);
  }
  int32_t slope;
  int lin;
  if (affine(s[1], &slope))
    lin = 1;
  else if (affine(s[0], &slope))
    lin = 0;
  else
    return false;
  const int gen = 1 - lin;
  p->tier = tier;
  p->swap = gen == 1;
  p->lin_mult = slope;
  p->out_mult = d->out_multiplier;
  p->act_min = d->act_min;
  p->act_max = d->act_max;
  /* MVE doubles the product and rounds at 2^31; the scalar kernel does neither */
  const int64_t m = tier == ADDFLAT_MVE ? 2 * (int64_t)d->out_multiplier : d->out_multiplier;
  const int64_t round = tier == ADDFLAT_MVE ? (int64_t)1 << 31 : 0;
  p->out_shift = tier == ADDFLAT_MVE ? -d->out_shift : -d->out_shift - 1;
  if (p->out_shift < 0 || p->out_shift > MAX_FINAL_SHIFT) return false;
  int64_t lo, hi;
  if (!constant_interval(d, s, gen, m, 32 + p->out_shift, &lo, &hi)) return false;
  /* Scalar: the whole constant as a pre-offset of the sum (a multiple of m inside the
   * interval), so that the kernel adds nothing after its high multiply. */
  if (tier == ADDFLAT_SCALAR) {
    const int64_t offset = -((round - lo) / m); /* about ceil((lo - round) / m); neighbours tried */
    for (int64_t o = offset - 1; o <= offset + 1; o++)
      if (o * m + round >= lo && o * m + round <= hi && o > -BOUND_SUM && o < BOUND_SUM &&
          plan_with(d, s, gen, o, 0, p))
        return true;
    return false;
  }
  /* MVE: a small pre-offset and the additive constant (VQRDMLASH adds it for free),
   * near the one TFLite's rounding suggests: the middle of the zero point's step. */
  const int64_t natural = d->out_offset * ((int64_t)1 << (32 + p->out_shift)) + ((int64_t)1 << (31 + p->out_shift));
  for (int k = 0; k <= 2 * SEARCH_OFFSETS; k++) {
    const int64_t offset = k % 2 ? (k + 1) / 2 : -(k / 2); /* 0, 1, -1, 2, ... */
    const int64_t a_lo = ceil_div32(lo - offset * m - round), a_hi = (hi - offset * m - round) >> 32;
    if (a_lo > a_hi) continue;
    const int64_t add = clamp64((natural - offset * m - round) >> 32, a_lo, a_hi);
    if (add <= INT32_MAX && add >= INT32_MIN && plan_with(d, s, gen, offset, (int32_t)add, p)) return true;
  }
  return false;
}
