/* ROUND: float32, nearest integer with ties to even (TFLite rounds half to even, unlike
 * C's roundf); TFLite Micro has no quantized ROUND. */
#include "math_unary.h"

static bool round_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  return mu_expect_unary(pc, node, "ROUND", MU_TYPE(TT_FLOAT32), "float32", &in, &out) &&
         mu_float_map(pc, node, in, "ta_round_f32");
}

const OpDef op_round = {
    .name = "ROUND",
    .builtin_code = 116,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32",
    .constraints = "ties round to even (TFLite's ROUND), not away from zero",
    .prepare = round_prepare,
    .emit = ew_unary_emit,
};
