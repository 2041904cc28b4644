/* WHILE: the loop variables start as the inputs; while the cond subgraph says true,
 * the body subgraph computes their next values. Compiled into this operator's layer as
 * a C loop (no recursion, no heap): the WHILE's outputs hold the loop variables, the
 * cond and body subgraphs read them in place, and the body's outputs are copied back
 * at the end of each iteration, as TFLite Micro does. */
#include "subgraph_call.h"

#include "../ir/storage.h"

/* A body output that is another loop variable's storage would be overwritten by the
 * copy-back before it is read. */
static bool check_copy_back(PrepareCtx *pc, const Node *node, int32_t body) {
  const Model *m = pc->model;
  const Subgraph *g = &m->subgraphs[body];
  for (int i = 0; i < g->n_outputs; i++) {
    int32_t s = tensor_storage(m, g->outputs[i]);
    for (int j = 0; j < node->n_out; j++)
      if (j != i && s == tensor_storage(m, node->out[j]))
        return op_error(pc, node, "body subgraph %d returns loop variable %d as variable %d (a swap): not supported",
                        (int)body, j, i);
  }
  return true;
}

static bool while_prepare(PrepareCtx *pc, Node *node) {
  if (node->n_in < 1 || node->n_in != node->n_out)
    return op_error(pc, node, "expects as many outputs as inputs (at least one), has %d and %d", node->n_in, node->n_out);
  if (!op_expect_io(pc, node, node->n_in, node->n_in, node->n_out)) return false;
  for (int i = 0; i < node->n_in; i++) {
    const Tensor *in = node_input(pc->model, node, i), *out = node_output(pc->model, node, i);
    if (in->type != out->type || in->bytes != out->bytes)
      return op_error(pc, node, "loop variable %d: %s and %s differ in dtype or size", i, op_tensor_desc(pc, in),
                      op_tensor_desc(pc, out));
  }
  const WhileOptions *o = &node->opts.while_;
  LiveSet live = {0};
  if (!subgraph_prepare(pc, node, o->cond_subgraph_index, node->out, node->n_out, &live) ||
      !subgraph_prepare(pc, node, o->body_subgraph_index, node->out, node->n_out, &live) ||
      !subgraph_check_outputs(pc, node, o->body_subgraph_index, node->out, node->n_out) ||
      !check_copy_back(pc, node, o->body_subgraph_index))
    return false;
  const Subgraph *cond = &pc->model->subgraphs[o->cond_subgraph_index];
  if (cond->n_outputs != 1) return op_error(pc, node, "cond subgraph %d has %d outputs, expected 1",
                                            (int)o->cond_subgraph_index, cond->n_outputs);
  const Tensor *c = &pc->model->tensors[cond->outputs[0]];
  if (c->type != TT_BOOL || c->elems < 1)
    return op_error(pc, node, "cond subgraph %d returns %s %s, expected bool", (int)o->cond_subgraph_index,
                    tensor_type_name(c->type), tensor_shape_str(pc->arena, c));
  if (!subgraph_set_live(pc, node, &live)) return false;
  node->kernel = "C loop over the inlined subgraphs";
  return true;
}

static void while_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const WhileOptions *o = &node->opts.while_;
  for (int i = 0; i < node->n_in; i++)
    if (tensor_storage(m, node->in[i]) != tensor_storage(m, node->out[i]))
      em_body(ec, "memcpy(%s, %s, %zuu); /* loop variable %d starts as input %d */", em_tensor(ec, node->out[i]),
              em_tensor(ec, node->in[i]), m->tensors[node->out[i]].bytes, i, i);
  em_body(ec, "for (;;) {");
  subgraph_emit(ec, m, o->cond_subgraph_index, "cond");
  em_body(ec, "if (!%s[0]) break; /* cond subgraph %d */", em_tensor(ec, m->subgraphs[o->cond_subgraph_index].outputs[0]),
          (int)o->cond_subgraph_index);
  subgraph_emit(ec, m, o->body_subgraph_index, "body");
  subgraph_emit_copy_out(ec, m, o->body_subgraph_index, node->out);
  em_body(ec, "}");
}

const OpDef op_while = {
    .name = "WHILE",
    .builtin_code = 119,
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "any supported operators in cond and body; bool condition",
    .constraints = "cond and body inlined into one C loop (static shapes, iterations decided at run time, no bound: a "
                   "condition that stays true never returns, as in TFLite Micro); no control flow, resource variables "
                   "or stateful operators inside; each subgraph used by one operator; a body returning one loop "
                   "variable in another's place is refused",
    .prepare = while_prepare,
    .emit = while_emit,
};
