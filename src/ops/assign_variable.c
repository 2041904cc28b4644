/* ASSIGN_VARIABLE: copies a value into a resource variable's persistent tensor (the
 * loader resolved the handle, src/load/resources.c). */
#include "op.h"

static bool assign_variable_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 0)) return false;
  const Tensor *state = node_input(pc->model, node, 0);
  const Tensor *value = node_input(pc->model, node, 1);
  if (!state || !value) return op_error(pc, node, "the variable and the value are both required");
  if (!state->is_variable)
    return op_error(pc, node, "%s is not a resource variable", op_tensor_desc(pc, state));
  if (!op_expect_type(pc, node, value, state->type)) return false;
  if (value->bytes != state->bytes)
    return op_error(pc, node, "%s holds %zu bytes but the variable %zu", op_tensor_desc(pc, value), value->bytes,
                    state->bytes);
  node->kernel = "memcpy";
  return true;
}

static void assign_variable_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *state = node_input(m, node, 0);
  em_call(ec, "memcpy", 3, em_tensor(ec, state->id), em_tensor(ec, node->in[1]), em_int(ec, (int64_t)state->bytes));
}

/* Its only effect is on state: never PURE, never moved. */
const OpDef op_assign_variable = {
    .name = "ASSIGN_VARIABLE",
    .builtin_code = 144,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "any",
    .constraints = "the value's dtype and size must equal the variable's",
    .prepare = assign_variable_prepare,
    .emit = assign_variable_emit,
};
