/* tinyaot convert: the main job. */
#define _XOPEN_SOURCE 700 /* clock_gettime, getrusage, stat */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

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
    "  --stats                                print one line to stdout, also when the model is refused:\n"
    "                                         'tinyaot: stats: model N B, peak heap N B (Rx), time S s,\n"
    "                                         cpu S s, max rss N KiB' (peak heap: what the compiler\n"
    "                                         held at most; docs/robustness.md gives its bound)\n"
    "  --opt speed|size                       speed (default): the platform's DSP/MVE kernel tiers\n"
    "                                         with weights re-laid for them; when their tables do not\n"
    "                                         fit a memory budget, the operators with the fewest MACs\n"
    "                                         per table byte keep the portable kernels until they fit\n"
    "                                         (report.md lists them); size: the portable kernels\n"
    "                                         everywhere, weights read in place (least flash)\n"
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

static const char *const OPT_OUT[] = {"-o", "--output", "--module.path", NULL};
static const char *const OPT_MODEL[] = {"--model.path", NULL};
static const char *const OPT_NAME[] = {"--name", "--module.name", NULL};
static const char *const OPT_PREFIX[] = {"--prefix", "--module.prefix", NULL};
static const char *const OPT_PLATFORM[] = {"--platform", "--platform.name", NULL};
static const char *const OPT_CONFIG[] = {"--config", NULL};
static const char *const OPT_OPT[] = {"--opt", NULL};

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
    else if (args_value(a, OPT_OPT)) {
      if (strcmp(a->value, "size") != 0 && strcmp(a->value, "speed") != 0) {
        fprintf(stderr, "tinyaot: error: --opt takes 'speed' or 'size', not '%s'\n", a->value);
        return 2;
      }
      opt->opt_size = strcmp(a->value, "size") == 0;
    } else if (args_flag(a, "--no-intern")) opt->no_intern = true;
    else if (args_flag(a, "--no-static-calls")) opt->no_static_calls = true;
    else if (args_flag(a, "--no-init-elision")) opt->no_init_elision = true;
    else if (args_flag(a, "--no-reorder")) opt->no_reorder = true;
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

typedef struct ConvertExtra {
  const char *dump; /* --memory.dump-residency-json */
  bool stats;       /* --stats */
} ConvertExtra;

static bool convert_extra(Args *a, void *state) {
  ConvertExtra *x = state;
  if (args_flag(a, "--stats")) {
    x->stats = true;
    return true;
  }
  if (!args_value(a, OPT_DUMP)) return false;
  x->dump = a->value;
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

int cmd_convert(int argc, char **argv) {
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  ConvertOptions opt = {0};
  Args a = {.argc = argc, .argv = argv};
  ConvertExtra extra = {NULL, false};
  int rc = parse_convert_args(&a, &opt, convert_usage, convert_extra, &extra);
  if (rc) return rc == 1 ? 0 : 2;
  Compilation c = {0};
  arena_init(&c.arena);
  Diag d;
  diag_init(&d, opt.model_path ? opt.model_path : opt.config_path);
  bool ok = pipeline_compile(&c, &opt, &d);
  if (ok && !opt.out_dir) ok = diag_error(&d, "no output directory (-o OUTDIR, --module.path or module.path in the config)");
  if (ok) ok = export_write(&c.module, opt.out_dir, &d);
  if (ok && extra.dump) {
    StrBuf js;
    sb_init_heap(&js, &c.arena.heap);
    export_residency_json(&c.model, &c.plan, &c.module, &js);
    ok = write_text(extra.dump, &js, &d);
    sb_free(&js);
  }
  if (!ok) {
    diag_print(&d);
  } else {
    size_t ram = 0;
    for (int i = 0; i < c.plan.n_arenas; i++) ram += c.plan.arenas[i].size;
    printf("tinyaot: wrote %s (%d files) for %s: %d operators, arenas %zu bytes, constants %zu bytes\n", opt.out_dir,
           c.module.n_files, c.platform.name, c.model.n_nodes, ram, c.plan.constant_bytes);
    if (c.module.n_budget_portable)
      printf("tinyaot: %d operators keep the portable kernels so that the constants fit %s (report.md says which)\n",
             c.module.n_budget_portable, mem_name(c.module.budget_mem));
  }
  if (extra.stats) print_stats(opt.model_path, &c.arena.heap, &t0);
  pipeline_free(&c);
  return ok ? 0 : 1;
}
