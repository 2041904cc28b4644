/* GREATER: elementwise comparison with NumPy broadcasting into a bool output
 * (comparison.h; int8 inputs are compared after TensorFlow Lite Micro's rescaling). */
#include "comparison.h"

static const CompareOp greater_compare = {.name = "GREATER", .op = 2 /* TA_CMP_GREATER */, .allows_bool = false};

static bool greater_prepare(PrepareCtx *pc, Node *node) { return cmp_prepare(pc, node, &greater_compare); }

const OpDef op_greater = {
    .name = "GREATER",
    .builtin_code = 61,
    .capabilities = CMP_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int32, int64, int8 (output bool)",
    .constraints = "NumPy broadcasting, at most 6 loops; int8: each input rescaled by its own scale (< 1) after a "
                   "left shift of 8, as TFLite Micro does, so differently quantized inputs compare by real value",
    .prepare = greater_prepare,
    .emit = cmp_emit,
};
