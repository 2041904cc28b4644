#include "comparison.h"

#include <stdio.h>

/* TFLite Micro brings each int8 input to (x - zero_point) * 2^8 and rescales it by
 * its own scale, as a multiplier below one (QuantizeMultiplierSmallerThanOneExp):
 * scales of 1 or more are refused there, and here. */
enum { CMP_LEFT_SHIFT = 8 };

static bool quantized_inputs(PrepareCtx *pc, Node *node, CompareData *d, const Tensor *a, const Tensor *b) {
  if (!ew_expect_quant(pc, node, a) || !ew_expect_quant(pc, node, b)) return false;
  d->in1_offset = -tensor_zero_point(a);
  d->in2_offset = -tensor_zero_point(b);
  return ew_multiplier_below_one(pc, node, (double)tensor_scale(a), "input 1 scale", &d->in1_multiplier,
                                 &d->in1_shift) &&
         ew_multiplier_below_one(pc, node, (double)tensor_scale(b), "input 2 scale", &d->in2_multiplier,
                                 &d->in2_shift);
}

static const char *kernel_for(TensorType t) {
  switch (t) {
    case TT_FLOAT32: return "ta_compare_f32";
    case TT_INT32: return "ta_compare_i32";
    case TT_INT64: return "ta_compare_i64";
    case TT_BOOL: return "ta_compare_b";
    case TT_INT8: return "ta_compare_s8";
    default: return NULL;
  }
}

bool cmp_prepare(PrepareCtx *pc, Node *node, const CompareOp *op) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  const char *kernel = kernel_for(a->type);
  if (!kernel || (a->type == TT_BOOL && !op->allows_bool))
    return op_error(pc, node, "%s has dtype %s; %s supports float32, int32, int64, int8%s", op_tensor_desc(pc, a),
                    tensor_type_name(a->type), op->name, op->allows_bool ? " and bool" : "");
  if (!op_expect_type(pc, node, b, a->type) || !op_expect_type(pc, node, out, TT_BOOL)) return false;
  CompareData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, a, b, out, &d->bc)) return false;
  if (a->type == TT_INT8 && !quantized_inputs(pc, node, d, a, b)) return false;
  d->op = op->op;
  node->op_data = d;
  node->kernel = kernel;
  node->families[0] = "compare";
  node->families[1] = "elementwise"; /* ta_bcast_t */
  node->macs = 0;
  return true;
}

void cmp_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const CompareData *d = node->op_data;
  (void)m;
  if (d->bc.rank == 0) return; /* empty output */
  char bc[512];
  ew_bcast_init(bc, sizeof bc, &d->bc);
  em_decl(ec,
          "static const ta_compare_params_t %s_params = {.bc = %s, .op = %d, .left_shift = %d,\n"
          "  .in1_offset = %ld, .in2_offset = %ld, .in1_multiplier = %ld, .in1_shift = %ld,\n"
          "  .in2_multiplier = %ld, .in2_shift = %ld};",
          em_op_name(ec), bc, (int)d->op, CMP_LEFT_SHIFT, (long)d->in1_offset, (long)d->in2_offset,
          (long)d->in1_multiplier, (long)d->in1_shift, (long)d->in2_multiplier, (long)d->in2_shift);
  ew_emit_binary_call(ec, node, "params");
}

bool cmp_logical_prepare(PrepareCtx *pc, Node *node, const char *name, const char *kernel) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (a->type != TT_BOOL)
    return op_error(pc, node, "%s has dtype %s; %s supports bool", op_tensor_desc(pc, a), tensor_type_name(a->type),
                    name);
  if (!op_expect_type(pc, node, b, TT_BOOL) || !op_expect_type(pc, node, out, TT_BOOL)) return false;
  EwBcast *bc = arena_calloc(pc->arena, 1, sizeof *bc);
  if (!bc) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, a, b, out, bc)) return false;
  node->op_data = bc;
  node->kernel = kernel;
  node->families[0] = "compare";
  node->families[1] = "elementwise";
  node->macs = 0;
  return true;
}
