#include "search.h"

#include <stdio.h>
#include <string.h>

#include "../resolve/resolve.h"
#include "cost_choice.h"
#include "patch.h"

PlanSearchEntry *plan_search_note(PlanSearchLog *log, const char *candidate, const char *result, const char *reason) {
  if (!log) return NULL;
  if (log->n >= PLAN_SEARCH_MAX) {
    log->left_out++;
    return NULL;
  }
  PlanSearchEntry *e = &log->entries[log->n++];
  snprintf(e->candidate, sizeof e->candidate, "%s", candidate);
  snprintf(e->result, sizeof e->result, "%s", result);
  snprintf(e->reason, sizeof e->reason, "%s", reason ? reason : "");
  return e;
}

void plan_search_reason(PlanSearchEntry *e, const char *reason) {
  if (e) snprintf(e->reason, sizeof e->reason, "%s", reason);
}

void plan_search_outcome(const Plan *p, bool planned, char *out, size_t cap) {
  if (!planned && p->over) {
    snprintf(out, cap, "over: %s needs %llu of %llu bytes", mem_name(p->over_mem), (unsigned long long)p->over_need,
             (unsigned long long)p->budget[p->over_mem]);
    return;
  }
  if (!planned) {
    snprintf(out, cap, "refused");
    return;
  }
  size_t n = (size_t)snprintf(out, cap, "fits:");
  bool any = false;
  for (int m = 0; m < MEM_COUNT && n < cap; m++)
    if (p->used[m]) {
      n += (size_t)snprintf(out + n, cap - n, "%s %s %llu", any ? "," : "", mem_name((MemType)m),
                            (unsigned long long)p->used[m]);
      any = true;
    }
  if (n < cap) snprintf(out + n, cap - n, any ? " bytes" : " no bytes");
}

void plan_search_attempt(PlanSearchLog *log, const char *candidate, const char *result, const char *reason) {
  if (!log) return;
  log->attempt = log->n;
  if (!plan_search_note(log, candidate, result, reason)) log->attempt = -1;
}

void plan_search_attempt_reason(PlanSearchLog *log, const char *reason) {
  if (log && log->attempt >= 0 && log->attempt < log->n) plan_search_reason(&log->entries[log->attempt], reason);
}

static void note_probe(PlanSearchLog *log, int start, uint64_t bytes, uint64_t best, bool kept) {
  char cand[64], result[96], reason[96];
  if (start < 0) snprintf(cand, sizeof cand, "patch start: none");
  else snprintf(cand, sizeof cand, "patch start: node %d", start);
  if (bytes == UINT64_MAX) snprintf(result, sizeof result, "no patch or no plan");
  else snprintf(result, sizeof result, "scratch %llu bytes", (unsigned long long)bytes);
  if (kept) snprintf(reason, sizeof reason, start < 0 ? "kept: the unpatched baseline" : "kept: smallest so far");
  else if (best == UINT64_MAX) snprintf(reason, sizeof reason, "dropped");
  else snprintf(reason, sizeof reason, "dropped: not below %llu bytes", (unsigned long long)best);
  plan_search_note(log, cand, result, reason);
}

/* The kernels resolve may choose: --opt size, the portable ones everywhere (weights read
 * in place, no re-laid or widened copies); speed (default), the platform's DSP/MVE tiers
 * where they apply. */
static Platform kernels_of(const PlanCandidate *c) {
  Platform k = *c->platform;
  if (c->opt_size) k.dsp = k.mve = false;
  return k;
}

/* Scratch bytes of one probe's plan of m (patched or not): resolve and plan only. */
static uint64_t probe_scratch(const PlanCandidate *c, Model *m, bool patched, Diag *d) {
  const Platform kernels = kernels_of(c);
  ScheduleReport sched;
  memset(&sched, 0, sizeof sched);
  Plan p;
  memset(&p, 0, sizeof p);
  if (!resolve_model_mixed(m, &kernels, c->portable, d)) return UINT64_MAX;
  if (!patched && c->reorder && !schedule_reorder(m, &sched, d)) return UINT64_MAX;
  if (!plan_activations_mode(m, &p, c->platform, c->config, c->inplace, d)) return UINT64_MAX;
  uint64_t bytes = 0;
  for (int i = 0; i < p.n_arenas; i++)
    if (p.arenas[i].role == AR_SCRATCH) bytes += p.arenas[i].size;
  return bytes;
}

/* One probe in an arena of its own, freed after, so the probes do not add up in the
 * conversion's heap (its peak still counts theirs): the scratch bytes with the patches
 * planned from node position `start` (-1: none), or UINT64_MAX when that start gives no
 * patch or the plan fails. Resolve runs on each probe's copy: patching happens before it
 * (the bands are new operators, whose kernels and scratch depend on their rows). */
static uint64_t probe_patch(const PlanCandidate *c, int start, Arena *heap) {
  Arena a;
  arena_init(&a);
  a.heap = heap->heap; /* counted on from the conversion's figures */
  Diag quiet;
  diag_init(&quiet, NULL);
  Model m;
  PatchPlan patch;
  memset(&patch, 0, sizeof patch);
  uint64_t bytes = UINT64_MAX;
  if (model_copy(c->source, &a, &m) && (start < 0 || (patch_model(&m, start, &patch, &quiet) && patch.active)))
    bytes = probe_scratch(c, &m, start >= 0, &quiet);
  const size_t peak = a.heap.peak;
  arena_free(&a);
  if (peak > heap->heap.peak) heap->heap.peak = peak;
  return bytes;
}

int plan_search_patch_start(const PlanCandidate *c, Arena *heap, PlanSearchLog *log) {
  uint64_t best = probe_patch(c, -1, heap);
  int best_start = -1;
  const int first = log ? log->n : 0;
  note_probe(log, -1, best, best, true);
  for (int start = 0; start < PATCH_MAX_START; start++) {
    const uint64_t with = probe_patch(c, start, heap);
    const bool kept = with < best;
    note_probe(log, start, with, best, kept);
    if (kept) best = with, best_start = start;
  }
  if (log && first + best_start + 1 < log->n) /* the winner's entry, when within the cap */
    plan_search_reason(&log->entries[first + best_start + 1], "chosen: the smallest plan");
  return best_start;
}

bool plan_search_candidate(const PlanCandidate *c, Arena *a, Model *m, Plan *p, PatchPlan *patch,
                           ScheduleReport *sched, PlanSearchLog *log, Diag *d) {
  /* --memory.optimize max: the first stage may run in bands (plan/patch.c) */
  const int patch_start = c->patch ? plan_search_patch_start(c, a, log) : -1;
  const bool patched = patch_start >= 0;
  memset(patch, 0, sizeof *patch);
  if (!model_copy(c->source, a, m)) return diag_error(d, "out of memory");
  if (patched && !patch_model(m, patch_start, patch, d)) return false;
  const Platform kernels = kernels_of(c);
  if (!resolve_model_mixed(m, &kernels, c->portable, d)) return false;
  /* bands are not reordered: the schedule's producer map knows one writer per tensor */
  if (c->reorder && !patched && !schedule_reorder(m, sched, d)) return false;
  if (c->views) c->views(c->views_ctx, m);
  if (c->check_rules && !attrs_check_unmatched(c->config, m, c->strict, d)) return false;
  if (!plan_activations_mode(m, p, c->platform, c->config, c->inplace, d)) return false;
  p->patch = patched ? patch : NULL;
  return true;
}

PlanInplace plan_search_inplace(bool no_inplace, bool memory_max) {
  return no_inplace ? PLAN_INPLACE_NONE : memory_max ? PLAN_INPLACE_ALL : PLAN_INPLACE_FREE;
}

bool plan_search_activations_over(const Plan *p) {
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].role == AR_SCRATCH && (p->arenas[i].memory == p->over_mem || p->arenas[i].memory == MEM_NONE))
      return true;
  return false;
}

int plan_node_index_bound(const Model *m) {
  int bound = m->n_nodes;
  for (int k = 0; k < m->n_nodes; k++)
    if (m->nodes[k].index >= bound) bound = m->nodes[k].index + 1;
  return bound;
}

/* ---- kernel tiers for bytes (the cost model, cost_choice.c) ------------------------------ */

/* cost_choice_build over the latest (all-tier) attempt and a copy of the source resolved
 * without the tiers: resolve must run again (the portable kernels' own choices), load
 * and transform need not. */
static bool build_choice(const BudgetSearch *s, CostChoice *cc, Diag *d) {
  Platform plain = *s->platform;
  plain.dsp = plain.mve = false;
  Model port;
  return model_copy(s->source, s->arena, &port) && resolve_model(&port, &plain, d) &&
         cost_choice_build(s->arena, cost_core_of(s->platform), s->model, s->plan, &port, cc, d);
}

static bool new_trade(const BudgetSearch *s, PlanTrade *t, MemType mem, uint64_t need) {
  *t = (PlanTrade){.n_nodes = plan_node_index_bound(s->model), .mem = mem, .need_fast = need};
  t->portable = arena_calloc(s->arena, (size_t)t->n_nodes + 1, sizeof *t->portable);
  return t->portable != NULL;
}

/* --opt speed under a budget: when the tiers' tables (weights re-laid or widened for the
 * DSP/MVE kernels) overflow a memory, operators go back to the portable kernels, fewest
 * estimated instructions lost per byte freed first (tables and kernel code), until the
 * tables given up cover the excess of the latest attempt. False when nothing is left. */
static bool trade_step(const BudgetSearch *s, const CostChoice *cc, PlanTrade *t) {
  const Plan *p = s->plan;
  const uint64_t excess = p->over_need - p->budget[p->over_mem];
  if (!cost_trade(cc, p->over_mem, excess, t->portable, t->n_nodes, s->arena)) return false;
  t->choice_json = cost_choice_json(cc, t->portable, t->n_nodes, t->mem, s->arena);
  return true;
}

/* --opt balanced: from the all-tier module, the operators whose tier saves fewer
 * estimated instructions per byte it costs (tables and kernel code) than asked go back to
 * the portable kernels, cheapest first, and the module is compiled again with them (going
 * portable only frees constants and code, so it fits where the all-tier module did). The
 * all-tier module stays when nothing moves. */
static bool balance(const BudgetSearch *s, PlanSearchLog *log, const Diag *fresh, Diag *d) {
  if (!(s->platform->dsp || s->platform->mve)) return true;
  PlanTrade t;
  CostChoice cc;
  Diag probe = *fresh;
  if (!new_trade(s, &t, MEM_NONE, 0) || !build_choice(s, &cc, &probe)) return true;
  if (cost_balance(&cc, s->balanced, t.portable, t.n_nodes, s->arena) == 0) return true;
  plan_search_attempt_reason(log, "dropped: --opt balanced puts operators on the portable kernels");
  t.choice_json = cost_choice_json(&cc, t.portable, t.n_nodes, MEM_NONE, s->arena);
  *d = *fresh;
  const BudgetStep step = {.max = s->max_given, .trade = &t};
  return s->compile(s->ctx, &step, d);
}

bool plan_search_budget(const BudgetSearch *s, PlanSearchLog *log, Diag *d) {
  const Diag fresh = *d; /* each attempt starts from it */
  BudgetStep step = {.max = s->max_given};
  if (s->compile(s->ctx, &step, d)) return s->balanced <= 0 || balance(s, log, &fresh, d);
  if (s->plan->over && !s->max_given && plan_search_activations_over(s->plan)) {
    plan_search_attempt_reason(log, "dropped: activations over budget, escalated to --memory.optimize max");
    step = (BudgetStep){.max = true, .escalated = true, .escalated_mem = s->plan->over_mem,
                        .escalated_need = s->plan->over_need};
    *d = fresh;
    if (s->compile(s->ctx, &step, d)) return true;
  }
  if (!s->plan->over) return false; /* failed for another reason than a budget */
  if (s->opt_size || !(s->platform->dsp || s->platform->mve)) {
    plan_search_attempt_reason(log, "dropped: over budget, no kernel tiers to trade");
    return false;
  }
  const Diag over = *d; /* if nothing fits, this names what did not fit with every tier */
  PlanTrade t;
  CostChoice cc;
  Diag probe = fresh;
  if (!new_trade(s, &t, s->plan->over_mem, s->plan->over_need) || !build_choice(s, &cc, &probe)) {
    plan_search_attempt_reason(log, "dropped: over budget, no kernel tiers to trade");
    return false;
  }
  step.trade = &t;
  for (int round = 0; round < 8 && trade_step(s, &cc, &t); round++) {
    plan_search_attempt_reason(log, "dropped: over budget, kernel tiers traded for bytes");
    *d = fresh;
    if (s->compile(s->ctx, &step, d)) return true;
    if (!s->plan->over) return false;
  }
  *d = over;
  return false;
}
