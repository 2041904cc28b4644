/* Offset assignment: greedy by size (largest first), each tensor at the lowest
 * offset that avoids every already-placed tensor whose lifetime overlaps. On
 * chain-shaped graphs this reaches the lower bound (ping-pong buffers). */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "../transform/transform.h"
#include "lifetimes.h"

static size_t align_up(size_t x) { return (x + PLAN_ALIGN - 1) / PLAN_ALIGN * PLAN_ALIGN; }

bool plan_needs_storage(const Model *m, int32_t id) {
  const Tensor *t = &m->tensors[id];
  if (t->alias_of >= 0 || tensor_is_const(t)) return false;
  return t->first_use >= 0 || t->is_input || t->is_output || t->is_variable;
}

static bool lifetimes_overlap(const Tensor *a, const Tensor *b) {
  return a->first_use <= b->last_use && b->first_use <= a->last_use;
}

typedef struct Placed {
  size_t start, end;
} Placed;

static int cmp_placed(const void *x, const void *y) {
  const Placed *a = x, *b = y;
  return a->start < b->start ? -1 : a->start > b->start;
}

typedef struct SortKey {
  size_t bytes;
  int32_t first_use, id;
} SortKey;

/* Order: larger first, then earlier first use, then id (deterministic). */
static int cmp_by_size(const void *x, const void *y) {
  const SortKey *a = x, *b = y;
  if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
  if (a->first_use != b->first_use) return a->first_use < b->first_use ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id;
}

static size_t lower_bound_of(const Model *m, const int32_t *ids, int n) {
  size_t best = 0;
  for (int k = 0; k < (m->n_nodes > 0 ? m->n_nodes : 1); k++) {
    size_t live = 0;
    for (int i = 0; i < n; i++) {
      const Tensor *t = &m->tensors[ids[i]];
      if (t->first_use <= k && k <= t->last_use) live += align_up(t->bytes);
    }
    if (live > best) best = live;
  }
  return best;
}

static bool place_arena(Model *m, Plan *p, int arena, const int32_t *ids, int n, Diag *d) {
  SortKey *order = malloc(sizeof(SortKey) * (size_t)(n + 1));
  Placed *busy = malloc(sizeof(Placed) * (size_t)(n + 1));
  if (!order || !busy) {
    free(order);
    free(busy);
    return diag_error(d, "out of memory while planning");
  }
  for (int i = 0; i < n; i++) {
    const Tensor *t = &m->tensors[ids[i]];
    order[i] = (SortKey){t->bytes, t->first_use, t->id};
  }
  qsort(order, (size_t)n, sizeof(SortKey), cmp_by_size);
  size_t arena_size = 0;
  for (int i = 0; i < n; i++) {
    Tensor *t = &m->tensors[order[i].id];
    int nb = 0;
    for (int j = 0; j < i; j++) {
      const Tensor *o = &m->tensors[order[j].id];
      if (lifetimes_overlap(t, o)) busy[nb++] = (Placed){o->offset, o->offset + align_up(o->bytes)};
    }
    qsort(busy, (size_t)nb, sizeof(Placed), cmp_placed);
    size_t off = 0, need = align_up(t->bytes);
    for (int j = 0; j < nb; j++) {
      if (busy[j].start >= off + need) break;
      if (busy[j].end > off) off = busy[j].end;
    }
    t->offset = off;
    t->arena = arena;
    if (off + need > arena_size) arena_size = off + need;
  }
  p->arenas[arena].size = arena_size;
  p->arenas[arena].lower_bound = lower_bound_of(m, ids, n);
  p->arenas[arena].n_tensors = n;
  free(order);
  free(busy);
  return true;
}

bool plan_model(Model *m, Plan *p, Diag *d) {
  memset(p, 0, sizeof *p);
  plan_compute_lifetimes(m);
  static const struct { const char *name; TensorRole role; } kinds[] = {
      {"scratch", ROLE_SCRATCH}, {"persistent", ROLE_PERSISTENT}};
  int32_t *ids = malloc(sizeof(int32_t) * (size_t)(m->n_tensors + 1));
  if (!ids) return diag_error(d, "out of memory while planning");
  for (int i = 0; i < m->n_tensors; i++) {
    Tensor *t = &m->tensors[i];
    t->role = t->is_variable ? ROLE_PERSISTENT : tensor_is_const(t) ? ROLE_CONSTANT : ROLE_SCRATCH;
    if (t->role == ROLE_CONSTANT && t->alias_of < 0) {
      p->constant_bytes += t->bytes;
      p->n_constants++;
    }
  }
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    int n = 0;
    for (int i = 0; i < m->n_tensors; i++)
      if (plan_needs_storage(m, i) && m->tensors[i].role == kinds[k].role) ids[n++] = i;
    PlanArena *a = &p->arenas[p->n_arenas];
    a->name = kinds[k].name;
    a->memory = "SRAM";
    a->role = kinds[k].role;
    if (!place_arena(m, p, p->n_arenas, ids, n, d)) {
      free(ids);
      return false;
    }
    p->n_arenas++;
  }
  free(ids);
  return plan_verify(m, p, d);
}

size_t plan_live_lower_bound(const Model *m) {
  size_t best = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    size_t live = 0;
    for (int i = 0; i < m->n_tensors; i++) {
      const Tensor *t = &m->tensors[i];
      if (t->role == ROLE_SCRATCH && plan_needs_storage(m, i) && t->first_use <= k && k <= t->last_use)
        live += t->bytes;
    }
    if (live > best) best = live;
  }
  return best;
}
