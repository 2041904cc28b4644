/* SUB: elementwise difference with NumPy broadcasting and a fused activation; int8
 * and int16 (TFLite Micro's general-scale quantized path) and float32. */
#include "binary_ext.h"
#include "elementwise.h"
#include "op.h"

/* As ADD, except that TFLite Micro's SUB derives the multipliers in float and
 * widens each quotient to double only afterwards; the rounding differs, so it is
 * reproduced. */
static bool sub_prepare_quantized(PrepareCtx *pc, Node *node, EwArith *d, int act, const Tensor *a,
                                  const Tensor *b, const Tensor *out) {
  return ew_addsub_quantized(pc, node, d, act, a, b, out, true);
}

static const EwArithOp sub_arith = {
    .name = "SUB",
    .options = OPTS_SUB,
    .params = EW_ADDSUB_PARAMS,
    .kernel_s8 = "ta_sub_s8",
    .kernel_s16 = "ta_sub_s16",
    .kernel_f32 = "ta_sub_f32",
    .macs_per_element = false,
    .flat_sign = -1,
    .prepare_quantized = sub_prepare_quantized,
};

/* int32: plain wrapping arithmetic. */
static const BxOp sub_i32 = {
    .name = "SUB",
    .options = OPTS_SUB,
    .activation = BX_ACT_NONE_ONLY,
    .type = TT_INT32,
    .kernel = "ta_sub_i32",
    .macs_per_element = false,
};

static bool sub_prepare(PrepareCtx *pc, Node *node) {
  if (node->n_out == 1 && node_output(pc->model, node, 0)->type == TT_INT32)
    return bx_prepare_plain(pc, node, &sub_i32);
  return ew_arith_prepare(pc, node, &sub_arith);
}

const OpDef op_sub = {
    .name = "SUB",
    .builtin_code = 41,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, float32",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions; fused NONE/RELU/"
                   "RELU_N1_TO_1/RELU6 (int32: NONE only, wrapping)",
    .prepare = sub_prepare,
    .emit = bx_arith_emit,
};
