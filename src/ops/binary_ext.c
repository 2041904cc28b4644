/* Binary elementwise operators on plain dtypes; see binary_ext.h. */
#include "binary_ext.h"

#include <stdio.h>

#include "../ir/quant.h"

void bx_set_families(Node *node) {
  node->families[0] = "binary";
  node->families[1] = "elementwise";
}

/* TFLite's CalculateActivationRange<int32_t>. */
static bool activation_range_i32(int act, int32_t *lo, int32_t *hi) {
  switch (act) {
    case ACT_NONE: *lo = INT32_MIN; *hi = INT32_MAX; return true;
    case ACT_RELU: *lo = 0; *hi = INT32_MAX; return true;
    case ACT_RELU6: *lo = 0; *hi = 6; return true;
    case ACT_RELU_N1_TO_1: *lo = -1; *hi = 1; return true;
    default: return false;
  }
}

static bool bx_activation(PrepareCtx *pc, Node *node, const BxOp *op, EwArith *d) {
  int act = ACT_NONE;
  if (op->activation != BX_ACT_ABSENT) {
    act = options_fused_activation(&node->opts);
    if (act != ACT_NONE && act != ACT_RELU && act != ACT_RELU_N1_TO_1 && act != ACT_RELU6)
      return op_error(pc, node, "fused activation %d is not supported (NONE, RELU, RELU_N1_TO_1, RELU6 are)", act);
  }
  if (op->activation == BX_ACT_NONE_ONLY && act != ACT_NONE)
    return op_error(pc, node, "fused activation %d on %s %s is not supported (NONE is)", act,
                    tensor_type_name(op->type), op->name);
  if (op->activation == BX_ACT_IGNORED) act = ACT_NONE;
  if (op->type == TT_FLOAT32) {
    quant_activation_range_f32(act, &d->act_min_f, &d->act_max_f);
    return true;
  }
  activation_range_i32(act, &d->act_min, &d->act_max);
  return true;
}

bool bx_prepare_plain(PrepareCtx *pc, Node *node, const BxOp *op) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, op->options)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!op_expect_type(pc, node, out, op->type) || !op_expect_type(pc, node, a, op->type) ||
      !op_expect_type(pc, node, b, op->type))
    return false;
  EwArith *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!bx_activation(pc, node, op, d) || !ew_broadcast(pc, node, a, b, out, &d->bc)) return false;
  d->type = op->type;
  d->params = EW_ADDSUB_PARAMS;
  node->op_data = d;
  node->kernel = op->kernel;
  bx_set_families(node);
  node->macs = op->macs_per_element ? out->elems : 0;
  return true;
}

/* MAXIMUM / MINIMUM compare stored values; a quantized dtype needs one quantization. */
bool bx_prepare_raw(PrepareCtx *pc, Node *node, const char *name, uint8_t options, const char *kernel) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, options)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!op_expect_type(pc, node, a, out->type) || !op_expect_type(pc, node, b, out->type)) return false;
  if (out->type == TT_INT16 && (!ew_expect_quant(pc, node, out) || !ew_expect_same_quant(pc, node, a, out) ||
                                !ew_expect_same_quant(pc, node, b, out)))
    return false;
  EwBcast *bc = arena_alloc(pc->arena, sizeof *bc);
  if (!bc) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, a, b, out, bc)) return false;
  (void)name;
  node->op_data = bc;
  node->kernel = kernel;
  bx_set_families(node);
  node->macs = 0;
  return true;
}

void bx_arith_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const EwArith *d = node->op_data;
  if (d->type != TT_INT32) {
    ew_arith_emit(ec, m, node);
    return;
  }
  if (d->bc.rank == 0) return; /* empty output */
  char bc[512];
  ew_bcast_init(bc, sizeof bc, &d->bc);
  /* INT32_MIN spelled as an expression: -2147483648 is not an int literal in C */
  char lo[32];
  if (d->act_min == INT32_MIN)
    snprintf(lo, sizeof lo, "INT32_MIN");
  else
    snprintf(lo, sizeof lo, "%ld", (long)d->act_min);
  em_decl(ec, "static const ta_arith_i32_params_t %s_params = {\n  .bc = %s,\n  .act_min = %s, .act_max = %ld,\n};",
          em_op_name(ec), bc, lo, (long)d->act_max);
  ew_emit_binary_call(ec, node, "params");
}
