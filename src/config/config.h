/* The YAML configuration (heliaAOT-compatible keys), parsed with libyaml.
 * Unknown keys are warnings with their line; wrong types are errors with their line. */
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
  const char *op_type; /* builtin name, or NULL for any */
  MemType code_placement, scratch_placement;
} OperatorRule;

typedef struct MemoryConstraint {
  int line;
  MemType mem;
  uint64_t max_size;
} MemoryConstraint;

enum { CONFIG_MAX_CONSTRAINTS = 16 };

typedef struct Config {
  const char *path;
  const char *model_path, *module_path, *module_name, *module_prefix, *platform_name;
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
  int warnings;
} Config;

void config_defaults(Config *c);
/* Parses a YAML file. Warnings go to stderr; the first error fills d. */
bool config_load(Arena *a, const char *path, Config *c, Diag *d);
/* Parses YAML text held in memory (fuzzing, tests). */
bool config_parse(Arena *a, const char *name, const char *text, size_t len, Config *c, Diag *d);
/* The memory the last matching operators rule gives operator `index` (builtin name
 * `opname`) for its code (code = true) or its scratch; MEM_NONE when none does. */
MemType config_operator_placement(const Config *c, int32_t index, const char *opname, bool code);
/* Checks rules against the platform (writable destinations, pairings). */
bool config_check_rules(const Config *c, const Platform *p, Diag *d);

#endif
