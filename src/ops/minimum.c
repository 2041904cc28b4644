/* MINIMUM: elementwise min with NumPy broadcasting, int8. TFLite compares raw
 * values, so inputs and output must share one quantization. */
#include "elementwise.h"
#include "op.h"

enum { MAXIMUM_MINIMUM_OPTIONS = 39 };

static bool minimum_prepare(PrepareCtx *pc, Node *node) {
  return ew_raw_compare_prepare(pc, node, "MINIMUM", MAXIMUM_MINIMUM_OPTIONS, "ta_minimum_s8");
}

const OpDef op_minimum = {
    .name = "MINIMUM",
    .builtin_code = 57,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "inputs and output share one quantization; NumPy broadcasting, at most 6 loops",
    .prepare = minimum_prepare,
    .emit = ew_raw_compare_emit,
};
