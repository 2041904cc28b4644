/* Configuration parsing and tensor attribute rules: precedence, merging, errors. */
#include <string.h>

#include "config/config.h"
#include "plan/plan.h"
#include "unit.h"

static bool parse(const char *yaml, Config *c, Arena *a, char *msg, size_t cap) {
  config_defaults(c);
  Diag d;
  diag_init(&d, "t.yaml");
  bool ok = config_parse(a, "t.yaml", yaml, strlen(yaml), c, &d);
  snprintf(msg, cap, "%s", d.msg);
  return ok;
}

static void precedence_and_merge(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  char msg[DIAG_MAX_MSG];
  const char *yaml =
      "memory:\n"
      "  tensors:\n"
      "    - attributes: {memory: PSRAM}\n"                              /* neither */
      "    - type: constant\n      attributes: {memory: MRAM}\n"         /* type */
      "    - id: [5, 6]\n      attributes: {memory: SRAM}\n"             /* id */
      "    - type: constant\n      id: 6\n      attributes: {constant_destination_memory: DTCM}\n" /* type+id */
      "    - type: constant\n      attributes: {memory: PSRAM}\n"        /* later type rule */
      "    - id: 5\n      attributes: {residency: stream}\n";
  CHECK(u, parse(yaml, &c, &a, msg, sizeof msg));
  CHECK(u, c.n_rules == 6);
  TensorAttrs t1 = attrs_resolve(&c, RULE_CONSTANT, 1);   /* only type/none rules */
  CHECK(u, t1.memory_set && t1.memory == MEM_PSRAM);      /* later type rule beats earlier */
  TensorAttrs t5 = attrs_resolve(&c, RULE_CONSTANT, 5);
  CHECK(u, t5.memory == MEM_SRAM && t5.residency == RES_STREAM && !t5.dest_set); /* id beats type */
  TensorAttrs t6 = attrs_resolve(&c, RULE_CONSTANT, 6);
  CHECK(u, t6.memory == MEM_SRAM);                          /* memory from the id rule */
  CHECK(u, t6.dest_set && t6.dest == MEM_DTCM && t6.residency == RES_PIN); /* dest implies pin */
  TensorAttrs s9 = attrs_resolve(&c, RULE_SCRATCH, 9);
  CHECK(u, s9.memory == MEM_PSRAM);                         /* the untyped rule */
  TensorAttrs derived = attrs_resolve(&c, RULE_CONSTANT, -1); /* derived tables: no id rules */
  CHECK(u, derived.memory == MEM_PSRAM && derived.residency == RES_UNSET);
  arena_free(&a);
}

static void expect_error(UnitState *u, const char *yaml, const char *needle) {
  Arena a;
  arena_init(&a);
  Config c;
  char msg[DIAG_MAX_MSG];
  bool ok = parse(yaml, &c, &a, msg, sizeof msg);
  CHECK(u, !ok);
  if (!ok && !strstr(msg, needle)) {
    printf("  expected '%s' in: %s\n", needle, msg);
    u->failures++;
  }
  arena_free(&a);
}

static void rule_errors(UnitState *u) {
  expect_error(u, "memory:\n  tensors:\n    - attributes: {constant_destination_memory: DTCM, residency: direct}\n",
               "cannot pair constant_destination_memory");
  expect_error(u, "memory:\n  tensors:\n    - attributes: {constant_destination_memory: DTCM, residency: stream}\n",
               "cannot pair");
  expect_error(u, "memory:\n  tensors:\n    - type: scratch\n      attributes: {residency: pin}\n",
               "constants only");
  expect_error(u, "memory:\n  tensors:\n    - attributes: {memory: FLASH}\n", "unknown memory 'FLASH'");
  expect_error(u, "memory:\n  tensors:\n    - type: weights\n", "'type' must be");
  expect_error(u, "memory:\n  constraints:\n    - name: DTCM\n      max_size: lots\n", "line 4");
  expect_error(u, "memory:\n  allocate_arenas: maybe\n", "true or false");
  expect_error(u, "memory: [1, 2]\n", "must be a mapping");
  expect_error(u, "memory:\n  tensors: {a: 1}\n", "must be a list");
  expect_error(u, "memory: {tensors: [\n", "invalid YAML");
}

static void unknown_keys_warn(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  char msg[DIAG_MAX_MSG];
  CHECK(u, parse("modle: x\nmemory:\n  allocate_arena: true\n", &c, &a, msg, sizeof msg));
  CHECK(u, c.warnings == 2);
  arena_free(&a);
}

static void platform_checks(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  char msg[DIAG_MAX_MSG];
  Platform p;
  CHECK(u, platform_builtin("apollo510_evb", &p));
  CHECK(u, p.mve && p.mem[MEM_DTCM].size == 512 * 1024 && p.mem[MEM_ITCM].size == 256 * 1024);
  CHECK(u, parse("memory:\n  tensors:\n    - attributes: {constant_destination_memory: MRAM}\n", &c, &a, msg, sizeof msg));
  Diag d;
  diag_init(&d, "t");
  CHECK(u, !config_check_rules(&c, &p, &d) && strstr(d.msg, "writable"));
  CHECK(u, platform_builtin("apollo3p_evb", &p));
  CHECK(u, parse("memory:\n  constraints:\n    - {name: PSRAM, max_size: 1KB}\n", &c, &a, msg, sizeof msg));
  diag_init(&d, "t");
  CHECK(u, !config_check_rules(&c, &p, &d) && strstr(d.msg, "PSRAM"));
  CHECK(u, parse("platform:\n  name: board\n  capabilities: [dsp]\n  memories:\n    - {name: SRAM, size: 64KB}\n"
                 "    - {name: MRAM, size: 1MB}\n", &c, &a, msg, sizeof msg));
  CHECK(u, c.has_custom_platform && c.custom_platform.mem[MEM_SRAM].size == 65536 &&
               c.custom_platform.constant_home == MEM_MRAM && c.custom_platform.fast_order[0] == MEM_SRAM);
  arena_free(&a);
}

const UnitTest config_tests[] = {
    {"config/precedence_and_merge", precedence_and_merge},
    {"config/rule_errors", rule_errors},
    {"config/unknown_keys_warn", unknown_keys_warn},
    {"config/platform_checks", platform_checks},
    {NULL, NULL},
};
