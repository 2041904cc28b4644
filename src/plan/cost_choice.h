/* Per-operator kernel choice with the cost model (src/resolve/cost_model.h): which
 * operators leave their DSP/MVE tier for the portable kernel, by instructions given up
 * per byte freed. Used by the budget trade and by `--opt balanced` (the planning search). */
#ifndef TINYAOT_COST_CHOICE_H
#define TINYAOT_COST_CHOICE_H
#include <stdbool.h>
#include <stdint.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../resolve/cost_model.h"
#include "plan.h"

enum { COST_MAX_FAMILIES = 4 };

/* One operator that has a tier: its two candidates. */
typedef struct CostOp {
  int32_t index;                     /* model operator index */
  double fast_instr, port_instr;     /* estimated instructions, tier and portable */
  uint64_t fast_bytes[MEM_COUNT];    /* constants the tier needs, by memory */
  uint64_t port_bytes;               /* the portable kernel's (weights read in place + per-channel tables) */
  const char *fast_fam[COST_MAX_FAMILIES], *port_fam[COST_MAX_FAMILIES]; /* runtime kernel families */
} CostOp;

typedef struct CostChoice {
  CostCore core;
  int n_ops;
  CostOp *ops;
  /* families of the operators without a tier (they stay whatever is chosen) */
  int n_fixed;
  const char **fixed_fam;
} CostChoice;

/* One step: the operators that go portable together (one, or every tier user of a
 * kernel family), the instructions that costs and the bytes it frees. */
typedef struct CostMove {
  int n;
  int32_t *ops;        /* indices into CostChoice.ops */
  double lost;         /* estimated instructions added per inference */
  int64_t table_bytes; /* constant bytes freed in the memory asked for */
  int64_t code_bytes;  /* kernel code bytes freed (a family with no user left), less added */
} CostMove;

/* Candidates for every operator whose kernel differs without the tiers: `fast` and
 * `fast_plan` are the all-tier attempt (its constants give the tier's bytes), `port` the
 * model resolved once more without the tiers (the portable kernels). */
bool cost_choice_build(Arena *a, CostCore core, const Model *fast, const Plan *fast_plan, const Model *port,
                       CostChoice *cc, Diag *d);
/* The move with the fewest instructions lost per byte freed (constants in `mem`, or in
 * every memory for MEM_NONE, plus kernel code), given the operators already portable (by
 * model operator index, `n_index` entries); with `need_tables`, only moves that free
 * constants there. False when no move frees bytes. */
bool cost_best_move(const CostChoice *cc, const bool *portable, int n_index, MemType mem, bool need_tables, Arena *a,
                    CostMove *mv);
/* --opt balanced: moves operators to the portable kernels, cheapest first, while a move
 * gives up fewer than `instr_per_byte` estimated instructions per byte it frees (tables
 * and code). Returns how many operators went portable. */
int cost_balance(const CostChoice *cc, double instr_per_byte, bool *portable, int n_index, Arena *a);
/* The budget trade: operators go portable, fewest instructions lost per byte freed
 * (tables and code) first, among moves that free constants of `mem`, until `excess`
 * bytes of `mem` are freed (or nothing is left). False when nothing was freed. */
bool cost_trade(const CostChoice *cc, MemType mem, uint64_t excess, bool *portable, int n_index, Arena *a);

/* The candidates and the choice, for report.json ("cost_choice"): per operator with a
 * tier, both estimates, the bytes it alone would free from the all-tier module, and
 * whether it went portable. */
const char *cost_choice_json(const CostChoice *cc, const bool *portable, int n_index, MemType mem, Arena *a);

#endif
