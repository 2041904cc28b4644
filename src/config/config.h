/* The YAML configuration (heliaAOT's keys and forms, docs/heliaaot.md), parsed with
 * libyaml. Unknown keys are warnings with their line (errors under `strict`); wrong
 * types are errors with their line. Relative paths are taken from the config's folder. */
#ifndef TINYAOT_CONFIG_H
#define TINYAOT_CONFIG_H
#include <stdbool.h>
#include <stdint.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../platform/platform.h"

typedef enum Residency { RES_UNSET = 0, RES_DIRECT, RES_PIN, RES_STREAM } Residency;
typedef enum RuleType { RULE_ANY = 0, RULE_SCRATCH, RULE_PERSISTENT, RULE_CONSTANT } RuleType;

typedef struct TensorRule {
  int line;
  bool has_type;
  RuleType type;
  bool has_id;
  int n_ids;
  int32_t *ids;
  int n_id_names;     /* ids given as tensor names, bound to indices once the model is loaded */
  const char **id_names;
  bool has_memory;   /* `memory: None` sets has_memory with MEM_NONE: "planner chooses" */
  MemType memory;
  bool has_dest;
  MemType dest;
  Residency residency;
} TensorRule;

typedef struct OperatorRule {
  int line;
  bool has_id;
  int n_ids;
  int32_t *ids;
  const char *op_type; /* builtin name (any case), or NULL for any ("*", null, absent) */
  MemType code_placement, scratch_placement; /* MEM_NONE: not set by this rule */
  const char *lut_mode; /* heliaAOT's RSQRT LUT sharing (per_op|universal); NULL: not set */
} OperatorRule;

/* The operator attributes the rules give one operator, merged field by field. */
typedef struct OperatorAttrs {
  MemType code_placement, scratch_placement;
  const char *lut_mode;
  int line_code, line_scratch, line_lut; /* the deciding rule's line, 0 if none */
} OperatorAttrs;

typedef struct MemoryConstraint {
  int line;
  MemType mem;
  uint64_t max_size; /* `max_size: null`: the platform's size (UINT64_MAX here) */
} MemoryConstraint;

enum { CONFIG_MAX_CONSTRAINTS = 16 };

typedef struct Config {
  const char *path;
  const char *model_path, *module_path, *module_name, *module_prefix, *platform_name;
  int platform_line; /* the line of `platform:`, 0 without */
  bool has_custom_platform;
  Platform custom_platform;
  int n_constraints;
  MemoryConstraint constraints[CONFIG_MAX_CONSTRAINTS];
  int n_rules;
  TensorRule *rules;
  int n_op_rules;
  OperatorRule *op_rules;
  bool allocate_arenas;        /* default true */
  bool auto_hydrate_constants; /* default true */
  bool has_allocate_arenas, has_auto_hydrate_constants;
  int warnings;
  bool strict; /* set before parsing (--strict): ignored keys are errors */
  /* heliaAOT keys whose effect lives outside the planner (merged in pipeline_configure) */
  bool has_subgraph;
  int subgraph;               /* model.subgraph */
  const char *model_type;     /* model.type: tflite | litert */
  const char *model_name, *model_description, *model_version; /* model metadata */
  const char *module_type;    /* module.type */
  bool has_test_enabled, test_enabled;
  bool has_test_tolerance;
  double test_tolerance;
  const char *test_golden_data;
  const char *planner;        /* memory.planner: greedy */
  const char *memory_optimize; /* memory.optimize: default | max (tinyaot's --memory.optimize) */
  bool has_dump_residency_json, dump_residency_json;
  int n_transforms;
  const char **transforms;    /* transforms: heliaAOT graph passes (tinyaot runs its own) */
  int transforms_line;
  bool has_verbose;
  int verbose;
  bool has_force, force;
  const char *log_file;
  /* tinyaot's extension for several models in one firmware (convert_multi.c): `models:`,
   * a list whose entries use heliaAOT's keys for one model (`model`, and `module` with
   * name/prefix only), and `shared_scratch: true`. */
  int n_models;
  struct ConfigModel {
    const char *path, *name, *prefix;
  } *models;
  bool has_shared_scratch, shared_scratch;
  bool quiet; /* set before parsing: no warnings printed (the file is read again by the pipeline) */
  /* The option that replaced a list (--memory.constraints, --memory.tensors, --operators):
   * messages about its rules name it instead of a file line. NULL: the file's list. */
  const char *constraints_option, *rules_option, *op_rules_option;
} Config;

void config_defaults(Config *c);
/* Parses a YAML file. Warnings go to stderr; the first error fills d. */
bool config_load(Arena *a, const char *path, Config *c, Diag *d);
/* Parses YAML text held in memory (fuzzing, tests). */
bool config_parse(Arena *a, const char *name, const char *text, size_t len, Config *c, Diag *d);
/* A rule list given on the command line (`option`: --memory.constraints, --memory.tensors,
 * --operators or --transforms) as YAML or JSON flow text, e.g. '[{name: DTCM, max_size: 4096}]'.
 * It replaces the config file's whole key, with the key's checks; errors name the option. */
bool config_parse_option(Arena *a, const char *option, const char *text, Config *c, Diag *d);
/* The operator rules matching operator `index` (builtin name `opname`), merged field by
 * field: type+id > type > id > neither, the later rule at equal specificity. */
OperatorAttrs config_operator_attrs(const Config *c, int32_t index, const char *opname);
/* The same with the other documented order when id_over_type (heliaAOT's operator-attributes
 * page: type+id > id > type > neither), for the warning where the two readings differ. */
OperatorAttrs config_operator_attrs_order(const Config *c, int32_t index, const char *opname, bool id_over_type);
/* Its code (code = true) or scratch placement; MEM_NONE when no rule sets it. */
MemType config_operator_placement(const Config *c, int32_t index, const char *opname, bool code);
/* True when operator rule `r` matches operator `index` of type `opname`. */
bool config_operator_rule_matches(const OperatorRule *r, int32_t index, const char *opname);
/* Binds the tensor rules' ids given as tensor names to the indices of the model's tensors
 * of that name (every one: names need not be unique). A name no tensor has is a warning
 * naming its line, an error under c->strict, as other rules that match nothing. */
struct Model;
bool config_bind_tensor_names(Arena *a, Config *c, const struct Model *m, Diag *d);
/* Checks rules against the platform (writable destinations, pairings). */
bool config_check_rules(const Config *c, const Platform *p, Diag *d);

#endif
