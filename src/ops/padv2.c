/* PADV2: pads with a given constant value (or the output zero point when absent). */
#include "pad_common.h"

static const TensorType padv2_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_FLOAT32};

static bool padv2_prepare(PrepareCtx *pc, Node *node) {
  return op_expect_options(pc, node, OPTS_PADV2) && pad_prepare(pc, node, padv2_types, 4);
}

const OpDef op_padv2 = {
    .name = "PADV2",
    .builtin_code = 60,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, float32",
    .constraints = "constant int32 paddings >= 0; constant scalar pad value quantized like the output; rank <= 6",
    .prepare = padv2_prepare,
    .emit = pad_emit,
};
