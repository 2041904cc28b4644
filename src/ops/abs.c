/* ABS: float32; int8 (tabulated); int16 quantized (symmetric, requantised per
 * element) or unquantized (plain |x|, where TFLite Micro lets -32768 wrap). */
#include <math.h>

#include "fixed_point.h"
#include "math_unary.h"

/* |x - in_zp| rescaled by in/out scale (identity when the scales are equal, as
 * TFLite skips the rescale then) plus out_zp, saturated. The factor is divided in
 * single precision before widening, as the reference (90b983c2b3f1) does: found
 * by the oracle on an int16 case where the double quotient rounds the other way. */
static bool abs_multiplier(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, int32_t *mult,
                           int32_t *shift) {
  if (tensor_scale(in) == tensor_scale(out)) {
    mu_identity_multiplier(mult, shift);
    return true;
  }
  const float m = tensor_scale(in) / tensor_scale(out);
  return op_quant_multiplier(pc, node, (double)m, QUANT_RANGE_INT32, mult, shift,
                             "input / output scale of tensor %d '%s', tensor %d '%s'", OP_TENSOR_ARG(in),
                             OP_TENSOR_ARG(out));
}

static bool abs_int8(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out) {
  int32_t mult, shift;
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out) ||
      !abs_multiplier(pc, node, in, out, &mult, &shift))
    return false;
  EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
  if (!u) return false;
  for (int b = 0; b < 256; b++) {
    const int32_t d = ew_lut_input(u, b) - tensor_zero_point(in);
    const int32_t y = tensor_zero_point(out) + fx_requantize(d < 0 ? -d : d, mult, shift);
    u->table[b] = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
  }
  return true;
}

static bool abs_int16(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out) {
  if (in->n_quant == 0) { /* TFLite Micro's unquantized int16 path */
    MathS16 *d = mu_s16_new(pc, node, in, "ta_abs_raw_s16");
    if (d) d->raw = true;
    return d != NULL;
  }
  if (!ew_expect_symmetric(pc, node, in) || !ew_expect_symmetric(pc, node, out)) return false;
  MathS16 *d = mu_s16_new(pc, node, in, "ta_abs_q_s16");
  return d && abs_multiplier(pc, node, in, out, &d->pos_multiplier, &d->pos_shift);
}

static bool abs_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  if (!mu_expect_unary(pc, node, "ABS", MU_TYPE(TT_INT8) | MU_TYPE(TT_INT16) | MU_TYPE(TT_FLOAT32),
                       "int8, int16 and float32", &in, &out))
    return false;
  switch (in->type) {
    case TT_INT8: return abs_int8(pc, node, in, out);
    case TT_INT16: return abs_int16(pc, node, in, out);
    default: return mu_float_map(pc, node, in, "ta_abs_f32");
  }
}

const OpDef op_abs = {
    .name = "ABS",
    .builtin_code = 101,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16 (quantized or not), float32",
    .constraints = "int16 quantized: zero points 0; unquantized int16 -32768 stays -32768 (TFLite Micro wraps)",
    .prepare = abs_prepare,
    .emit = mu_unary_emit,
};
