/* FLOOR_DIV: floor(a / b) with NumPy broadcasting, float32 (TFLite Micro runs no
 * other dtype); the quotient is taken in double, as TFLite's reference does. */
#include "binary_ext.h"
#include "op.h"

static const BxOp floor_div_f32 = {
    .name = "FLOOR_DIV", .options = OPTS_FLOOR_DIV, .activation = BX_ACT_ABSENT,
    .type = TT_FLOAT32, .kernel = "ta_floor_div_f32", .macs_per_element = false,
};

static bool floor_div_prepare(PrepareCtx *pc, Node *node) { return bx_prepare_plain(pc, node, &floor_div_f32); }

const OpDef op_floor_div = {
    .name = "FLOOR_DIV",
    .builtin_code = 90,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions",
    .prepare = floor_div_prepare,
    .emit = bx_arith_emit,
};
