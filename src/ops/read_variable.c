/* READ_VARIABLE: copies a resource variable's current value out. The loader turned the
 * variable into a persistent tensor (src/load/resources.c); a copy, not an alias,
 * because a later ASSIGN_VARIABLE may overwrite the state while the value read
 * before it is still in use. */
#include "op.h"

static bool read_variable_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *state = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!state->is_variable)
    return op_error(pc, node, "%s is not a resource variable", op_tensor_desc(pc, state));
  if (!op_expect_type(pc, node, out, state->type)) return false;
  if (out->bytes != state->bytes)
    return op_error(pc, node, "%s holds %zu bytes but the variable %zu", op_tensor_desc(pc, out), out->bytes,
                    state->bytes);
  node->kernel = "memcpy";
  return true;
}

static void read_variable_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *state = node_input(m, node, 0);
  em_call(ec, "memcpy", 3, em_tensor(ec, node->out[0]), em_tensor(ec, state->id), em_int(ec, (int64_t)state->bytes));
}

/* Not PURE or REORDERABLE: it reads state that ASSIGN_VARIABLE writes, so it keeps its
 * place in the schedule. */
const OpDef op_read_variable = {
    .name = "READ_VARIABLE",
    .builtin_code = 143,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "any",
    .constraints = "variables of the main graph; their state lives in the persistent arena",
    .prepare = read_variable_prepare,
    .emit = read_variable_emit,
};
