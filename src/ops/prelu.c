/* PRELU: x >= 0 ? x : alpha * x with alpha broadcast against the input; int8, int16
 * (both requantized as TFLite Micro does) and float32. */
#include "../ir/quant.h"
#include "binary_ext.h"
#include "elementwise.h"
#include "op.h"

typedef struct PreluData {
  EwBcast bc;
  TensorType type;
  int32_t input_offset, alpha_offset, out_offset;
  int32_t pos_multiplier, pos_shift, neg_multiplier, neg_shift;
} PreluData;

static bool prelu_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *alpha = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8 && in->type != TT_INT16 && in->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; PRELU supports int8, int16 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  /* int16 inputs take an int8 alpha (TFLite Micro's 16x8 form) */
  const TensorType alpha_type = in->type == TT_INT16 ? TT_INT8 : in->type;
  if (!op_expect_type(pc, node, alpha, alpha_type) || !op_expect_type(pc, node, out, in->type)) return false;
  if (in->type != TT_FLOAT32 &&
      (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, alpha) || !ew_expect_quant(pc, node, out)))
    return false;
  PreluData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, in, alpha, out, &d->bc)) return false;
  d->type = in->type;
  if (in->type == TT_FLOAT32) {
    node->op_data = d;
    node->kernel = "ta_prelu_f32";
    bx_set_families(node);
    node->macs = out->elems;
    return true;
  }
  const double s_in = tensor_scale(in), s_alpha = tensor_scale(alpha), s_out = tensor_scale(out);
  /* ta_prelu_s8 requantises both branches with ta_requantize */
  if (!op_quant_multiplier(pc, node, s_in / s_out, QUANT_RANGE_INT32, &d->pos_multiplier, &d->pos_shift,
                           "input / output scale of tensor %d '%s', tensor %d '%s'", OP_TENSOR_ARG(in),
                           OP_TENSOR_ARG(out)) ||
      !op_quant_multiplier(pc, node, s_in * s_alpha / s_out, QUANT_RANGE_INT32, &d->neg_multiplier, &d->neg_shift,
                           "input x alpha / output scale of tensor %d '%s', tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(in), OP_TENSOR_ARG(alpha), OP_TENSOR_ARG(out)))
    return false;
  d->input_offset = -tensor_zero_point(in);
  d->alpha_offset = -tensor_zero_point(alpha);
  d->out_offset = tensor_zero_point(out);
  node->op_data = d;
  if (in->type == TT_INT16) {
    node->kernel = "ta_prelu_s16";
    bx_set_families(node);
  } else {
    node->kernel = "ta_prelu_s8";
    node->families[0] = "elementwise";
  }
  node->macs = out->elems;
  return true;
}

static void prelu_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const PreluData *d = node->op_data;
  (void)m;
  if (d->bc.rank == 0) return; /* empty output */
  char bc[512];
  ew_bcast_init(bc, sizeof bc, &d->bc);
  if (d->type == TT_FLOAT32) {
    em_decl(ec, "static const ta_bcast_t %s_bc = %s;", em_op_name(ec), bc);
    ew_emit_binary_call(ec, node, "bc");
    return;
  }
  em_decl(ec,
          "static const ta_prelu_params_t %s_params = {\n  .bc = %s,\n"
          "  .input_offset = %d, .alpha_offset = %d,\n"
          "  .pos_multiplier = %d, .pos_shift = %d,\n"
          "  .neg_multiplier = %d, .neg_shift = %d,\n"
          "  .out_offset = %d,\n};",
          em_op_name(ec), bc, d->input_offset, d->alpha_offset, d->pos_multiplier, d->pos_shift, d->neg_multiplier,
          d->neg_shift, d->out_offset);
  ew_emit_binary_call(ec, node, "params");
}

const OpDef op_prelu = {
    .name = "PRELU",
    .builtin_code = 54,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16 (int8 alpha), float32",
    .constraints = "alpha broadcast against the input (NumPy rules, at most 6 loops)",
    .prepare = prelu_prepare,
    .emit = prelu_emit,
};
