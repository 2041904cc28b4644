/* plan: lifetimes over the schedule, arenas per (memory, role), offsets. */
#ifndef TINYAOT_PLAN_H
#define TINYAOT_PLAN_H
#include <stdbool.h>
#include <stddef.h>

#include "../common/diag.h"
#include "../ir/ir.h"

enum { PLAN_MAX_ARENAS = 16, PLAN_ALIGN = 16 };

typedef struct PlanArena {
  const char *name;      /* "scratch", "persistent" */
  const char *memory;    /* "SRAM" */
  TensorRole role;
  size_t size;           /* bytes, a multiple of PLAN_ALIGN */
  size_t lower_bound;    /* max over the schedule of live (aligned) bytes */
  int n_tensors;
} PlanArena;

typedef struct Plan {
  int n_arenas;
  PlanArena arenas[PLAN_MAX_ARENAS];
  size_t constant_bytes; /* bytes of constant tensors the module stores */
  int n_constants;
} Plan;

bool plan_model(Model *m, Plan *p, Diag *d);
/* Independent check: every tensor fits its arena and no two tensors whose
 * lifetimes overlap share a byte. Separate code from the planner on purpose. */
bool plan_verify(const Model *m, const Plan *p, Diag *d);
/* Activation lower bound over the schedule, from lifetimes (bytes, unaligned). */
size_t plan_live_lower_bound(const Model *m);
/* True when tensor `id` needs arena storage of its own (not constant, not aliased). */
bool plan_needs_storage(const Model *m, int32_t id);

#endif
