/* The scratch contract: every way a kernel could read an unbacked scratch buffer
 * is an internal error at resolve time, naming the operator. */
#include <string.h>

#include "resolve/resolve.h"
#include "unit.h"

static bool always(const Model *m, const Node *n) { (void)m; (void)n; return true; }
static bool never(const Model *m, const Node *n) { (void)m; (void)n; return false; }

static const OpDef fake_no_ctx = {.name = "FAKE", .scratch_usage = SCRATCH_NO_CTX};
static const OpDef fake_required = {.name = "FAKE", .scratch_usage = SCRATCH_REQUIRED};
static const OpDef fake_cond_nopred = {.name = "FAKE", .scratch_usage = SCRATCH_CONDITIONAL};
static const OpDef fake_cond_yes = {.name = "FAKE", .scratch_usage = SCRATCH_CONDITIONAL, .scratch_needed = always};
static const OpDef fake_cond_no = {.name = "FAKE", .scratch_usage = SCRATCH_CONDITIONAL, .scratch_needed = never};

static bool check(const OpDef *def, bool reads, size_t bytes, char *msg, size_t cap) {
  Arena a;
  arena_init(&a);
  Model m = {0};
  m.arena = &a;
  Node n = {0};
  n.index = 7;
  n.opname = "FAKE";
  n.def = def;
  n.kernel = "ta_fake_s8";
  n.reads_scratch = reads;
  n.scratch_bytes = bytes;
  Diag d;
  diag_init(&d, NULL);
  bool ok = op_check_scratch(&m, &n, &d);
  snprintf(msg, cap, "%s", d.msg);
  arena_free(&a);
  return ok;
}

static void violations_are_caught(UnitState *u) {
  char msg[DIAG_MAX_MSG];
  CHECK(u, !check(&fake_required, true, 0, msg, sizeof msg));
  CHECK(u, strstr(msg, "operator 7") && strstr(msg, "0 bytes") && strstr(msg, "ta_fake_s8"));
  CHECK(u, !check(&fake_no_ctx, true, 64, msg, sizeof msg));
  CHECK(u, strstr(msg, "no_ctx") != NULL);
  CHECK(u, !check(&fake_required, false, 0, msg, sizeof msg));
  CHECK(u, !check(&fake_cond_nopred, true, 64, msg, sizeof msg));
  CHECK(u, strstr(msg, "predicate") != NULL);
  CHECK(u, !check(&fake_cond_yes, true, 0, msg, sizeof msg)); /* predicate says yes, sizing returned 0 */
  CHECK(u, !check(&fake_cond_no, true, 64, msg, sizeof msg)); /* predicate disagrees with the kernel */
}

static void backed_scratch_is_accepted(UnitState *u) {
  char msg[DIAG_MAX_MSG];
  CHECK(u, check(&fake_required, true, 64, msg, sizeof msg));
  CHECK(u, check(&fake_no_ctx, false, 0, msg, sizeof msg));
  CHECK(u, check(&fake_cond_yes, true, 16, msg, sizeof msg));
  CHECK(u, check(&fake_cond_no, false, 0, msg, sizeof msg));
}

static void every_operator_declares_a_contract(UnitState *u) {
  for (int i = 0; i < op_count(); i++) {
    const OpDef *def = op_at(i);
    CHECK(u, def->name && def->prepare && def->emit && def->dtypes);
    CHECK(u, def->scratch_usage != SCRATCH_CONDITIONAL || def->scratch_needed);
    /* STATELESS means no per-instance init. */
    CHECK(u, !((def->capabilities & CAP_STATELESS) && def->emit_init != NULL));
    /* Moving an operator is only safe when it has no side effects. */
    CHECK(u, !(def->capabilities & CAP_REORDERABLE) || (def->capabilities & CAP_PURE));
    CHECK(u, strcmp(builtin_name(def->builtin_code), def->name) == 0);
    for (int j = 0; j < i; j++) CHECK(u, op_at(j)->builtin_code != def->builtin_code);
  }
}

/* The int32 accumulator bound is asymmetric: a channel whose weights are all zero (an
 * int4-requantised channel, corpus vww_w4) with bias INT32_MIN accumulates exactly
 * INT32_MIN and is accepted; one unit of weight more or a bias past INT32_MAX's reach is not. */
static bool fc_accumulates(int32_t bias0, int8_t w0, UnitState *u) {
  static float s1[1] = {0.5f};
  static int64_t zp_in[1] = {-128}, zp0[1] = {0};
  int8_t w[8] = {w0, 0, 0, 0, 0, 0, 0, 0};
  uint8_t b[8];
  const int32_t bias[2] = {bias0, 0};
  for (int c = 0; c < 2; c++)
    for (int k = 0; k < 4; k++) b[4 * c + k] = (uint8_t)((uint32_t)bias[c] >> (8 * k));
  Tensor t[4];
  memset(t, 0, sizeof t);
  for (int i = 0; i < 4; i++) {
    t[i].id = i;
    t[i].name = "t";
    t[i].n_quant = 1;
    t[i].scale = s1;
    t[i].zero_point = i == 0 ? zp_in : zp0;
  }
  t[0].type = TT_INT8, t[0].elems = 4, t[0].bytes = 4;
  t[1].type = TT_INT8, t[1].elems = 8, t[1].bytes = 8, t[1].data = (const uint8_t *)w;
  t[2].type = TT_INT32, t[2].elems = 2, t[2].bytes = 8, t[2].data = b;
  t[3].type = TT_INT8, t[3].elems = 2, t[3].bytes = 2;
  int32_t in[3] = {0, 1, 2}, out[1] = {3};
  Node n;
  memset(&n, 0, sizeof n);
  n.builtin_code = 9;
  n.opname = "FULLY_CONNECTED";
  n.n_in = 3, n.in = in, n.n_out = 1, n.out = out;
  Model m;
  memset(&m, 0, sizeof m);
  m.n_tensors = m.n_model_tensors = 4, m.tensors = t, m.n_nodes = 1, m.nodes = &n;
  Diag d;
  diag_init(&d, "test.tflite");
  bool ok = resolve_check_accumulators(&m, &d);
  CHECK(u, ok != diag_failed(&d));
  return ok;
}

static void accumulator_bound_is_asymmetric(UnitState *u) {
  CHECK(u, fc_accumulates(INT32_MIN, 0, u));
  CHECK(u, !fc_accumulates(INT32_MIN, 1, u));
  CHECK(u, !fc_accumulates(INT32_MIN, -1, u));
  CHECK(u, fc_accumulates(INT32_MIN + 256, 1, u));   /* reach (128 + 128) x 1 */
  CHECK(u, !fc_accumulates(INT32_MIN + 255, 1, u));
  CHECK(u, fc_accumulates(INT32_MAX - 256, -1, u));
  CHECK(u, !fc_accumulates(INT32_MAX - 255, -1, u));
  CHECK(u, fc_accumulates(INT32_MAX, 0, u));
}

const UnitTest resolve_tests[] = {
    {"resolve/accumulator_bound_is_asymmetric", accumulator_bound_is_asymmetric},
    {"resolve/scratch_violations_are_caught", violations_are_caught},
    {"resolve/backed_scratch_is_accepted", backed_scratch_is_accepted},
    {"resolve/every_operator_declares_a_contract", every_operator_declares_a_contract},
    {NULL, NULL},
};
