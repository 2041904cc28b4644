/* FLOOR: float32, floorf(x) (TFLite Micro has no quantized FLOOR). */
#include "math_unary.h"

static bool floor_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "FLOOR", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_floor_f32");
}

const OpDef op_floor = {
    .name = "FLOOR",
    .builtin_code = 8,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = floor_prepare,
    .emit = ew_unary_emit,
};
