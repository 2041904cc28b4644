/* The plan verifier: written independently of the planner, trusts nothing it set
 * except the final offsets, arena indices and lifetimes. */
#include "plan.h"

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

bool plan_verify(const Model *m, const Plan *p, Diag *d) {
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].memory == MEM_NONE)
      return diag_error(d, "internal error: arena %s has no memory", p->arenas[i].name);
  return check_tensors(m, p, d) && check_constants(p, d);
}
