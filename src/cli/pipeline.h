/* The conversion pipeline, shared by `convert`, `run` and `inspect`. */
#ifndef TINYAOT_PIPELINE_H
#define TINYAOT_PIPELINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../emit/emit.h"
#include "../ir/ir.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "../plan/patch.h"
#include "../plan/search.h"
#include "../platform/platform.h"

enum { CONVERT_MAX_MODELS = 16 };

typedef enum SwitchState { SWITCH_UNSET = 0, SWITCH_OFF, SWITCH_ON } SwitchState;

/* A heliaAOT rule list on the command line: the arguments after the option (YAML/JSON
 * flow text: one list, or one object per argument). */
typedef struct RuleListArg {
  bool given;
  int n;
  char *const *args;
  const char *value; /* --option=VALUE: the value (then n is 0) */
} RuleListArg;

typedef struct ConvertOptions {
  const char *model_path;
  const char *out_dir;
  const char *name;     /* module name (file names); default from the model file name */
  const char *name_from; /* the file (or folder) name a default name was changed from, or NULL */
  const char *prefix;   /* C prefix; default = name */
  const char *platform; /* platform name; default "host" */
  const char *config_path; /* YAML configuration; command-line options override it */
  bool no_alias;        /* keep RESHAPE copies (debugging) */
  /* Optimisations are on unless switched off (docs/operators.md). */
  bool no_intern, no_static_calls, no_init_elision, no_reorder;
  bool no_fold_pad;    /* --no-fold-pad: keep explicit PADs before convolutions (src/transform/fold_pad.c) */
  bool no_inplace;     /* --no-inplace: no in-place execution in either mode (src/plan/inplace.c) */
  bool no_patch;       /* --no-patch: max mode without patch-based execution (src/plan/patch.c) */
  bool no_concat_views; /* --no-concat-views: CONCATENATION copies (src/transform/concat_views.c) */
  bool no_slice_views;  /* --no-slice-views: SPLIT/SLICE outputs are copies (src/transform/slice_views.c) */
  bool no_elide_quantize; /* --no-elide-quantize: run identity QUANTIZEs (src/transform/elide_quantize.c) */
  bool profile;        /* --profile: the module counts cycles per operator (src/emit/emit_profile.c) */
  bool integer_io;     /* --integer-io: integer tensors instead of float I/O around QUANTIZE/DEQUANTIZE (src/transform/integer_io.c) */
  bool memory_max;     /* --memory.optimize max: every RAM-saving technique (default: the free ones) */
  bool memory_optimize_given; /* --memory.optimize was on the command line (it beats the config's key) */
  bool opt_size; /* --opt size: portable kernels only (least flash); default speed */
  double opt_balanced; /* --opt balanced[=N]: tiers that save at least N instructions per byte (0: off) */
  bool strict;   /* --strict: ignored config keys and rules that match nothing are errors */
  int verbose;   /* --verbose N (heliaAOT): 2 prints the attributes resolved per operator/tensor */
  bool force;    /* --force: write into a non-empty folder tinyaot did not write */
  /* heliaAOT module options (issue 15 gives them their effect) */
  const char *module_type;      /* --module.type: neuralspot|zephyr|cmake|nsx|cmsis_pack; NULL = default */
  bool test_enabled;            /* --test.enabled: emit the <prefix>_test_case harness */
  bool has_test_tolerance;
  double test_tolerance;        /* --test.tolerance */
  const char *test_golden_data; /* --test.golden_data: .npz with input_<i>/output_<i> */
  /* heliaAOT on/off switches given on the command line; they override the config's
   * memory.allocate_arenas / memory.auto_hydrate_constants (SWITCH_UNSET: the config decides). */
  int allocate_arenas, auto_hydrate_constants; /* SwitchState */
  /* heliaAOT model metadata (--model.name/description/version/type): parsed, kept for the writers */
  const char *model_meta_name, *model_meta_description, *model_meta_version, *model_meta_type;
  const char *log_file; /* --log-file: diagnostics and the summary also go to this file */
  const uint8_t *model_bytes; /* the model already in memory (fuzzing): not read from model_path */
  size_t model_size;
  /* --force / --test.enabled as given (SwitchState): the command line wins over the
   * config's force / test.enabled in both directions; SWITCH_UNSET: the config decides. */
  int force_switch, test_switch;
  /* --memory.constraints, --memory.tensors, --operators, --transforms: each replaces the
   * config's whole key (config_parse_option). */
  RuleListArg memory_constraints, memory_tensors, operators, transforms;
  /* Several models (convert_multi.c): `convert` accepts more than one positional model
   * (more_models, after model_path); shared_scratch/shared_id as Module's. */
  bool allow_models;
  int n_more_models;
  const char *more_models[CONVERT_MAX_MODELS];
  const char *shared_scratch;
  int shared_id;
  /* Invoked as helia-aot (main.c): heliaAOT's defaults where neither the command line nor
   * the config says (model.tflite, helia_aot_nn, neuralspot; docs/heliaaot.md). */
  bool helia_defaults;
} ConvertOptions;

typedef struct Compilation {
  Arena arena;
  Config config;
  Platform platform;
  Model source; /* as loaded and transformed: each candidate plans a copy (plan/search.c) */
  Model model;  /* the latest candidate's, planned */
  Plan plan;
  Module module;
  PatchPlan patch; /* --memory.optimize max: the chain run in bands (plan/patch.c) */
  /* --test.enabled without golden data: stimulus and outputs of the host run */
  bool has_test_data;
  TestCaseData test_data;
  PlanSearchLog search; /* the planning search's candidates and outcomes (report.json "plan_search") */
} Compilation;

/* load -> transform -> resolve -> plan -> emit -> export (in memory). */
bool pipeline_compile(Compilation *c, ConvertOptions *opt, Diag *d);
/* Stops after resolve, for inspect: failures of resolve are reported, not fatal. */
bool pipeline_load(Compilation *c, const ConvertOptions *opt, Diag *d);
void pipeline_free(Compilation *c);
bool pipeline_valid_identifier(const char *s);
/* Loads --config and merges it under the command-line options (model, out_dir,
 * name, prefix, platform); resolves the platform. */
bool pipeline_configure(Compilation *c, ConvertOptions *opt, Diag *d);

#endif
