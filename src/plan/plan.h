/* plan: lifetimes over the schedule, placement of every tensor in a memory, arenas
 * per (memory, role), offsets, constant residency (direct / pin / stream), budgets. */
#ifndef TINYAOT_PLAN_H
#define TINYAOT_PLAN_H
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "../common/diag.h"
#include "../config/config.h"
#include "../ir/ir.h"
#include "../platform/platform.h"

enum { PLAN_MAX_ARENAS = 24, PLAN_ALIGN = 16 };

typedef enum ArenaRole {
  AR_SCRATCH,    /* activations and kernel scratch, reused by lifetime */
  AR_PERSISTENT, /* variable tensors, zeroed at init */
  AR_PINNED,     /* constants copied once at init (hydration destination) */
  AR_STREAM,     /* stream pool: constants copied before their first reader */
} ArenaRole;

typedef struct PlanArena {
  const char *name;    /* "scratch_dtcm" */
  MemType memory;
  ArenaRole role;
  size_t size;         /* bytes, multiple of PLAN_ALIGN */
  size_t lower_bound;  /* max over the schedule of live (aligned) bytes */
  int n_tensors;
  int inplace_ties;    /* operators writing their output over a dying input here */
} PlanArena;

/* A constant the module stores: a model tensor or a table an operator derived. */
typedef struct ConstItem {
  int32_t tensor_id;        /* model tensor, or -1 for a derived table */
  int32_t op_index;         /* operator that derived it (-1 for model tensors) */
  int32_t source_tensor;    /* derived table: the model tensor it re-lays or folds (its
                             * attribute rules, id rules included, place it), or -1 */
  const char *symbol;       /* the name layer code uses (a macro) */
  const char *array_name;   /* the C array holding its source bytes */
  const char *ctype;        /* element type */
  const char *what;         /* description for comments and the report */
  TensorType type;
  const uint8_t *bytes;     /* little-endian values */
  size_t size, elems;
  int32_t first_reader, last_reader;
  MemType source;           /* where the image keeps it */
  MemType runtime;          /* where kernels read it */
  Residency residency;      /* effective: direct, pin or stream */
  bool stream_requested;    /* residency stream asked; `residency` says if scheduled */
  int arena;                /* pinned/stream arena, or -1 */
  size_t offset;            /* in that arena (pinned: in the source blob too) */
  int rule_line;            /* rule that decided the residency, 0 if default */
} ConstItem;

typedef struct Plan {
  Platform platform;
  const Config *config;       /* read by plan/ only (attribute rules, constraints) */
  int n_arenas;
  int n_nodes;
  MemType *code_memory;       /* per node: the memory its code is placed in, MEM_NONE = default;
                               * emit reads this, not the config */
  PlanArena arenas[PLAN_MAX_ARENAS];
  int n_consts, cap_consts;
  ConstItem *consts;
  size_t constant_bytes;   /* bytes of constants in the image */
  uint64_t used[MEM_COUNT];
  uint64_t budget[MEM_COUNT];
  int budget_line[MEM_COUNT]; /* constraint line, 0 = platform size */
  size_t lower_bound;         /* activation lower bound (all memories): layer by layer, whole tensors */
  bool inplace;               /* in-place execution allowed (default: the free contracts) */
  bool inplace_moves;         /* and the ones that move their output (--memory.optimize max) */
  const struct PatchPlan *patch; /* the first stage runs in bands (plan/patch.c), or NULL */
  bool over;                  /* plan_finish failed on a budget: */
  MemType over_mem;           /* the memory, and how many bytes it needed */
  uint64_t over_need;
} Plan;

/* Activations: rules, lifetimes, grouping, offsets. Memories of unpinned groups are
 * chosen in plan_finish once the constants are known. */
bool plan_activations(Model *m, Plan *p, const Platform *platform, const Config *cfg, Diag *d);
/* The same; `inplace`: operators with an in-place contract may write over a dying input
 * (plan/inplace.c), which may take the arena below the layer-by-layer bound. */
bool plan_activations_opt(Model *m, Plan *p, const Platform *platform, const Config *cfg, bool inplace, Diag *d);
/* Which in-place contracts a plan may use: none; the free ones (the output at its dying
 * input's own offset, the kernel unchanged: what `--memory.optimize default` applies);
 * all (also those that write a temporary and move it: `max`, which costs the moves). */
typedef enum PlanInplace { PLAN_INPLACE_NONE, PLAN_INPLACE_FREE, PLAN_INPLACE_ALL } PlanInplace;
bool plan_activations_mode(Model *m, Plan *p, const Platform *platform, const Config *cfg, PlanInplace mode,
                           Diag *d);
/* Registers a constant the emitted code reads (called while lowering operators). */
ConstItem *plan_add_const(Plan *p, Arena *a, int32_t tensor_id, int32_t op_index, int32_t reader);
/* Constants' residency, pinned/stream arenas, memory choice, budgets, verification. */
bool plan_finish(Model *m, Plan *p, Diag *d);
/* Independent check: every tensor fits its arena and no two tensors whose
 * lifetimes overlap share a byte. Separate code from the planner on purpose. */
bool plan_verify(const Model *m, const Plan *p, Diag *d);
/* Activation lower bound over the schedule, from lifetimes (bytes, unaligned). */
size_t plan_live_lower_bound(const Model *m);
/* The memory node k's code is placed in (MEM_NONE: the default section). */
static inline MemType plan_code_memory(const Plan *p, int k) {
  return k >= 0 && k < p->n_nodes ? p->code_memory[k] : MEM_NONE;
}
/* True when tensor `id` needs arena storage of its own (not constant, not aliased).
 * These two are defined in lifetimes.c (beneath plan.c, inplace.c and verify.c). */
bool plan_needs_storage(const Model *m, int32_t id);
const char *arena_role_name(ArenaRole r);

/* Attribute rules (attributes.c). */
typedef struct TensorAttrs {
  bool memory_set;
  MemType memory;     /* MEM_NONE: planner chooses */
  bool dest_set;
  MemType dest;
  Residency residency;
  int line_memory, line_dest, line_residency;
} TensorAttrs;
/* Merges the rules matching (kind, id) field by field: type+id > type > id > none,
 * later rule wins at equal specificity. id -1 matches only rules without an id. */
TensorAttrs attrs_resolve(const Config *c, RuleType kind, int32_t id);
/* Rules that match no tensor/operator of the model (and ids naming none): a warning
 * each, or under `strict` the first one is an error in d. */
bool attrs_check_unmatched(const Config *c, const Model *m, bool strict, Diag *d);
/* --verbose 2: the attributes the rules give each operator and tensor, and where the
 * plan put each tensor. */
void attrs_print(const Config *c, const Model *m, const Plan *p, FILE *f);

#endif
