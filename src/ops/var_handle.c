/* VAR_HANDLE: names a resource variable. The loader resolves every handle to the
 * variable's persistent tensor (src/load/resources.c), so nothing runs. */
#include "op.h"

static bool var_handle_prepare(PrepareCtx *pc, Node *node) {
  if (node->n_in != 0 || node->n_out != 0) /* the loader leaves none: anything else is internal */
    return op_error(pc, node, "internal error: handle not resolved by the loader");
  node->kernel = "(resolved at compile time)";
  return true;
}

static void var_handle_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m, (void)node;
  em_body(ec, "/* resource handle resolved at compile time: nothing to run */");
}

const OpDef op_var_handle = {
    .name = "VAR_HANDLE",
    .builtin_code = 142,
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE | CAP_PURE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "resource",
    .constraints = "variables are named by container and shared_name; resolved at compile time",
    .prepare = var_handle_prepare,
    .emit = var_handle_emit,
};
