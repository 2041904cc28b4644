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
  bool ok = resolve_check_scratch(&m, &n, &d);
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

const UnitTest resolve_tests[] = {
    {"resolve/scratch_violations_are_caught", violations_are_caught},
    {"resolve/backed_scratch_is_accepted", backed_scratch_is_accepted},
    {"resolve/every_operator_declares_a_contract", every_operator_declares_a_contract},
    {NULL, NULL},
};
