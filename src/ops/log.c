/* LOG: float32, logf(x) (TFLite Micro has no quantized LOG). */
#include "math_unary.h"

static bool log_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "LOG", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_log_f32");
}

const OpDef op_log = {
    .name = "LOG",
    .builtin_code = 73,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "",
    .prepare = log_prepare,
    .emit = ew_unary_emit,
};
