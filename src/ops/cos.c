/* COS: float32, cosf(x) (TFLite Micro has no quantized COS). */
#include "math_unary.h"

static bool cos_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "COS", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_cos_f32");
}

const OpDef op_cos = {
    .name = "COS",
    .builtin_code = 108,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = cos_prepare,
    .emit = ew_unary_emit,
};
