/* RSQRT: float32 (1 / sqrtf(x)) and int8, tabulated from TFLite Micro's integer
 * path: 1/sqrt of the input difference by Newton-Raphson (mu_inv_sqrt_multiplier),
 * applied to 1 << 20 and rescaled by 1 / (sqrt(input scale) * output scale). */
#include <math.h>

#include "fixed_point.h"
#include "math_unary.h"

enum { RSQRT_HEADROOM = 20 }; /* TFLite's kShift: keeps the intermediate an integer */

static bool rsqrt_int8(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out) {
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out)) return false;
  const double m = 1.0 / (sqrt((double)tensor_scale(in)) * (double)tensor_scale(out));
  int32_t mult, shift;
  if (!op_quant_multiplier(pc, node, m, QUANT_RANGE_INT32, &mult, &shift,
                           "1 / (sqrt(input scale) * output scale) of tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(in), OP_TENSOR_ARG(out)))
    return false;
  if (shift - RSQRT_HEADROOM < -31)
    return op_error(pc, node, "1 / (sqrt(input scale) * output scale) of %s is too small for int8 RSQRT",
                    op_tensor_desc(pc, in));
  EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
  if (!u) return false;
  for (int b = 0; b < 256; b++) {
    const int32_t d = ew_lut_input(u, b) - tensor_zero_point(in);
    int32_t y = 127; /* a zero difference: TFLite returns the largest output */
    if (d != 0) {
      /* Negative differences are an error in TFLite Micro; here they follow x <= 1. */
      int32_t inv_mult, inv_shift;
      mu_inv_sqrt_multiplier(d, &inv_mult, &inv_shift);
      const int32_t scaled = fx_requantize(1, inv_mult, inv_shift + RSQRT_HEADROOM);
      y = tensor_zero_point(out) + fx_requantize(scaled, mult, shift - RSQRT_HEADROOM);
    }
    u->table[b] = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
  }
  return true;
}

static bool rsqrt_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  if (!mu_expect_unary(pc, node, "RSQRT", MU_TYPE(TT_INT8) | MU_TYPE(TT_FLOAT32), "int8 and float32", &in, &out))
    return false;
  return in->type == TT_INT8 ? rsqrt_int8(pc, node, in, out) : mu_float_map(pc, node, in, "ta_rsqrt_f32");
}

const OpDef op_rsqrt = {
    .name = "RSQRT",
    .builtin_code = 76,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "int8: an input equal to the zero point gives 127; inputs below the zero point (an error in "
                   "TFLite Micro) give the output of a difference of 1; int16 is refused as TFLite Micro's "
                   "prepare refuses it (heliaAOT's int16 LUT modes are not implemented)",
    .prepare = rsqrt_prepare,
    .emit = ew_unary_emit,
};
