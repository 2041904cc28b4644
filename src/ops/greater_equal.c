/* GREATER_EQUAL: elementwise comparison with NumPy broadcasting into a bool output
 * (comparison.h; int8 inputs are compared after TensorFlow Lite Micro's rescaling). */
#include "comparison.h"

static const CompareOp greater_equal_compare = {.name = "GREATER_EQUAL", .op = 3 /* TA_CMP_GREATER_EQUAL */, .allows_bool = false};

static bool greater_equal_prepare(PrepareCtx *pc, Node *node) { return cmp_prepare(pc, node, &greater_equal_compare); }

const OpDef op_greater_equal = {
    .name = "GREATER_EQUAL",
    .builtin_code = 62,
    .capabilities = CMP_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int32, int64, int8 (output bool)",
    .constraints = "NumPy broadcasting, at most 6 loops; int8: each input rescaled by its own scale (< 1) after a "
                   "left shift of 8, as TFLite Micro does, so differently quantized inputs compare by real value",
    .prepare = greater_equal_prepare,
    .emit = cmp_emit,
};
