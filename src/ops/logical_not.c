/* LOGICAL_NOT: bool negation, elementwise (runtime/kernels/ta_compare.h). */
#include "comparison.h"

static bool logical_not_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_BOOL)
    return op_error(pc, node, "%s has dtype %s; LOGICAL_NOT supports bool", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (!ew_expect_unary_shape(pc, node, in, out)) return false;
  node->kernel = "ta_logical_not";
  node->families[0] = "compare";
  node->families[1] = "elementwise";
  node->macs = 0;
  return true;
}

static void logical_not_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *in = node_input(m, node, 0);
  if (in->elems == 0) return;
  em_call(ec, node->kernel, 3, em_int(ec, in->elems), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_logical_not = {
    .name = "LOGICAL_NOT",
    .builtin_code = 87,
    .capabilities = CMP_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "bool",
    .constraints = "",
    .prepare = logical_not_prepare,
    .emit = logical_not_emit,
};
