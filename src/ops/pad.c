/* PAD: pads with the output zero point (int8, int16) or zero (int32, float32). */
#include "pad_common.h"

static const TensorType pad_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_FLOAT32};

static bool pad_op_prepare(PrepareCtx *pc, Node *node) {
  return op_expect_options(pc, node, OPTS_PAD) && pad_prepare(pc, node, pad_types, 4);
}

const OpDef op_pad = {
    .name = "PAD",
    .builtin_code = 34,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, float32",
    .constraints = "constant int32 paddings >= 0; rank <= 6",
    .prepare = pad_op_prepare,
    .emit = pad_emit,
};
