#include "search.h"

#include <stdio.h>
#include <string.h>

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

int plan_search_patch_start(PatchProbe probe, void *ctx, PlanSearchLog *log) {
  uint64_t best = probe(ctx, -1);
  int best_start = -1;
  const int first = log ? log->n : 0;
  note_probe(log, -1, best, best, true);
  for (int start = 0; start < PATCH_MAX_START; start++) {
    const uint64_t with = probe(ctx, start);
    const bool kept = with < best;
    note_probe(log, start, with, best, kept);
    if (kept) best = with, best_start = start;
  }
  if (log && first + best_start + 1 < log->n) /* the winner's entry, when within the cap */
    plan_search_reason(&log->entries[first + best_start + 1], "chosen: the smallest plan");
  return best_start;
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

bool plan_search_budget(const BudgetSearch *s, bool max_given, bool balanced, PlanSearchLog *log) {
  if (s->compile(s->ctx, false, false)) return !balanced || s->balance(s->ctx);
  bool escalated = false;
  if (s->plan(s->ctx)->over && !max_given && plan_search_activations_over(s->plan(s->ctx))) {
    plan_search_attempt_reason(log, "dropped: activations over budget, escalated to --memory.optimize max");
    escalated = true;
    if (s->compile(s->ctx, true, false)) return true;
  }
  if (!s->plan(s->ctx)->over) return false; /* failed for another reason than a budget */
  if (!s->trade_begin(s->ctx)) {
    plan_search_attempt_reason(log, "dropped: over budget, no kernel tiers to trade");
    return false;
  }
  for (int round = 0; round < 8 && s->trade_step(s->ctx); round++) {
    plan_search_attempt_reason(log, "dropped: over budget, kernel tiers traded for bytes");
    if (s->compile(s->ctx, escalated, true)) return true;
    if (!s->plan(s->ctx)->over) return false;
  }
  s->trade_failed(s->ctx);
  return false;
}
