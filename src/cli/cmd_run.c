/* tinyaot run: convert into a temporary directory, build the module with the host
 * C compiler, run inferences (each from a fresh init), write out<i>.bin files. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../export/export.h"
#include "args.h"
#include "commands.h"
#include "pipeline.h"

enum { RUN_MAX_INPUTS = 64, RUN_MAX_CASES = 256, RUN_MAX_ARGS = 4096 };

static const char run_usage[] =
    "usage: tinyaot run MODEL.tflite --in IN0.bin [--in IN1.bin ...] --out-dir DIR [options]\n"
    "       tinyaot run MODEL.tflite --case CASE_DIR [--case ...] --out-dir DIR [options]\n"
    "\n"
    "Converts the model into a temporary directory, compiles the module and a small\n"
    "harness with the host C compiler ($TINYAOT_CC, default cc; extra flags from\n"
    "$TINYAOT_RUN_CFLAGS), runs one inference from a fresh init and writes DIR/out<i>.bin\n"
    "(raw little-endian bytes, the corpus format). With --case, each CASE_DIR/in<i>.bin is\n"
    "one inference, from its own fresh init, written to DIR/<case name>/out<i>.bin.\n"
    "DIR keeps a manifest (.tinyaot-run-manifest) like convert's output folder: run replaces\n"
    "its own earlier outputs, keeps every other file, and refuses (writing nothing) when\n"
    "a file it did not write has an output's name. One line on stdout says what it wrote.\n"
    "\n"
    "options: --in FILE, --case DIR, --out-dir DIR, --keep-build DIR (keep the module and\n"
    "binary there), --scramble-pinned-sources (after init, overwrite the image of every\n"
    "pinned constant: outputs stay exact only if kernels read the pinned copies), and\n"
    "every `tinyaot convert` option except -o/--module.path, --force and --log-file\n"
    "(including --path/--config and heliaAOT's --memory.* switches). With --profile, each\n"
    "inference's per-operator table (<prefix>_profile_print, host clock() ticks) goes to stdout.\n";

typedef struct RunArgs {
  const char *inputs[RUN_MAX_INPUTS];
  int n_inputs;
  const char *cases[RUN_MAX_CASES];
  int n_cases;
  const char *out_dir;
  const char *keep;
  bool too_many;
  bool scramble;
} RunArgs;

static const char *const OPT_IN[] = {"--in", NULL};
static const char *const OPT_CASE[] = {"--case", NULL};
static const char *const OPT_OUTDIR[] = {"--out-dir", NULL};
static const char *const OPT_KEEP[] = {"--keep-build", NULL};

static const char *const RUN_KNOWN[] = {"--in", "--case", "--out-dir", "--keep-build", "--scramble-pinned-sources",
                                        NULL};

static bool run_extra(Args *a, void *state) {
  RunArgs *r = state;
  if (args_value_repeat(a, OPT_IN)) {
    if (r->n_inputs < RUN_MAX_INPUTS) r->inputs[r->n_inputs++] = a->value;
    else r->too_many = true;
    return true;
  }
  if (args_value_repeat(a, OPT_CASE)) {
    if (r->n_cases < RUN_MAX_CASES) r->cases[r->n_cases++] = a->value;
    else r->too_many = true;
    return true;
  }
  if (args_value(a, OPT_OUTDIR)) {
    r->out_dir = a->value;
    return true;
  }
  if (args_value(a, OPT_KEEP)) {
    r->keep = a->value;
    return true;
  }
  if (args_flag(a, "--scramble-pinned-sources")) {
    r->scramble = true;
    return true;
  }
  return false;
}

static int spawn(char *const *argv) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execvp(argv[0], argv);
    fprintf(stderr, "tinyaot: error: cannot execute %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status;
  if (waitpid(pid, &status, 0) < 0) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st; (void)flag; (void)ftw;
  remove(path);
  return 0;
}

/* Caller-owned arenas: allocate every region, load the constant sidecars, bind. */
static void write_region_setup(const Compilation *c, const char *module_dir, StrBuf *sb) {
  const Module *mod = &c->module;
  const Plan *p = &c->plan;
  sb_printf(sb, "static void *regions[%s_NUM_ARENA_REGIONS];\n\nstatic int bind_regions(void) {\n  int r;\n", mod->PREFIX);
  sb_printf(sb, "  for (r = 0; r < %s_NUM_ARENA_REGIONS; r++) {\n    if (!regions[r]) regions[r] = malloc(%s_arena_region_size[r] + 16);\n"
                "    if (!regions[r] || %s_bind_arena((%s_arena_region_t)r, regions[r], %s_arena_region_size[r]) != 0) return 1;\n  }\n",
            mod->PREFIX, mod->prefix, mod->prefix, mod->prefix, mod->prefix);
  int region = p->n_arenas;
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    bool used = false;
    for (int i = 0; i < p->n_consts; i++) used = used || p->consts[i].source == mem;
    if (!used) continue;
    char lowmem[8];
    snprintf(lowmem, sizeof lowmem, "%s", mem_name((MemType)mem));
    for (char *q = lowmem; *q; q++) *q = (char)(*q - 'A' + 'a');
    sb_printf(sb, "  if (read_exact(\"%s/data/%s_const_%s.bin\", regions[%d], %s_arena_region_size[%d])) return 1;\n",
              module_dir, mod->name, lowmem, region, mod->prefix, region);
    region++;
  }
  sb_append(sb, "  return 0;\n}\n\n");
}

static void write_harness(const Compilation *c, const char *module_dir, bool scramble, StrBuf *sb) {
  const Module *mod = &c->module;
  const Model *m = &c->model;
  const char *p = mod->prefix;
  sb_printf(sb, "/* Host harness written by `tinyaot run`. */\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"%s_model.h\"\n", mod->name);
  if (scramble) sb_printf(sb, "#include \"%s_weights.h\"\n", mod->name);
  sb_append(sb, "\n");
  sb_append(sb, "static int read_exact(const char *path, void *dst, unsigned long size) {\n"
                "  FILE *f = fopen(path, \"rb\");\n  unsigned long got;\n  int extra;\n"
                "  if (!f) { fprintf(stderr, \"cannot open %s\\n\", path); return 1; }\n"
                "  got = (unsigned long)fread(dst, 1, size, f);\n  extra = fgetc(f);\n  fclose(f);\n"
                "  if (got != size || extra != EOF) { fprintf(stderr, \"%s: expected %lu bytes\\n\", path, size); return 1; }\n"
                "  return 0;\n}\n\n");
  sb_append(sb, "static int write_all(const char *dir, int index, const void *src, unsigned long size) {\n"
                "  char path[4096];\n  FILE *f;\n  snprintf(path, sizeof path, \"%s/out%d.bin\", dir, index);\n"
                "  f = fopen(path, \"wb\");\n  if (!f) { fprintf(stderr, \"cannot write %s\\n\", path); return 1; }\n"
                "  if (fwrite(src, 1, size, f) != size) { fclose(f); return 1; }\n  return fclose(f) != 0;\n}\n\n");
  if (!mod->allocate_arenas) write_region_setup(c, module_dir, sb);
  if (mod->profile) sb_append(sb, "static void put_line(const char *line) { fputs(line, stdout); }\n\n");
  sb_printf(sb, "int main(int argc, char **argv) {\n  int i = 1, k;\n  while (i + %d < argc + 1) {\n"
                "    const char *out_dir = argv[i++];\n    static %s_model_context_t ctx; /* zero: init keeps the callback */\n",
            m->n_inputs, p);
  if (!mod->allocate_arenas) sb_append(sb, "    if (bind_regions()) return 7;\n");
  /* Scrambling: keep a pristine copy of each pinned image so that every case's fresh
   * init hydrates real data, then overwrite the image before running. */
  bool scr = scramble && mod->allocate_arenas;
  for (int b = 0; scr && b < mod->n_pinned_sources; b++)
    sb_printf(sb, "    {\n      static unsigned char saved%d[sizeof %s];\n      static int have%d;\n"
                  "      if (!have%d) { memcpy(saved%d, (const void *)&%s, sizeof saved%d); have%d = 1; }\n"
                  "      memcpy((void *)&%s, saved%d, sizeof saved%d);\n    }\n",
              b, mod->pinned_sources[b], b, b, b, mod->pinned_sources[b], b, b, mod->pinned_sources[b], b, b);
  sb_printf(sb, "    if (%s_model_init(&ctx) != 0) return 3;\n", p);
  for (int b = 0; scr && b < mod->n_pinned_sources; b++)
    sb_printf(sb, "    memset((void *)&%s, 0xA5, sizeof %s); /* kernels must read the pinned copy */\n",
              mod->pinned_sources[b], mod->pinned_sources[b]);
  sb_printf(sb, "    for (k = 0; k < %d; k++)\n      if (read_exact(argv[i++], ctx.inputs[k].data, ctx.inputs[k].size)) return 4;\n", m->n_inputs);
  sb_printf(sb, "    if (%s_model_run(&ctx) != 0) return 5;\n", p);
  if (mod->profile) sb_printf(sb, "    %s_profile_print(put_line);\n", p);
  sb_printf(sb, "    for (k = 0; k < %d; k++)\n      if (write_all(out_dir, k, ctx.outputs[k].data, ctx.outputs[k].size)) return 6;\n  }\n  return 0;\n}\n", m->n_outputs);
}

static long file_size(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  return (long)st.st_size;
}

/* Every input file must exist and hold exactly the tensor's bytes. */
static bool check_inputs(const Model *m, const char *const *files, int n, Diag *d) {
  if (n != m->n_inputs) return diag_error(d, "the model has %d inputs but %d input files were given", m->n_inputs, n);
  for (int i = 0; i < n; i++) {
    const Tensor *t = &m->tensors[m->inputs[i]];
    long size = file_size(files[i]);
    if (size < 0) return diag_error(d, "input %d: cannot read %s", i, files[i]);
    if ((size_t)size != t->bytes)
      return diag_error(d, "input %d: %s has %ld bytes but tensor %d '%s' (%s %s) needs %zu", i, files[i], size,
                        (int)t->id, t->name, tensor_type_name(t->type), tensor_shape_str(m->arena, t), t->bytes);
  }
  return true;
}

static bool make_dir(const char *path) { return mkdir(path, 0755) == 0 || errno == EEXIST; }

static const char *case_name(Arena *a, const char *dir) {
  size_t len = strlen(dir);
  while (len > 1 && dir[len - 1] == '/') len--;
  const char *s = dir + len;
  while (s > dir && s[-1] != '/') s--;
  return arena_strndup(a, s, (size_t)(dir + len - s));
}

/* Builds the argument vector of the harness: (out_dir, in0..inN-1) per inference. */
static bool plan_inferences(Compilation *c, RunArgs *r, const char *outbase, char **hargv, int *hargc, Diag *d) {
  Arena *a = &c->arena;
  const Model *m = &c->model;
  if (!make_dir(outbase)) return diag_error(d, "cannot create %s: %s", outbase, strerror(errno));
  if (r->n_cases == 0) {
    if (!check_inputs(m, r->inputs, r->n_inputs, d)) return false;
    hargv[(*hargc)++] = (char *)outbase;
    for (int i = 0; i < r->n_inputs; i++) hargv[(*hargc)++] = (char *)r->inputs[i];
    return true;
  }
  for (int k = 0; k < r->n_cases; k++) {
    const char *files[RUN_MAX_INPUTS];
    for (int i = 0; i < m->n_inputs && i < RUN_MAX_INPUTS; i++) files[i] = arena_printf(a, "%s/in%d.bin", r->cases[k], i);
    if (m->n_inputs > RUN_MAX_INPUTS) return diag_error(d, "too many inputs");
    if (!check_inputs(m, files, m->n_inputs, d)) return false;
    const char *name = case_name(a, r->cases[k]);
    for (int j = 0; j < k; j++)
      if (strcmp(case_name(a, r->cases[j]), name) == 0)
        return diag_error(d, "cases %s and %s share the name %s: their outputs would go to the same DIR/%s folder",
                          r->cases[j], r->cases[k], name, name);
    const char *out = arena_printf(a, "%s/%s", outbase, name);
    if (!make_dir(out)) return diag_error(d, "cannot create %s: %s", out, strerror(errno));
    if (*hargc + 1 + m->n_inputs >= RUN_MAX_ARGS) return diag_error(d, "too many cases");
    hargv[(*hargc)++] = (char *)out;
    for (int i = 0; i < m->n_inputs; i++) hargv[(*hargc)++] = (char *)files[i];
  }
  return true;
}

/* The harness wrote every output under outbase; they go to --out-dir through the module
 * writer's manifest, so a file there that run did not write is never overwritten or
 * deleted (other files are kept beside them). Then one line says what was written. */
static bool publish_outputs(Compilation *c, const RunArgs *r, const char *outbase, Diag *d) {
  Arena *a = &c->arena;
  int per = c->model.n_outputs, groups = r->n_cases ? r->n_cases : 1, n = 0;
  ModuleFile *files = calloc((size_t)(per * groups) + 1, sizeof *files);
  bool ok = files != NULL || diag_error(d, "out of memory");
  size_t bytes = 0;
  for (int g = 0; ok && g < groups; g++)
    for (int k = 0; ok && k < per; k++) {
      const char *rel = r->n_cases ? arena_printf(a, "%s/out%d.bin", case_name(a, r->cases[g]), k)
                                   : arena_printf(a, "out%d.bin", k);
      const char *from = arena_printf(a, "%s/%s", outbase, rel);
      ModuleFile *f = &files[n++];
      f->path = rel;
      sb_init_heap(&f->text, &a->heap);
      FILE *in = fopen(from, "rb");
      char buf[65536];
      size_t got;
      while (in && (got = fread(buf, 1, sizeof buf, in)) > 0) sb_appendn(&f->text, buf, got);
      if (!in || ferror(in)) ok = diag_error(d, "cannot read the output %s", from);
      if (in) fclose(in);
      bytes += f->text.len;
    }
  /* its own manifest: a module converted into the same folder is never touched */
  if (ok) ok = export_write_files(files, n, r->out_dir, ".tinyaot-run-manifest", true, d);
  if (ok) {
    printf("tinyaot: wrote %d output file%s (%zu bytes) to %s: %s", n, n == 1 ? "" : "s", bytes, r->out_dir,
           files[0].path);
    for (int i = 1; i < n && i < 4; i++) printf(", %s", files[i].path);
    if (n > 4) printf(" and %d more", n - 4);
    printf("\n");
  }
  for (int i = 0; files && i < n; i++) sb_free(&files[i].text);
  free(files);
  return ok;
}

static bool build_runner(Compilation *c, const char *dir, bool scramble, Diag *d) {
  Arena *a = &c->arena;
  const char *cc = getenv("TINYAOT_CC");
  const char *extra = getenv("TINYAOT_RUN_CFLAGS");
  char *argv[512];
  int n = 0;
  argv[n++] = (char *)(cc && *cc ? cc : "cc");
  argv[n++] = "-std=c99";
  argv[n++] = "-O2";
  if (extra && *extra) {
    char *copy = arena_strdup(a, extra);
    for (char *tok = strtok(copy, " "); tok && n < 400; tok = strtok(NULL, " ")) argv[n++] = tok;
  }
  if (scramble) argv[n++] = arena_printf(a, "-D%s_PINNED_SOURCE_CONST=", c->module.PREFIX);
  argv[n++] = arena_printf(a, "-I%s/module/include", dir);
  argv[n++] = arena_printf(a, "-I%s/module/includes-api", dir); /* heliaAOT's module types */
  argv[n++] = arena_printf(a, "-I%s/module/src", dir);
  for (int i = 0; i < c->module.n_files && n < 500; i++) {
    const char *p = c->module.files[i].path;
    size_t len = strlen(p);
    if (strncmp(p, "src/", 4) == 0 && strcmp(p + len - 2, ".c") == 0) argv[n++] = arena_printf(a, "%s/module/%s", dir, p);
  }
  argv[n++] = arena_printf(a, "%s/harness.c", dir);
  argv[n++] = "-o";
  argv[n++] = arena_printf(a, "%s/runner", dir);
  argv[n++] = "-lm";
  argv[n] = NULL;
  int rc = spawn(argv);
  if (rc != 0) return diag_error(d, "the host C compiler (%s) failed on the generated module (exit %d)", argv[0], rc);
  return true;
}

int cmd_run(int argc, char **argv) {
  ConvertOptions opt = {0};
  RunArgs r = {0};
  Args a = {.argc = argc, .argv = argv};
  int prc = parse_convert_args(&a, &opt, run_usage, run_extra, &r, RUN_KNOWN);
  if (prc) return prc == 1 ? 0 : 2;
  if (opt.out_dir || opt.force || opt.log_file) {
    fprintf(stderr, "tinyaot: error: run builds the module in a temporary folder: --module.path/-o, --force and "
                    "--log-file belong to convert (keep the module with --keep-build DIR)\n");
    return 2;
  }
  if (r.too_many) {
    fprintf(stderr, "tinyaot: error: too many --in or --case options\n");
    return 2;
  }
  if (!r.out_dir || (r.n_inputs == 0 && r.n_cases == 0) || (r.n_inputs && r.n_cases)) {
    fprintf(stderr, "tinyaot: error: run needs --out-dir and either --in files or --case directories\n");
    return 2;
  }
  Compilation c = {0};
  arena_init(&c.arena);
  Diag d;
  diag_init(&d, opt.model_path);
  char tmpl[4096];
  const char *tmp = getenv("TMPDIR");
  snprintf(tmpl, sizeof tmpl, "%s/tinyaot-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  const char *dir = r.keep;
  bool made_tmp = false;
  char **hargv = calloc(RUN_MAX_ARGS + 2, sizeof(char *));
  int hargc = 0;
  bool ok = hargv != NULL && pipeline_compile(&c, &opt, &d);
  /* DSP/MVE kernel tiers build only for their cores (QEMU: make test-target). */
  if (ok && (c.platform.dsp || c.platform.mve))
    ok = diag_error(&d, "platform %s selects %s kernels, which do not run on this host; use --platform host (or a "
                        "config platform without dsp/mve capabilities), or run on the target with target/run_case.sh",
                    c.platform.name, c.platform.mve ? "MVE" : "DSP");
  if (ok && !dir) {
    dir = mkdtemp(tmpl);
    made_tmp = dir != NULL;
    if (!dir) ok = diag_error(&d, "cannot create a temporary directory: %s", strerror(errno));
  }
  const char *outbase = dir ? arena_printf(&c.arena, "%s/outputs", dir) : NULL;
  if (ok) {
    make_dir(dir);
    hargv[hargc++] = NULL; /* argv[0], set below */
    ok = plan_inferences(&c, &r, outbase, hargv, &hargc, &d);
  }
  if (ok) {
    ok = export_write(&c.module, arena_printf(&c.arena, "%s/module", dir), &d);
  }
  if (ok) {
    StrBuf h;
    sb_init_heap(&h, &c.arena.heap);
    write_harness(&c, arena_printf(&c.arena, "%s/module", dir), r.scramble, &h);
    const char *path = arena_printf(&c.arena, "%s/harness.c", dir);
    FILE *f = fopen(path, "w");
    ok = f && fwrite(h.data, 1, h.len, f) == h.len;
    if (f && fclose(f) != 0) ok = false;
    sb_free(&h);
    if (!ok) diag_error(&d, "cannot write %s", path);
  }
  if (ok) ok = build_runner(&c, dir, r.scramble, &d);
  if (ok) {
    hargv[0] = arena_printf(&c.arena, "%s/runner", dir);
    hargv[hargc] = NULL;
    int rc = spawn(hargv);
    if (rc != 0) ok = diag_error(&d, "the generated module failed at run time (exit %d)", rc);
  }
  if (ok) ok = publish_outputs(&c, &r, outbase, &d);
  if (!ok) diag_print(&d);
  if (made_tmp) nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  free(hargv);
  pipeline_free(&c);
  return ok ? 0 : 1;
}
