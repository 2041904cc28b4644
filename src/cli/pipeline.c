#include "pipeline.h"

#include <ctype.h>
#include <string.h>

#include "../export/export.h"
#include "../load/loader.h"
#include "../resolve/resolve.h"
#include "../transform/transform.h"

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
  if (!opt->name) opt->name = default_name(&c->arena, opt->model_path);
  if (!opt->prefix) opt->prefix = opt->name;
  if (!pipeline_valid_identifier(opt->name))
    return diag_error(d, "module name '%s' must be a C identifier of at most 32 characters", opt->name);
  if (!pipeline_valid_identifier(opt->prefix))
    return diag_error(d, "prefix '%s' must be a C identifier of at most 32 characters", opt->prefix);
  return true;
}

bool pipeline_configure(Compilation *c, ConvertOptions *opt, Diag *d) {
  config_defaults(&c->config);
  if (opt->config_path) {
    Diag cd;
    diag_init(&cd, opt->config_path);
    if (!config_load(&c->arena, opt->config_path, &c->config, &cd)) {
      *d = cd;
      return false;
    }
  }
  Config *cfg = &c->config;
  if (!opt->model_path) opt->model_path = cfg->model_path;
  if (!opt->out_dir) opt->out_dir = cfg->module_path;
  if (!opt->name) opt->name = cfg->module_name;
  if (!opt->prefix) opt->prefix = cfg->module_prefix;
  if (!opt->platform) opt->platform = cfg->platform_name;
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
  if (!data && !load_file(&c->arena, opt->model_path, &data, &size, d)) return false;
  if (!load_model(&c->arena, opt->model_path, data, size, &c->model, d)) return false;
  TransformOptions topt = {.alias_reshapes = !opt->no_alias};
  return transform_model(&c->model, &topt, d);
}

static const char *upper(Arena *a, const char *s) {
  char *u = arena_strdup(a, s);
  for (char *p = u; p && *p; p++) *p = (char)toupper((unsigned char)*p);
  return u;
}

bool pipeline_compile(Compilation *c, ConvertOptions *opt, Diag *d) {
  if (!pipeline_configure(c, opt, d)) return false;
  if (!check_options(c, opt, d)) return false;
  if (!pipeline_load(c, opt, d)) return false;
  /* --opt size: the portable kernels everywhere (weights read in place, no re-laid or
   * widened copies); speed (default): the platform's DSP/MVE tiers where they apply. */
  Platform kernels = c->platform;
  if (opt->opt_size) kernels.dsp = kernels.mve = false;
  if (!resolve_model(&c->model, &kernels, d)) return false;
  Module *mod = &c->module;
  if (!opt->no_reorder && !schedule_reorder(&c->model, &mod->schedule, d)) return false;
  if (!plan_activations(&c->model, &c->plan, &c->platform, &c->config, d)) return false;
  mod->opt_size = opt->opt_size;
  mod->intern = !opt->no_intern;
  mod->static_calls = !opt->no_static_calls;
  mod->init_elision = !opt->no_init_elision;
  mod->allocate_arenas = c->config.allocate_arenas;
  mod->auto_hydrate = c->config.auto_hydrate_constants;
  mod->name = opt->name;
  mod->prefix = opt->prefix;
  mod->PREFIX = upper(&c->arena, opt->prefix);
  const char *base = strrchr(opt->model_path, '/');
  mod->source = base ? base + 1 : opt->model_path;
  if (!emit_module(&c->model, &c->plan, mod, d)) return false;
  if (!export_runtime(&c->model, mod, d)) return false;
  export_build_files(&c->model, &c->plan, mod);
  export_report(&c->model, &c->plan, mod);
  return true;
}

void pipeline_free(Compilation *c) {
  module_free(&c->module);
  arena_free(&c->arena);
}
