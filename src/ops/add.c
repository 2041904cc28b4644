/* ADD: elementwise sum with NumPy broadcasting and a fused activation; int8 and
 * int16 (TFLite Micro's general-scale quantized path) and float32. */
#include <string.h>

#include "binary_ext.h"
#include "elementwise.h"
#include "op.h"

/* Multipliers are computed in double, as TFLite Micro's ADD does. */
static bool add_prepare_quantized(PrepareCtx *pc, Node *node, EwArith *d, int act, const Tensor *a,
                                  const Tensor *b, const Tensor *out) {
  return ew_addsub_quantized(pc, node, d, act, a, b, out, false);
}

static const EwArithOp add_arith = {
    .name = "ADD",
    .options = OPTS_ADD,
    .params = EW_ADDSUB_PARAMS,
    .kernel_s8 = "ta_add_s8",
    .kernel_s16 = "ta_add_s16",
    .kernel_f32 = "ta_add_f32",
    .macs_per_element = false,
    .flat_sign = 1,
    .prepare_quantized = add_prepare_quantized,
};

/* int32: plain wrapping arithmetic. */
static const BxOp add_i32 = {
    .name = "ADD",
    .options = OPTS_ADD,
    .activation = BX_ACT_IGNORED,
    .type = TT_INT32,
    .kernel = "ta_add_i32",
    .macs_per_element = false,
};

static bool add_prepare(PrepareCtx *pc, Node *node) {
  if (node->n_out == 1 && node_output(pc->model, node, 0)->type == TT_INT32)
    return bx_prepare_plain(pc, node, &add_i32);
  return ew_arith_prepare(pc, node, &add_arith);
}

/* In-place contract: the flat int8 kernels (ta_addsub_flat.c, scalar and MVE) read
 * element i of both inputs before writing element i, in order, so the output may take
 * either input's place (delta 0, no temporary). Other kernels declare nothing. */
static bool add_inplace(const Model *m, const Node *node, int input, InplaceAccess *acc) {
  if (!node->kernel || strncmp(node->kernel, "ta_addsub_s8_flat", 17) != 0 || input < 0 || input > 1) return false;
  const Tensor *out = node_output(m, node, 0), *in = node_input(m, node, input);
  if (!out || !in || in->elems != out->elems || in->type != TT_INT8 || out->type != TT_INT8 || out->elems > INT32_MAX)
    return false;
  *acc = (InplaceAccess){.in_h = 1, .in_w = (int32_t)out->elems, .in_px = 1, .out_h = 1, .out_w = (int32_t)out->elems,
                         .out_px = 1, .k_h = 1, .k_w = 1, .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1,
                         .group = 0};
  return true;
}

const OpDef op_add = {
    .name = "ADD",
    .builtin_code = 0,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, float32",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions; fused NONE/RELU/"
                   "RELU_N1_TO_1/RELU6; int32 wraps and ignores the fused activation, as TFLite Micro does",
    .prepare = add_prepare,
    .emit = bx_arith_emit,
    .inplace = add_inplace,
};
