/* tinyaot convert: the main job. */
#include <stdio.h>
#include <string.h>

#include "../export/export.h"
#include "args.h"
#include "commands.h"
#include "pipeline.h"

static const char convert_usage[] =
    "usage: tinyaot convert MODEL.tflite -o OUTDIR [options]\n"
    "\n"
    "Compiles a TFLite model into a C99 inference module in OUTDIR: include/<name>_model.h,\n"
    "src/ (model, weights, the kernels it uses), CMakeLists.txt, Makefile (make\n"
    "TARGET=cortex-m4|cortex-m55 cross-builds), cmake/ toolchain files for arm-none-eabi-gcc,\n"
    "zephyr/, README.md, report.json and report.md (where every tensor lives).\n"
    "Nothing is written when the model cannot be compiled.\n"
    "\n"
    "options (heliaAOT spellings accepted):\n"
    "  -o, --output DIR, --module.path DIR    output directory\n"
    "  --model.path MODEL                     the model (instead of the positional argument)\n"
    "  --name NAME, --module.name NAME        module name (file names); default: model file name\n"
    "  --prefix P, --module.prefix P          C identifier prefix; default: the name\n"
    "  --platform NAME, --platform.name NAME  host (default), cortex-m4, cortex-m55,\n"
    "                                         apollo3p_evb, apollo4p_evb, apollo4l_evb, apollo510_evb\n"
    "  --config FILE.yaml                     configuration (model, module, platform, memory rules,\n"
    "                                         operator rules); command-line options override it\n"
    "  --memory.dump-residency-json FILE      also write the residency document (see report.json)\n"
    "  --no-alias                             copy RESHAPE outputs instead of aliasing them\n"
    "  -h, --help                             this help\n";

static const char *const OPT_OUT[] = {"-o", "--output", "--module.path", NULL};
static const char *const OPT_MODEL[] = {"--model.path", NULL};
static const char *const OPT_NAME[] = {"--name", "--module.name", NULL};
static const char *const OPT_PREFIX[] = {"--prefix", "--module.prefix", NULL};
static const char *const OPT_PLATFORM[] = {"--platform", "--platform.name", NULL};
static const char *const OPT_CONFIG[] = {"--config", NULL};

/* Parses convert options shared with `run`; returns 0 ok, 1 help printed, 2 error. */
int parse_convert_args(Args *a, ConvertOptions *opt, const char *usage_text, bool (*extra)(Args *, void *),
                       void *extra_state) {
  for (a->i = 1; a->i < a->argc; a->i++) {
    const char *arg = a->argv[a->i];
    if (args_flag(a, "-h") || args_flag(a, "--help")) {
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
    else if (extra && extra(a, extra_state)) continue;
    else if (a->bad) return 2;
    else if (arg[0] == '-') {
      fprintf(stderr, "tinyaot: error: unknown option '%s' (see --help)\n", arg);
      return 2;
    } else if (!opt->model_path) opt->model_path = arg;
    else {
      fprintf(stderr, "tinyaot: error: unexpected argument '%s'\n", arg);
      return 2;
    }
    if (a->bad) return 2;
  }
  if (!opt->model_path && !opt->config_path) {
    fprintf(stderr, "tinyaot: error: no model given (see --help)\n");
    return 2;
  }
  return 0;
}

static const char *const OPT_DUMP[] = {"--memory.dump-residency-json", NULL};

static bool convert_extra(Args *a, void *state) {
  if (!args_value(a, OPT_DUMP)) return false;
  *(const char **)state = a->value;
  return true;
}

static bool write_text(const char *path, const StrBuf *sb, Diag *d) {
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(sb->data ? sb->data : "", 1, sb->len, f) == sb->len;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) return diag_error(d, "cannot write %s", path);
  return true;
}

int cmd_convert(int argc, char **argv) {
  ConvertOptions opt = {0};
  Args a = {.argc = argc, .argv = argv};
  const char *dump = NULL;
  int rc = parse_convert_args(&a, &opt, convert_usage, convert_extra, &dump);
  if (rc) return rc == 1 ? 0 : 2;
  Compilation c = {0};
  arena_init(&c.arena);
  Diag d;
  diag_init(&d, opt.model_path ? opt.model_path : opt.config_path);
  bool ok = pipeline_compile(&c, &opt, &d);
  if (ok && !opt.out_dir) ok = diag_error(&d, "no output directory (-o OUTDIR, --module.path or module.path in the config)");
  if (ok) ok = export_write(&c.module, opt.out_dir, &d);
  if (ok && dump) {
    StrBuf js;
    sb_init(&js);
    export_residency_json(&c.model, &c.plan, &c.module, &js);
    ok = write_text(dump, &js, &d);
    sb_free(&js);
  }
  if (!ok) {
    diag_print(&d);
  } else {
    size_t ram = 0;
    for (int i = 0; i < c.plan.n_arenas; i++) ram += c.plan.arenas[i].size;
    printf("tinyaot: wrote %s (%d files) for %s: %d operators, arenas %zu bytes, constants %zu bytes\n", opt.out_dir,
           c.module.n_files, c.platform.name, c.model.n_nodes, ram, c.plan.constant_bytes);
  }
  pipeline_free(&c);
  return ok ? 0 : 1;
}
