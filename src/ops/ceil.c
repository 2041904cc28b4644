/* CEIL: float32, ceilf(x) (TFLite Micro has no quantized CEIL). */
#include "math_unary.h"

static bool ceil_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "CEIL", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_ceil_f32");
}

const OpDef op_ceil = {
    .name = "CEIL",
    .builtin_code = 104,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = ceil_prepare,
    .emit = ew_unary_emit,
};
