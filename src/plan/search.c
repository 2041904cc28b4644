#include "search.h"

#include "patch.h"

int plan_search_patch_start(PatchProbe probe, void *ctx) {
  uint64_t best = probe(ctx, -1);
  int best_start = -1;
  for (int start = 0; start < PATCH_MAX_START; start++) {
    const uint64_t with = probe(ctx, start);
    if (with < best) best = with, best_start = start;
  }
  return best_start;
}

bool plan_search_activations_over(const Plan *p) {
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].role == AR_SCRATCH && (p->arenas[i].memory == p->over_mem || p->arenas[i].memory == MEM_NONE))
      return true;
  return false;
}
