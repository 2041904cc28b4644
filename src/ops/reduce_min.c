/* REDUCE_MIN: the smallest value over the axes; int8 (like TFLite Micro it needs the
 * input and output to share scale and zero point, so values are not requantized)
 * and float32. */
#include "../ir/quant.h"
#include "data_movement.h"
#include "reduce_common.h"

static const TensorType reduce_min_types[] = {TT_INT8, TT_FLOAT32};

static bool reduce_min_prepare(PrepareCtx *pc, Node *node) {
  ReducePlan *rp;
  if (!reduce_prepare_common(pc, node, &rp)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, reduce_min_types, 2, "") || !dm_expect_same_quant(pc, node, in, out))
    return false;
  rp->kernel = in->type == TT_FLOAT32 ? "ta_reduce_min_f32" : "ta_reduce_min_s8";
  node->kernel = rp->kernel;
  node->macs = 0;
  return true;
}

const OpDef op_reduce_min = {
    .name = "REDUCE_MIN",
    .builtin_code = 89,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "constant int32 axes; input and output quantized alike; rank <= 6",
    .prepare = reduce_min_prepare,
    .emit = reduce_emit,
};
