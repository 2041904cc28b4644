/* IF: runs the then or the else subgraph on its inputs 1.. depending on the bool
 * input 0. Both subgraphs are compiled into this operator's layer as two blocks of an
 * if/else (static shapes, no interpreter); their inputs share the IF's input storage,
 * their outputs are copied to the IF's outputs as TFLite Micro does. */
#include "subgraph_call.h"

static bool if_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, node->n_in, node->n_out)) return false;
  const Tensor *cond = node_input(pc->model, node, 0);
  if (!cond) return op_error(pc, node, "the condition (input 0) is missing");
  if (!op_expect_type(pc, node, cond, TT_BOOL)) return false;
  if (cond->elems < 1) return op_error(pc, node, "the condition %s is empty", op_tensor_desc(pc, cond));
  for (int i = 1; i < node->n_in; i++)
    if (node->in[i] < 0) return op_error(pc, node, "input %d is omitted", i);
  const IfOptions *o = &node->opts.if_;
  LiveSet live = {0};
  const int32_t *args = node->in + 1;
  int n_args = node->n_in - 1;
  if (!subgraph_prepare(pc, node, o->then_subgraph_index, args, n_args, &live) ||
      !subgraph_check_outputs(pc, node, o->then_subgraph_index, node->out, node->n_out) ||
      !subgraph_prepare(pc, node, o->else_subgraph_index, args, n_args, &live) ||
      !subgraph_check_outputs(pc, node, o->else_subgraph_index, node->out, node->n_out) ||
      !subgraph_set_live(pc, node, &live))
    return false;
  node->kernel = "if/else over the inlined subgraphs";
  return true;
}

static void if_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const IfOptions *o = &node->opts.if_;
  /* TFLite Micro reads the first element of the condition. */
  em_body(ec, "if (%s[0]) { /* subgraph %d */", em_tensor(ec, node->in[0]), (int)o->then_subgraph_index);
  subgraph_emit(ec, m, o->then_subgraph_index, "then");
  subgraph_emit_copy_out(ec, m, o->then_subgraph_index, node->out);
  em_body(ec, "} else { /* subgraph %d */", (int)o->else_subgraph_index);
  subgraph_emit(ec, m, o->else_subgraph_index, "else");
  subgraph_emit_copy_out(ec, m, o->else_subgraph_index, node->out);
  em_body(ec, "}");
}

/* Not REORDERABLE or PURE: the subgraphs' operators decide, and they are not checked
 * one by one for those contracts. */
const OpDef op_if = {
    .name = "IF",
    .builtin_code = 118,
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "bool condition; any supported operators in the branches",
    .constraints = "both branches inlined into the layer (static shapes); no control flow, resource variables or "
                   "stateful operators inside the branches; each subgraph used by one operator; as TFLite Micro, only "
                   "the condition's first element is read, and branch outputs are copied byte for byte (a branch "
                   "output's quantization is not reconciled with the IF output's)",
    .prepare = if_prepare,
    .emit = if_emit,
};
