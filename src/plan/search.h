/* The planning policy's decisions (issue 30 item 5), apart from the pipeline that runs
 * them: the patch start, the in-place set, the escalation to max and the tier trade
 * rounds. Each search asks the caller (src/cli/pipeline.c) to plan or compile one
 * candidate through a callback, picks among the answers and logs each (plan_search). */
#ifndef TINYAOT_PLAN_SEARCH_H
#define TINYAOT_PLAN_SEARCH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* What the search tried, for report.json's "plan_search": each candidate (a patch start,
 * a mode with its in-place set, a trade round), its outcome and why it was kept or
 * dropped. Fixed-size and in the caller's struct, so logging allocates nothing (the
 * conversion's heap figures stay as they were); entries past the cap are only counted. */
#define PLAN_SEARCH_MAX 48
typedef struct PlanSearchEntry {
  char candidate[64];
  char result[96];
  char reason[96];
} PlanSearchEntry;

typedef struct PlanSearchLog {
  PlanSearchEntry entries[PLAN_SEARCH_MAX];
  int n;
  int left_out; /* entries past PLAN_SEARCH_MAX */
  int attempt;  /* the entry of the latest whole attempt, -1: none (plan_search_attempt) */
} PlanSearchLog;

/* Appends an entry (NULL log: nothing); the returned entry (NULL past the cap) may have
 * its reason set later, by the decision that follows it. */
PlanSearchEntry *plan_search_note(PlanSearchLog *log, const char *candidate, const char *result, const char *reason);
void plan_search_reason(PlanSearchEntry *e, const char *reason);
/* Notes a whole attempt (its entry becomes log->attempt), and sets that entry's reason. */
void plan_search_attempt(PlanSearchLog *log, const char *candidate, const char *result, const char *reason);
void plan_search_attempt_reason(PlanSearchLog *log, const char *reason);
/* "fits: DTCM 1024, SRAM 20480 bytes" (the bytes used per memory) or the overflow of an
 * over-budget plan ("over: SRAM needs N of B bytes"), into out. */
void plan_search_outcome(const Plan *p, bool planned, char *out, size_t cap);

/* Scratch bytes of the whole plan (in-place execution included) with the patches planned
 * from node position `start` (-1: no patch), or UINT64_MAX when that start gives no patch
 * or the plan fails. */
typedef uint64_t (*PatchProbe)(void *ctx, int start);

/* --memory.optimize max: the chain start (node position, below PATCH_MAX_START) whose
 * patches give the smallest plan, or -1 when no patch beats none (ties keep the earlier).
 * Each probe goes into log (or NULL). */
int plan_search_patch_start(PatchProbe probe, void *ctx, PlanSearchLog *log);

/* The in-place set of a whole attempt: by default the contracts that cost no instruction
 * (the output at its dying input's own offset); --memory.optimize max also those that
 * move outputs; none with --no-inplace. */
PlanInplace plan_search_inplace(bool no_inplace, bool memory_max);

/* An over-budget plan whose overflow involves activations: a scratch arena lives in the
 * memory over budget, or found no memory with room. Only then may --memory.optimize max
 * (which saves activations only) make it fit. */
bool plan_search_activations_over(const Plan *p);

/* The budget search over whole attempts, each compiled by the caller (src/cli/pipeline.c:
 * load, resolve, plan and emit of one candidate; a failed attempt leaves its plan, whose
 * `over` says whether a budget failed). Candidates in order: the mode asked for; over a
 * budget that activations are part of, --memory.optimize max (escalation); still over,
 * kernel tiers traded for bytes in rounds, the mode kept. Memory first: max costs a few
 * percent of instructions on the operators that move (+8.9 % on KWS, Cortex-M55, the
 * worst measured), a traded tier an operator's DSP/MVE speed-up (2-4x); and the trade
 * frees only constant tables, max only activations. */
typedef struct BudgetSearch {
  void *ctx;
  /* One candidate: `escalate` plans in max mode (recording the escalation), `traded` with
   * the trade's portable operators; true when it compiled. */
  bool (*compile)(void *ctx, bool escalate, bool traded);
  const Plan *(*plan)(void *ctx); /* the latest attempt's plan */
  /* Sets up the trade from the latest (over-budget) attempt: false when there is nothing
   * to trade (--opt size, no DSP/MVE tiers, no cost model). */
  bool (*trade_begin)(void *ctx);
  bool (*trade_step)(void *ctx); /* one more round of operators portable; false: none left */
  void (*trade_failed)(void *ctx); /* every round over: the error names the all-tier overflow */
  bool (*balance)(void *ctx);     /* --opt balanced over the first module that fits */
} BudgetSearch;

/* True when a candidate compiled (the last one compiled is the module); max_given: the
 * mode asked for is already max; balanced: --opt balanced. At most 8 trade rounds. */
bool plan_search_budget(const BudgetSearch *s, bool max_given, bool balanced, PlanSearchLog *log);

#endif
