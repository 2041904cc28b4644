/* Planner reaches the lower bound on chains; the verifier catches overlaps. */
#include <string.h>

#include "ops/op.h"
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

/* model_copy (the planning search plans each candidate on one): planning the copy leaves
 * the source as it was, and the source planned afterwards gets the copy's plan. */
static void copy_plans_like_source(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m, c;
  size_t bytes[] = {1000, 4000, 2000, 3000, 500, 64};
  make_chain(&m, &a, bytes, 6);
  Subgraph graphs[2] = {{.n_nodes = m.n_nodes, .nodes = m.nodes, .n_inputs = 1, .inputs = m.inputs,
                         .n_outputs = 1, .outputs = m.outputs},
                        {.n_nodes = 1, .nodes = &m.nodes[1]}};
  m.n_subgraphs = 2;
  m.subgraphs = graphs;
  Arena b;
  arena_init(&b);
  CHECK(u, model_copy(&m, &b, &c));
  CHECK(u, c.arena == &b && c.tensors != m.tensors && c.nodes != m.nodes && c.nodes[0].in != m.nodes[0].in);
  CHECK(u, c.subgraphs[0].nodes == c.nodes && c.subgraphs[0].inputs == c.inputs);
  CHECK(u, c.subgraphs[1].nodes != m.subgraphs[1].nodes && c.subgraphs[1].nodes[0].in[0] == 1);
  Plan pc, pm;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, plan_all(&c, &pc, &d));
  c.nodes[0].in[0] = 3;
  c.subgraphs[1].nodes[0].out[0] = 5;
  for (int i = 0; i < m.n_tensors; i++) CHECK(u, m.tensors[i].arena == -1 && m.tensors[i].first_use == 0);
  CHECK(u, m.nodes[0].in[0] == 0 && m.nodes[1].out[0] == 2);
  CHECK(u, plan_all(&m, &pm, &d));
  CHECK(u, pm.n_arenas == pc.n_arenas && pm.arenas[0].size == pc.arenas[0].size);
  for (int i = 0; i < m.n_tensors; i++) CHECK(u, m.tensors[i].offset == c.tensors[i].offset);
  arena_free(&b);
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

/* Fake operators for the in-place tests: an elementwise contract over the whole tensor,
 * whose kernel reads element i before writing it (group 0), or may still read element
 * i - 1 after writing element i (group 2). */
static bool contract(const Model *m, const Node *n, int input, InplaceAccess *acc, int32_t group) {
  const Tensor *y = &m->tensors[n->out[0]];
  *acc = (InplaceAccess){.in_h = 1, .in_w = (int32_t)y->bytes, .in_px = 1, .out_h = 1, .out_w = (int32_t)y->bytes,
                         .out_px = 1, .k_h = 1, .k_w = 1, .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1,
                         .group = group};
  return input == 0;
}
static bool contract_g0(const Model *m, const Node *n, int input, InplaceAccess *acc) {
  return contract(m, n, input, acc, 0);
}
static bool contract_g2(const Model *m, const Node *n, int input, InplaceAccess *acc) {
  return contract(m, n, input, acc, 2);
}
static const OpDef fake_elementwise = {.name = "FAKE", .inplace = contract_g0};
static const OpDef fake_lagging = {.name = "FAKE", .inplace = contract_g2};

static bool plan_inplace(Model *m, Plan *p, Diag *d) {
  Platform host;
  platform_builtin("host", &host);
  Config cfg;
  config_defaults(&cfg);
  return plan_activations_opt(m, p, &host, &cfg, true, d) && plan_finish(m, p, d);
}

/* t0 -> op0 -> t1 -> op1 -> t2, 64 bytes each: each operator may write over its input,
 * so one 64-byte buffer holds the whole chain (two without in-place execution). */
static void inplace_chain_shares_one_buffer(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  size_t bytes[] = {64, 64, 64};
  make_chain(&m, &a, bytes, 3);
  m.nodes[0].def = m.nodes[1].def = &fake_elementwise;
  Plan p;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, plan_all(&m, &p, &d));
  CHECK(u, p.arenas[0].size == 128 && !m.nodes[0].inplace);
  diag_init(&d, NULL);
  CHECK(u, plan_inplace(&m, &p, &d));
  CHECK(u, p.arenas[0].size == 64 && p.lower_bound == 128);
  CHECK(u, m.nodes[0].inplace && m.nodes[1].inplace && m.nodes[0].inplace_delta == 0);
  CHECK(u, m.tensors[1].offset == m.tensors[0].offset && m.tensors[2].offset == m.tensors[1].offset);
  arena_free(&a);
}

/* The verifier re-runs the contract over the planned bytes: a kernel that may read
 * element i - 1 after writing element i cannot write at its input's own offset, and a
 * temporary output ahead of the input overwrites bytes not read yet. */
static void verifier_checks_inplace_contract(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  size_t bytes[] = {64, 64, 64};
  make_chain(&m, &a, bytes, 3);
  m.nodes[0].def = m.nodes[1].def = &fake_elementwise;
  Plan p;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, plan_inplace(&m, &p, &d));
  m.nodes[0].def = &fake_lagging;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  CHECK(u, strstr(d.msg, "in-place contract") != NULL);
  m.nodes[0].def = &fake_elementwise;
  m.nodes[0].inplace_delta = 16;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  m.nodes[0].inplace_delta = 0;
  diag_init(&d, NULL);
  CHECK(u, plan_verify(&m, &p, &d));
  /* without the in-place decision the shared bytes are an overlap */
  m.nodes[0].inplace = false;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  arena_free(&a);
}

const UnitTest plan_tests[] = {
    {"plan/inplace_chain_shares_one_buffer", inplace_chain_shares_one_buffer},
    {"plan/verifier_checks_inplace_contract", verifier_checks_inplace_contract},
    {"plan/chain_reaches_lower_bound", chain_reaches_lower_bound},
    {"plan/copy_plans_like_source", copy_plans_like_source},
    {"plan/verifier_catches_overlap", verifier_catches_overlap},
    {NULL, NULL},
};
