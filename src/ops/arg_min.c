/* ARG_MIN: index of the first smallest value along a constant axis; int8 and float32
 * inputs, int32 output (the contract is ARG_MAX's, in arg_max.c). */
#include "reduce_common.h"

static bool arg_min_prepare(PrepareCtx *pc, Node *node) { return arg_extreme_prepare(pc, node, OPTS_ARG_MIN, true); }

const OpDef op_arg_min = {
    .name = "ARG_MIN",
    .builtin_code = 79,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32 -> int32",
    .constraints = "constant int32 axis",
    .prepare = arg_min_prepare,
    .emit = arg_extreme_emit,
};
