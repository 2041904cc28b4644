/* MINIMUM: elementwise min with NumPy broadcasting, int8. TFLite compares raw
 * values, so inputs and output must share one quantization. */
#include "elementwise.h"
#include "op.h"

enum { MAXIMUM_MINIMUM_OPTIONS = 39 };

static bool minimum_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, MAXIMUM_MINIMUM_OPTIONS)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (out->type != TT_INT8)
    return op_error(pc, node, "%s has dtype %s; MINIMUM supports int8", op_tensor_desc(pc, out),
                    tensor_type_name(out->type));
  if (!op_expect_type(pc, node, a, TT_INT8) || !op_expect_type(pc, node, b, TT_INT8) ||
      !ew_expect_quant(pc, node, out) || !ew_expect_same_quant(pc, node, a, out) ||
      !ew_expect_same_quant(pc, node, b, out))
    return false;
  EwBcast *bc = arena_alloc(pc->arena, sizeof *bc);
  if (!bc) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, a, b, out, bc)) return false;
  node->op_data = bc;
  node->kernel = "ta_minimum_s8";
  node->families[0] = "elementwise";
  node->macs = 0;
  return true;
}

static void minimum_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const EwBcast *bc = node->op_data;
  (void)m;
  if (bc->rank == 0) return; /* empty output */
  char init[512];
  ew_bcast_init(init, sizeof init, bc);
  em_decl(ec, "static const ta_bcast_t %s_bc = %s;", em_op_name(ec), init);
  em_body(ec, "%s(&%s_bc, %s, %s, %s);", node->kernel, em_op_name(ec), em_tensor(ec, node->in[0]),
          em_tensor(ec, node->in[1]), em_tensor(ec, node->out[0]));
}

const OpDef op_minimum = {
    .name = "MINIMUM",
    .builtin_code = 57,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "inputs and output share one quantization; NumPy broadcasting, at most 6 loops",
    .prepare = minimum_prepare,
    .emit = minimum_emit,
};
