/* The plan verifier: written independently of the planner, trusts nothing it set
 * except the final offsets, arena indices and lifetimes. */
#include "plan.h"

#include "../ops/op.h"
#include "../transform/transform.h"

static bool check_tensors(const Model *m, const Plan *p, Diag *d) {
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *a = &m->tensors[i];
    if (!plan_needs_storage(m, i)) continue;
    if (a->arena < 0 || a->arena >= p->n_arenas)
      return diag_error(d, "internal error: plan left tensor %d '%s' without an arena", a->id, a->name);
    const PlanArena *ar = &p->arenas[a->arena];
    if (ar->role != AR_SCRATCH && ar->role != AR_PERSISTENT)
      return diag_error(d, "internal error: tensor %d '%s' placed in a %s arena", a->id, a->name, arena_role_name(ar->role));
    if (a->offset > ar->size || a->bytes > ar->size - a->offset)
      return diag_error(d, "internal error: tensor %d '%s' (%zu bytes at %zu) overruns arena %s (%zu bytes)", a->id,
                        a->name, a->bytes, a->offset, ar->name, ar->size);
    if (a->offset % PLAN_ALIGN)
      return diag_error(d, "internal error: tensor %d '%s' is misaligned at offset %zu", a->id, a->name, a->offset);
    for (int j = i + 1; j < m->n_tensors; j++) {
      const Tensor *b = &m->tensors[j];
      if (!plan_needs_storage(m, j) || b->arena != a->arena) continue;
      bool live_together = a->first_use <= b->last_use && b->first_use <= a->last_use;
      bool bytes_overlap = a->offset < b->offset + b->bytes && b->offset < a->offset + a->bytes;
      if (live_together && bytes_overlap && a->bytes && b->bytes)
        return diag_error(d, "internal error: plan overlaps tensor %d '%s' and tensor %d '%s' in arena %s", a->id,
                          a->name, b->id, b->name, ar->name);
    }
  }
  return true;
}

static bool check_constants(const Plan *p, Diag *d) {
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *a = &p->consts[i];
    if (a->residency == RES_DIRECT) {
      if (a->arena != -1 || a->runtime != a->source)
        return diag_error(d, "internal error: direct constant %s has a runtime copy", a->what);
      continue;
    }
    if (a->arena < 0 || a->arena >= p->n_arenas)
      return diag_error(d, "internal error: constant %s has no arena", a->what);
    const PlanArena *ar = &p->arenas[a->arena];
    if (ar->memory != a->runtime || (ar->role != AR_PINNED && ar->role != AR_STREAM))
      return diag_error(d, "internal error: constant %s is in arena %s, not in %s", a->what, ar->name, mem_name(a->runtime));
    if (a->offset > ar->size || a->size > ar->size - a->offset)
      return diag_error(d, "internal error: constant %s overruns arena %s", a->what, ar->name);
    for (int j = i + 1; j < p->n_consts; j++) {
      const ConstItem *b = &p->consts[j];
      if (b->arena != a->arena) continue;
      bool live_together = ar->role == AR_PINNED || (a->first_reader <= b->last_reader && b->first_reader <= a->last_reader);
      bool overlap = a->offset < b->offset + b->size && b->offset < a->offset + a->size;
      if (live_together && overlap && a->size && b->size)
        return diag_error(d, "internal error: constants %s and %s overlap in arena %s", a->what, b->what, ar->name);
    }
  }
  return true;
}

/* The schedule (node order, possibly reordered) reads every activation after it is
 * written, and an operator that is not REORDERABLE keeps its place relative to all
 * others (everything before it in the model runs before it, and nothing after). */
static bool check_schedule(const Model *m, Diag *d) {
  bool *written = arena_calloc(m->arena, (size_t)m->n_tensors + 1, sizeof(bool));
  int32_t *suffix_min = arena_calloc(m->arena, (size_t)m->n_nodes + 1, sizeof(int32_t));
  if (!written || !suffix_min) return diag_error(d, "out of memory while verifying the plan");
  for (int i = 0; i < m->n_inputs; i++) written[tensor_storage(m, m->inputs[i])] = true;
  for (int i = 0; i < m->n_tensors; i++)
    if (m->tensors[i].is_variable || tensor_is_const(&m->tensors[i])) written[i] = true;
  suffix_min[m->n_nodes] = INT32_MAX;
  for (int k = m->n_nodes - 1; k >= 0; k--)
    suffix_min[k] = m->nodes[k].index < suffix_min[k + 1] ? m->nodes[k].index : suffix_min[k + 1];
  int32_t prefix_max = -1;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    for (int i = 0; i < n->n_in; i++)
      if (n->in[i] >= 0 && !written[tensor_storage(m, n->in[i])])
        return diag_error(d, "internal error: schedule runs operator %d (%s) before its input tensor %d is written",
                          (int)n->index, n->opname, (int)n->in[i]);
    for (int o = 0; o < n->n_out; o++) written[tensor_storage(m, n->out[o])] = true;
    bool fixed = !n->def || !(n->def->capabilities & CAP_REORDERABLE);
    if (fixed && (prefix_max > n->index || suffix_min[k + 1] < n->index))
      return diag_error(d, "internal error: schedule moves operators across operator %d (%s), which is not REORDERABLE",
                        (int)n->index, n->opname);
    if (n->index > prefix_max) prefix_max = n->index;
  }
  return true;
}

bool plan_verify(const Model *m, const Plan *p, Diag *d) {
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].memory == MEM_NONE)
      return diag_error(d, "internal error: arena %s has no memory", p->arenas[i].name);
  return check_schedule(m, d) && check_tensors(m, p, d) && check_constants(p, d);
}
