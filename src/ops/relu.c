/* RELU: int8 (rescaled to the output quantization, tabulated), int16 (symmetric,
 * rescaled per element) and float32. */
#include <math.h>

#include "../ir/quant.h"
#include "elementwise.h"
#include "fixed_point.h"
#include "math_unary.h"
#include "op.h"

/* The rescale factor is divided in single precision and then widened, as the reference
 * (90b983c2b3f1) does: the double quotient rounds the other way where a rescaled input
 * sits within 2^-24 of a .5 tie (found/relu_int8_tie_a: (39 + 49) * m = 127.5000025 in
 * double, 127.4999990 from the float quotient). */
static bool relu_multiplier(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, int32_t *mult,
                            int32_t *shift) {
  const float m = tensor_scale(in) / tensor_scale(out);
  return op_quant_multiplier(pc, node, (double)m, QUANT_RANGE_INT32, mult, shift,
                             "input / output scale of tensor %d '%s', tensor %d '%s'", OP_TENSOR_ARG(in),
                             OP_TENSOR_ARG(out));
}

/* int8: out = clamp(out_zp + requantize(x - in_zp), max(-128, out_zp), 127). */
static bool tabulate_int8(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, EwUnary *u) {
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out)) return false;
  int32_t multiplier, shift;
  if (!relu_multiplier(pc, node, in, out, &multiplier, &shift)) return false;
  const int32_t out_zp = tensor_zero_point(out);
  const int32_t lo = out_zp > -128 ? out_zp : -128;
  for (int b = 0; b < 256; b++) {
    const int32_t y = out_zp + fx_requantize(ew_lut_input(u, b) - tensor_zero_point(in), multiplier, shift);
    u->table[b] = (int8_t)(y < lo ? lo : y > 127 ? 127 : y);
  }
  return true;
}

/* int16: TFLite Micro's RELU requires zero points 0; out = clamp(requantize(x), 0, 32767). */
static bool relu_int16(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out) {
  if (!ew_expect_symmetric(pc, node, in) || !ew_expect_symmetric(pc, node, out)) return false;
  MathS16 *d = mu_s16_new(pc, node, in, "ta_requant_sign_s16");
  if (!d) return false;
  if (!relu_multiplier(pc, node, in, out, &d->pos_multiplier, &d->pos_shift)) return false;
  d->neg_multiplier = d->pos_multiplier;
  d->neg_shift = d->pos_shift;
  d->act_min = 0;
  return true;
}

static bool relu_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8 && in->type != TT_INT16 && in->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; RELU supports int8, int16 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, in->type) || !ew_expect_unary_shape(pc, node, in, out)) return false;
  if (in->type == TT_FLOAT32) return ew_unary_new(pc, node, EW_PLAIN_F32, in, "ta_relu_f32") != NULL;
  if (in->type == TT_INT16) return relu_int16(pc, node, in, out);
  EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
  return u && tabulate_int8(pc, node, in, out, u);
}

const OpDef op_relu = {
    .name = "RELU",
    .builtin_code = 19,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "int16: zero points 0",
    .prepare = relu_prepare,
    .emit = mu_unary_emit,
};
