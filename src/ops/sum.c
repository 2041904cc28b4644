/* SUM (int8): TFLite's QuantizedMeanOrSum with compute_sum: the zero-point-corrected
 * sum requantized by input_scale / output_scale. */
#include "../resolve/quant.h"
#include "data_movement.h"
#include "reduce_common.h"

static const TensorType sum_types[] = {TT_INT8};

static bool sum_prepare(PrepareCtx *pc, Node *node) {
  ReducePlan *rp;
  if (!reduce_prepare_common(pc, node, &rp)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, sum_types, 1, "") || !op_expect_quantized(pc, node, in) ||
      !op_expect_quantized(pc, node, out))
    return false;
  rp->input_zero_point = tensor_zero_point(in);
  rp->output_zero_point = tensor_zero_point(out);
  if (!op_quant_multiplier(pc, node, (double)tensor_scale(in) / (double)tensor_scale(out), QUANT_RANGE_INT32,
                           &rp->multiplier, &rp->shift, "input / output scale of tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(in), OP_TENSOR_ARG(out)))
    return false;
  rp->kernel = "ta_reduce_sum_s8";
  node->kernel = rp->kernel;
  return true;
}

const OpDef op_sum = {
    .name = "SUM",
    .builtin_code = 74,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "constant int32 axes; rank <= 6",
    .prepare = sum_prepare,
    .emit = reduce_emit,
};
