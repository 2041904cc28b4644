/* MAXIMUM: elementwise max with NumPy broadcasting, int8. TFLite compares raw
 * values, so inputs and output must share one quantization. */
#include "elementwise.h"
#include "op.h"

enum { MAXIMUM_MINIMUM_OPTIONS = 39 };

static bool maximum_prepare(PrepareCtx *pc, Node *node) {
  return ew_raw_compare_prepare(pc, node, "MAXIMUM", MAXIMUM_MINIMUM_OPTIONS, "ta_maximum_s8");
}

const OpDef op_maximum = {
    .name = "MAXIMUM",
    .builtin_code = 55,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "inputs and output share one quantization; NumPy broadcasting, at most 6 loops",
    .prepare = maximum_prepare,
    .emit = ew_raw_compare_emit,
};
