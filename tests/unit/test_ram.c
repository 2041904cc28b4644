/* Memory modes (issue 17 item 5): the default mode's in-place ties never copy an output,
 * max is never above it, and the report's bounds (plan/savings.c) count each in-place
 * step's shared bytes once. */
#include <string.h>

#include "ops/op.h"
#include "plan/plan.h"
#include "plan/savings.h"
#include "platform/platform.h"
#include "transform/transform.h"
#include "unit.h"

/* A chain t0 -> op0 -> t1 -> op1 -> t2 -> ... with the given sizes (int8, rank 1). */
static void chain(Model *m, Arena *a, const size_t *bytes, int n_tensors) {
  memset(m, 0, sizeof *m);
  m->arena = a;
  m->n_tensors = m->n_model_tensors = n_tensors;
  m->tensors = arena_calloc(a, (size_t)n_tensors, sizeof(Tensor));
  m->n_nodes = n_tensors - 1;
  m->nodes = arena_calloc(a, (size_t)m->n_nodes, sizeof(Node));
  for (int i = 0; i < n_tensors; i++) {
    Tensor *t = &m->tensors[i];
    *t = (Tensor){.id = i, .name = "t", .type = TT_INT8, .rank = 1, .alias_of = -1, .arena = -1};
    t->dims[0] = (int32_t)bytes[i];
    t->elems = (int64_t)bytes[i];
    t->bytes = bytes[i];
  }
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    n->index = k;
    n->opname = "FAKE";
    n->n_in = n->n_out = 1;
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

/* Elementwise contracts (input and output of one size): group 0 reads element i before
 * writing it (free, at the input's offset); group 2 may read element i - 1 after writing
 * i (a temporary below the input, then a move). */
static bool contract(const Model *m, const Node *n, int input, InplaceAccess *acc, int32_t group) {
  const Tensor *x = &m->tensors[n->in[0]], *y = &m->tensors[n->out[0]];
  if (x->bytes != y->bytes) return false;
  *acc = (InplaceAccess){.in_h = 1, .in_w = (int32_t)x->bytes, .in_px = 1, .out_h = 1, .out_w = (int32_t)y->bytes,
                         .out_px = 1, .k_h = 1, .k_w = 1, .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1,
                         .group = group, .moves = group > 0};
  return input == 0;
}
static bool contract_free(const Model *m, const Node *n, int input, InplaceAccess *acc) {
  return contract(m, n, input, acc, 0);
}
static bool contract_moving(const Model *m, const Node *n, int input, InplaceAccess *acc) {
  return contract(m, n, input, acc, 2);
}
static const OpDef fake_free = {.name = "FAKE", .inplace = contract_free};
static const OpDef fake_moving = {.name = "FAKE", .inplace = contract_moving};

static bool plan_mode(Model *m, Plan *p, PlanInplace mode) {
  Platform host;
  platform_builtin("host", &host);
  static Config cfg; /* the plan keeps a pointer to it */
  config_defaults(&cfg);
  Diag d;
  diag_init(&d, NULL);
  return plan_activations_mode(m, p, &host, &cfg, mode, &d) && plan_finish(m, p, &d);
}

/* An in-place node whose output does not sit where its kernel wrote it: a copy. */
static int copying_nodes(const Model *m) {
  int n = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *node = &m->nodes[k];
    if (!node->inplace) continue;
    const Tensor *x = &m->tensors[tensor_storage(m, node->in[node->inplace_input])];
    const Tensor *y = &m->tensors[tensor_storage(m, node->out[0])];
    n += (int64_t)y->offset != (int64_t)x->offset + node->inplace_delta;
  }
  return n;
}

/* 16 -> 64 -> 64 -> 16 bytes; op1 free: the default mode ties t2 to t1 (the 128-byte step
 * becomes 64), the peak is then op0's and op2's 80 bytes. */
static void default_mode_takes_free_ties(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  size_t bytes[] = {16, 64, 64, 16};
  chain(&m, &a, bytes, 4);
  m.nodes[1].def = &fake_free;
  Plan p;
  CHECK(u, plan_mode(&m, &p, PLAN_INPLACE_NONE));
  CHECK(u, p.arenas[0].size == 128 && !m.nodes[1].inplace && plan_reached_bound(&m) == 128);
  CHECK(u, plan_mode(&m, &p, PLAN_INPLACE_FREE));
  CHECK(u, m.nodes[1].inplace && m.nodes[1].inplace_delta == 0 && copying_nodes(&m) == 0);
  CHECK(u, p.lower_bound == 128 && plan_live_at(&m, 1) == 128 && plan_inplace_saving(&m, 1) == 64);
  CHECK(u, plan_reached_bound(&m) == 80 && p.arenas[0].size == 80);
  arena_free(&a);
}

/* Every operator needs a move (group 2): whatever the default mode keeps copies nothing,
 * and max (which may copy) is never above the default mode nor the default above none. */
static void default_mode_never_copies(UnitState *u) {
  const size_t shapes[][6] = {{64, 64, 64, 64, 64, 64}, {16, 64, 64, 16, 64, 16}, {256, 256, 64, 64, 256, 256}};
  for (int s = 0; s < 3; s++) {
    Arena a;
    arena_init(&a);
    Model m;
    chain(&m, &a, shapes[s], 6);
    for (int k = 0; k < m.n_nodes; k++) m.nodes[k].def = k % 2 ? &fake_moving : &fake_free;
    Plan p;
    size_t none, free_mode, max;
    CHECK(u, plan_mode(&m, &p, PLAN_INPLACE_NONE));
    none = p.arenas[0].size;
    CHECK(u, plan_mode(&m, &p, PLAN_INPLACE_FREE));
    free_mode = p.arenas[0].size;
    CHECK(u, copying_nodes(&m) == 0);
    CHECK(u, plan_reached_bound(&m) <= free_mode && plan_reached_bound(&m) <= p.lower_bound);
    CHECK(u, plan_mode(&m, &p, PLAN_INPLACE_ALL));
    max = p.arenas[0].size;
    CHECK(u, max <= free_mode && free_mode <= none);
    CHECK(u, plan_reached_bound(&m) <= max);
    arena_free(&a);
  }
}

const UnitTest ram_tests[] = {
    {"default_mode_takes_free_ties", default_mode_takes_free_ties},
    {"default_mode_never_copies", default_mode_never_copies},
    {NULL, NULL},
};
