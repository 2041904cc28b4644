/* EQUAL: elementwise comparison with NumPy broadcasting into a bool output
 * (comparison.h; int8 inputs are compared after TensorFlow Lite Micro's rescaling). */
#include "comparison.h"

static const CompareOp equal_compare = {.name = "EQUAL", .op = 0 /* TA_CMP_EQUAL */, .allows_bool = true};

static bool equal_prepare(PrepareCtx *pc, Node *node) { return cmp_prepare(pc, node, &equal_compare); }

const OpDef op_equal = {
    .name = "EQUAL",
    .builtin_code = 71,
    .capabilities = CMP_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int32, int64, int8, bool (output bool)",
    .constraints = "NumPy broadcasting, at most 6 loops; int8: each input rescaled by its own scale (< 1) after a "
                   "left shift of 8, as TFLite Micro does, so differently quantized inputs compare by real value",
    .prepare = equal_prepare,
    .emit = cmp_emit,
};
