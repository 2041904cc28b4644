/* LOGICAL_OR: elementwise bool logic with NumPy broadcasting (runtime/kernels/ta_compare.h). */
#include "comparison.h"

static bool logical_or_prepare(PrepareCtx *pc, Node *node) { return cmp_logical_prepare(pc, node, "LOGICAL_OR", "ta_logical_or"); }

const OpDef op_logical_or = {
    .name = "LOGICAL_OR",
    .builtin_code = 84,
    .capabilities = CMP_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "bool",
    .constraints = "NumPy broadcasting, at most 6 loops",
    .prepare = logical_or_prepare,
    .emit = ew_raw_compare_emit,
};
