/* L2_NORMALIZATION over the last dimension: float32 (x / max(norm, 1e-6)) and int8
 * (TFLite Micro's fixed-point inverse square root per row, output in steps of 1/128). */
#include "math_unary.h"

typedef struct L2NormData {
  TensorType type;
  int32_t outer, depth, in_offset;
} L2NormData;

static bool l2_normalization_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  if (!mu_expect_unary(pc, node, "L2_NORMALIZATION", MU_TYPE(TT_INT8) | MU_TYPE(TT_FLOAT32), "int8 and float32",
                       &in, &out))
    return false;
  if (node->opts.l2_norm.activation != ACT_NONE)
    return op_error(pc, node, "fused activation %d is not supported (TFLite Micro accepts only NONE)",
                    (int)node->opts.l2_norm.activation);
  if (in->rank < 1 || in->rank > 4)
    return op_error(pc, node, "%s has rank %d; L2_NORMALIZATION needs 1 to 4 dimensions", op_tensor_desc(pc, in),
                    in->rank);
  if (in->type == TT_INT8 && !ew_expect_quant(pc, node, in)) return false;
  L2NormData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->type = in->type;
  d->depth = in->dims[in->rank - 1];
  d->outer = d->depth > 0 ? (int32_t)(in->elems / d->depth) : 0;
  d->in_offset = in->type == TT_INT8 ? tensor_zero_point(in) : 0;
  node->op_data = d;
  node->kernel = in->type == TT_INT8 ? "ta_l2norm_s8" : "ta_l2norm_f32";
  node->families[0] = "l2norm";
  node->macs = in->elems;
  return true;
}

static void l2_normalization_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const L2NormData *d = node->op_data;
  (void)m;
  if (d->outer == 0) return;
  em_decl(ec, "static const ta_l2norm_params_t %s_params = {.outer = %d, .depth = %d, .in_offset = %d};",
          em_op_name(ec), d->outer, d->depth, d->in_offset);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_l2_normalization = {
    .name = "L2_NORMALIZATION",
    .builtin_code = 11,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "last dimension, rank <= 4, no fused activation; int8 output is always in steps of 1/128 with "
                   "zero point 0: TFLite Micro ignores the output tensor's quantization",
    .prepare = l2_normalization_prepare,
    .emit = l2_normalization_emit,
};
