/* NOT_EQUAL: elementwise comparison with NumPy broadcasting into a bool output
 * (comparison.h; int8 inputs are compared after TensorFlow Lite Micro's rescaling). */
#include "comparison.h"

static const CompareOp not_equal_compare = {.name = "NOT_EQUAL", .op = 1 /* TA_CMP_NOT_EQUAL */, .allows_bool = true};

static bool not_equal_prepare(PrepareCtx *pc, Node *node) { return cmp_prepare(pc, node, &not_equal_compare); }

const OpDef op_not_equal = {
    .name = "NOT_EQUAL",
    .builtin_code = 72,
    .capabilities = CMP_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int32, int64, int8, bool (output bool)",
    .constraints = "NumPy broadcasting, at most 6 loops; int8: each input rescaled by its own scale (< 1) after a "
                   "left shift of 8, as TFLite Micro does, so differently quantized inputs compare by real value",
    .prepare = not_equal_prepare,
    .emit = cmp_emit,
};
