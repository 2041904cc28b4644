/* LOGICAL_AND: elementwise bool logic with NumPy broadcasting (runtime/kernels/ta_compare.h). */
#include "comparison.h"

static bool logical_and_prepare(PrepareCtx *pc, Node *node) { return cmp_logical_prepare(pc, node, "LOGICAL_AND", "ta_logical_and"); }

const OpDef op_logical_and = {
    .name = "LOGICAL_AND",
    .builtin_code = 86,
    .capabilities = CMP_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "bool",
    .constraints = "NumPy broadcasting, at most 6 loops",
    .prepare = logical_and_prepare,
    .emit = ew_raw_compare_emit,
};
