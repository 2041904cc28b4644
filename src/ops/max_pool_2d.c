/* MAX_POOL_2D: maximum over each window clipped to the input, int8/int16/float32. */
#include "pool2d.h"

static bool max_pool_2d_prepare(PrepareCtx *pc, Node *node) { return pool2d_prepare(pc, node, "ta_max_pool"); }

const OpDef op_max_pool_2d = {
    .name = "MAX_POOL_2D",
    .builtin_code = 17,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .cost_window = COST_WINDOW_POOL,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "4-D NHWC; input and output share quantization; SAME or VALID padding",
    .prepare = max_pool_2d_prepare,
    .emit = pool2d_emit,
};
