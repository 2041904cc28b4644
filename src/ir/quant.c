/* Compile-time quantization arithmetic: multipliers, activation ranges, constant reads. */
#include "quant.h"

#include <limits.h>
#include <math.h>
#include <string.h>

void quant_multiplier(double m, int32_t *q, int32_t *shift) {
  if (m == 0.0 || !isfinite(m)) {
    *q = 0;
    *shift = 0;
    return;
  }
  int e = 0;
  double frac = frexp(m, &e);
  int64_t fixed = (int64_t)round(frac * (double)(1LL << 31));
  if (fixed == (1LL << 31)) {
    fixed /= 2;
    e++;
  }
  if (e < -31) {
    e = 0;
    fixed = 0;
  }
  *q = (int32_t)fixed;
  *shift = e;
}

QuantFit quant_multiplier_fit(double m, QuantRange range, int32_t *q, int32_t *shift) {
  quant_multiplier(m, q, shift);
  if (!isfinite(m)) return QUANT_NOT_FINITE;
  if (*q == 0) return QUANT_FITS;
  if (*shift > range.max_shift) return QUANT_SHIFT_TOO_HIGH;
  if (*shift < range.min_shift) return QUANT_SHIFT_TOO_LOW;
  return QUANT_FITS;
}

static bool type_range(TensorType type, int32_t *lo, int32_t *hi) {
  switch (type) {
    case TT_INT8: *lo = -128; *hi = 127; return true;
    case TT_UINT8: *lo = 0; *hi = 255; return true;
    case TT_INT16: *lo = -32768; *hi = 32767; return true;
    case TT_INT32: *lo = INT32_MIN; *hi = INT32_MAX; return true;
    default: return false;
  }
}

/* zero_point + round(f / scale), computed in float as TFLite does. A hostile scale
 * makes the quotient overflow int32 (undefined in C): saturate instead; every caller
 * clamps to the type's range, so valid models are unaffected. */
static int32_t quantize_value(float f, float scale, int32_t zp) {
  float q = roundf(f / scale);
  if (q != q) q = 0.f; /* 0 / 0 */
  int64_t steps = q >= 2147483648.f ? INT32_MAX : q <= -2147483648.f ? INT32_MIN : (int64_t)q;
  int64_t v = (int64_t)zp + steps;
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

bool quant_activation_range(int act, TensorType type, float scale, int32_t zp, int32_t *mn, int32_t *mx) {
  int32_t lo, hi;
  if (!type_range(type, &lo, &hi)) return false;
  switch (act) {
    case ACT_NONE: *mn = lo; *mx = hi; return true;
    case ACT_RELU:
      *mn = quantize_value(0.f, scale, zp) > lo ? quantize_value(0.f, scale, zp) : lo;
      *mx = hi;
      return true;
    case ACT_RELU6: {
      int32_t z = quantize_value(0.f, scale, zp), s = quantize_value(6.f, scale, zp);
      *mn = z > lo ? z : lo;
      *mx = s < hi ? s : hi;
      return true;
    }
    case ACT_RELU_N1_TO_1: {
      int32_t a = quantize_value(-1.f, scale, zp), b = quantize_value(1.f, scale, zp);
      *mn = a > lo ? a : lo;
      *mx = b < hi ? b : hi;
      return true;
    }
    default: return false;
  }
}

bool quant_activation_range_f32(int act, float *mn, float *mx) {
  switch (act) {
    case ACT_NONE: *mn = -INFINITY; *mx = INFINITY; return true;
    case ACT_RELU: *mn = 0.f; *mx = INFINITY; return true;
    case ACT_RELU6: *mn = 0.f; *mx = 6.f; return true;
    case ACT_RELU_N1_TO_1: *mn = -1.f; *mx = 1.f; return true;
    default: return false;
  }
}

float tensor_scale(const Tensor *t) { return t->n_quant > 0 ? t->scale[0] : 0.f; }
int32_t tensor_zero_point(const Tensor *t) { return t->n_quant > 0 ? (int32_t)t->zero_point[0] : 0; }

bool tensor_same_quant(const Tensor *a, const Tensor *b) {
  if (a->type != b->type || a->n_quant != b->n_quant) return false;
  if (a->n_quant == 0) return true;
  return a->n_quant == 1 && tensor_scale(a) == tensor_scale(b) && tensor_zero_point(a) == tensor_zero_point(b);
}

static uint64_t rd_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

int32_t const_i32(const Tensor *t, int64_t i) { return (int32_t)(uint32_t)rd_le(t->data + 4 * i, 4); }
int64_t const_i64(const Tensor *t, int64_t i) { return (int64_t)rd_le(t->data + 8 * i, 8); }
int16_t const_i16(const Tensor *t, int64_t i) { return (int16_t)(uint16_t)rd_le(t->data + 2 * i, 2); }
float const_f32(const Tensor *t, int64_t i) {
  uint32_t u = (uint32_t)rd_le(t->data + 4 * i, 4);
  float f;
  memcpy(&f, &u, 4);
  return f;
}
