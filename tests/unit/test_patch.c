/* Patch-based execution (plan/patch.c): the plan verifier's checks of row views, and the
 * rewrite of a small chain into bands. */
#include <string.h>

#include "ops/op.h"
#include "transform/transform.h"
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

/* in [1,20,4,2] -> CONV_2D 3x3 s2 SAME -> [1,10,2,32] -> DEPTHWISE 3x3 SAME -> [1,10,2,32]
 * -> CONV_2D 1x1 -> out [1,10,2,4]: the two 640-byte tensors dominate, so it is patched. */
static void chain_model(Model *m, Arena *a) {
  static const int8_t weights[32 * 9 * 2] = {0};
  memset(m, 0, sizeof *m);
  m->arena = a;
  m->n_tensors = m->n_model_tensors = 7;
  m->tensors = arena_calloc(a, 7, sizeof(Tensor));
  const int32_t dims[7][4] = {{1, 20, 4, 2}, {32, 3, 3, 2}, {1, 10, 2, 32}, {1, 3, 3, 32}, {1, 10, 2, 32}, {4, 1, 1, 32}, {1, 10, 2, 4}};
  for (int i = 0; i < 7; i++) {
    Tensor *t = add(m, i, 1, -1, 0);
    t->rank = 4;
    memcpy(t->dims, dims[i], sizeof dims[i]);
    t->elems = (int64_t)dims[i][0] * dims[i][1] * dims[i][2] * dims[i][3];
    t->bytes = (size_t)t->elems;
    if (i == 1 || i == 3 || i == 5) t->data = (const uint8_t *)weights;
  }
  m->n_nodes = 3;
  m->nodes = arena_calloc(a, 3, sizeof(Node));
  const int32_t code[3] = {3, 4, 3}, stride[3] = {2, 1, 1};
  for (int k = 0; k < 3; k++) {
    Node *n = &m->nodes[k];
    node(m, a, k, 2 * k, 2 * k + 2, -1);
    n->builtin_code = code[k];
    n->in = arena_calloc(a, 2, sizeof(int32_t));
    n->in[0] = 2 * k;
    n->in[1] = 2 * k + 1;
    n->n_in = 2;
    if (code[k] == 3)
      n->opts.conv2d = (Conv2DOptions){.padding = 0, .stride_w = stride[k], .stride_h = stride[k], .dilation_w = 1, .dilation_h = 1};
    else
      n->opts.depthwise = (DepthwiseConv2DOptions){.padding = 0, .stride_w = 1, .stride_h = 1, .depth_multiplier = 1,
                                                   .dilation_w = 1, .dilation_h = 1};
  }
  m->n_inputs = m->n_outputs = 1;
  m->inputs = arena_calloc(a, 1, sizeof(int32_t));
  m->outputs = arena_calloc(a, 1, sizeof(int32_t));
  m->inputs[0] = 0;
  m->outputs[0] = 6;
  m->tensors[0].is_input = m->tensors[6].is_output = true;
}

/* Every band operator's rows and explicit padding give exactly its output rows, the last
 * operator's views tile the output in order, and the halo costs MACs. */
static void chain_rewritten_in_bands(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  chain_model(&m, &a);
  PatchPlan pp;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, patch_model(&m, 0, &pp, &d));
  CHECK(u, pp.active && pp.n_ops == 3 && pp.n_bands >= 2 && m.n_nodes == 3 * pp.n_bands);
  CHECK(u, pp.patched_macs > pp.chain_macs && pp.estimate < pp.layer_by_layer_bound);
  size_t next = 0; /* next output byte the bands must write */
  for (int k = 0; pp.active && k < m.n_nodes; k++) {
    const Node *n = &m.nodes[k];
    const Tensor *x = &m.tensors[n->in[0]], *y = &m.tensors[n->out[0]];
    CHECK(u, n->patched && n->band == k / 3 && n->index == k % 3);
    const bool dw = n->builtin_code == 4;
    const int32_t pad = dw ? n->opts.depthwise.padding : n->opts.conv2d.padding;
    const int32_t top = dw ? n->opts.depthwise.fold_top : n->opts.conv2d.fold_top;
    const int32_t bottom = dw ? n->opts.depthwise.fold_bottom : n->opts.conv2d.fold_bottom;
    const int32_t s = k % 3 == 0 ? 2 : 1, ek = k % 3 == 2 ? 1 : 3;
    CHECK(u, pad == 1 && top >= 0 && bottom >= 0);
    CHECK(u, (x->dims[1] + top + bottom - ek) / s + 1 == y->dims[1]);
    if (k % 3 == 2) { /* a view of the whole output, right after the previous band's */
      CHECK(u, tensor_storage(&m, y->id) == 6 && tensor_view_offset(&m, y->id) == next);
      next += y->bytes;
    }
  }
  CHECK(u, next == m.tensors[6].bytes);
  arena_free(&a);
}

const UnitTest patch_tests[] = {
    {"chain_rewritten_in_bands", chain_rewritten_in_bands},
    {"verifier_checks_band_views", verifier_checks_band_views},
    {NULL, NULL},
};
