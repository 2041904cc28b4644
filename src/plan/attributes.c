/* Tensor attribute rules: precedence and field-by-field merging. */
#include "plan.h"

static int specificity(const TensorRule *r) {
  bool typed = r->has_type && r->type != RULE_ANY;
  return (r->has_id ? 2 : 0) + (typed ? 1 : 0);
}

static bool rule_matches(const TensorRule *r, RuleType kind, int32_t id) {
  if (r->has_type && r->type != RULE_ANY && r->type != kind) return false;
  if (!r->has_id) return true;
  if (id < 0) return false;
  for (int i = 0; i < r->n_ids; i++)
    if (r->ids[i] == id) return true;
  return false;
}

TensorAttrs attrs_resolve(const Config *c, RuleType kind, int32_t id) {
  TensorAttrs a = {.memory = MEM_NONE, .dest = MEM_NONE};
  int best_mem = -1, best_dest = -1, best_res = -1;
  if (!c) return a;
  for (int i = 0; i < c->n_rules; i++) {
    const TensorRule *r = &c->rules[i];
    if (!rule_matches(r, kind, id)) continue;
    int s = specificity(r);
    /* >= : at equal specificity the later rule wins */
    if (r->has_memory && s >= best_mem) {
      best_mem = s;
      a.memory_set = r->memory != MEM_NONE;
      a.memory = r->memory;
      a.line_memory = r->line;
    }
    if (r->has_dest && s >= best_dest) {
      best_dest = s;
      a.dest_set = true;
      a.dest = r->dest;
      a.line_dest = r->line;
    }
    if (r->residency != RES_UNSET && s >= best_res) {
      best_res = s;
      a.residency = r->residency;
      a.line_residency = r->line;
    }
  }
  return a;
}
