/* EXP: float32, expf(x) (TFLite Micro has no quantized EXP). */
#include "math_unary.h"

static bool exp_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "EXP", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_exp_f32");
}

const OpDef op_exp = {
    .name = "EXP",
    .builtin_code = 47,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = exp_prepare,
    .emit = ew_unary_emit,
};
