/* tinyaot convert A.tflite B.tflite ... -o DIR [--shared-scratch]: one module per model
 * in DIR/<name>/ (distinct names and prefixes, from the file names), DIR/report.json
 * with the combined figures, and with --shared-scratch the group's scratch buffers
 * (DIR/tinyaot_shared.h/.c, src/export/export_shared.c). Every model compiles before
 * anything is written; each folder keeps its own manifest (export_write_module). */
#define _POSIX_C_SOURCE 200809L /* stat */
#include "convert_multi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../export/export.h"
#include "../export/export_shared.h"

/* Options that name one model's files cannot apply to several. */
static bool check_group_options(const ConvertOptions *opt, const char *dump_file, Diag *d) {
  const char *bad = opt->name            ? "--module.name/--name"
                    : opt->prefix        ? "--module.prefix/--prefix"
                    : opt->test_golden_data ? "--test.golden_data"
                    : dump_file          ? "--memory.dump-residency-json=FILE"
                    : opt->log_file      ? "--log-file"
                                         : NULL;
  if (bad) return diag_error(d, "%s names one model's files: not with several models (names and prefixes come from "
                                "the model file names, or a config's models entries)", bad);
  if (!opt->out_dir) return diag_error(d, "no output directory (-o DIR): several models are written to DIR/<name>/");
  if (export_is_archive(opt->out_dir))
    return diag_error(d, "several models are written to a folder, not an archive (%s)", opt->out_dir);
  return true;
}

/* Distinct folder names and C prefixes; with a shared scratch, arenas the module owns. */
static bool check_members(const Compilation *cs, const char *const *paths, int n, bool shared, Diag *d) {
  for (int i = 0; i < n; i++) {
    const Module *mi = &cs[i].module;
    diag_init(d, paths[i]);
    if (shared && !mi->allocate_arenas)
      return diag_error(d, "--shared-scratch needs the module to allocate its arenas (not with "
                           "memory.allocate_arenas off)");
    if (strcmp(mi->name, SHARED_NAME) == 0 || strcmp(mi->prefix, SHARED_NAME) == 0)
      return diag_error(d, "the name '%s' is the group's shared scratch; rename the model file", SHARED_NAME);
    for (int j = 0; j < i; j++) {
      const Module *mj = &cs[j].module;
      if (strcmp(mi->name, mj->name) == 0 || strcmp(mi->prefix, mj->prefix) == 0)
        return diag_error(d, "gets the name '%s' (prefix '%s') as %s does; each model needs its own: rename a "
                             "model file", mi->name, mi->prefix, paths[j]);
    }
  }
  return true;
}

/* Before anything is written: a model's folder that holds files tinyaot did not write
 * (no manifest) is refused unless --force, as export_write_module would refuse it. */
static bool check_folders(const Compilation *cs, int n, const char *dir, bool force, Diag *d) {
  for (int i = 0; i < n && !force; i++) {
    char sub[4096], man[4200];
    snprintf(sub, sizeof sub, "%s/%s", dir, cs[i].module.name);
    snprintf(man, sizeof man, "%s/.tinyaot-manifest", sub);
    struct stat st;
    if (stat(sub, &st) != 0 || stat(man, &st) == 0) continue;
    if (!S_ISDIR(st.st_mode)) return diag_error(d, "%s exists and is not a folder", sub);
    return diag_error(d, "output folder %s exists and holds no tinyaot manifest (.tinyaot-manifest); choose another "
                         "DIR, or --force to write beside its files", sub);
  }
  return true;
}

static bool write_all(Compilation *cs, int n, Module *group, const char *dir, bool force, Diag *d) {
  if (!export_write_module(group, dir, force, d)) return false;
  for (int i = 0; i < n; i++) {
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", dir, cs[i].module.name);
    if (!export_write_module(&cs[i].module, sub, force, d)) return false;
  }
  return true;
}

static void print_summary(const Compilation *cs, const SharedMember *mem, int n, const char *dir, bool shared) {
  SharedGroup g;
  shared_group_sizes(mem, n, &g);
  printf("tinyaot: wrote %s: %d model%s (", dir, n, n == 1 ? "" : "s");
  for (int i = 0; i < n; i++) printf("%s%s", i ? ", " : "", cs[i].module.name);
  if (shared)
    printf(") for %s, shared scratch %zu bytes, arenas %zu bytes together (%zu bytes as separate modules)\n",
           cs[0].platform.name, g.shared_bytes, g.shared_bytes + g.unshared_bytes, g.separate_bytes);
  else printf(") for %s, arenas %zu bytes (no --shared-scratch)\n", cs[0].platform.name, g.separate_bytes);
}

/* The config's group: `models:` entries (path, name, prefix), shared_scratch, and the
 * keys convert merges (module.path, force). 0 ok (n_models 0 without a config). */
static int load_group_config(Arena *a, const ConvertOptions *opt, Config *cfg) {
  config_defaults(cfg);
  cfg->strict = opt->strict;
  cfg->quiet = true; /* each model's compilation reads the file again and warns */
  if (!opt->config_path) return 0;
  Diag d;
  diag_init(&d, opt->config_path);
  if (config_load(a, opt->config_path, cfg, &d)) return 0;
  diag_print(&d);
  return 1;
}

bool convert_config_lists_models(const ConvertOptions *opt) {
  if (!opt->config_path || opt->n_more_models) return false;
  Arena a;
  arena_init(&a);
  Config cfg;
  config_defaults(&cfg);
  cfg.quiet = true; /* the conversion reads the file again and warns */
  Diag d;
  diag_init(&d, opt->config_path);
  bool lists = config_load(&a, opt->config_path, &cfg, &d) && cfg.n_models > 0;
  arena_free(&a);
  return lists; /* a config that does not load is reported by the single-model path */
}

int convert_multi(ConvertOptions *opt, bool shared, bool dump, const char *dump_file) {
  const char *paths[CONVERT_MAX_MODELS + 1], *names[CONVERT_MAX_MODELS + 1] = {0}, *prefixes[CONVERT_MAX_MODELS + 1] = {0};
  int n = 0;
  Arena ca;
  arena_init(&ca);
  Config cfg;
  if (load_group_config(&ca, opt, &cfg)) {
    arena_free(&ca);
    return 1;
  }
  Diag d;
  diag_init(&d, opt->config_path ? opt->config_path : opt->model_path);
  bool usage_ok = true;
  if (cfg.n_models && (opt->model_path || opt->n_more_models))
    usage_ok = diag_error(&d, "the config lists the models ('models'): give none on the command line");
  else if (cfg.n_models && cfg.test_golden_data)
    usage_ok = diag_error(&d, "test.golden_data names one model's data: not with several models");
  else if (cfg.n_models > CONVERT_MAX_MODELS)
    usage_ok = diag_error(&d, "'models' lists %d models; convert at most %d together", cfg.n_models, CONVERT_MAX_MODELS);
  for (int i = 0; usage_ok && i < cfg.n_models; i++) {
    paths[n] = cfg.models[i].path;
    names[n] = cfg.models[i].name;
    prefixes[n++] = cfg.models[i].prefix;
  }
  if (!cfg.n_models) {
    paths[n++] = opt->model_path;
    for (int i = 0; i < opt->n_more_models; i++) paths[n++] = opt->more_models[i];
  }
  if (cfg.has_shared_scratch && !shared) shared = cfg.shared_scratch;
  if (!opt->out_dir) opt->out_dir = cfg.module_path;
  if (opt->force_switch == SWITCH_UNSET && cfg.has_force) opt->force = cfg.force;
  if (!usage_ok || !check_group_options(opt, dump_file, &d)) {
    diag_print(&d);
    arena_free(&ca);
    return 2;
  }
  Compilation *cs = calloc((size_t)n, sizeof *cs);
  SharedMember *members = calloc((size_t)n, sizeof *members);
  Arena ga;
  arena_init(&ga);
  Module *group = calloc(1, sizeof *group);
  bool ok = cs && members && group;
  if (!ok) diag_error(&d, "out of memory");
  int compiled = 0;
  for (int i = 0; ok && i < n; i++, compiled++) {
    ConvertOptions o = *opt;
    o.model_path = paths[i];
    o.name = names[i];
    o.prefix = prefixes[i];
    o.n_more_models = 0;
    o.shared_scratch = shared ? SHARED_NAME : NULL;
    o.shared_id = i + 1;
    arena_init(&cs[i].arena);
    diag_init(&d, paths[i]);
    ok = pipeline_compile(&cs[i], &o, &d);
    if (ok && (dump || (cs[i].config.has_dump_residency_json && cs[i].config.dump_residency_json))) {
      StrBuf *js = module_add_file(&cs[i].module, &cs[i].arena, "residency.json");
      if (js) export_residency_json(&cs[i].model, &cs[i].plan, &cs[i].module, js);
      else ok = diag_error(&d, "out of memory");
    }
    members[i] = (SharedMember){cs[i].module.name, cs[i].module.prefix, paths[i], &cs[i].plan};
  }
  if (ok) ok = check_members(cs, paths, n, shared, &d);
  if (ok) {
    diag_init(&d, opt->out_dir);
    ok = check_folders(cs, n, opt->out_dir, opt->force, &d) && export_shared_group(group, &ga, members, n, shared, &d) &&
         write_all(cs, n, group, opt->out_dir, opt->force, &d);
  }
  if (ok) print_summary(cs, members, n, opt->out_dir, shared);
  else diag_print(&d);
  for (int i = 0; cs && i < compiled; i++) pipeline_free(&cs[i]);
  if (group) module_free(group);
  arena_free(&ga);
  arena_free(&ca);
  free(group);
  free(members);
  free(cs);
  return ok ? 0 : 1;
}
