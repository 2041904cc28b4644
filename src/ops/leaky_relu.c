/* LEAKY_RELU: non-negative inputs rescaled by in/out scale, negative ones by
 * alpha * in/out scale, as TFLite Micro computes them: int8 tabulated, int16 per
 * element (ta_unary_s16), float32 x > 0 ? x : alpha * x. */
#include "../ir/quant.h"
#include "elementwise.h"
#include "fixed_point.h"
#include "math_unary.h"
#include "op.h"


static bool leaky_relu_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, OPTS_LEAKY_RELU)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8 && in->type != TT_INT16 && in->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; LEAKY_RELU supports int8, int16 and float32",
                    op_tensor_desc(pc, in), tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, in->type) || !ew_expect_unary_shape(pc, node, in, out)) return false;
  if (in->type == TT_FLOAT32) return mu_leaky_relu_f32(pc, node, in, node->opts.leaky_relu.alpha);
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out)) return false;
  const float alpha = node->opts.leaky_relu.alpha;
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
  if (in->type == TT_INT16) {
    MathS16 *d = mu_s16_new(pc, node, in, "ta_requant_sign_s16");
    if (!d) return false;
    d->in_offset = tensor_zero_point(in);
    d->out_offset = tensor_zero_point(out);
    d->pos_multiplier = id_mult;
    d->pos_shift = id_shift;
    d->neg_multiplier = alpha_mult;
    d->neg_shift = alpha_shift;
    return true;
  }
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

static void leaky_relu_emit(EmitCtx *ec, const Model *m, const Node *node) {
  if (node_input(m, node, 0)->type == TT_FLOAT32)
    mu_leaky_relu_f32_emit(ec, m, node);
  else
    mu_unary_emit(ec, m, node);
}

const OpDef op_leaky_relu = {
    .name = "LEAKY_RELU",
    .builtin_code = 98,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "quantized: alpha * input scale / output scale is formed in single precision, as TFLite "
                   "Micro does",
    .prepare = leaky_relu_prepare,
    .emit = leaky_relu_emit,
};
