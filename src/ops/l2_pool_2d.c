/* L2_POOL_2D: float32, sqrt(mean of squares) over each window clipped to the input,
 * with the fused activation; the pooling contract of pool2d.h. */
#include "pool2d.h"

static bool l2_pool_2d_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  if (in->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; L2_POOL_2D supports float32 (as TFLite Micro)",
                    op_tensor_desc(pc, in), tensor_type_name(in->type));
  if (!pool2d_prepare(pc, node, "ta_l2_pool")) return false;
  node->families[0] = "l2_pool";
  node->families[1] = "pooling"; /* ta_pool_params_t */
  return true;
}

const OpDef op_l2_pool_2d = {
    .name = "L2_POOL_2D",
    .builtin_code = 12,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .cost_window = COST_WINDOW_POOL,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "4-D NHWC; SAME or VALID padding",
    .prepare = l2_pool_2d_prepare,
    .emit = pool2d_emit,
};
