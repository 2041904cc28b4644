/* AVERAGE_POOL_2D: mean over each window clipped to the input, int8/int16/float32. */
#include "pool2d.h"

/* int8 on an MVE target sums 4 channels per vector (ta_pooling_mve.h); same arithmetic. */
static bool average_pool_2d_prepare(PrepareCtx *pc, Node *node) {
  if (!pool2d_prepare(pc, node, "ta_avg_pool")) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  if (in->type == TT_INT8 && pc->platform && pc->platform->mve) {
    node->kernel = "ta_avg_pool_s8_mve";
    node->families[0] = "pooling_mve";
    node->families[1] = "pooling";
  }
  return true;
}

const OpDef op_average_pool_2d = {
    .name = "AVERAGE_POOL_2D",
    .builtin_code = 1,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "4-D NHWC; input and output share quantization; SAME or VALID padding",
    .prepare = average_pool_2d_prepare,
    .emit = pool2d_emit,
};
