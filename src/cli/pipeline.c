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
#include "../resolve/resolve.h"
#include "../transform/transform.h"
#include "../plan/cost_choice.h"

bool pipeline_valid_identifier(const char *s) {
  if (!s || !*s || strlen(s) > 32 || !(isalpha((unsigned char)*s) || *s == '_')) return false;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
  return true;
}

/* "path/to/kws_ref.tflite" -> "kws_ref"; "model.tflite" -> its directory name. */
static const char *default_name(Arena *a, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strcspn(base, ".");
  char buf[64];
  if (len == 5 && strncmp(base, "model", 5) == 0 && base != path) {
    const char *end = base - 1, *start = end;
    while (start > path && start[-1] != '/') start--;
    if (end > start) {
      base = start;
      len = (size_t)(end - start);
    }
  }
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
  if (!opt->name) opt->name = default_name(&c->arena, opt->model_path);
  if (!opt->prefix) opt->prefix = opt->name;
  if (!pipeline_valid_identifier(opt->name))
    return diag_error(d, "module name '%s' must be a C identifier of at most 32 characters", opt->name);
  if (!pipeline_valid_identifier(opt->prefix))
    return diag_error(d, "prefix '%s' must be a C identifier of at most 32 characters", opt->prefix);
  return true;
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
  if (cfg->has_verbose && opt->verbose == 0) opt->verbose = cfg->verbose;
  if (opt->force_switch != SWITCH_UNSET) opt->force = opt->force_switch == SWITCH_ON;
  else if (cfg->has_force) opt->force = cfg->force;
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
    char known[256] = "";
    for (int i = 0; i < platform_builtin_count(); i++) {
      strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
      strncat(known, platform_builtin_name(i), sizeof known - strlen(known) - 1);
    }
    return diag_error(d, "unknown platform '%s' (built in: %s; or define one in the config)", opt->platform, known);
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

/* Operators kept on the portable kernels to fit a memory budget (see trade_tiers). */
typedef struct BudgetTrade {
  bool *portable;      /* by model operator index */
  int n_nodes;
  MemType mem;         /* the memory that overflowed with every tier */
  uint64_t need_fast;  /* the bytes it needed then */
  const char *choice_json; /* the cost model's candidates and choice (cost_choice_json) */
} BudgetTrade;

static void record_trade(Compilation *c, const BudgetTrade *t) {
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

/* Scratch bytes of the model as loaded into c (patched or not): resolve and plan only. */
static uint64_t probe_scratch(Compilation *c, const ConvertOptions *opt, const bool *portable, Diag *d) {
  Platform kernels = c->platform;
  if (opt->opt_size) kernels.dsp = kernels.mve = false;
  Diag quiet = *d;
  ScheduleReport sched;
  memset(&sched, 0, sizeof sched);
  if (!resolve_model_mixed(&c->model, &kernels, portable, &quiet)) return UINT64_MAX;
  if (!c->patch.active && !opt->no_reorder && !schedule_reorder(&c->model, &sched, &quiet)) return UINT64_MAX;
  const PlanInplace inplace = opt->no_inplace ? PLAN_INPLACE_NONE : PLAN_INPLACE_ALL;
  if (!plan_activations_mode(&c->model, &c->plan, &c->platform, &c->config, inplace, &quiet)) return UINT64_MAX;
  uint64_t bytes = 0;
  for (int i = 0; i < c->plan.n_arenas; i++)
    if (c->plan.arenas[i].role == AR_SCRATCH) bytes += c->plan.arenas[i].size;
  return bytes;
}

/* One plan of the model (resolve and plan only) in an arena of its own, freed after, so
 * the probes do not add up in the conversion's heap (its peak still counts theirs): the
 * scratch bytes with the patches planned from node position `start` (-1: none), or
 * UINT64_MAX when that start gives no patch or the plan fails. */
static uint64_t probe_patch(Compilation *c, const ConvertOptions *opt, const bool *portable, int start, Diag *d) {
  const Arena keep = c->arena;
  arena_init(&c->arena);
  c->arena.heap = keep.heap; /* counted on from the conversion's figures */
  Diag quiet = *d;
  uint64_t bytes = UINT64_MAX;
  memset(&c->patch, 0, sizeof c->patch);
  if (pipeline_load(c, opt, &quiet) &&
      (start < 0 || (patch_model(&c->model, start, &c->patch, &quiet) && c->patch.active)))
    bytes = probe_scratch(c, opt, portable, &quiet);
  const size_t peak = c->arena.heap.peak;
  arena_free(&c->arena);
  c->arena = keep;
  if (peak > c->arena.heap.peak) c->arena.heap.peak = peak;
  memset(&c->model, 0, sizeof c->model);
  memset(&c->plan, 0, sizeof c->plan);
  memset(&c->patch, 0, sizeof c->patch);
  return bytes;
}

/* What probe_patch needs, for the patch-start search (plan/search.c). */
typedef struct PatchProbeCtx {
  Compilation *c;
  const ConvertOptions *opt;
  const bool *portable;
  Diag *d;
} PatchProbeCtx;

static uint64_t patch_probe(void *ctx, int start) {
  PatchProbeCtx *p = ctx;
  return probe_patch(p->c, p->opt, p->portable, start, p->d);
}

/* --memory.optimize max: the chain start whose patches give the smallest whole plan. */
static int choose_patch_start(Compilation *c, const ConvertOptions *opt, const bool *portable, Diag *d) {
  PatchProbeCtx ctx = {c, opt, portable, d};
  return plan_search_patch_start(patch_probe, &ctx, &c->search);
}

/* Default mode over a budget, planned again in max mode (plan_search_budget). */
typedef struct Escalation {
  bool on;
  MemType mem;    /* the memory that overflowed in default mode */
  uint64_t need;  /* the bytes it needed then */
} Escalation;

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

static PlanInplace inplace_set(const ConvertOptions *opt) {
  return plan_search_inplace(opt->no_inplace, opt->memory_max);
}

/* An attempt's entry in the search log: its mode and in-place set, the operators it keeps
 * portable, and its plan's bytes per memory (planned) or overflow. */
static void note_attempt(Compilation *c, const ConvertOptions *opt, const BudgetTrade *trade, bool planned) {
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

/* One attempt at everything after configuration; with `trade`, its operators keep the
 * portable kernels; `esc` (or NULL) is recorded for the report. */
static bool compile_attempt(Compilation *c, ConvertOptions *opt, const BudgetTrade *trade, const Escalation *esc,
                            Diag *d) {
  const bool *portable = trade ? trade->portable : NULL;
  /* --memory.optimize max: the first stage may run in bands (plan/patch.c) */
  const int patch_start = opt->memory_max && !opt->no_patch ? choose_patch_start(c, opt, portable, d) : -1;
  const bool patched = patch_start >= 0;
  if (!pipeline_load(c, opt, d)) return false;
  memset(&c->patch, 0, sizeof c->patch);
  if (patched && !patch_model(&c->model, patch_start, &c->patch, d)) return false;
  /* --opt size: the portable kernels everywhere (weights read in place, no re-laid or
   * widened copies); speed (default): the platform's DSP/MVE tiers where they apply. */
  Platform kernels = c->platform;
  if (opt->opt_size) kernels.dsp = kernels.mve = false;
  if (!resolve_model_mixed(&c->model, &kernels, portable, d)) return false;
  Module *mod = &c->module;
  /* bands are not reordered: the schedule's producer map knows one writer per tensor */
  if (!opt->no_reorder && !patched && !schedule_reorder(&c->model, &mod->schedule, d)) return false;
  if (!opt->no_concat_views) view_concats(&c->model);
  if (!opt->no_slice_views) view_slices(&c->model);
  /* rules naming nothing: once, on the first attempt (warnings; errors with --strict) */
  if (!trade && !attrs_check_unmatched(&c->config, &c->model, opt->strict, d)) return false;
  if (!plan_activations_mode(&c->model, &c->plan, &c->platform, &c->config, inplace_set(opt), d)) return false;
  c->plan.patch = patched ? &c->patch : NULL;
  mod->opt_size = opt->opt_size;
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
  mod->plan_search = &c->search;
  if (trade) record_trade(c, trade);
  if (esc && esc->on) {
    mod->memory_escalated = true;
    mod->escalated_mem = esc->mem;
    mod->escalated_need_default = esc->need;
  }
  if (!emit_module(&c->model, &c->plan, mod, d)) return false;
  if (!export_runtime(&c->model, mod, d)) return false;
  if (!export_build_files(&c->model, &c->plan, mod, opt->module_type, opt->out_dir, d)) return false;
  note_attempt(c, opt, trade, true); /* before the report, which carries the log */
  export_report(&c->model, &c->plan, mod);
  if (opt->verbose >= 2) attrs_print(&c->config, &c->model, &c->plan, stdout);
  return true;
}

/* compile_attempt, its failure noted in the search log (the budget the plan broke, if any). */
static bool compile_once(Compilation *c, ConvertOptions *opt, const BudgetTrade *trade, const Escalation *esc,
                         Diag *d) {
  if (compile_attempt(c, opt, trade, esc, d)) return true;
  note_attempt(c, opt, trade, false);
  return false;
}

/* cost_choice_build over the all-tier attempt and the model loaded and resolved once
 * more without the tiers (c->model is restored after). */
static bool build_cost_choice(Compilation *c, const ConvertOptions *opt, const Model *fast, const Plan *fast_plan,
                              CostChoice *cc, Diag *d) {
  const Model keep = c->model;
  Platform plain = c->platform;
  plain.dsp = plain.mve = false;
  const bool ok = pipeline_load(c, opt, d) && resolve_model(&c->model, &plain, d) &&
                  cost_choice_build(&c->arena, cost_core_of(&c->platform), fast, fast_plan, &c->model, cc, d);
  c->model = keep;
  return ok;
}

/* One past the largest operator index of m: the size of tables by operator index, which
 * rewrites that drop operators (a folded PAD) leave sparse. */
static int node_index_bound(const Model *m) {
  int bound = m->n_nodes;
  for (int k = 0; k < m->n_nodes; k++)
    if (m->nodes[k].index >= bound) bound = m->nodes[k].index + 1;
  return bound;
}

/* --opt speed under a budget: when the tiers' tables (weights re-laid or widened for the
 * DSP/MVE kernels) overflow a memory, operators go back to the portable kernels, fewest
 * estimated instructions lost per byte freed first (the cost model, cost_choice.c: tables
 * and kernel code), until the tables given up cover the excess. False when nothing is
 * left to trade. */
static bool trade_tiers(Compilation *c, const CostChoice *cc, bool *portable, int n_nodes) {
  const Plan *p = &c->plan;
  const uint64_t excess = p->over_need - p->budget[p->over_mem];
  return cost_trade(cc, p->over_mem, excess, portable, n_nodes, &c->arena);
}

/* Drops the state of a failed attempt (the arena keeps its allocations). */
static void reset_attempt(Compilation *c) {
  module_free(&c->module);
  memset(&c->module, 0, sizeof c->module);
  memset(&c->plan, 0, sizeof c->plan);
  memset(&c->model, 0, sizeof c->model);
}

/* --opt balanced: from the all-tier module, the operators whose tier saves fewer
 * estimated instructions per byte it costs (tables and kernel code) than asked go back to
 * the portable kernels, cheapest first (cost_choice.c), and the module is compiled again
 * with them (going portable only frees constants and code, so it fits where the all-tier
 * module did). The all-tier module stays when nothing moves. */
static bool balance_tiers(Compilation *c, ConvertOptions *opt, const Diag fresh, Diag *d) {
  if (!(c->platform.dsp || c->platform.mve)) return true;
  const Model fast = c->model;
  const Plan fast_plan = c->plan;
  BudgetTrade t = {.n_nodes = node_index_bound(&fast), .mem = MEM_NONE};
  t.portable = arena_calloc(&c->arena, (size_t)t.n_nodes + 1, sizeof *t.portable);
  CostChoice cc;
  Diag probe = fresh;
  if (!t.portable || !build_cost_choice(c, opt, &fast, &fast_plan, &cc, &probe)) return true;
  if (cost_balance(&cc, opt->opt_balanced, t.portable, t.n_nodes, &c->arena) == 0) return true;
  plan_search_attempt_reason(&c->search, "dropped: --opt balanced puts operators on the portable kernels");
  t.choice_json = cost_choice_json(&cc, t.portable, t.n_nodes, MEM_NONE, &c->arena);
  reset_attempt(c);
  *d = fresh;
  return compile_once(c, opt, &t, NULL, d);
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

/* The mechanics of plan_search_budget's candidates (plan/search.c decides which). */
typedef struct Attempts {
  Compilation *c;
  ConvertOptions *opt;
  Diag *d;
  Diag fresh;     /* the diagnostics before any attempt */
  Diag over;      /* the error of the all-tier attempt that started the trade */
  bool tried;     /* an attempt ran: the next one starts from a reset */
  Escalation esc; /* default mode over a budget, planned again in max mode */
  BudgetTrade t;
  CostChoice cc;  /* which operators have a tier, and what each costs (cost_choice.c) */
} Attempts;

static bool attempt_compile(void *ctx, bool escalate, bool traded) {
  Attempts *a = ctx;
  Compilation *c = a->c;
  if (escalate && !a->esc.on) { /* --memory.optimize max from here on (in-place moves may fit) */
    a->esc = (Escalation){true, c->plan.over_mem, c->plan.over_need};
    a->opt->memory_max = true;
  }
  if (a->tried) {
    reset_attempt(c);
    *a->d = a->fresh;
  }
  a->tried = true;
  return compile_once(c, a->opt, traded ? &a->t : NULL, a->esc.on ? &a->esc : NULL, a->d);
}

static const Plan *attempt_plan(void *ctx) { return &((Attempts *)ctx)->c->plan; }

/* Over a budget with the kernel tiers: trade tiers for bytes. */
static bool attempt_trade_begin(void *ctx) {
  Attempts *a = ctx;
  Compilation *c = a->c;
  if (a->opt->opt_size || !(c->platform.dsp || c->platform.mve)) return false;
  a->over = *a->d; /* if nothing fits, this names what did not fit with every tier */
  const Model fast = c->model;
  a->t = (BudgetTrade){.n_nodes = node_index_bound(&fast), .mem = c->plan.over_mem, .need_fast = c->plan.over_need};
  a->t.portable = arena_calloc(&c->arena, (size_t)a->t.n_nodes + 1, sizeof *a->t.portable);
  Diag probe = a->fresh;
  return a->t.portable && build_cost_choice(c, a->opt, &fast, &c->plan, &a->cc, &probe);
}

static bool attempt_trade_step(void *ctx) {
  Attempts *a = ctx;
  if (!trade_tiers(a->c, &a->cc, a->t.portable, a->t.n_nodes)) return false;
  a->t.choice_json = cost_choice_json(&a->cc, a->t.portable, a->t.n_nodes, a->t.mem, &a->c->arena);
  return true;
}

static void attempt_trade_failed(void *ctx) {
  Attempts *a = ctx;
  *a->d = a->over;
}

static bool attempt_balance(void *ctx) {
  Attempts *a = ctx;
  return balance_tiers(a->c, a->opt, a->fresh, a->d);
}

bool pipeline_compile(Compilation *c, ConvertOptions *opt, Diag *d) {
  if (!pipeline_configure(c, opt, d)) return false;
  if (!check_options(c, opt, d)) return false;
  if (opt->test_enabled && !opt->test_golden_data) { /* expected outputs from a host run */
    if (!host_test_data(opt, &c->arena, &c->test_data, d)) return false;
    c->has_test_data = true;
  }
  c->search.attempt = -1;
  Attempts a = {.c = c, .opt = opt, .d = d, .fresh = *d};
  const BudgetSearch s = {&a, attempt_compile, attempt_plan, attempt_trade_begin, attempt_trade_step,
                          attempt_trade_failed, attempt_balance};
  return plan_search_budget(&s, opt->memory_max, opt->opt_balanced > 0, &c->search);
}

void pipeline_free(Compilation *c) {
  module_free(&c->module);
  arena_free(&c->arena);
}
