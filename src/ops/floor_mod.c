/* FLOOR_MOD: a - floor(a / b) * b (the remainder takes the divisor's sign) with NumPy
 * broadcasting, float32 (TFLite Micro runs no other dtype). */
#include "binary_ext.h"
#include "op.h"

static const BxOp floor_mod_f32 = {
    .name = "FLOOR_MOD", .options = OPTS_FLOOR_MOD, .activation = BX_ACT_ABSENT,
    .type = TT_FLOAT32, .kernel = "ta_floor_mod_f32", .macs_per_element = false,
};

static bool floor_mod_prepare(PrepareCtx *pc, Node *node) { return bx_prepare_plain(pc, node, &floor_mod_f32); }

const OpDef op_floor_mod = {
    .name = "FLOOR_MOD",
    .builtin_code = 95,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions; computed as "
                   "fmod moved to the divisor's sign",
    .prepare = floor_mod_prepare,
    .emit = bx_arith_emit,
};
