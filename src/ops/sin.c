/* SIN: float32, sinf(x) (TFLite Micro has no quantized SIN). */
#include "math_unary.h"

static bool sin_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "SIN", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_sin_f32");
}

const OpDef op_sin = {
    .name = "SIN",
    .builtin_code = 66,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = sin_prepare,
    .emit = ew_unary_emit,
};
