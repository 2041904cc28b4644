/* The plan verifier on slicing operators run as views (transform/slice_views.c): it
 * accepts a view that lies inside its input and that nothing writes afterwards, and
 * refuses a view outside its input, a view that is a model output, and a storage written
 * again after the slicing operator. */
#include <string.h>

#include "plan/plan.h"
#include "platform/platform.h"
#include "unit.h"

enum { SLICE_CODE = 65 };

/* t0 (input, 64 B) -> op0 -> t1 (64 B) -> op1 SLICE (a view: t2 = bytes 32..63 of t1)
 * -> op2 -> t3 (output, 32 B). */
static void make_sliced(Model *m, Arena *a) {
  static const size_t bytes[] = {64, 64, 32, 32};
  memset(m, 0, sizeof *m);
  m->arena = a;
  m->n_tensors = m->n_model_tensors = 4;
  m->tensors = arena_calloc(a, 4, sizeof(Tensor));
  m->n_nodes = 3;
  m->nodes = arena_calloc(a, 3, sizeof(Node));
  for (int i = 0; i < 4; i++) {
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
  const int32_t ins[] = {0, 1, 2}, outs[] = {1, 2, 3};
  for (int k = 0; k < 3; k++) {
    Node *n = &m->nodes[k];
    n->index = k;
    n->opname = k == 1 ? "SLICE" : "FAKE";
    n->builtin_code = k == 1 ? SLICE_CODE : 0;
    n->n_in = n->n_out = 1;
    n->in = arena_calloc(a, 1, sizeof(int32_t));
    n->out = arena_calloc(a, 1, sizeof(int32_t));
    n->in[0] = ins[k];
    n->out[0] = outs[k];
    n->scratch_tensor = -1;
  }
  m->nodes[1].is_alias = true;
  m->tensors[2].alias_of = 1;
  m->tensors[2].alias_offset = 32;
  m->n_inputs = m->n_outputs = 1;
  m->inputs = arena_calloc(a, 1, sizeof(int32_t));
  m->outputs = arena_calloc(a, 1, sizeof(int32_t));
  m->inputs[0] = 0;
  m->outputs[0] = 3;
  m->tensors[0].is_input = true;
  m->tensors[3].is_output = true;
}

static bool plan_host(Model *m, Plan *p, Diag *d) {
  Platform host;
  platform_builtin("host", &host);
  Config cfg;
  config_defaults(&cfg);
  return plan_activations(m, p, &host, &cfg, d) && plan_finish(m, p, d);
}

static void verifier_accepts_slice_view(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  make_sliced(&m, &a);
  Plan p;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, plan_host(&m, &p, &d));
  CHECK(u, plan_verify(&m, &p, &d));
  /* the input lives until the view's reader (op 2): no separate bytes for the view */
  CHECK(u, m.tensors[1].last_use == 2 && p.arenas[0].size == 128);
  arena_free(&a);
}

static void verifier_refuses_bad_slice_views(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  Plan p;
  Diag d;
  /* a view past its input's end */
  make_sliced(&m, &a);
  diag_init(&d, NULL);
  CHECK(u, plan_host(&m, &p, &d));
  m.tensors[2].alias_offset = 48;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  /* a view that is a model output (the context's outputs[] take no offset) */
  make_sliced(&m, &a);
  diag_init(&d, NULL);
  CHECK(u, plan_host(&m, &p, &d));
  m.tensors[2].is_output = true;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  CHECK(u, strstr(d.msg, "runs as views") != NULL);
  /* op 2 writes the input's storage after the slice (its output a view of t1) */
  make_sliced(&m, &a);
  diag_init(&d, NULL);
  CHECK(u, plan_host(&m, &p, &d));
  m.tensors[3].alias_of = 1;
  m.tensors[3].alias_offset = 0;
  diag_init(&d, NULL);
  CHECK(u, !plan_verify(&m, &p, &d));
  CHECK(u, strstr(d.msg, "runs as views") != NULL);
  arena_free(&a);
}

const UnitTest slice_views_tests[] = {
    {"slice_views_verifier_accepts", verifier_accepts_slice_view},
    {"slice_views_verifier_refuses", verifier_refuses_bad_slice_views},
    {NULL, NULL},
};
