/* MUL: elementwise product with NumPy broadcasting and a fused activation; int8,
 * int16 (zero points 0, as TFLite Micro requires) and float32. */
#include "../ir/quant.h"
#include "binary_ext.h"
#include "elementwise.h"
#include "op.h"

/* (a - zp1) * (b - zp2) rescaled by scale1 * scale2 / scale_out (in double). */
static bool mul_prepare_quantized(PrepareCtx *pc, Node *node, EwArith *d, int act, const Tensor *a,
                                  const Tensor *b, const Tensor *out) {
  if (out->type == TT_INT16) {
    if (!ew_expect_symmetric(pc, node, a) || !ew_expect_symmetric(pc, node, b) ||
        !ew_expect_symmetric(pc, node, out))
      return false;
  } else if (!ew_expect_quant(pc, node, a) || !ew_expect_quant(pc, node, b) || !ew_expect_quant(pc, node, out)) {
    return false;
  }
  d->in1_offset = -tensor_zero_point(a);
  d->in2_offset = -tensor_zero_point(b);
  d->out_offset = tensor_zero_point(out);
  const double m = (double)tensor_scale(a) * (double)tensor_scale(b) / (double)tensor_scale(out);
  /* ta_mul_* apply it with ta_requantize */
  if (!op_quant_multiplier(pc, node, m, QUANT_RANGE_INT32, &d->out_multiplier, &d->out_shift,
                           "input 1 x input 2 / output scale of tensor %d '%s', tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(a), OP_TENSOR_ARG(b), OP_TENSOR_ARG(out)))
    return false;
  if (!quant_activation_range(act, out->type, tensor_scale(out), d->out_offset, &d->act_min, &d->act_max))
    return op_error(pc, node, "cannot compute the activation range");
  return true;
}

static const EwArithOp mul_arith = {
    .name = "MUL",
    .options = OPTS_MUL,
    .params = EW_MUL_PARAMS,
    .kernel_s8 = "ta_mul_s8",
    .kernel_s16 = "ta_mul_s16",
    .kernel_f32 = "ta_mul_f32",
    .macs_per_element = true,
    .prepare_quantized = mul_prepare_quantized,
};

/* int32: plain wrapping arithmetic. */
static const BxOp mul_i32 = {
    .name = "MUL",
    .options = OPTS_MUL,
    .activation = BX_ACT_NONE_ONLY,
    .type = TT_INT32,
    .kernel = "ta_mul_i32",
    .macs_per_element = true,
};

static bool mul_prepare(PrepareCtx *pc, Node *node) {
  if (node->n_out == 1 && node_output(pc->model, node, 0)->type == TT_INT32)
    return bx_prepare_plain(pc, node, &mul_i32);
  return ew_arith_prepare(pc, node, &mul_arith);
}

const OpDef op_mul = {
    .name = "MUL",
    .builtin_code = 18,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, float32",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions; int16 needs zero "
                   "points 0; fused NONE/RELU/RELU_N1_TO_1/RELU6 (int32: NONE only, wrapping)",
    .prepare = mul_prepare,
    .emit = bx_arith_emit,
};
