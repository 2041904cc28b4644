/* MEAN. float32: float sum in input order divided by the count (TFLite's 4D
 * axes-{1,2} special case computes the same). int8: TFLite Micro's QuantizedMeanOrSum
 * (int16 alike, with int16 clamps) for every axis set (its reference kernel no longer has the 4D axes-{1,2} integer
 * path nor the equal-quantization shortcut: the goldens confirm it), i.e. the
 * zero-point-corrected sum requantized by input_scale / output_scale with 1/count
 * folded into the multiplier. */
#include "../ir/quant.h"
#include "data_movement.h"
#include "reduce_common.h"

static const TensorType mean_types[] = {TT_INT8, TT_INT16, TT_FLOAT32};

/* Folds 1/count into (multiplier, shift) as TFLite's QuantizedMeanOrSum does. */
static bool fold_count(PrepareCtx *pc, const Node *node, ReducePlan *rp) {
  int shift = 0;
  while (shift < 63 && ((uint64_t)rp->reduce_count >> (shift + 1)) != 0) shift++; /* floor(log2(count)) */
  if (shift > 32) shift = 32;
  if (shift > 31 + rp->shift) shift = 31 + rp->shift;
  if (shift < 0) return op_error(pc, node, "the input/output scale ratio is too small to represent");
  rp->multiplier = (int32_t)(((int64_t)rp->multiplier << shift) / rp->reduce_count);
  rp->shift -= shift;
  return true;
}

static bool mean_prepare_int8(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, ReducePlan *rp) {
  if (!op_expect_quantized(pc, node, in) || !op_expect_quantized(pc, node, out) ||
      !reduce_expect_sum_bound(pc, node, in, rp))
    return false;
  rp->input_zero_point = tensor_zero_point(in);
  rp->output_zero_point = tensor_zero_point(out);
  /* folding 1/count below only lowers the shift */
  if (!op_quant_multiplier(pc, node, (double)tensor_scale(in) / (double)tensor_scale(out), QUANT_RANGE_INT32,
                           &rp->multiplier, &rp->shift, "input / output scale of tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(in), OP_TENSOR_ARG(out)))
    return false;
  rp->kernel = in->type == TT_INT16 ? "ta_reduce_sum_s16" : "ta_reduce_sum_s8";
  return fold_count(pc, node, rp);
}

static bool mean_prepare(PrepareCtx *pc, Node *node) {
  ReducePlan *rp;
  if (!reduce_prepare_common(pc, node, &rp)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, mean_types, 3, "")) return false;
  if (in->type == TT_FLOAT32)
    rp->kernel = "ta_reduce_mean_f32";
  else if (!mean_prepare_int8(pc, node, in, out, rp))
    return false;
  node->kernel = rp->kernel;
  return true;
}

const OpDef op_mean = {
    .name = "MEAN",
    .builtin_code = 40,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "constant int32 axes; rank <= 6; int16 means at most 2^16 elements",
    .prepare = mean_prepare,
    .emit = reduce_emit,
};
