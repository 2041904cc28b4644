/* SUM. int8 / int16: TFLite's QuantizedMeanOrSum with compute_sum: the
 * zero-point-corrected sum requantized by input_scale / output_scale. float32: the
 * float sum in input order. */
#include "../ir/quant.h"
#include "data_movement.h"
#include "reduce_common.h"

static const TensorType sum_types[] = {TT_INT8, TT_INT16, TT_FLOAT32};

static bool sum_prepare(PrepareCtx *pc, Node *node) {
  ReducePlan *rp;
  if (!reduce_prepare_common(pc, node, &rp)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, sum_types, 3, "")) return false;
  if (in->type == TT_FLOAT32) {
    rp->kernel = "ta_reduce_sum_f32";
    node->kernel = rp->kernel;
    return true;
  }
  if (!op_expect_quantized(pc, node, in) || !op_expect_quantized(pc, node, out) ||
      !reduce_expect_sum_bound(pc, node, in, rp))
    return false;
  rp->input_zero_point = tensor_zero_point(in);
  rp->output_zero_point = tensor_zero_point(out);
  if (!op_quant_multiplier(pc, node, (double)tensor_scale(in) / (double)tensor_scale(out), QUANT_RANGE_INT32,
                           &rp->multiplier, &rp->shift, "input / output scale of tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(in), OP_TENSOR_ARG(out)))
    return false;
  rp->kernel = in->type == TT_INT16 ? "ta_reduce_sum_s16" : "ta_reduce_sum_s8";
  node->kernel = rp->kernel;
  return true;
}

const OpDef op_sum = {
    .name = "SUM",
    .builtin_code = 74,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "constant int32 axes; rank <= 6; int16 sums at most 2^16 elements",
    .prepare = sum_prepare,
    .emit = reduce_emit,
};
