/* EXPAND_DIMS: inserts a dimension of extent 1; the bytes are unchanged. Like
 * RESHAPE, the transform stage aliases the output to the input's storage, so normally
 * no code is emitted; a copy is emitted otherwise. */
#include "data_movement.h"

/* The output's shape must be the input's with a 1 inserted at the (constant) axis. */
static bool check_expanded_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out) {
  int64_t axis_value;
  int n;
  if (!dm_const_ints(pc, node, node_input(pc->model, node, 1), "axis", true, 1, &axis_value, &n)) return false;
  int axis = n == 1 ? dm_axis(axis_value, in->rank + 1) : -1;
  if (axis < 0) return op_error(pc, node, "axis must be one value in [-%d, %d]", in->rank + 1, in->rank);
  bool ok = out->rank == in->rank + 1 && out->dims[axis] == 1;
  for (int d = 0; ok && d < in->rank; d++) ok = out->dims[d < axis ? d : d + 1] == in->dims[d];
  if (!ok)
    return op_error(pc, node, "%s has shape %s, not %s with a new axis %d", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in), axis);
  return true;
}

static bool expand_dims_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  if (!op_expect_options(pc, node, OPTS_EXPAND_DIMS)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_same_quant(pc, node, in, out)) return false;
  if (in->rank >= TA_MAX_RANK) return op_error(pc, node, "%s already has the maximum rank", op_tensor_desc(pc, in));
  if (!check_expanded_shape(pc, node, in, out)) return false;
  node->kernel = node->is_alias ? "(alias)" : "memcpy";
  return true;
}

static void expand_dims_emit(EmitCtx *ec, const Model *m, const Node *node) {
  if (node->is_alias) return;
  const Tensor *in = node_input(m, node, 0);
  em_call(ec, "memcpy", 3, em_tensor(ec, node->out[0]), em_tensor(ec, in->id), em_int(ec, (int64_t)in->bytes));
}

const OpDef op_expand_dims = {
    .name = "EXPAND_DIMS",
    .builtin_code = 70,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "any",
    .constraints = "constant axis; aliased to its input (no copy) unless the input is a model output",
    .prepare = expand_dims_prepare,
    .emit = expand_dims_emit,
};
