#define _POSIX_C_SOURCE 200809L /* stat */
#include "pipeline.h"
#include "test_case_host.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../export/export.h"
#include "../load/loader.h"
#include "../plan/search.h"
#include "../transform/transform.h"

bool pipeline_valid_identifier(const char *s) {
  if (!s || !*s || strlen(s) > 32 || !(isalpha((unsigned char)*s) || *s == '_')) return false;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
  return true;
}

/* "path/to/kws_ref.tflite" -> "kws_ref"; "model.tflite" -> its directory name. *raw is the
 * name it was made from (the file name without .tflite, or the directory's), for the note
 * when the two differ. */
static const char *default_name(Arena *a, const char *path, const char **raw) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strcspn(base, ".");
  size_t whole = strlen(base);
  if (whole > 7 && strcmp(base + whole - 7, ".tflite") == 0) whole -= 7;
  char buf[64];
  if (len == 5 && strncmp(base, "model", 5) == 0 && base != path) {
    const char *end = base - 1, *start = end;
    while (start > path && start[-1] != '/') start--;
    if (end > start) {
      base = start;
      len = whole = (size_t)(end - start);
    }
  }
  *raw = arena_strndup(a, base, whole);
  size_t n = 0;
  for (size_t i = 0; i < len && n < 32; i++) {
    char ch = (char)tolower((unsigned char)base[i]);
    buf[n++] = isalnum((unsigned char)ch) ? ch : '_';
  }
  buf[n] = 0;
  if (n == 0 || isdigit((unsigned char)buf[0])) return "model";
  return arena_strdup(a, buf);
}

static bool check_options(Compilation *c, ConvertOptions *opt, Diag *d) {
  /* heliaAOT's --memory.* on/off switches override the config's keys. */
  if (opt->allocate_arenas != SWITCH_UNSET) c->config.allocate_arenas = opt->allocate_arenas == SWITCH_ON;
  if (opt->auto_hydrate_constants != SWITCH_UNSET)
    c->config.auto_hydrate_constants = opt->auto_hydrate_constants == SWITCH_ON;
  if (!opt->name) {
    const char *raw = "";
    opt->name = default_name(&c->arena, opt->model_path, &raw);
    if (strcmp(raw, opt->name) != 0) opt->name_from = raw;
  }
  if (!opt->prefix) opt->prefix = opt->name;
  if (!pipeline_valid_identifier(opt->name))
    return diag_error(d, "module name '%s' must be a C identifier of at most 32 characters", opt->name);
  if (!pipeline_valid_identifier(opt->prefix))
    return diag_error(d, "prefix '%s' must be a C identifier of at most 32 characters", opt->prefix);
  return true;
}

/* helia-aot: heliaAOT's documented defaults (reference/commands/convert) for what neither
 * the command line nor the config gave. A .pack path keeps its implied cmsis_pack. */
static void helia_defaults(ConvertOptions *opt) {
  const size_t n = opt->out_dir ? strlen(opt->out_dir) : 0;
  if (!opt->model_path) opt->model_path = "model.tflite";
  if (!opt->name) opt->name = "helia_aot_nn";
  if (!opt->module_type && !(n > 5 && strcmp(opt->out_dir + n - 5, ".pack") == 0)) opt->module_type = "neuralspot";
}

/* The config's values under the command line's: a value given on the command line
 * wins (switches in both directions), the file fills the rest. */
static void merge_config(ConvertOptions *opt, const Config *cfg) {
  if (!opt->model_path) opt->model_path = cfg->model_path;
  if (!opt->out_dir) opt->out_dir = cfg->module_path;
  if (!opt->name) opt->name = cfg->module_name;
  if (!opt->prefix) opt->prefix = cfg->module_prefix;
  if (!opt->platform) opt->platform = cfg->platform_name;
  if (!opt->module_type) opt->module_type = cfg->module_type;
  if (opt->test_switch != SWITCH_UNSET) opt->test_enabled = opt->test_switch == SWITCH_ON;
  else if (cfg->has_test_enabled) opt->test_enabled = cfg->test_enabled;
  if (cfg->has_test_tolerance && !opt->has_test_tolerance) {
    opt->has_test_tolerance = true;
    opt->test_tolerance = cfg->test_tolerance;
  }
  if (!opt->test_golden_data) opt->test_golden_data = cfg->test_golden_data;
  if (!opt->model_meta_name) opt->model_meta_name = cfg->model_name;
  if (!opt->model_meta_description) opt->model_meta_description = cfg->model_description;
  if (!opt->model_meta_version) opt->model_meta_version = cfg->model_version;
  if (!opt->model_meta_type) opt->model_meta_type = cfg->model_type;
  if (!opt->memory_optimize_given && cfg->memory_optimize) opt->memory_max = strcmp(cfg->memory_optimize, "max") == 0;
  if (cfg->has_verbose && opt->verbose == 0) opt->verbose = cfg->verbose;
  if (opt->force_switch != SWITCH_UNSET) opt->force = opt->force_switch == SWITCH_ON;
  else if (cfg->has_force) opt->force = cfg->force;
  if (opt->helia_defaults) helia_defaults(opt);
}

/* One command-line rule list into the config (replacing its key): a single argument is
 * the key's whole value; several are the list's entries, one object each. */
static bool apply_rule_list(Compilation *c, const char *option, const RuleListArg *r, Diag *d) {
  if (!r->given) return true;
  StrBuf text;
  sb_init_heap(&text, &c->arena.heap);
  const int n = r->value ? 1 : r->n;
  const char *first = r->value ? r->value : n ? r->args[0] : "";
  first += strspn(first, " \t\n");
  /* one list as is; objects or names (one or several) become the list's entries */
  const bool wrap = !(n == 1 && *first == '[');
  if (wrap) sb_append(&text, "[");
  for (int i = 0; i < n; i++) {
    if (i) sb_append(&text, ", ");
    sb_append(&text, r->value ? r->value : r->args[i]);
  }
  if (wrap) sb_append(&text, "]");
  const char *value = arena_strdup(&c->arena, text.data ? text.data : "");
  sb_free(&text);
  if (!value) return diag_error(d, "out of memory");
  Diag cd;
  diag_init(&cd, NULL);
  if (!config_parse_option(&c->arena, option, value, &c->config, &cd)) {
    *d = cd;
    return false;
  }
  return true;
}

bool pipeline_configure(Compilation *c, ConvertOptions *opt, Diag *d) {
  config_defaults(&c->config);
  c->config.strict = opt->strict; /* ignored keys become errors while parsing */
  if (opt->config_path) {
    Diag cd;
    diag_init(&cd, opt->config_path);
    if (!config_load(&c->arena, opt->config_path, &c->config, &cd)) {
      *d = cd;
      return false;
    }
  }
  if (!apply_rule_list(c, "--memory.constraints", &opt->memory_constraints, d) ||
      !apply_rule_list(c, "--memory.tensors", &opt->memory_tensors, d) ||
      !apply_rule_list(c, "--operators", &opt->operators, d) || !apply_rule_list(c, "--transforms", &opt->transforms, d))
    return false;
  Config *cfg = &c->config;
  if (cfg->n_models && !opt->shared_id)
    return diag_error(d, "%s lists several models ('models'): `tinyaot convert` compiles them together",
                      opt->config_path);
  merge_config(opt, cfg);
  if (!opt->model_path) return diag_error(d, "no model given (positional argument, --model.path or model.path in the config)");
  d->file = opt->model_path;
  if (!opt->platform) opt->platform = "host";
  if (cfg->has_custom_platform && strcmp(opt->platform, cfg->custom_platform.name) == 0) {
    c->platform = cfg->custom_platform;
  } else if (!platform_builtin(opt->platform, &c->platform)) {
    char known[512] = "";
    for (int i = 0; i < platform_builtin_count(); i++) {
      strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
      strncat(known, platform_builtin_name(i), sizeof known - strlen(known) - 1);
    }
    if (opt->platform == cfg->platform_name && opt->config_path) { /* the config named it: blame its line */
      d->file = opt->config_path;
      return diag_error(d, "line %d: unknown platform '%s' (built in: %s; or give it memories in the config)",
                        cfg->platform_line, opt->platform, known);
    }
    d->file = NULL; /* the command line named it, not the model */
    return diag_error(d, "--platform: unknown platform '%s' (built in: %s; or define one in the config)", opt->platform,
                      known);
  }
  Diag cd;
  diag_init(&cd, opt->config_path);
  if (!config_check_rules(cfg, &c->platform, &cd)) {
    *d = cd;
    return false;
  }
  return true;
}

bool pipeline_load(Compilation *c, const ConvertOptions *opt, Diag *d) {
  const uint8_t *data = opt->model_bytes;
  size_t size = opt->model_size;
  struct stat st;
  if (!data && stat(opt->model_path, &st) == 0 && S_ISDIR(st.st_mode))
    return diag_error(d, "this is a folder, not a model file; give the .tflite file inside it");
  if (!data && !load_file(&c->arena, opt->model_path, &data, &size, d)) return false;
  if (!load_model(&c->arena, opt->model_path, data, size, &c->model, d)) return false;
  /* ids given as tensor names, by the model's names (before transforms add tensors) */
  Diag cd;
  diag_init(&cd, opt->config_path);
  if (!config_bind_tensor_names(&c->arena, &c->config, &c->model, &cd)) {
    *d = cd;
    return false;
  }
  /* fold_pad is on in both --memory.optimize modes: it removes a copy, so it saves time too */
  TransformOptions topt = {.alias_reshapes = !opt->no_alias, .fold_pad = !opt->no_fold_pad,
                           .elide_quantize = !opt->no_elide_quantize, .integer_io = opt->integer_io};
  return transform_model(&c->model, &topt, d);
}

static const char *upper(Arena *a, const char *s) {
  char *u = arena_strdup(a, s);
  for (char *p = u; p && *p; p++) *p = (char)toupper((unsigned char)*p);
  return u;
}

static void record_trade(Compilation *c, const PlanTrade *t) {
  Module *mod = &c->module;
  int32_t *list = arena_alloc(&c->arena, sizeof *list * (size_t)(t->n_nodes > 0 ? t->n_nodes : 1));
  if (!list) return;
  int n = 0;
  for (int i = 0; i < t->n_nodes; i++)
    if (t->portable[i]) list[n++] = i;
  mod->budget_portable = list;
  mod->n_budget_portable = n;
  mod->budget_mem = t->mem;
  mod->budget_need_fast = t->need_fast;
  mod->cost_choice_json = t->choice_json;
}

/* CONCATENATIONs whose inputs can be written straight into their slices of the output
 * (transform/concat_views.c), in the schedule as fixed: each is kept as views only where the
 * live peak does not grow (an input produced long before the concatenation would hold the
 * whole output from then on). */
static void view_concats(Model *m) {
  LiveProfile best = schedule_profile(m);
  for (int k = 0; k < m->n_nodes; k++) {
    if (!transform_concat_viewable(m, k)) continue;
    transform_concat_view(m, k, true);
    const LiveProfile with = schedule_profile(m);
    if (with.peak > best.peak) transform_concat_view(m, k, false);
    else best = with;
  }
}

/* SPLIT / SLICE-like operators whose outputs can be views of their input
 * (transform/slice_views.c), likewise kept only where the live peak does not grow (the
 * input then lives until its views' last reader). */
static void view_slices(Model *m) {
  LiveProfile best = schedule_profile(m);
  for (int k = 0; k < m->n_nodes; k++) {
    if (!transform_slice_viewable(m, k)) continue;
    transform_slice_view(m, k, true);
    const LiveProfile with = schedule_profile(m);
    if (with.peak > best.peak) transform_slice_view(m, k, false);
    else best = with;
  }
}

/* The view rewrites of a candidate (PlanCandidate.views): transform's, so cli's. */
static void candidate_views(void *ctx, Model *m) {
  const ConvertOptions *opt = ctx;
  if (!opt->no_concat_views) view_concats(m);
  if (!opt->no_slice_views) view_slices(m);
}

static PlanInplace inplace_set(const ConvertOptions *opt) {
  return plan_search_inplace(opt->no_inplace, opt->memory_max);
}

/* An attempt's entry in the search log: its mode and in-place set, the operators it keeps
 * portable, and its plan's bytes per memory (planned) or overflow. */
static void note_attempt(Compilation *c, const ConvertOptions *opt, const PlanTrade *trade, bool planned) {
  char cand[64], result[96];
  int n_portable = 0;
  for (int i = 0; trade && i < trade->n_nodes; i++) n_portable += trade->portable[i];
  const PlanInplace inplace = inplace_set(opt);
  const char *set = inplace == PLAN_INPLACE_NONE ? "none" : inplace == PLAN_INPLACE_ALL ? "all" : "free";
  const char *mode = opt->memory_max ? "max" : "default";
  if (trade) snprintf(cand, sizeof cand, "%s mode, in-place %s, %d operators portable", mode, set, n_portable);
  else snprintf(cand, sizeof cand, "%s mode, in-place %s", mode, set);
  plan_search_outcome(&c->plan, planned, result, sizeof result);
  plan_search_attempt(&c->search, cand, result, planned ? "kept: fits every budget" : "dropped");
}

/* The Module's options from the command line and the config. */
static void module_options(Compilation *c, const ConvertOptions *opt) {
  Module *mod = &c->module;
  mod->opt_size = opt->opt_size;
  mod->profile = opt->profile;
  mod->opt_balanced = opt->opt_balanced;
  mod->intern = !opt->no_intern;
  mod->static_calls = !opt->no_static_calls;
  mod->init_elision = !opt->no_init_elision;
  mod->allocate_arenas = c->config.allocate_arenas;
  mod->auto_hydrate = c->config.auto_hydrate_constants;
  mod->name = opt->name;
  mod->prefix = opt->prefix;
  mod->PREFIX = upper(&c->arena, opt->prefix);
  mod->shared_scratch = opt->shared_scratch;
  mod->shared_id = opt->shared_id;
  mod->test_enabled = opt->test_enabled; /* heliaAOT's test case (emit_test_case.c) */
  mod->test_tolerance = opt->has_test_tolerance ? opt->test_tolerance : 0.0;
  mod->test_golden_data = opt->test_golden_data;
  mod->test_data = c->has_test_data ? &c->test_data : NULL;
  const char *base = strrchr(opt->model_path, '/');
  mod->source = base ? base + 1 : opt->model_path;
  mod->meta_name = opt->model_meta_name;
  mod->meta_description = opt->model_meta_description;
  mod->meta_version = opt->model_meta_version;
  mod->plan_search = &c->search;
}

/* One attempt at everything after load and transform: the candidate planned on a copy of
 * c->source (plan/search.c), then emitted and written. */
static bool compile_attempt(Compilation *c, ConvertOptions *opt, const BudgetStep *step, Diag *d) {
  const PlanTrade *trade = step->trade;
  const PlanCandidate cand = {
      .source = &c->source, .platform = &c->platform, .config = &c->config, .opt_size = opt->opt_size,
      .portable = trade ? trade->portable : NULL, .patch = opt->memory_max && !opt->no_patch,
      .reorder = !opt->no_reorder, .inplace = inplace_set(opt),
      /* rules naming nothing: once, on the first attempt (warnings; errors with --strict) */
      .check_rules = !trade, .strict = opt->strict, .views = candidate_views, .views_ctx = opt};
  Module *mod = &c->module;
  if (!plan_search_candidate(&cand, &c->arena, &c->model, &c->plan, &c->patch, &mod->schedule, &c->search, d))
    return false;
  module_options(c, opt);
  if (trade) record_trade(c, trade);
  if (step->escalated) {
    mod->memory_escalated = true;
    mod->escalated_mem = step->escalated_mem;
    mod->escalated_need_default = step->escalated_need;
  }
  if (!emit_module(&c->model, &c->plan, mod, d)) return false;
  if (!export_runtime(&c->model, mod, d)) return false;
  if (!export_build_files(&c->model, &c->plan, mod, opt->module_type, opt->out_dir, d)) return false;
  note_attempt(c, opt, trade, true); /* before the report, which carries the log */
  export_report(&c->model, &c->plan, mod);
  if (opt->verbose >= 2) attrs_print(&c->config, &c->model, &c->plan, stdout);
  return true;
}

/* Drops the state of a failed attempt (the arena keeps its allocations). */
static void reset_attempt(Compilation *c) {
  module_free(&c->module);
  memset(&c->module, 0, sizeof c->module);
  memset(&c->plan, 0, sizeof c->plan);
  memset(&c->model, 0, sizeof c->model);
}

/* --test.enabled without golden data: the expected outputs of a host build and run. */
static bool host_test_data(const ConvertOptions *opt, Arena *a, TestCaseData *data, Diag *d) {
  ConvertOptions host;
  test_case_host_options(opt, &host);
  Compilation h;
  memset(&h, 0, sizeof h);
  arena_init(&h.arena);
  Diag hd;
  diag_init(&hd, opt->model_path);
  bool ok = pipeline_compile(&h, &host, &hd);
  if (!ok) diag_error(d, "test case: the host build of the expected outputs failed: %s", hd.msg);
  else ok = test_case_host_run(&h, a, data, d);
  pipeline_free(&h);
  return ok;
}

/* One attempt of plan_search_budget (which decides the candidates), its failure noted in
 * the search log (the budget the plan broke, if any). */
typedef struct Attempts {
  Compilation *c;
  ConvertOptions *opt;
  bool tried; /* an attempt ran: the next one starts from a reset */
} Attempts;

static bool attempt_compile(void *ctx, const BudgetStep *step, Diag *d) {
  Attempts *a = ctx;
  Compilation *c = a->c;
  if (a->tried) reset_attempt(c);
  a->tried = true;
  a->opt->memory_max = step->max; /* escalated: --memory.optimize max from here on */
  if (compile_attempt(c, a->opt, step, d)) return true;
  note_attempt(c, a->opt, step->trade, false);
  return false;
}

bool pipeline_compile(Compilation *c, ConvertOptions *opt, Diag *d) {
  if (!pipeline_configure(c, opt, d)) return false;
  if (!check_options(c, opt, d)) return false;
  if (opt->test_enabled && !opt->test_golden_data) { /* expected outputs from a host run */
    if (!host_test_data(opt, &c->arena, &c->test_data, d)) return false;
    c->has_test_data = true;
  }
  /* loaded and transformed once: every candidate plans a copy (plan/search.c) */
  if (!pipeline_load(c, opt, d)) return false;
  c->source = c->model;
  memset(&c->model, 0, sizeof c->model);
  c->search.attempt = -1;
  Attempts a = {.c = c, .opt = opt};
  const BudgetSearch s = {.platform = &c->platform, .source = &c->source, .model = &c->model, .plan = &c->plan,
                          .arena = &c->arena, .max_given = opt->memory_max, .opt_size = opt->opt_size,
                          .balanced = opt->opt_balanced, .compile = attempt_compile, .ctx = &a};
  return plan_search_budget(&s, &c->search, d);
}

void pipeline_free(Compilation *c) {
  module_free(&c->module);
  arena_free(&c->arena);
}
