/* SQRT: float32, sqrtf(x) (TFLite Micro has no quantized SQRT). */
#include "math_unary.h"

static bool sqrt_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "SQRT", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_sqrt_f32");
}

const OpDef op_sqrt = {
    .name = "SQRT",
    .builtin_code = 75,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = sqrt_prepare,
    .emit = ew_unary_emit,
};
