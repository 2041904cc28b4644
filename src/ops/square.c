/* SQUARE: float32, x * x (TFLite Micro has no quantized SQUARE). */
#include "math_unary.h"

static bool square_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "SQUARE", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_square_f32");
}

const OpDef op_square = {
    .name = "SQUARE",
    .builtin_code = 92,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = square_prepare,
    .emit = ew_unary_emit,
};
