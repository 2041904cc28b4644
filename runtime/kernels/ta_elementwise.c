/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: elementwise binary operators with NumPy broadcasting.
 *
 * Every operator is a "row" function (one run of the innermost dimension, each input
 * with its own element step) driven by the broadcast walker of ta_bcast.h. The per-element
 * arithmetic reproduces TFLite Micro's reference kernels bit for bit. */
#include "ta_elementwise.h"
#include "ta_bcast.h"

/* ---- quantized ADD / SUB ----------------------------------------------------- */

/* One input on the common pre-output scale: offset, shift left, rescale. */
static int32_t addsub_scaled(int32_t v, int32_t offset, int32_t left_shift, int32_t multiplier, int32_t shift) {
  return ta_requantize((v + offset) * (1 << left_shift), multiplier, shift);
}

static int32_t addsub_one(const ta_addsub_params_t *p, int32_t a, int32_t b, int subtract) {
  const int32_t sa = addsub_scaled(a, p->in1_offset, p->left_shift, p->in1_multiplier, p->in1_shift);
  const int32_t sb = addsub_scaled(b, p->in2_offset, p->left_shift, p->in2_multiplier, p->in2_shift);
  const int32_t raw = subtract ? sa - sb : sa + sb;
  const int32_t result = ta_requantize(raw, p->out_multiplier, p->out_shift) + p->out_offset;
  return ta_clamp(result, p->act_min, p->act_max);
}

static void add_s8_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                       int32_t n) {
  const int8_t *a = (const int8_t *)v1, *b = (const int8_t *)v2;
  int8_t *o = (int8_t *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2)
    o[i] = (int8_t)addsub_one((const ta_addsub_params_t *)vp, *a, *b, 0);
}

static void add_s16_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                        int32_t n) {
  const int16_t *a = (const int16_t *)v1, *b = (const int16_t *)v2;
  int16_t *o = (int16_t *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2)
    o[i] = (int16_t)addsub_one((const ta_addsub_params_t *)vp, *a, *b, 0);
}

static void sub_s8_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                       int32_t n) {
  const int8_t *a = (const int8_t *)v1, *b = (const int8_t *)v2;
  int8_t *o = (int8_t *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2)
    o[i] = (int8_t)addsub_one((const ta_addsub_params_t *)vp, *a, *b, 1);
}

static void sub_s16_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                        int32_t n) {
  const int16_t *a = (const int16_t *)v1, *b = (const int16_t *)v2;
  int16_t *o = (int16_t *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2)
    o[i] = (int16_t)addsub_one((const ta_addsub_params_t *)vp, *a, *b, 1);
}

void ta_add_s8(const ta_addsub_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out) {
  ta_bcast_walk(&p->bc, in1, 1, in2, 1, out, 1, add_s8_row, p);
}

void ta_add_s16(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  ta_bcast_walk(&p->bc, in1, 2, in2, 2, out, 2, add_s16_row, p);
}

void ta_sub_s8(const ta_addsub_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out) {
  ta_bcast_walk(&p->bc, in1, 1, in2, 1, out, 1, sub_s8_row, p);
}

void ta_sub_s16(const ta_addsub_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  ta_bcast_walk(&p->bc, in1, 2, in2, 2, out, 2, sub_s16_row, p);
}

/* ---- SQUARED_DIFFERENCE --------------------------------------------------------- */

/* Like SUB, but the difference is squared before the (possibly > 1) output rescale. */
static void sqdiff_s8_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                          int32_t n) {
  const ta_addsub_params_t *p = (const ta_addsub_params_t *)vp;
  const int8_t *a = (const int8_t *)v1, *b = (const int8_t *)v2;
  int8_t *o = (int8_t *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) {
    const int32_t sa = addsub_scaled(*a, p->in1_offset, p->left_shift, p->in1_multiplier, p->in1_shift);
    const int32_t sb = addsub_scaled(*b, p->in2_offset, p->left_shift, p->in2_multiplier, p->in2_shift);
    const int32_t diff = sa - sb;
    const int32_t result = ta_requantize(diff * diff, p->out_multiplier, p->out_shift) + p->out_offset;
    o[i] = (int8_t)ta_clamp(result, p->act_min, p->act_max);
  }
}

void ta_squared_difference_s8(const ta_addsub_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out) {
  ta_bcast_walk(&p->bc, in1, 1, in2, 1, out, 1, sqdiff_s8_row, p);
}

/* ---- quantized MUL ------------------------------------------------------------- */

static int32_t mul_one(const ta_mul_params_t *p, int32_t a, int32_t b) {
  const int32_t product = (a + p->in1_offset) * (b + p->in2_offset);
  const int32_t result = ta_requantize(product, p->out_multiplier, p->out_shift) + p->out_offset;
  return ta_clamp(result, p->act_min, p->act_max);
}

static void mul_s8_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                       int32_t n) {
  const int8_t *a = (const int8_t *)v1, *b = (const int8_t *)v2;
  int8_t *o = (int8_t *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = (int8_t)mul_one((const ta_mul_params_t *)vp, *a, *b);
}

static void mul_s16_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                        int32_t n) {
  const int16_t *a = (const int16_t *)v1, *b = (const int16_t *)v2;
  int16_t *o = (int16_t *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = (int16_t)mul_one((const ta_mul_params_t *)vp, *a, *b);
}

void ta_mul_s8(const ta_mul_params_t *p, const int8_t *in1, const int8_t *in2, int8_t *out) {
  ta_bcast_walk(&p->bc, in1, 1, in2, 1, out, 1, mul_s8_row, p);
}

void ta_mul_s16(const ta_mul_params_t *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  ta_bcast_walk(&p->bc, in1, 2, in2, 2, out, 2, mul_s16_row, p);
}

/* ---- float32 ADD / SUB / MUL ------------------------------------------------------ */

/* TFLite's ActivationFunctionWithMinMax: max then min, NaN passes through. */
static float clamp_f32(float x, float lo, float hi) {
  const float y = x < lo ? lo : x;
  return hi < y ? hi : y;
}

static void add_f32_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                        int32_t n) {
  const ta_arith_f32_params_t *p = (const ta_arith_f32_params_t *)vp;
  const float *a = (const float *)v1, *b = (const float *)v2;
  float *o = (float *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = clamp_f32(*a + *b, p->act_min, p->act_max);
}

static void sub_f32_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                        int32_t n) {
  const ta_arith_f32_params_t *p = (const ta_arith_f32_params_t *)vp;
  const float *a = (const float *)v1, *b = (const float *)v2;
  float *o = (float *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = clamp_f32(*a - *b, p->act_min, p->act_max);
}

static void mul_f32_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                        int32_t n) {
  const ta_arith_f32_params_t *p = (const ta_arith_f32_params_t *)vp;
  const float *a = (const float *)v1, *b = (const float *)v2;
  float *o = (float *)vo;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = clamp_f32(*a * *b, p->act_min, p->act_max);
}

void ta_add_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out) {
  ta_bcast_walk(&p->bc, in1, sizeof(float), in2, sizeof(float), out, sizeof(float), add_f32_row, p);
}

void ta_sub_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out) {
  ta_bcast_walk(&p->bc, in1, sizeof(float), in2, sizeof(float), out, sizeof(float), sub_f32_row, p);
}

void ta_mul_f32(const ta_arith_f32_params_t *p, const float *in1, const float *in2, float *out) {
  ta_bcast_walk(&p->bc, in1, sizeof(float), in2, sizeof(float), out, sizeof(float), mul_f32_row, p);
}

/* ---- MAXIMUM / MINIMUM ------------------------------------------------------------ */

static void maximum_s8_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                           int32_t n) {
  const int8_t *a = (const int8_t *)v1, *b = (const int8_t *)v2;
  int8_t *o = (int8_t *)vo;
  (void)vp;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = *a > *b ? *a : *b;
}

static void minimum_s8_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                           int32_t n) {
  const int8_t *a = (const int8_t *)v1, *b = (const int8_t *)v2;
  int8_t *o = (int8_t *)vo;
  (void)vp;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = *a < *b ? *a : *b;
}

void ta_maximum_s8(const ta_bcast_t *bc, const int8_t *in1, const int8_t *in2, int8_t *out) {
  ta_bcast_walk(bc, in1, 1, in2, 1, out, 1, maximum_s8_row, bc);
}

void ta_minimum_s8(const ta_bcast_t *bc, const int8_t *in1, const int8_t *in2, int8_t *out) {
  ta_bcast_walk(bc, in1, 1, in2, 1, out, 1, minimum_s8_row, bc);
}

/* ---- PRELU ----------------------------------------------------------------------- */

static void prelu_s8_row(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,
                         int32_t n) {
  const ta_prelu_params_t *p = (const ta_prelu_params_t *)vp;
  const int8_t *x = (const int8_t *)v1, *alpha = (const int8_t *)v2;
  int8_t *o = (int8_t *)vo;
  for (int32_t i = 0; i < n; i++, x += s1, alpha += s2) {
    const int32_t v = *x + p->input_offset;
    int32_t result;
    if (v >= 0)
      result = ta_requantize(v, p->pos_multiplier, p->pos_shift);
    else
      result = ta_requantize(v * (*alpha + p->alpha_offset), p->neg_multiplier, p->neg_shift);
    o[i] = (int8_t)ta_clamp(result + p->out_offset, -128, 127);
  }
}

void ta_prelu_s8(const ta_prelu_params_t *p, const int8_t *input, const int8_t *alpha, int8_t *out) {
  ta_bcast_walk(&p->bc, input, 1, alpha, 1, out, 1, prelu_s8_row, p);
}
