/* The planning policy's decisions (issue 30 item 5), apart from the pipeline that runs
 * them: each search asks the caller (src/cli/pipeline.c) to plan one candidate through a
 * probe and picks among the answers. First step: the patch start and the escalation
 * test; the in-place choice and the budget escalation loop still live in pipeline.c. */
#ifndef TINYAOT_PLAN_SEARCH_H
#define TINYAOT_PLAN_SEARCH_H
#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

/* Scratch bytes of the whole plan (in-place execution included) with the patches planned
 * from node position `start` (-1: no patch), or UINT64_MAX when that start gives no patch
 * or the plan fails. */
typedef uint64_t (*PatchProbe)(void *ctx, int start);

/* --memory.optimize max: the chain start (node position, below PATCH_MAX_START) whose
 * patches give the smallest plan, or -1 when no patch beats none (ties keep the earlier). */
int plan_search_patch_start(PatchProbe probe, void *ctx);

/* An over-budget plan whose overflow involves activations: a scratch arena lives in the
 * memory over budget, or found no memory with room. Only then may --memory.optimize max
 * (which saves activations only) make it fit. */
bool plan_search_activations_over(const Plan *p);

#endif
