/* tinyaot convert: the main job. */
#define _XOPEN_SOURCE 700 /* clock_gettime, getrusage, stat */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "../export/export.h"
#include "args.h"
#include "commands.h"
#include "convert_multi.h"
#include "pipeline.h"

static const char convert_usage[] =
    "usage: tinyaot convert MODEL.tflite -o OUTDIR [options]\n"
    "       tinyaot convert A.tflite B.tflite ... [--shared-scratch] -o DIR [options]     (several models)\n"
    "       tinyaot convert --model.path MODEL.tflite --module.path OUTDIR [options]   (heliaAOT)\n"
    "       tinyaot convert --path CONFIG.yaml [options]                               (heliaAOT)\n"
    "\n"
    "Compiles a TFLite model into a C99 inference module in OUTDIR: include/<name>_model.h,\n"
    "src/ (model, weights, the kernels it uses), CMakeLists.txt, Makefile (make\n"
    "TARGET=cortex-m4|cortex-m55 cross-builds), cmake/ toolchain files for arm-none-eabi-gcc,\n"
    "zephyr/, README.md, report.json, report.md and report.html (where every tensor lives; the\n"
    "html page draws it per memory, docs/memory.md).\n"
    "Nothing is written when the model cannot be compiled. OUTDIR keeps a manifest\n"
    "(.tinyaot-manifest) of what tinyaot wrote: a re-conversion replaces those files, files\n"
    "tinyaot did not write are never overwritten or deleted, and a non-empty OUTDIR without\n"
    "a manifest is refused unless --force. Every option may be given once.\n"
    "\n"
    "heliaAOT's options (docs/heliaaot.md says how each behaves):\n"
    "  --path FILE.yaml, --config FILE.yaml   configuration (model, module, platform, memory rules,\n"
    "                                         operator rules); command-line options override it\n"
    "  --model.path MODEL                     the model (or the positional argument; not both)\n"
    "  --model.subgraph 0                     only subgraph 0 (the main graph) is compiled\n"
    "  --model.type tflite|litert             the model format (only TFLite flatbuffers)\n"
    "  --model.name, --model.description, --model.version TEXT   model metadata (recorded;\n"
    "                                         the version is a CMSIS pack's release version)\n"
    "  -o, --output, --module.path DIR        output directory\n"
    "  --module.type T                        neuralspot, zephyr, cmake, nsx or cmsis_pack (headers in\n"
    "                                         includes-api/); default: all tinyaot's glue, include/;\n"
    "                                         --module.path Vendor.Name.Version.pack (cmsis_pack,\n"
    "                                         named by CMSIS-Pack's rule) or X.zip: an archive\n"
    "  --module.name NAME, --name NAME        module name (file names); default: model file name\n"
    "  --module.prefix P, --prefix P          C identifier prefix; default: the name\n"
    "  --test.enabled | --no-test.enabled     emit the test-case harness (<prefix>_test_case);\n"
    "                                         either overrides the config's test.enabled\n"
    "  --test.tolerance X                     its tolerance; --test.golden_data FILE.npz its data\n"
    "  --platform.name NAME, --platform NAME  host (default), cortex-m4, cortex-m55,\n"
    "                                         apollo3p_evb, apollo4p_evb, apollo4l_evb, apollo510_evb\n"
    "  --memory.planner greedy                tinyaot's planner (reaches the activation lower bound)\n"
    "  --memory.allocate-arenas | --no-memory.allocate-arenas\n"
    "                                         arenas as static arrays in the module, or bound by the\n"
    "                                         caller (<prefix>_bind_arena); overrides the config\n"
    "  --memory.auto-hydrate-constants | --no-memory.auto-hydrate-constants\n"
    "                                         init copies pinned constants, or the application does\n"
    "  --memory.dump-residency-json | --no-memory.dump-residency-json\n"
    "                                         also write OUTDIR/residency.json (every tensor's memory,\n"
    "                                         residency, offset, lifetime); =FILE (or a FILE.json\n"
    "                                         argument) writes it to FILE instead\n"
    "  --memory.constraints LIST              heliaAOT's rule lists as YAML/JSON flow text: one list,\n"
    "  --memory.tensors LIST | OBJ ...        or one {...} object per argument, checked as the config's\n"
    "  --operators LIST | OBJ ...             key (errors name the option); each replaces the config's\n"
    "                                         whole key ('[]' clears it), e.g. --memory.tensors\n"
    "                                         '[{\"type\": \"SCRATCH\", \"attributes\": {\"memory\": \"SRAM\"}}]'\n"
    "  --transforms [NAME ...]                as the config's transforms: warned about and ignored\n"
    "                                         (tinyaot runs its own fixed transforms; --strict: error)\n"
    "  --verbose N                            2: the attributes resolved per operator and tensor\n"
    "  --force | --no-force                   write into a non-empty folder tinyaot did not write\n"
    "                                         (beside the files there: they are never deleted);\n"
    "                                         either overrides the config's force\n"
    "  --log-file FILE                        also write the messages of this conversion to FILE\n"
    "tinyaot's own options:\n"
    "  --shared-scratch                       with several models (each in DIR/<name>/, prefix = name,\n"
    "                                         from the file name; DIR/report.json sums them up): their\n"
    "                                         scratch arenas overlay one buffer per memory, sized to the\n"
    "                                         largest (DIR/tinyaot_shared.c; state and constants are not\n"
    "                                         shared); run returns -3 while another model is mid-run\n"
    "  --strict                               ignored config keys and rules matching nothing are errors\n"
    "  --no-alias                             copy RESHAPE outputs instead of aliasing them\n"
    "  --no-fold-pad                          keep explicit PAD/PADV2 operators before convolutions\n"
    "                                         (default: folded into the convolution's padding)\n"
    "  --no-elide-quantize                    run identity QUANTIZEs and DEQUANTIZE->QUANTIZE round\n"
    "                                         trips (default: their output shares the input's bytes)\n"
    "  --no-concat-views                      CONCATENATION copies its inputs (default: along an outer\n"
    "                                         axis, with one quantization, they are written in place)\n"
    "  --no-slice-views                       SPLIT/SPLIT_V/UNPACK/SLICE/STRIDED_SLICE copy their outputs\n"
    "                                         (default: an output that is one contiguous range of the\n"
    "                                         input, with its quantization, is read there in place)\n"
    "  --no-patch                             --memory.optimize max without patch-based execution (the\n"
    "                                         first stage in row bands, docs/memory.md)\n"
    "  --no-inplace                           no operator writes over its input (default: those that\n"
    "                                         copy nothing; max: all with an in-place contract)\n"
    "  --integer-io                           a float input whose only reader is a QUANTIZE becomes\n"
    "                                         that integer tensor, a float output made by a DEQUANTIZE\n"
    "                                         its integer input (both operators dropped): the application\n"
    "                                         quantizes/dequantizes with <prefix>_input_info[i] /\n"
    "                                         _output_info[i] scale and zero_point (docs/memory.md)\n"
    "  --profile                              the module reads a cycle counter around every operator\n"
    "                                         into <prefix>_profile[] (DWT CYCCNT on Cortex-M4, the PMU\n"
    "                                         cycle counter on Cortex-M55, clock() on the host, or\n"
    "                                         <PREFIX>_PROFILE_CYCLES()); <prefix>_profile_print(fn)\n"
    "                                         prints it (README, \"Per-operator cycles\"); without\n"
    "                                         it the module has no profile code (the default)\n"
    "  --memory.optimize default|max          max: every RAM-saving technique (issue 17), in-place\n"
    "                                         and patch-based execution (the first stage in row bands)\n"
    "                                         included; default: those that cost no speed (over a\n"
    "                                         memory budget, the plan escalates to max by itself);\n"
    "                                         the config's key is memory.optimize\n"
    "  --stats                                print one line to stdout, also when the model is refused:\n"
    "                                         'tinyaot: stats: model N B, peak heap N B (Rx), time S s,\n"
    "                                         cpu S s, max rss N KiB' (peak heap: what the compiler\n"
    "                                         held at most; docs/robustness.md gives its bound)\n"
    "  --opt speed|size|balanced[=N]          speed (default): the platform's DSP/MVE kernel tiers\n"
    "                                         with weights re-laid for them; when their tables do not\n"
    "                                         fit a memory budget, the operators that lose the fewest\n"
    "                                         estimated instructions per byte freed (the cost model,\n"
    "                                         tables and kernel code) keep the portable kernels until\n"
    "                                         they fit (report.md lists them); size: the portable\n"
    "                                         kernels everywhere, weights read in place (least flash);\n"
    "                                         balanced: per operator, the tier only where it saves at\n"
    "                                         least N estimated instructions per byte of flash it costs\n"
    "                                         (default N = 1; docs/kernels.md, \"Cost model\")\n"
    "optimisations (all on; each gated by operator capabilities, see docs/operators.md):\n"
    "  --no-intern                            one layer function per operator, even when several\n"
    "                                         DESCRIPTOR_DRIVEN operators share a kernel call\n"
    "  --no-static-calls                      run the schedule through a table of function pointers\n"
    "                                         instead of direct calls (also disables interning)\n"
    "  --no-init-elision                      an init function for every operator, not only those\n"
    "                                         that own state\n"
    "  --no-reorder                           keep the model's operator order (otherwise REORDERABLE\n"
    "                                         operators may move to lower activation memory)\n"
    "  -h, --help                             this help\n";

static const char *const OPT_OUT[] = {"--module.path", "-o", "--output", NULL};
static const char *const OPT_MODEL[] = {"--model.path", NULL};
static const char *const OPT_NAME[] = {"--module.name", "--name", NULL};
static const char *const OPT_PREFIX[] = {"--module.prefix", "--prefix", NULL};
static const char *const OPT_PLATFORM[] = {"--platform.name", "--platform", NULL};
static const char *const OPT_CONFIG[] = {"--path", "--config", NULL};
static const char *const OPT_OPT[] = {"--opt", NULL};
static const char *const OPT_MEMORY_OPTIMIZE[] = {"--memory.optimize", NULL};
static const char *const OPT_SUBGRAPH[] = {"--model.subgraph", NULL};
static const char *const OPT_MODEL_TYPE[] = {"--model.type", NULL};
static const char *const OPT_MODEL_NAME[] = {"--model.name", NULL};
static const char *const OPT_MODEL_DESC[] = {"--model.description", NULL};
static const char *const OPT_MODEL_VERSION[] = {"--model.version", NULL};
static const char *const OPT_MODULE_TYPE[] = {"--module.type", NULL};
static const char *const OPT_TOLERANCE[] = {"--test.tolerance", NULL};
static const char *const OPT_GOLDEN[] = {"--test.golden_data", "--test.golden-data", NULL};
static const char *const OPT_VERBOSE[] = {"--verbose", NULL};
static const char *const OPT_LOG[] = {"--log-file", NULL};
static const char *const OPT_PLANNER[] = {"--memory.planner", NULL};

/* Every spelling parse_convert_args knows, for "did you mean". */
static const char *const CONVERT_KNOWN[] = {
    "--help", "--module.path", "--output", "--model.path", "--module.name", "--name", "--module.prefix",
    "--prefix", "--platform.name", "--platform", "--path", "--config", "--opt", "--model.subgraph",
    "--model.type", "--model.name", "--model.description", "--model.version", "--module.type", "--test.enabled",
    "--no-test.enabled", "--test.tolerance", "--test.golden_data", "--transforms", "--memory.planner",
    "--memory.constraints", "--memory.tensors", "--memory.allocate-arenas", "--no-memory.allocate-arenas",
    "--memory.auto-hydrate-constants", "--no-memory.auto-hydrate-constants", "--memory.dump-residency-json",
    "--no-memory.dump-residency-json", "--operators", "--verbose", "--force", "--no-force", "--log-file",
    "--strict", "--no-alias", "--no-intern", "--no-static-calls", "--no-init-elision", "--no-reorder", "--no-fold-pad", "--no-elide-quantize", "--no-concat-views", "--no-slice-views", "--no-patch", "--no-inplace", "--memory.optimize", "--integer-io", "--profile", NULL};

static bool fail(Args *a, const char *fmt, const char *x) {
  fputs("tinyaot: error: ", stderr);
  fprintf(stderr, fmt, x);
  fputc('\n', stderr);
  a->bad = true;
  return true;
}

/* --opt balanced[=N]: "" (N = 1) or "=N" with N > 0, instructions per byte. */
static bool parse_balanced(const char *rest, double *ratio) {
  if (!*rest) return *ratio = 1.0, true;
  if (*rest != '=' || !rest[1]) return false;
  char *end;
  *ratio = strtod(rest + 1, &end);
  return !*end && *ratio > 0 && *ratio < 1e12;
}

static bool is_one_of(const char *v, const char *const *list) {
  for (; *list; list++)
    if (strcmp(v, *list) == 0) return true;
  return false;
}

/* A whole-string decimal integer within [lo, hi]. */
static bool parse_int(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi) return false;
  *out = v;
  return true;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* heliaAOT options that are accepted but whose values tinyaot constrains. */
static bool heliaaot_value_option(Args *a, ConvertOptions *opt) {
  static const char *const module_types[] = {"neuralspot", "zephyr", "cmake", "nsx", "cmsis_pack", NULL};
  static const char *const model_types[] = {"tflite", "litert", "TFLITE", "LITERT", NULL};
  long n = 0;
  if (args_value(a, OPT_SUBGRAPH)) {
    if (a->bad) return true;
    if (!parse_int(a->value, 0, 1L << 30, &n))
      return fail(a, "--model.subgraph takes a subgraph index, not '%s'", a->value);
    if (n != 0)
      return fail(a, "--model.subgraph %s: tinyaot compiles subgraph 0 (the model's main graph) only", a->value);
  } else if (args_value(a, OPT_MODEL_TYPE)) {
    if (!a->bad && !is_one_of(a->value, model_types))
      return fail(a, "--model.type '%s': tinyaot reads TFLite (LiteRT) flatbuffers only (tflite or litert)", a->value);
    opt->model_meta_type = a->value;
  } else if (args_value(a, OPT_MODEL_NAME)) opt->model_meta_name = a->value;
  else if (args_value(a, OPT_MODEL_DESC)) opt->model_meta_description = a->value;
  else if (args_value(a, OPT_MODEL_VERSION)) opt->model_meta_version = a->value;
  else if (args_value(a, OPT_MODULE_TYPE)) {
    if (!a->bad && !is_one_of(a->value, module_types))
      return fail(a, "--module.type takes neuralspot, zephyr, cmake, nsx or cmsis_pack, not '%s'", a->value);
    opt->module_type = a->value;
  } else if (args_value(a, OPT_TOLERANCE)) {
    char *end;
    if (a->bad) return true;
    opt->test_tolerance = strtod(a->value, &end);
    opt->has_test_tolerance = true;
    if (!*a->value || *end || !(opt->test_tolerance >= 0))
      return fail(a, "--test.tolerance takes a number >= 0, not '%s'", a->value);
  } else if (args_value(a, OPT_GOLDEN)) opt->test_golden_data = a->value;
  else if (args_value(a, OPT_VERBOSE)) {
    if (!a->bad && !parse_int(a->value, 0, 9, &n)) return fail(a, "--verbose takes a level 0..9, not '%s'", a->value);
    opt->verbose = (int)n;
  } else if (args_value(a, OPT_LOG)) opt->log_file = a->value;
  else return false;
  return true;
}

/* --memory.planner [greedy]: the value is optional in heliaAOT's usage. */
static bool planner_option(Args *a) {
  const char *arg = a->argv[a->i];
  if (strcmp(arg, "--memory.planner") == 0 && (a->i + 1 >= a->argc || a->argv[a->i + 1][0] == '-' ||
                                               strchr(a->argv[a->i + 1], '.') || strchr(a->argv[a->i + 1], '/'))) {
    args_flag(a, "--memory.planner");
    return true;
  }
  if (!args_value(a, OPT_PLANNER)) return false;
  if (!a->bad && strcmp(a->value, "greedy") != 0)
    fail(a, "--memory.planner '%s': tinyaot has one planner (heliaAOT's 'greedy' is accepted for it)", a->value);
  return true;
}

/* heliaAOT's rule lists: --OPTION VALUE... or --OPTION=VALUE, each value YAML/JSON flow
 * text ("[{...}, {...}]", or one "{...}" per argument); nothing after the option is an
 * empty list. The values are parsed with the config's key (pipeline_configure). */
static bool rule_list_option(Args *a, ConvertOptions *opt) {
  static const char *const names[] = {"--memory.constraints", "--memory.tensors", "--operators", "--transforms"};
  RuleListArg *const lists[] = {&opt->memory_constraints, &opt->memory_tensors, &opt->operators, &opt->transforms};
  const char *arg = a->argv[a->i];
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    size_t len = strlen(names[k]);
    if (strncmp(arg, names[k], len) != 0 || (arg[len] && arg[len] != '=')) continue;
    RuleListArg *r = lists[k];
    if (r->given) return fail(a, "%s is given twice; give the whole list once", names[k]);
    r->given = true;
    if (arg[len] == '=') {
      r->value = arg + len + 1;
      return true;
    }
    /* The values: the following arguments that open a list or an object (--transforms:
     * also bare names, but not the model). */
    r->args = (char *const *)&a->argv[a->i + 1];
    while (a->i + 1 < a->argc && (a->argv[a->i + 1][0] == '[' || a->argv[a->i + 1][0] == '{' ||
                                  (r == &opt->transforms && a->argv[a->i + 1][0] != '-' &&
                                   !ends_with(a->argv[a->i + 1], ".tflite")))) {
      r->n++;
      a->i++;
    }
    return true;
  }
  return false;
}

static bool switch_option(Args *a, ConvertOptions *opt) {
  bool on = false;
  if (args_switch(a, "--force", &on)) {
    opt->force = on;
    opt->force_switch = on ? SWITCH_ON : SWITCH_OFF;
  } else if (args_switch(a, "--test.enabled", &on)) {
    opt->test_enabled = on;
    opt->test_switch = on ? SWITCH_ON : SWITCH_OFF;
  }
  else if (args_switch(a, "--memory.allocate-arenas", &on)) opt->allocate_arenas = on ? SWITCH_ON : SWITCH_OFF;
  else if (args_switch(a, "--memory.auto-hydrate-constants", &on))
    opt->auto_hydrate_constants = on ? SWITCH_ON : SWITCH_OFF;
  else return false;
  return true;
}

/* Parses convert options shared with `run`; returns 0 ok, 1 help printed, 2 error.
 * extra_known lists the extra options' spellings (for suggestions). */
int parse_convert_args(Args *a, ConvertOptions *opt, const char *usage_text, bool (*extra)(Args *, void *),
                       void *extra_state, const char *const *extra_known) {
  const char *const *const known[] = {CONVERT_KNOWN, extra_known ? extra_known : CONVERT_KNOWN + 1, NULL};
  const char *positional = NULL;
  for (a->i = 1; a->i < a->argc; a->i++) {
    const char *arg = a->argv[a->i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage_text, stdout);
      return 1;
    }
    if (args_value(a, OPT_OUT)) opt->out_dir = a->value;
    else if (args_value(a, OPT_MODEL)) opt->model_path = a->value;
    else if (args_value(a, OPT_NAME)) opt->name = a->value;
    else if (args_value(a, OPT_PREFIX)) opt->prefix = a->value;
    else if (args_value(a, OPT_PLATFORM)) opt->platform = a->value;
    else if (args_value(a, OPT_CONFIG)) opt->config_path = a->value;
    else if (args_flag(a, "--no-alias")) opt->no_alias = true;
    else if (args_flag(a, "--strict")) opt->strict = true;
    else if (args_value(a, OPT_OPT)) {
      if (a->bad) return 2;
      opt->opt_size = strcmp(a->value, "size") == 0;
      opt->opt_balanced = 0.0;
      if (strncmp(a->value, "balanced", 8) == 0 && !parse_balanced(a->value + 8, &opt->opt_balanced))
        fail(a, "--opt balanced=N takes a number of instructions per byte above 0, not '%s'", a->value);
      else if (strncmp(a->value, "balanced", 8) != 0 && strcmp(a->value, "size") != 0 && strcmp(a->value, "speed") != 0)
        fail(a, "--opt takes 'speed', 'size' or 'balanced[=N]', not '%s'", a->value);
    } else if (args_flag(a, "--no-intern")) opt->no_intern = true;
    else if (args_flag(a, "--no-static-calls")) opt->no_static_calls = true;
    else if (args_flag(a, "--no-init-elision")) opt->no_init_elision = true;
    else if (args_flag(a, "--no-reorder")) opt->no_reorder = true;
    else if (args_flag(a, "--no-fold-pad")) opt->no_fold_pad = true;
    else if (args_flag(a, "--no-patch")) opt->no_patch = true;
    else if (args_flag(a, "--no-inplace")) opt->no_inplace = true;
    else if (args_flag(a, "--no-elide-quantize")) opt->no_elide_quantize = true;
    else if (args_flag(a, "--no-concat-views")) opt->no_concat_views = true;
    else if (args_flag(a, "--no-slice-views")) opt->no_slice_views = true;
    else if (args_flag(a, "--integer-io")) opt->integer_io = true;
    else if (args_flag(a, "--profile")) opt->profile = true;
    else if (args_value(a, OPT_MEMORY_OPTIMIZE)) {
      if (a->bad) return 2;
      if (strcmp(a->value, "max") != 0 && strcmp(a->value, "default") != 0)
        fail(a, "--memory.optimize takes 'default' or 'max', not '%s'", a->value);
      opt->memory_max = strcmp(a->value, "max") == 0;
      opt->memory_optimize_given = true;
    }
    else if (heliaaot_value_option(a, opt) || switch_option(a, opt) || planner_option(a) || rule_list_option(a, opt)) {
    } else if (extra && extra(a, extra_state)) {
    } else if (a->bad) return 2;
    else if (arg[0] == '-' && arg[1]) {
      args_unknown(a, known);
      return 2;
    } else if (!positional) positional = arg;
    else if (opt->allow_models && opt->n_more_models + 1 >= CONVERT_MAX_MODELS) {
      fprintf(stderr, "tinyaot: error: more than %d models ('%s'); convert at most %d together\n", CONVERT_MAX_MODELS, arg,
              CONVERT_MAX_MODELS);
      return 2;
    } else if (opt->allow_models) opt->more_models[opt->n_more_models++] = arg;
    else {
      fprintf(stderr, "tinyaot: error: unexpected argument '%s' (the model is '%s')\n", arg, positional);
      return 2;
    }
    if (a->bad) return 2;
  }
  if (positional && opt->model_path) {
    fprintf(stderr, "tinyaot: error: two models given: '%s' and --model.path '%s'; give one\n", positional,
            opt->model_path);
    return 2;
  }
  if (positional) opt->model_path = positional;
  if (!opt->model_path && !opt->config_path && !opt->helia_defaults) {
    fprintf(stderr, "tinyaot: error: no model given (MODEL.tflite, --model.path or --path CONFIG.yaml; see --help)\n");
    return 2;
  }
  return 0;
}

static const char *const OPT_DUMP[] = {"--memory.dump-residency-json", NULL};
static const char *const CONVERT_EXTRA_KNOWN[] = {"--stats", "--shared-scratch", NULL};

typedef struct ConvertExtra {
  bool dump;        /* --memory.dump-residency-json: write residency.json into the module */
  bool dump_given;  /* the switch was on the command line (else the config's key decides) */
  const char *dump_file; /* ...=FILE: write it there instead */
  bool stats;       /* --stats */
  bool shared;      /* --shared-scratch: the models' scratch arenas overlay one buffer */
} ConvertExtra;

static bool convert_extra(Args *a, void *state) {
  ConvertExtra *x = state;
  if (args_flag(a, "--stats")) {
    x->stats = true;
    return true;
  }
  if (args_flag(a, "--shared-scratch")) {
    x->shared = true;
    return true;
  }
  const char *arg = a->argv[a->i];
  /* heliaAOT's switch, plus tinyaot's explicit file: "=FILE" or a following "FILE.json". */
  if (strcmp(arg, OPT_DUMP[0]) == 0 && a->i + 1 < a->argc && ends_with(a->argv[a->i + 1], ".json")) {
    args_value(a, OPT_DUMP);
    x->dump_file = a->value;
    return true;
  }
  static const char *const bool_words[] = {"true", "false", "on", "off", "1", "0", "yes", "no", NULL};
  if (strncmp(arg, "--memory.dump-residency-json=", 29) == 0 && !is_one_of(arg + 29, bool_words)) {
    args_value(a, OPT_DUMP);
    x->dump_file = a->value;
    return true;
  }
  if (!args_switch(a, OPT_DUMP[0], &x->dump)) return false;
  x->dump_given = true;
  return true;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* --stats: the model's size, the compiler's peak heap (Arena.heap: arena blocks, text
 * buffers, planner temporaries) and its ratio to the model, wall and CPU time, and the
 * process's peak RSS (which adds the executable, libc and the embedded kernel sources). */
static void print_stats(const char *model_path, const HeapStats *heap, const struct timespec *t0) {
  struct stat st;
  const long long model = model_path && stat(model_path, &st) == 0 ? (long long)st.st_size : -1;
  struct rusage ru;
  double cpu = 0;
  long rss_kib = 0;
  if (getrusage(RUSAGE_SELF, &ru) == 0) {
    cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
          1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    rss_kib = ru.ru_maxrss;
  }
  char ratio[32] = "n/a";
  if (model > 0) snprintf(ratio, sizeof ratio, "%.1fx", (double)heap->peak / (double)model);
  printf("tinyaot: stats: model %lld B, peak heap %zu B (%s), time %.3f s, cpu %.3f s, max rss %ld KiB\n", model,
         heap->peak, ratio, seconds_since(t0), cpu, rss_kib);
}

static bool write_text(const char *path, const StrBuf *sb, Diag *d) {
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(sb->data ? sb->data : "", 1, sb->len, f) == sb->len;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) return diag_error(d, "cannot write %s", path);
  return true;
}

/* --log-file: stderr goes to the log while the conversion runs and is copied to the
 * terminal at the end (a conversion takes milliseconds); the summary lines go to both. */
typedef struct LogCapture {
  int saved_stderr; /* -1: no log */
  FILE *log;
  char summary[1024]; /* stdout's summary lines, appended to the log at the end */
} LogCapture;

static bool log_start(LogCapture *lc, const char *path) {
  lc->saved_stderr = -1;
  lc->log = NULL;
  lc->summary[0] = 0;
  if (!path) return true;
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    fprintf(stderr, "tinyaot: error: cannot write the log file %s: %s\n", path, strerror(errno));
    return false;
  }
  fflush(stderr);
  lc->saved_stderr = dup(2);
  dup2(fd, 2);
  close(fd);
  lc->log = fdopen(dup(2), "a+");
  return true;
}

static void log_end(LogCapture *lc) {
  if (lc->saved_stderr < 0) return;
  fflush(stderr);
  if (lc->log) {
    fflush(lc->log);
    rewind(lc->log);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, lc->log)) > 0)
      if (write(lc->saved_stderr, buf, n) < 0) break;
    fputs(lc->summary, lc->log); /* after the copy: the terminal has it on stdout already */
    fclose(lc->log);
  }
  dup2(lc->saved_stderr, 2);
  close(lc->saved_stderr);
}

/* A summary line: stdout, and the log file when there is one. */
static void say(LogCapture *lc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(LogCapture *lc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  if (lc->log) {
    size_t used = strlen(lc->summary);
    va_start(ap, fmt);
    vsnprintf(lc->summary + used, sizeof lc->summary - used, fmt, ap);
    va_end(ap);
  }
}

/* The config's log_file (the config is read during the conversion, so its messages went
 * to the terminal only): the log gets the outcome, the summary or the error. */
static void log_outcome(const char *path, const Diag *d, const char *out_dir, const Compilation *c) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "tinyaot: warning: cannot write the log file %s: %s\n", path, strerror(errno));
    return;
  }
  if (d) fprintf(f, "tinyaot: error: %s%s%s%s\n", d->file ? d->file : "", d->file ? ": " : "", d->msg, d->extra);
  else fprintf(f, "tinyaot: wrote %s (%d files) for %s: %d operators\n", out_dir, c->module.n_files, c->platform.name,
               c->model.n_nodes);
  fclose(f);
}

static const char helia_note[] =
    "\nInvoked as helia-aot, convert applies heliaAOT's defaults where neither the command line\n"
    "nor the config says: --model.path model.tflite, --module.name helia_aot_nn, --module.type\n"
    "neuralspot (includes-api/, src/, module.mk, LICENSE); docs/heliaaot.md lists both columns.\n";

static int convert_main(int argc, char **argv, bool helia) {
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  ConvertOptions opt = {0};
  Args a = {.argc = argc, .argv = argv};
  ConvertExtra extra = {false, false, NULL, false, false};
  opt.allow_models = true;
  opt.helia_defaults = helia;
  int rc = parse_convert_args(&a, &opt, convert_usage, convert_extra, &extra, CONVERT_EXTRA_KNOWN);
  if (rc == 1 && helia) fputs(helia_note, stdout);
  if (rc) return rc == 1 ? 0 : 2;
  if (opt.n_more_models || extra.shared || convert_config_lists_models(&opt)) { /* several models */
    if (!extra.stats) return convert_multi(&opt, extra.shared, extra.dump, extra.dump_file);
    fprintf(stderr, "tinyaot: error: --stats measures one model's conversion: not with several models\n");
    return 2;
  }
  LogCapture lc;
  if (!log_start(&lc, opt.log_file)) return 2;
  Compilation c = {0};
  arena_init(&c.arena);
  Diag d;
  diag_init(&d, opt.model_path ? opt.model_path : opt.config_path);
  bool ok = pipeline_compile(&c, &opt, &d);
  if (ok && !opt.out_dir) ok = diag_error(&d, "no output directory (-o OUTDIR, --module.path or module.path in the config)");
  const Config *cfg = &c.config;
  if (ok && !extra.dump_given && cfg->has_dump_residency_json) extra.dump = cfg->dump_residency_json;
  if (ok && extra.dump) {
    /* heliaAOT's switch: the residency document is one more file of the module. */
    StrBuf *js = module_add_file(&c.module, &c.arena, "residency.json");
    if (js) export_residency_json(&c.model, &c.plan, &c.module, js);
    else ok = diag_error(&d, "out of memory");
  }
  if (ok) ok = export_write_module(&c.module, opt.out_dir, opt.force, &d);
  if (ok && extra.dump_file) {
    StrBuf js;
    sb_init_heap(&js, &c.arena.heap);
    export_residency_json(&c.model, &c.plan, &c.module, &js);
    ok = write_text(extra.dump_file, &js, &d);
    sb_free(&js);
  }
  if (!ok) {
    diag_print(&d);
  } else {
    size_t ram = 0;
    for (int i = 0; i < c.plan.n_arenas; i++) ram += c.plan.arenas[i].size;
    say(&lc, "tinyaot: wrote %s (%d files) for %s: %d operators, arenas %zu bytes, constants %zu bytes\n",
        opt.out_dir, c.module.n_files, c.platform.name, c.model.n_nodes, ram, c.plan.constant_bytes);
    if (opt.name_from)
      say(&lc, "tinyaot: note: the module is named '%s', not '%s' (module names are C identifiers of at most 32 "
               "characters); --module.name sets another\n", opt.name, opt.name_from);
    if (c.module.memory_escalated) /* on stderr: the module's inputs may now be overwritten */
      fprintf(stderr, "tinyaot: note: %s over budget in default mode (needed %llu bytes); planned with "
                      "--memory.optimize max (in-place execution; inputs may be overwritten by a run, "
                      "refill them before each run)\n", mem_name(c.module.escalated_mem),
              (unsigned long long)c.module.escalated_need_default);
    if (c.module.n_budget_portable && c.module.budget_mem == MEM_NONE)
      say(&lc, "tinyaot: --opt balanced: %d operators keep the portable kernels (report.md says which)\n",
          c.module.n_budget_portable);
    else if (c.module.n_budget_portable)
      say(&lc, "tinyaot: %d operators keep the portable kernels so that the constants fit %s (report.md says which)\n",
          c.module.n_budget_portable, mem_name(c.module.budget_mem));
  }
  if (extra.stats) print_stats(opt.model_path, &c.arena.heap, &t0);
  if (!opt.log_file && cfg->log_file) log_outcome(cfg->log_file, ok ? NULL : &d, opt.out_dir, &c);
  pipeline_free(&c);
  log_end(&lc);
  return ok ? 0 : 1;
}

int cmd_convert(int argc, char **argv) { return convert_main(argc, argv, false); }

int cmd_convert_helia(int argc, char **argv) { return convert_main(argc, argv, true); }
