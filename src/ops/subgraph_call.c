/* Subgraphs run by IF and WHILE (see subgraph_call.h). No recursion: the loader
 * refuses control flow inside these subgraphs (src/load/resources.c). */
#include "subgraph_call.h"

#include <stdio.h>
#include <string.h>

#include "../ir/storage.h"

static bool live_add(PrepareCtx *pc, const Node *outer, LiveSet *ls, int32_t id) {
  if (id < 0 || tensor_is_const(&pc->model->tensors[id])) return true;
  if (ls->n == ls->cap) {
    int cap = ls->cap ? ls->cap * 2 : 32;
    int32_t *grown = arena_calloc(pc->arena, (size_t)cap, sizeof *grown);
    if (!grown) return op_error(pc, outer, "out of memory");
    if (ls->n) memcpy(grown, ls->ids, sizeof *grown * (size_t)ls->n);
    ls->ids = grown;
    ls->cap = cap;
  }
  ls->ids[ls->n++] = id;
  return true;
}

static bool same_storage_shape(const Tensor *a, const Tensor *b) { return a->type == b->type && a->bytes == b->bytes; }

static bool bind_inputs(PrepareCtx *pc, Node *outer, int32_t index, const int32_t *bind, int n_bind) {
  Model *m = pc->model;
  const Subgraph *g = &m->subgraphs[index];
  if (g->n_inputs != n_bind)
    return op_error(pc, outer, "subgraph %d takes %d inputs but the operator passes %d", (int)index, g->n_inputs, n_bind);
  for (int i = 0; i < n_bind; i++) {
    Tensor *in = &m->tensors[g->inputs[i]];
    const Tensor *src = &m->tensors[bind[i]];
    if (!same_storage_shape(in, src) || in->data || in->is_variable)
      return op_error(pc, outer, "subgraph %d input %d (tensor %d '%s', %s %s) cannot take %s (%s %s)", (int)index, i,
                      OP_TENSOR_ARG(in), tensor_type_name(in->type), tensor_shape_str(pc->arena, in),
                      op_tensor_desc(pc, src), tensor_type_name(src->type), tensor_shape_str(pc->arena, src));
    if (in->alias_of >= 0 && in->alias_of != src->id)
      return op_error(pc, outer, "subgraph %d input %d is listed twice", (int)index, i);
    in->alias_of = src->id; /* runs on the operator's tensor: no copy in */
  }
  return true;
}

/* Prepares one operator of the subgraph; its refusal becomes the outer operator's. */
static bool prepare_inner(PrepareCtx *pc, Node *outer, int32_t index, Node *inner, LiveSet *live) {
  Model *m = pc->model;
  if (!pc->find)
    return op_error(pc, outer, "internal error: subgraph %d prepared without the operator table", (int)index);
  inner->def = pc->find(inner->builtin_code);
  inner->scratch_tensor = -1;
  const Tensor *first = node_input(m, inner, 0);
  if (!inner->def)
    return op_error(pc, outer, "subgraph %d operator %d (%s): unsupported operator%s%s", (int)index, (int)inner->index,
                    inner->opname, first ? " on " : "", first ? tensor_type_name(first->type) : "");
  if (inner->def->emit_init)
    return op_error(pc, outer, "subgraph %d operator %d (%s): stateful operators inside IF/WHILE are not supported",
                    (int)index, (int)inner->index, inner->opname);
  Diag inner_diag;
  diag_init(&inner_diag, pc->diag->file);
  PrepareCtx ipc = *pc;
  ipc.diag = &inner_diag;
  if (!inner->def->prepare(&ipc, inner) || diag_failed(&inner_diag))
    return op_error(pc, outer, "subgraph %d %s", (int)index, inner_diag.msg);
  if (!op_check_scratch(m, inner, pc->diag)) return false;
  if (inner->scratch_bytes > 0) {
    char name[96];
    snprintf(name, sizeof name, "scratch of subgraph %d operator %d (%s)", (int)index, (int)inner->index, inner->opname);
    int32_t id = model_add_tensor(m, name, TT_INT8, inner->scratch_bytes);
    if (id < 0) return op_error(pc, outer, "out of memory");
    m->tensors[id].is_scratch_buffer = true;
    inner->scratch_tensor = id;
    if (!live_add(pc, outer, live, id)) return false;
  }
  for (int i = 0; i < inner->n_in; i++)
    if (!live_add(pc, outer, live, inner->in[i])) return false;
  for (int i = 0; i < inner->n_out; i++)
    if (!live_add(pc, outer, live, inner->out[i])) return false;
  for (int i = 0; i < inner->n_inter; i++)
    if (!live_add(pc, outer, live, inner->inter[i])) return false;
  outer->macs += inner->macs;
  return true;
}

bool subgraph_prepare(PrepareCtx *pc, Node *outer, int32_t index, const int32_t *bind, int n_bind, LiveSet *live) {
  Model *m = pc->model;
  if (index <= 0 || index >= m->n_subgraphs) /* the loader checked; kept for direct callers */
    return op_error(pc, outer, "subgraph index %d out of range", (int)index);
  const Subgraph *g = &m->subgraphs[index];
  for (int32_t t = g->first_tensor; t < g->first_tensor + g->n_tensors; t++)
    if (m->tensors[t].is_variable)
      return op_error(pc, outer, "subgraph %d holds variable tensor %d '%s': state inside IF/WHILE is not supported",
                      (int)index, OP_TENSOR_ARG(&m->tensors[t]));
  if (!bind_inputs(pc, outer, index, bind, n_bind)) return false;
  for (int k = 0; k < g->n_nodes; k++)
    if (!prepare_inner(pc, outer, index, &g->nodes[k], live)) return false;
  for (int i = 0; i < g->n_outputs; i++)
    if (!live_add(pc, outer, live, g->outputs[i])) return false;
  return true;
}

bool subgraph_check_outputs(PrepareCtx *pc, const Node *outer, int32_t index, const int32_t *to, int n_to) {
  const Model *m = pc->model;
  const Subgraph *g = &m->subgraphs[index];
  if (g->n_outputs != n_to)
    return op_error(pc, outer, "subgraph %d has %d outputs but the operator takes %d", (int)index, g->n_outputs, n_to);
  for (int i = 0; i < n_to; i++) {
    const Tensor *o = &m->tensors[g->outputs[i]];
    const Tensor *dst = &m->tensors[to[i]];
    if (!same_storage_shape(o, dst))
      return op_error(pc, outer, "subgraph %d output %d (tensor %d '%s', %s %s) does not fit %s (%s %s)", (int)index, i,
                      OP_TENSOR_ARG(o), tensor_type_name(o->type), tensor_shape_str(pc->arena, o),
                      op_tensor_desc(pc, dst), tensor_type_name(dst->type), tensor_shape_str(pc->arena, dst));
  }
  return true;
}

bool subgraph_set_live(PrepareCtx *pc, Node *outer, const LiveSet *live) {
  int32_t *ids = arena_calloc(pc->arena, (size_t)(outer->n_inter + live->n) + 1, sizeof *ids);
  if (!ids) return op_error(pc, outer, "out of memory");
  if (outer->n_inter) memcpy(ids, outer->inter, sizeof *ids * (size_t)outer->n_inter);
  if (live->n) memcpy(ids + outer->n_inter, live->ids, sizeof *ids * (size_t)live->n);
  outer->inter = ids;
  outer->n_inter += live->n;
  return true;
}

void subgraph_emit(EmitCtx *ec, const Model *m, int32_t index, const char *tag) {
  const Subgraph *g = &m->subgraphs[index];
  for (int k = 0; k < g->n_nodes; k++) em_inline(ec, &g->nodes[k], tag);
}

void subgraph_emit_copy_out(EmitCtx *ec, const Model *m, int32_t index, const int32_t *to) {
  const Subgraph *g = &m->subgraphs[index];
  for (int i = 0; i < g->n_outputs; i++) {
    if (tensor_storage(m, g->outputs[i]) == tensor_storage(m, to[i])) continue;
    em_body(ec, "memcpy(%s, %s, %zuu);", em_tensor(ec, to[i]), em_tensor(ec, g->outputs[i]),
            m->tensors[to[i]].bytes);
  }
}
