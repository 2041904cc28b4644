/* Memory-aware operator order. Greedy list scheduling inside each run of
 * REORDERABLE operators: among the operators whose inputs are ready, run the one
 * that grows live activation memory least (frees the most); ties keep the model's
 * order. The new order is kept only if it is strictly better than the model's. */
#include "schedule.h"

#include <string.h>

#include "../ops/op.h"
#include "../ir/storage.h"
#include "lifetimes.h"
#include "plan.h"

/* Bytes an arena tensor occupies, 0 for constants, aliases, variables. */
static size_t arena_bytes_of(const Model *m, int32_t id) {
  const Tensor *t = &m->tensors[id];
  if (t->alias_of >= 0 || tensor_is_const(t) || t->is_variable) return 0;
  return t->bytes;
}

LiveProfile schedule_profile(Model *m) {
  LiveProfile p = {0, 0};
  plan_compute_lifetimes(m);
  int n = m->n_nodes;
  int64_t *delta = arena_calloc(m->arena, (size_t)n + 2, sizeof(int64_t));
  if (!delta) return p;
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (t->first_use < 0 || !plan_needs_storage(m, i) || t->is_variable) continue;
    delta[t->first_use] += (int64_t)t->bytes;
    delta[t->last_use + 1] -= (int64_t)t->bytes;
  }
  int64_t live = 0;
  for (int k = 0; k < n; k++) {
    live += delta[k];
    if ((size_t)live > p.peak) p.peak = (size_t)live;
    p.area += (uint64_t)live;
  }
  return p;
}

typedef struct Greedy {
  Model *m;
  int32_t *producer;  /* storage id -> model position of its writer, -1 */
  int32_t *readers;   /* storage id -> operators not yet scheduled that read it */
  bool *allocated;    /* storage id -> already holds a value */
  bool *done;         /* model position -> scheduled */
  bool *keep;         /* storage id -> live to the end (model output) */
} Greedy;

static bool reads_storage(const Model *m, const Node *n, int32_t s, int upto) {
  for (int i = 0; i < upto; i++)
    if (n->in[i] >= 0 && tensor_storage(m, n->in[i]) == s) return true;
  return false;
}

static bool is_ready(const Greedy *g, const Node *n) {
  for (int i = 0; i < n->n_in; i++) {
    if (n->in[i] < 0) continue;
    int32_t w = g->producer[tensor_storage(g->m, n->in[i])];
    if (w >= 0 && !g->done[w]) return false;
  }
  return true;
}

/* Live bytes after running n minus live bytes before. */
static int64_t growth(const Greedy *g, const Node *n) {
  const Model *m = g->m;
  int64_t d = 0;
  for (int o = 0; o < n->n_out; o++) {
    int32_t s = tensor_storage(m, n->out[o]);
    if (!g->allocated[s]) d += (int64_t)arena_bytes_of(m, s);
  }
  for (int i = 0; i < n->n_in; i++) {
    if (n->in[i] < 0) continue;
    int32_t s = tensor_storage(m, n->in[i]);
    if (reads_storage(m, n, s, i) || g->keep[s]) continue; /* count each storage once */
    if (g->readers[s] == 1) d -= (int64_t)arena_bytes_of(m, s);
  }
  return d;
}

static void mark_done(Greedy *g, int k) {
  const Model *m = g->m;
  const Node *n = &m->nodes[k];
  g->done[k] = true;
  for (int o = 0; o < n->n_out; o++) g->allocated[tensor_storage(m, n->out[o])] = true;
  for (int i = 0; i < n->n_in; i++)
    if (n->in[i] >= 0 && !reads_storage(m, n, tensor_storage(m, n->in[i]), i)) g->readers[tensor_storage(m, n->in[i])]--;
}

static bool reorderable(const Node *n) { return n->def && (n->def->capabilities & CAP_REORDERABLE); }

static bool greedy_order(Greedy *g, int32_t *order) {
  Model *m = g->m;
  int pos = 0;
  for (int start = 0; start < m->n_nodes;) {
    int end = start;
    while (end < m->n_nodes && reorderable(&m->nodes[end])) end++;
    if (end == start) { /* a barrier runs where the model put it */
      mark_done(g, start);
      order[pos++] = start++;
      continue;
    }
    for (int left = end - start; left > 0; left--) {
      int best = -1;
      int64_t best_growth = 0;
      for (int k = start; k < end; k++) {
        if (g->done[k] || !is_ready(g, &m->nodes[k])) continue;
        int64_t gr = growth(g, &m->nodes[k]);
        if (best < 0 || gr < best_growth) best = k, best_growth = gr;
      }
      if (best < 0) return false; /* cannot happen for a valid dataflow: keep the model's order */
      mark_done(g, best);
      order[pos++] = best;
    }
    start = end;
  }
  return true;
}

static bool setup(Greedy *g, Model *m) {
  size_t nt = (size_t)m->n_tensors + 1, nn = (size_t)m->n_nodes + 1;
  g->m = m;
  g->producer = arena_calloc(m->arena, nt, sizeof(int32_t));
  g->readers = arena_calloc(m->arena, nt, sizeof(int32_t));
  g->allocated = arena_calloc(m->arena, nt, sizeof(bool));
  g->keep = arena_calloc(m->arena, nt, sizeof(bool));
  g->done = arena_calloc(m->arena, nn, sizeof(bool));
  if (!g->producer || !g->readers || !g->allocated || !g->keep || !g->done) return false;
  for (size_t i = 0; i < nt; i++) g->producer[i] = -1;
  for (int i = 0; i < m->n_inputs; i++) g->allocated[tensor_storage(m, m->inputs[i])] = true;
  for (int i = 0; i < m->n_outputs; i++) g->keep[tensor_storage(m, m->outputs[i])] = true;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    for (int o = 0; o < n->n_out; o++) {
      int32_t s = tensor_storage(m, n->out[o]);
      if (g->producer[s] < 0 && !n->is_alias) g->producer[s] = k;
    }
    for (int i = 0; i < n->n_in; i++)
      if (n->in[i] >= 0 && !reads_storage(m, n, tensor_storage(m, n->in[i]), i)) g->readers[tensor_storage(m, n->in[i])]++;
  }
  return true;
}

static bool better(LiveProfile a, LiveProfile b) {
  return a.peak < b.peak || (a.peak == b.peak && a.area < b.area);
}

static bool permute(Model *m, const int32_t *order) {
  Node *copy = arena_calloc(m->arena, (size_t)m->n_nodes + 1, sizeof(Node));
  if (!copy) return false;
  memcpy(copy, m->nodes, sizeof(Node) * (size_t)m->n_nodes);
  for (int k = 0; k < m->n_nodes; k++) m->nodes[k] = copy[order[k]];
  return true;
}

/* A storage tensor written by several operators (a CONCATENATION's inputs as views of its
 * output): the greedy order knows one producer per storage tensor, so such a model keeps
 * its order. */
static bool several_writers(const Model *m) {
  for (int k = 0; k < m->n_nodes; k++)
    for (int o = 0; o < m->nodes[k].n_out; o++)
      if (m->nodes[k].out[o] >= 0 && m->tensors[m->nodes[k].out[o]].alias_of >= 0 && !m->nodes[k].is_alias)
        return true;
  return false;
}

bool schedule_reorder(Model *m, ScheduleReport *r, Diag *d) {
  memset(r, 0, sizeof *r);
  r->tried = true;
  r->before = r->after = schedule_profile(m);
  if (m->n_nodes < 2 || several_writers(m)) return true;
  Greedy g;
  int32_t *order = arena_calloc(m->arena, (size_t)m->n_nodes + 1, sizeof(int32_t));
  if (!order || !setup(&g, m)) return diag_error(d, "out of memory while scheduling");
  if (!greedy_order(&g, order)) return true;
  int32_t *inverse = arena_calloc(m->arena, (size_t)m->n_nodes + 1, sizeof(int32_t));
  if (!inverse) return diag_error(d, "out of memory while scheduling");
  for (int k = 0; k < m->n_nodes; k++) inverse[order[k]] = k;
  if (!permute(m, order)) return diag_error(d, "out of memory while scheduling");
  LiveProfile after = schedule_profile(m);
  if (!better(after, r->before)) /* the planner recomputes lifetimes for the order kept */
    return permute(m, inverse) || diag_error(d, "out of memory while scheduling");
  r->applied = true;
  r->after = after;
  for (int k = 0; k < m->n_nodes; k++) r->moved += order[k] != k;
  return true;
}
