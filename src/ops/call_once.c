/* CALL_ONCE: runs its init subgraph on the first invoke in TFLite Micro. tinyaot
 * evaluates that subgraph at compile time (it may only assign constants to resource
 * variables, src/load/resources.c): model_init copies the values into the persistent
 * arena, which is the state TFLite Micro reaches after its first CALL_ONCE. */
#include "op.h"

static bool call_once_prepare(PrepareCtx *pc, Node *node) {
  if (node->n_in != 0 || node->n_out != 0)
    return op_error(pc, node, "expected no inputs or outputs, got %d and %d", node->n_in, node->n_out);
  node->kernel = "(evaluated at compile time)";
  return true;
}

static void call_once_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  em_body(ec, "/* init subgraph %d evaluated at compile time: its values are set by model_init */",
          (int)node->opts.call_once.init_subgraph_index);
}

const OpDef op_call_once = {
    .name = "CALL_ONCE",
    .builtin_code = 129,
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "-",
    .constraints = "the init subgraph may only assign constants to resource variables (VAR_HANDLE, ASSIGN_VARIABLE): "
                   "evaluated at compile time, its values restored by model_init",
    .prepare = call_once_prepare,
    .emit = call_once_emit,
};
