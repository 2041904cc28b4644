/* Capability-gated optimisations: the memory-aware reordering keeps dependencies and
 * barriers and lowers live memory; the verifier catches a bad schedule; the emitter
 * refuses an operator whose DESCRIPTOR_DRIVEN declaration its emission contradicts. */
#include <string.h>

#include "emit/emit.h"
#include "ops/op.h"
#include "plan/plan.h"
#include "plan/schedule.h"
#include "platform/platform.h"
#include "unit.h"

static const OpDef fake_reorderable = {.name = "FAKE", .capabilities = CAP_STATELESS | CAP_PURE | CAP_REORDERABLE};
static const OpDef fake_fixed = {.name = "FIXED", .capabilities = CAP_STATELESS};

static void add_tensor(Model *m, int id, size_t bytes) {
  Tensor *t = &m->tensors[id];
  t->id = id;
  t->name = "t";
  t->type = TT_INT8;
  t->rank = 1;
  t->dims[0] = (int32_t)bytes;
  t->elems = (int64_t)bytes;
  t->bytes = bytes;
  t->alias_of = -1;
  t->arena = -1;
}

static void add_node(Model *m, Arena *a, int k, const OpDef *def, int in0, int in1, int out) {
  Node *n = &m->nodes[k];
  n->index = k;
  n->opname = def->name;
  n->def = def;
  n->n_in = in1 >= 0 ? 2 : 1;
  n->n_out = 1;
  n->in = arena_calloc(a, 2, sizeof(int32_t));
  n->out = arena_calloc(a, 1, sizeof(int32_t));
  n->in[0] = in0;
  n->in[1] = in1;
  n->out[0] = out;
  n->scratch_tensor = -1;
}

/* A residual block: t1 feeds a long branch (op1: 800 B) and a short one (op2:
 * 100 B) that op3 joins. Running the short branch first frees nothing sooner but
 * keeps less memory live while the long branch runs. */
static void make_block(Model *m, Arena *a, const OpDef *shortcut_def) {
  memset(m, 0, sizeof *m);
  m->arena = a;
  m->n_tensors = m->n_model_tensors = 5;
  m->tensors = arena_calloc(a, 5, sizeof(Tensor));
  size_t bytes[5] = {100, 1000, 800, 100, 10};
  for (int i = 0; i < 5; i++) add_tensor(m, i, bytes[i]);
  m->n_nodes = 4;
  m->nodes = arena_calloc(a, 4, sizeof(Node));
  add_node(m, a, 0, &fake_reorderable, 0, -1, 1);
  add_node(m, a, 1, &fake_reorderable, 1, -1, 2);
  add_node(m, a, 2, shortcut_def, 1, -1, 3);
  add_node(m, a, 3, &fake_reorderable, 2, 3, 4);
  m->n_inputs = m->n_outputs = 1;
  m->inputs = arena_calloc(a, 1, sizeof(int32_t));
  m->outputs = arena_calloc(a, 1, sizeof(int32_t));
  m->inputs[0] = 0;
  m->outputs[0] = 4;
  m->tensors[0].is_input = true;
  m->tensors[4].is_output = true;
}

static bool plan_all(Model *m, Plan *p, Diag *d) {
  Platform host;
  platform_builtin("host", &host);
  Config cfg;
  config_defaults(&cfg);
  return plan_activations(m, p, &host, &cfg, d) && plan_finish(m, p, d);
}

static void reorder_runs_short_branch_first(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  make_block(&m, &a, &fake_reorderable);
  ScheduleReport r;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, schedule_reorder(&m, &r, &d));
  CHECK(u, r.applied && r.moved == 2);
  CHECK(u, m.nodes[0].index == 0 && m.nodes[1].index == 2 && m.nodes[2].index == 1 && m.nodes[3].index == 3);
  CHECK(u, r.after.peak <= r.before.peak && r.after.area < r.before.area);
  Plan p;
  CHECK(u, plan_all(&m, &p, &d)); /* the verifier accepts the new schedule */
  arena_free(&a);
}

static void barrier_keeps_its_place(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  make_block(&m, &a, &fake_fixed);
  ScheduleReport r;
  Diag d;
  diag_init(&d, NULL);
  CHECK(u, schedule_reorder(&m, &r, &d));
  CHECK(u, !r.applied);
  for (int k = 0; k < 4; k++) CHECK(u, m.nodes[k].index == k);
  arena_free(&a);
}

static void verifier_catches_bad_schedules(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  Plan p;
  Diag d;
  /* the join before one of its inputs is written */
  make_block(&m, &a, &fake_reorderable);
  Node join = m.nodes[3];
  m.nodes[3] = m.nodes[2];
  m.nodes[2] = join;
  diag_init(&d, NULL);
  CHECK(u, !plan_all(&m, &p, &d));
  CHECK(u, strstr(d.msg, "before its input") != NULL);
  /* a data-independent swap across an operator that is not REORDERABLE */
  make_block(&m, &a, &fake_fixed);
  Node fixed = m.nodes[2];
  m.nodes[2] = m.nodes[1];
  m.nodes[1] = fixed;
  diag_init(&d, NULL);
  CHECK(u, !plan_all(&m, &p, &d));
  CHECK(u, strstr(d.msg, "not REORDERABLE") != NULL);
  arena_free(&a);
}

/* Declares DESCRIPTOR_DRIVEN but writes free text: the emitter must refuse it. */
static void liar_emit(EmitCtx *ec, const Model *m, const Node *n) {
  (void)m;
  em_body(ec, "ta_fake(%s, %s);", em_tensor(ec, n->in[0]), em_tensor(ec, n->out[0]));
}
static void honest_emit(EmitCtx *ec, const Model *m, const Node *n) {
  (void)m;
  em_call(ec, "ta_fake", 2, em_tensor(ec, n->in[0]), em_tensor(ec, n->out[0]));
}
static void unknown_arg_emit(EmitCtx *ec, const Model *m, const Node *n) {
  (void)m;
  em_call(ec, "ta_fake", 2, "some_global", em_tensor(ec, n->out[0]));
}
static const OpDef fake_liar = {.name = "LIAR", .capabilities = CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE,
                                .emit = liar_emit};
static const OpDef fake_honest = {.name = "HONEST", .capabilities = CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE,
                                  .emit = honest_emit};
static const OpDef fake_unknown = {.name = "UNKNOWN", .capabilities = CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE,
                                   .emit = unknown_arg_emit};

static bool emit_with(const OpDef *def, char *msg, size_t cap) {
  Arena a;
  arena_init(&a);
  Model m;
  make_block(&m, &a, def);
  for (int k = 0; k < 4; k++) m.nodes[k].def = def, m.nodes[k].opname = def->name;
  Plan p;
  Diag d;
  diag_init(&d, NULL);
  Module mod;
  memset(&mod, 0, sizeof mod);
  mod.name = mod.prefix = "t";
  mod.PREFIX = "T";
  mod.source = "t.tflite";
  mod.allocate_arenas = mod.intern = mod.static_calls = mod.init_elision = true;
  Platform host;
  platform_builtin("host", &host);
  Config cfg;
  config_defaults(&cfg);
  bool ok = plan_activations(&m, &p, &host, &cfg, &d) && emit_module(&m, &p, &mod, &d);
  snprintf(msg, cap, "%s", d.msg);
  module_free(&mod);
  arena_free(&a);
  return ok;
}

static void descriptor_driven_is_derived(UnitState *u) {
  char msg[DIAG_MAX_MSG];
  CHECK(u, !emit_with(&fake_liar, msg, sizeof msg));
  CHECK(u, strstr(msg, "DESCRIPTOR_DRIVEN") && strstr(msg, "LIAR") && strstr(msg, "em_body"));
  CHECK(u, !emit_with(&fake_unknown, msg, sizeof msg));
  CHECK(u, strstr(msg, "unknown type") != NULL);
  CHECK(u, emit_with(&fake_honest, msg, sizeof msg));
}

const UnitTest schedule_tests[] = {
    {"schedule: reorder runs the short branch first", reorder_runs_short_branch_first},
    {"schedule: an operator that is not REORDERABLE keeps its place", barrier_keeps_its_place},
    {"schedule: verifier catches bad schedules", verifier_catches_bad_schedules},
    {"emit: DESCRIPTOR_DRIVEN is checked against the emission", descriptor_driven_is_derived},
    {NULL, NULL},
};
