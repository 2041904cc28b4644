/* Planner reaches the lower bound on chains; the verifier catches overlaps. */
#include <string.h>

#include "plan/plan.h"
#include "platform/platform.h"
#include "unit.h"

/* A chain t0 -> op0 -> t1 -> op1 -> t2 -> op2 -> t3 with the given sizes. */
static void make_chain(Model *m, Arena *a, const size_t *bytes, int n_tensors) {
  memset(m, 0, sizeof *m);
  m->arena = a;
  m->n_tensors = m->n_model_tensors = n_tensors;
  m->tensors = arena_calloc(a, (size_t)n_tensors, sizeof(Tensor));
  m->n_nodes = n_tensors - 1;
  m->nodes = arena_calloc(a, (size_t)m->n_nodes, sizeof(Node));
  for (int i = 0; i < n_tensors; i++) {
    Tensor *t = &m->tensors[i];
    t->id = i;
    t->name = "t";
    t->type = TT_INT8;
    t->rank = 1;
    t->dims[0] = (int32_t)bytes[i];
    t->elems = (int64_t)bytes[i];
    t->bytes = bytes[i];
    t->alias_of = -1;
    t->arena = -1;
  }
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    n->index = k;
    n->n_in = 1;
    n->n_out = 1;
    n->in = arena_calloc(a, 1, sizeof(int32_t));
    n->out = arena_calloc(a, 1, sizeof(int32_t));
    n->in[0] = k;
    n->out[0] = k + 1;
    n->scratch_tensor = -1;
  }
  m->n_inputs = m->n_outputs = 1;
  m->inputs = arena_calloc(a, 1, sizeof(int32_t));
  m->outputs = arena_calloc(a, 1, sizeof(int32_t));
  m->inputs[0] = 0;
  m->outputs[0] = n_tensors - 1;
  m->tensors[0].is_input = true;
  m->tensors[n_tensors - 1].is_output = true;
}

static bool plan_all(Model *m, Plan *p, Diag *d) {
  Platform host;
  platform_builtin("host", &host);
  Config cfg;
  config_defaults(&cfg);
  return plan_activations(m, p, &host, &cfg, d) && plan_finish(m, p, d);
}

static void chain_reaches_lower_bound(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  size_t bytes[] = {1000, 4000, 2000, 3000, 500, 64};
  make_chain(&m, &a, bytes, 6);
  Plan p;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, plan_all(&m, &p, &d));
  CHECK(u, p.arenas[0].size == p.arenas[0].lower_bound);
  /* In a chain only neighbours are live together: the bound is the largest
   * neighbouring pair (4000 + 2000), and the plan must not exceed it. */
  CHECK(u, p.arenas[0].lower_bound == 6000 && p.arenas[0].size == 6000);
  CHECK(u, plan_live_lower_bound(&m) == 6000);
  arena_free(&a);
}

static void verifier_catches_overlap(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  size_t bytes[] = {64, 64, 64};
  make_chain(&m, &a, bytes, 3);
  Plan p;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, plan_all(&m, &p, &d));
  /* t0 and t1 are both live at op 0: force them onto the same bytes. */
  m.tensors[1].offset = m.tensors[0].offset;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  CHECK(u, strstr(d.msg, "overlaps") != NULL);
  /* Out-of-arena placement is caught too. */
  m.tensors[1].offset = p.arenas[0].size;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  arena_free(&a);
}

const UnitTest plan_tests[] = {
    {"plan/chain_reaches_lower_bound", chain_reaches_lower_bound},
    {"plan/verifier_catches_overlap", verifier_catches_overlap},
    {NULL, NULL},
};
