/* Patch-based execution (plan/patch.c): the plan verifier's checks of row views, and the
 * rewrite of a small chain into bands. */
#include <string.h>

#include "ops/op.h"
#include "plan/patch.h"
#include "plan/plan.h"
#include "platform/platform.h"
#include "unit.h"

static Tensor *add(Model *m, int id, size_t bytes, int32_t view_of, size_t offset) {
  Tensor *t = &m->tensors[id];
  t->id = id;
  t->name = "t";
  t->type = TT_INT8;
  t->rank = 1;
  t->dims[0] = (int32_t)bytes;
  t->elems = (int64_t)bytes;
  t->bytes = bytes;
  t->alias_of = view_of;
  t->alias_offset = offset;
  t->arena = -1;
  return t;
}

static void node(Model *m, Arena *a, int k, int32_t in, int32_t out, int band) {
  Node *n = &m->nodes[k];
  n->index = k;
  n->n_in = n->n_out = 1;
  n->in = arena_calloc(a, 1, sizeof(int32_t));
  n->out = arena_calloc(a, 1, sizeof(int32_t));
  n->in[0] = in;
  n->out[0] = out;
  n->scratch_tensor = -1;
  n->patched = band >= 0;
  n->band = band;
}

/* x (64 B) -> band 0 writes rows [0, 32) of y, band 1 rows [32, 64) -> z reads y whole. */
static void make_bands(Model *m, Arena *a) {
  memset(m, 0, sizeof *m);
  m->arena = a;
  m->n_tensors = m->n_model_tensors = 5;
  m->tensors = arena_calloc(a, 5, sizeof(Tensor));
  add(m, 0, 64, -1, 0)->is_input = true;
  add(m, 1, 64, -1, 0);
  add(m, 2, 32, 1, 0);
  add(m, 3, 32, 1, 32);
  add(m, 4, 64, -1, 0)->is_output = true;
  m->n_nodes = 3;
  m->nodes = arena_calloc(a, 3, sizeof(Node));
  node(m, a, 0, 0, 2, 0);
  node(m, a, 1, 0, 3, 1);
  node(m, a, 2, 1, 4, -1);
  m->n_inputs = m->n_outputs = 1;
  m->inputs = arena_calloc(a, 1, sizeof(int32_t));
  m->outputs = arena_calloc(a, 1, sizeof(int32_t));
  m->inputs[0] = 0;
  m->outputs[0] = 4;
}

static bool plan_all(Model *m, Plan *p, Diag *d) {
  Platform host;
  platform_builtin("host", &host);
  Config cfg;
  config_defaults(&cfg);
  return plan_activations(m, p, &host, &cfg, d) && plan_finish(m, p, d);
}

static void verifier_checks_band_views(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  Plan p;
  Diag d;
  make_bands(&m, &a);
  diag_init(&d, NULL);
  CHECK(u, plan_all(&m, &p, &d));
  CHECK(u, tensor_view_offset(&m, 3) == 32);
  /* band 1 writes over band 0's rows */
  m.tensors[3].alias_offset = 16;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  CHECK(u, strstr(d.msg, "overwrites") != NULL);
  /* a view past the end of its storage */
  m.tensors[3].alias_offset = 48;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  CHECK(u, strstr(d.msg, "outside") != NULL);
  /* z scheduled before band 1: it reads rows no operator wrote yet */
  m.tensors[3].alias_offset = 32;
  const Node z = m.nodes[2];
  m.nodes[2] = m.nodes[1];
  m.nodes[1] = z;
  m.nodes[1].index = 1;
  m.nodes[2].index = 2;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  CHECK(u, strstr(d.msg, "before every band wrote it") != NULL);
  arena_free(&a);
}

const UnitTest patch_tests[] = {
    {"verifier_checks_band_views", verifier_checks_band_views},
    {NULL, NULL},
};
