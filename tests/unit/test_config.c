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
  /* heliaAOT's order: type+id > type > id > neither; later wins at equal specificity */
  TensorAttrs t1 = attrs_resolve(&c, RULE_CONSTANT, 1);   /* only type/none rules */
  CHECK(u, t1.memory_set && t1.memory == MEM_PSRAM);      /* later type rule beats earlier */
  TensorAttrs t5 = attrs_resolve(&c, RULE_CONSTANT, 5);
  CHECK(u, t5.memory == MEM_PSRAM && t5.line_memory == 11); /* type beats id */
  CHECK(u, t5.residency == RES_STREAM && !t5.dest_set);     /* the id rule still gives what type rules leave */
  TensorAttrs t6 = attrs_resolve(&c, RULE_CONSTANT, 6);
  CHECK(u, t6.memory == MEM_PSRAM);                         /* type rule over the id rule */
  CHECK(u, t6.dest_set && t6.dest == MEM_DTCM && t6.residency == RES_PIN); /* type+id: dest implies pin */
  TensorAttrs s5 = attrs_resolve(&c, RULE_SCRATCH, 5);
  CHECK(u, s5.memory == MEM_SRAM);                          /* no scratch type rule: the id rule */
  TensorAttrs s9 = attrs_resolve(&c, RULE_SCRATCH, 9);
  CHECK(u, s9.memory == MEM_PSRAM);                         /* the untyped rule */
  TensorAttrs derived = attrs_resolve(&c, RULE_CONSTANT, -1); /* a table with no source tensor */
  CHECK(u, derived.memory == MEM_PSRAM && derived.residency == RES_UNSET);
  arena_free(&a);
}

/* heliaAOT's forms: nested attributes, capitals, ids as strings/lists/null, "*". */
static void helia_forms(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  char msg[DIAG_MAX_MSG];
  const char *yaml =
      "memory:\n"
      "  tensors:\n"
      "    - type: CONSTANT\n      id: null\n      attributes: {memory: mram}\n"
      "    - type: Scratch\n      id: [\"3\", 4]\n      attributes: {memory: Dtcm}\n"
      "    - id: \"7\"\n      memory: SRAM\n" /* flat form */
      "operators:\n"
      "  - type: \"*\"\n    id: null\n    attributes: {code_placement: ITCM, scratch_placement: SRAM}\n"
      "  - type: CONV_2D\n    attributes:\n      code_placement: MRAM\n"
      "  - id: [\"1\", \"2\"]\n    attributes: {code_placement: SRAM, scratch_placement: DTCM}\n"
      "  - type: conv_2d\n    id: 2\n    code_placement: PSRAM\n" /* flat form, any case */
      "  - type: RSQRT\n    attributes: {lut_mode: universal}\n";
  CHECK(u, parse(yaml, &c, &a, msg, sizeof msg));
  CHECK(u, c.n_rules == 3 && c.warnings == 0);
  CHECK(u, c.rules[0].has_type && c.rules[0].type == RULE_CONSTANT && !c.rules[0].has_id && c.rules[0].memory == MEM_MRAM);
  CHECK(u, c.rules[1].type == RULE_SCRATCH && c.rules[1].n_ids == 2 && c.rules[1].ids[0] == 3 && c.rules[1].ids[1] == 4);
  CHECK(u, c.rules[2].has_id && c.rules[2].ids[0] == 7 && c.rules[2].has_memory && c.rules[2].memory == MEM_SRAM);
  CHECK(u, c.n_op_rules == 5 && c.op_rules[0].op_type == NULL && !c.op_rules[0].has_id);
  /* operator precedence: type+id > type > id > "*" */
  CHECK(u, config_operator_placement(&c, 0, "ADD", true) == MEM_ITCM);     /* only "*" */
  CHECK(u, config_operator_placement(&c, 0, "CONV_2D", true) == MEM_MRAM); /* type beats "*" */
  CHECK(u, config_operator_placement(&c, 1, "CONV_2D", true) == MEM_MRAM); /* type beats id */
  CHECK(u, config_operator_placement(&c, 1, "ADD", true) == MEM_SRAM);     /* id beats "*" */
  CHECK(u, config_operator_placement(&c, 2, "CONV_2D", true) == MEM_PSRAM); /* type+id */
  CHECK(u, config_operator_placement(&c, 1, "CONV_2D", false) == MEM_DTCM); /* fields merge one by one */
  OperatorAttrs r = config_operator_attrs(&c, 9, "RSQRT");
  CHECK(u, r.lut_mode && strcmp(r.lut_mode, "universal") == 0 && r.code_placement == MEM_ITCM);
  arena_free(&a);
}

/* Keys heliaAOT documents beyond the planner's land in the Config. */
static void helia_keys(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  char msg[DIAG_MAX_MSG];
  const char *yaml =
      "model: {path: m.tflite, subgraph: 0, type: tflite, name: kws, description: d, version: v1.0.0}\n"
      "module: {path: out, type: zephyr, name: kws, prefix: kws}\n"
      "test: {enabled: true, tolerance: 0.5, golden_data: g.npz}\n"
      "transforms: []\n"
      "memory: {planner: greedy, dump_residency_json: true, allocate_arenas: false,\n"
      "         constraints: [{name: dtcm, max_size: null}]}\n"
      "platform: {name: apollo510_evb}\n"
      "verbose: 2\nforce: true\nlog_file: conv.log\n";
  CHECK(u, parse(yaml, &c, &a, msg, sizeof msg));
  CHECK(u, c.warnings == 0 && c.has_subgraph && c.subgraph == 0 && !strcmp(c.model_name, "kws"));
  CHECK(u, !strcmp(c.module_type, "zephyr") && c.test_enabled && c.has_test_tolerance && c.test_tolerance == 0.5);
  CHECK(u, !strcmp(c.test_golden_data, "g.npz") && c.dump_residency_json && !c.allocate_arenas);
  CHECK(u, c.n_constraints == 1 && c.constraints[0].mem == MEM_DTCM && c.constraints[0].max_size == UINT64_MAX);
  CHECK(u, c.verbose == 2 && c.force && !strcmp(c.log_file, "conv.log") && !strcmp(c.platform_name, "apollo510_evb"));
  arena_free(&a);
}

/* --strict: every ignored key is an error with its line. */
static void strict_keys(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  config_defaults(&c);
  c.strict = true;
  Diag d;
  diag_init(&d, "t.yaml");
  const char *yaml = "memory:\n  tensors:\n    - type: constant\n      attributes: {memroy: MRAM}\n";
  CHECK(u, !config_parse(&a, "t.yaml", yaml, strlen(yaml), &c, &d));
  CHECK(u, strstr(d.msg, "line 4") && strstr(d.msg, "memroy") && strstr(d.msg, "--strict"));
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
  expect_error(u, "memory:\n  tensors:\n    - id: [1, -2]\n", "'id' must be a non-negative integer");
  expect_error(u, "operators:\n  - id: [1, conv]\n", "'id' must be a non-negative integer"); /* names: tensors only */
  /* a key given twice, in any mapping: an error at the second, naming the first */
  expect_error(u, "model: {path: a.tflite}\nmodel: {path: b.tflite}\n", "line 2: 'model' is given twice in the document (first at line 1)");
  expect_error(u, "memory:\n  planner: greedy\n  constraints: []\n  planner: greedy\n",
               "line 4: 'planner' is given twice in memory (first at line 2)");
  expect_error(u, "operators:\n  - {type: ADD, type: MUL}\n", "'type' is given twice in operators entry");
  expect_error(u, "memory: {constraints: [{name: SRAM, size: 1KB, max_size: 2KB}]}\n", "one of 'max_size' and 'size'");
  expect_error(u, "memory: {optimize: maximum}\n", "'memory.optimize' must be default or max");
  expect_error(u, "transforms: [{enabled: true}]\n", "a transforms entry needs a 'name'");
  expect_error(u, "transforms: [{name: fold, options: [1]}]\n", "'options' must be a mapping");
  expect_error(u, "platform: {name: b, memories: {SRAM: 1KB, FLASH: 1MB}}\n", "unknown memory 'FLASH'");
  expect_error(u, "platform: {name: b, memories: {SRAM: {name: DTCM, size: 1KB}}}\n", "memory 'DTCM' is listed under 'SRAM'");
  expect_error(u, "memory:\n  tensors:\n    - id: {a: 1}\n", "'id' must be");
  expect_error(u, "memory:\n  tensors:\n    - id: 99999999999\n", "out of range");
  expect_error(u, "operators:\n  - attributes: {code_placement: FLASH}\n", "unknown memory 'FLASH'");
  expect_error(u, "memory: {planner: tetris}\n", "must be greedy");
  expect_error(u, "module: {type: bazel}\n", "module.type");
  expect_error(u, "test: {tolerance: loose}\n", "test.tolerance");
  expect_error(u, "model: {subgraph: 3}\n", "line 1: model.subgraph 3: tinyaot converts single-subgraph models");
}

/* Forms of heliaAOT's templates: platform.memories as a mapping, constraints' `size`,
 * transforms as {name, enabled, options}, tensor ids as names, model metadata kept, and
 * tinyaot's memory.optimize key. */
static void template_forms(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  char msg[DIAG_MAX_MSG];
  const char *yaml =
      "model: {path: m.tflite, description: keyword spotter, version: v2.1.0}\n"
      "platform:\n  name: board\n  capabilities: [dsp, mve]\n"
      "  memories:\n    DTCM: 128KB\n    SRAM: {size: 1MB}\n    MRAM: 2MB\n"
      "memory:\n  optimize: max\n  constraints:\n    - {name: SRAM, size: 512KB}\n"
      "  tensors:\n    - id: [dense/weights, \"3\", conv/bias]\n      attributes: {constant_destination_memory: DTCM}\n"
      "transforms:\n  - {name: fuse_activations, enabled: false, options: {aggressive: true}}\n"
      "  - name: fold_constants\n    enabled: false\n";
  CHECK(u, parse(yaml, &c, &a, msg, sizeof msg));
  if (msg[0]) printf("  %s\n", msg);
  CHECK(u, c.warnings == 0); /* disabled transforms ask for nothing: no warning */
  CHECK(u, !strcmp(c.model_description, "keyword spotter") && !strcmp(c.model_version, "v2.1.0"));
  CHECK(u, c.has_custom_platform && c.custom_platform.mem[MEM_DTCM].size == 128 * 1024 &&
               c.custom_platform.mem[MEM_SRAM].size == 1024 * 1024 && c.custom_platform.mem[MEM_MRAM].non_volatile &&
               !c.custom_platform.mem[MEM_ITCM].present && c.custom_platform.mve);
  CHECK(u, c.n_constraints == 1 && c.constraints[0].mem == MEM_SRAM && c.constraints[0].max_size == 512 * 1024);
  CHECK(u, c.memory_optimize && !strcmp(c.memory_optimize, "max"));
  CHECK(u, c.n_rules == 1 && c.rules[0].n_ids == 1 && c.rules[0].ids[0] == 3 && c.rules[0].n_id_names == 2 &&
               !strcmp(c.rules[0].id_names[0], "dense/weights") && !strcmp(c.rules[0].id_names[1], "conv/bias"));
  CHECK(u, c.n_transforms == 0);
  /* an enabled transform is still one tinyaot does not run: the warning */
  CHECK(u, parse("transforms: [{name: fold_constants, enabled: true}, plain_name]\n", &c, &a, msg, sizeof msg));
  CHECK(u, c.n_transforms == 2 && c.warnings == 1 && !strcmp(c.transforms[0], "fold_constants"));
  arena_free(&a);
}

/* heliaAOT's two documented operator orders: tinyaot's (type > id) and the other. */
static void precedence_readings(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  char msg[DIAG_MAX_MSG];
  CHECK(u, parse("operators:\n  - {type: CONV_2D, code_placement: MRAM}\n  - {id: 1, code_placement: SRAM}\n", &c, &a,
                 msg, sizeof msg));
  OperatorAttrs ours = config_operator_attrs_order(&c, 1, "CONV_2D", false);
  OperatorAttrs other = config_operator_attrs_order(&c, 1, "CONV_2D", true);
  CHECK(u, ours.code_placement == MEM_MRAM && ours.line_code == 2);
  CHECK(u, other.code_placement == MEM_SRAM && other.line_code == 3);
  CHECK(u, config_operator_attrs(&c, 1, "CONV_2D").code_placement == MEM_MRAM); /* what tinyaot applies */
  OperatorAttrs same = config_operator_attrs_order(&c, 1, "ADD", true);   /* only the id rule matches */
  CHECK(u, same.code_placement == MEM_SRAM && config_operator_attrs(&c, 1, "ADD").code_placement == MEM_SRAM);
  arena_free(&a);
}

/* A key that looks like a typo names the closest known key of its section. */
static void did_you_mean(UnitState *u) {
  Arena a;
  arena_init(&a);
  Config c;
  config_defaults(&c);
  c.strict = true;
  Diag d;
  diag_init(&d, "t.yaml");
  const char *yaml = "memory:\n  constriants: []\n";
  CHECK(u, !config_parse(&a, "t.yaml", yaml, strlen(yaml), &c, &d));
  CHECK(u, strstr(d.msg, "line 2") && strstr(d.msg, "did you mean 'constraints'?"));
  config_defaults(&c);
  c.strict = true;
  diag_init(&d, "t.yaml");
  yaml = "platfrom: apollo510_evb\n";
  CHECK(u, !config_parse(&a, "t.yaml", yaml, strlen(yaml), &c, &d) && strstr(d.msg, "did you mean 'platform'?"));
  config_defaults(&c);
  c.strict = true;
  diag_init(&d, "t.yaml");
  yaml = "zzzzzz: 1\n"; /* nothing close: no guess */
  CHECK(u, !config_parse(&a, "t.yaml", yaml, strlen(yaml), &c, &d) && !strstr(d.msg, "did you mean"));
  arena_free(&a);
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
  /* heliaAOT's board names: the SoC's memories (Apollo4 Blue Plus / Blue Lite, Apollo510B) */
  Platform q;
  CHECK(u, platform_builtin("apollo4p_blue_kbr_evb", &q) && platform_builtin("apollo4p_evb", &p));
  CHECK(u, !q.mve && q.dsp && q.mem[MEM_SRAM].size == p.mem[MEM_SRAM].size && q.mem[MEM_DTCM].size == 384 * 1024);
  CHECK(u, platform_builtin("apollo4p_blue_kxr_evb", &q) && q.mem[MEM_MRAM].size == p.mem[MEM_MRAM].size);
  CHECK(u, platform_builtin("apollo4l_blue_evb", &q) && platform_builtin("apollo4l_evb", &p));
  CHECK(u, q.mem[MEM_SRAM].size == p.mem[MEM_SRAM].size && !strcmp(q.cpu, "cortex-m4"));
  CHECK(u, platform_builtin("apollo510b_evb", &q) && q.mve && q.mem[MEM_ITCM].size == 256 * 1024 &&
               q.mem[MEM_DTCM].size == 512 * 1024 && q.constant_home == MEM_MRAM);
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
    {"config/helia_forms", helia_forms},
    {"config/helia_keys", helia_keys},
    {"config/strict_keys", strict_keys},
    {"config/rule_errors", rule_errors},
    {"config/unknown_keys_warn", unknown_keys_warn},
    {"config/template_forms", template_forms},
    {"config/precedence_readings", precedence_readings},
    {"config/did_you_mean", did_you_mean},
    {"config/platform_checks", platform_checks},
    {NULL, NULL},
};
