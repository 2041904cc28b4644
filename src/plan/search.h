/* The planning policy (issue 30 item 5): the patch start, the in-place set, the escalation
 * to max and the tier trade rounds, as an explicit search over candidates, each planned
 * on a copy of the model as loaded and transformed once (resolve and plan run again per
 * candidate, load and transform never), its outcome and reason logged (plan_search). */
#ifndef TINYAOT_PLAN_SEARCH_H
#define TINYAOT_PLAN_SEARCH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../ir/ir.h"
#include "patch.h"
#include "plan.h"
#include "schedule.h"

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

/* One candidate plan: the model as loaded and transformed, which no candidate writes (each
 * plans a copy, model_copy), and the choices that make the candidate. The stages run on
 * the copy in the pipeline's order: patch (max mode), resolve, reorder, the views, plan. */
typedef struct PlanCandidate {
  const Model *source;     /* loaded and transformed once (src/cli/pipeline.c) */
  const Platform *platform; /* the target: memories, budgets, the tiers it has */
  const Config *config;
  bool opt_size;           /* --opt size: portable kernels everywhere */
  const bool *portable;    /* operators kept on the portable kernels, by operator index (NULL: none) */
  bool patch;              /* --memory.optimize max without --no-patch: search the patch start */
  bool reorder;            /* the schedule may be reordered (not --no-reorder); a patched one never is */
  PlanInplace inplace;     /* plan_search_inplace */
  bool check_rules, strict; /* attrs_check_unmatched: rules naming nothing (the first attempt only) */
  /* The concatenations and slices run as views on the fixed schedule: rewrites of
   * src/transform, which only cli calls (docs/architecture.md), so the caller's; NULL: none. */
  void (*views)(void *ctx, Model *m);
  void *views_ctx;
} PlanCandidate;

/* --memory.optimize max: the chain start (node position, below PATCH_MAX_START) whose
 * patches give the smallest whole plan (in-place execution included), or -1 when no patch
 * beats none (ties keep the earlier). Each probe plans a copy of c->source in an arena of
 * its own, freed after it (its peak still counts in `heap`'s figures); each goes into log
 * (or NULL). */
int plan_search_patch_start(const PlanCandidate *c, Arena *heap, PlanSearchLog *log);

/* Plans candidate c into m (a copy of c->source in arena a), p and patch (its patch start
 * searched when c->patch, each probe into log), the schedule's moves into sched. False
 * with d on failure; m
 * and p then hold what the failing stage left (p->over: a budget failed). */
bool plan_search_candidate(const PlanCandidate *c, Arena *a, Model *m, Plan *p, PatchPlan *patch,
                           ScheduleReport *sched, PlanSearchLog *log, Diag *d);

/* The in-place set of a whole attempt: by default the contracts that cost no instruction
 * (the output at its dying input's own offset); --memory.optimize max also those that
 * move outputs; none with --no-inplace. */
PlanInplace plan_search_inplace(bool no_inplace, bool memory_max);

/* An over-budget plan whose overflow involves activations: a scratch arena lives in the
 * memory over budget, or found no memory with room. Only then may --memory.optimize max
 * (which saves activations only) make it fit. */
bool plan_search_activations_over(const Plan *p);

/* Operators kept on the portable kernels: to fit a memory budget (the trade, mem the
 * memory that overflowed with every tier) or by --opt balanced (mem MEM_NONE). */
typedef struct PlanTrade {
  bool *portable;          /* by model operator index */
  int n_nodes;             /* entries of portable */
  MemType mem;
  uint64_t need_fast;      /* the bytes mem needed with every tier */
  const char *choice_json; /* the cost model's candidates and choice (cost_choice_json) */
} PlanTrade;

/* One whole attempt of the budget search. */
typedef struct BudgetStep {
  bool max;                /* plan in --memory.optimize max mode */
  bool escalated;          /* ... because the default mode was over a budget activations are part of */
  MemType escalated_mem;   /* the memory over in default mode, and the bytes it needed */
  uint64_t escalated_need;
  const PlanTrade *trade;  /* NULL: every tier the platform has */
} BudgetStep;

/* The budget search over whole attempts. Candidates in order: the mode asked for; over a
 * budget that activations are part of, --memory.optimize max (escalation); still over,
 * kernel tiers traded for bytes in rounds (the cost model, cost_choice.h), the mode kept;
 * with --opt balanced, the tiers that save too few instructions per byte go portable in
 * the module that fits. Memory first: max costs a few percent of instructions on the
 * operators that move (+8.9 % on KWS, Cortex-M55, the worst measured), a traded tier an
 * operator's DSP/MVE speed-up (2-4x); and the trade frees only constant tables, max only
 * activations. An attempt is planned (plan_search_candidate) and emitted by the caller:
 * the constants a budget counts are the tables the kernels' emit derives, so a budget is
 * known to fit only once the module is written. */
typedef struct BudgetSearch {
  const Platform *platform;
  const Model *source;     /* the model as loaded and transformed (every copy's origin) */
  const Model *model;      /* where each attempt leaves its model and plan */
  const Plan *plan;
  Arena *arena;            /* the trade's tables */
  bool max_given;          /* the mode asked for is already max */
  bool opt_size;           /* --opt size: no tiers to trade */
  double balanced;         /* --opt balanced's instructions per byte (0: off) */
  /* Plans, emits and writes one attempt (true: it compiled), diagnostics into d. */
  bool (*compile)(void *ctx, const BudgetStep *step, Diag *d);
  void *ctx;
} BudgetSearch;

/* True when a candidate compiled (the last one compiled is the module); at most 8 trade
 * rounds. d: the first attempt's diagnostics on entry; on failure the error that names
 * what did not fit (with every tier, when the trade ran out). */
bool plan_search_budget(const BudgetSearch *s, PlanSearchLog *log, Diag *d);

/* One past the largest operator index of m: the size of tables by operator index, which
 * rewrites that drop operators (a folded PAD) leave sparse. */
int plan_node_index_bound(const Model *m);

#endif
