/* NEG: float32, -x (TFLite Micro has no quantized NEG). */
#include "math_unary.h"

static bool neg_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "NEG", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_neg_f32");
}

const OpDef op_neg = {
    .name = "NEG",
    .builtin_code = 59,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = neg_prepare,
    .emit = ew_unary_emit,
};
