/* LEAKY_RELU: int8, tabulated: non-negative inputs rescaled by in/out scale,
 * negative ones by alpha * in/out scale, as TFLite Micro computes them. */
#include "../resolve/quant.h"
#include "elementwise.h"
#include "fixed_point.h"
#include "op.h"

enum { LEAKY_RELU_OPTIONS = 75, LEAKY_RELU_OPT_ALPHA = 0 };

static bool leaky_relu_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, LEAKY_RELU_OPTIONS)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8)
    return op_error(pc, node, "%s has dtype %s; LEAKY_RELU supports int8", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, TT_INT8) || !ew_expect_unary_shape(pc, node, in, out) ||
      !ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out))
    return false;
  const float alpha = fb_f32(&node->options, LEAKY_RELU_OPT_ALPHA, 0.0f);
  /* TFLite forms both factors in float before widening them to double. */
  const float alpha_factor = tensor_scale(in) * alpha / tensor_scale(out);
  const float identity_factor = tensor_scale(in) / tensor_scale(out);
  int32_t alpha_mult, alpha_shift, id_mult, id_shift;
  if (!op_quant_multiplier(pc, node, (double)alpha_factor, QUANT_RANGE_INT32, &alpha_mult, &alpha_shift,
                           "input x alpha / output scale of tensor %d '%s', %g, tensor %d '%s'", OP_TENSOR_ARG(in),
                           (double)alpha, OP_TENSOR_ARG(out)) ||
      !op_quant_multiplier(pc, node, (double)identity_factor, QUANT_RANGE_INT32, &id_mult, &id_shift,
                           "input / output scale of tensor %d '%s', tensor %d '%s'", OP_TENSOR_ARG(in),
                           OP_TENSOR_ARG(out)))
    return false;
  EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
  if (!u) return false;
  for (int b = 0; b < 256; b++) {
    const int32_t x = ew_lut_input(u, b) - tensor_zero_point(in);
    const int32_t y = tensor_zero_point(out) + (x >= 0 ? fx_requantize(x, id_mult, id_shift)
                                                       : fx_requantize(x, alpha_mult, alpha_shift));
    u->table[b] = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
  }
  return true;
}

const OpDef op_leaky_relu = {
    .name = "LEAKY_RELU",
    .builtin_code = 98,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "",
    .prepare = leaky_relu_prepare,
    .emit = ew_unary_emit,
};
