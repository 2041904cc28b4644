/* The plan verifier: written independently of the planner, trusts nothing it set
 * except the final offsets, arena indices and lifetimes. */
#include "plan.h"

bool plan_verify(const Model *m, const Plan *p, Diag *d) {
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *a = &m->tensors[i];
    if (!plan_needs_storage(m, i)) continue;
    if (a->arena < 0 || a->arena >= p->n_arenas)
      return diag_error(d, "internal error: plan left tensor %d '%s' without an arena", a->id, a->name);
    const PlanArena *ar = &p->arenas[a->arena];
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
