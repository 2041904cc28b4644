/* Ships only the kernel families a model uses, with the `ta_` identifier prefix
 * rewritten to the module prefix so two modules can link into one firmware. */
#include <ctype.h>
#include <string.h>

#include "export.h"
#include "runtime_files.h"

static const char *find_runtime(const char *name) {
  for (int i = 0; i < runtime_file_count; i++)
    if (strcmp(runtime_files[i].name, name) == 0) return runtime_files[i].text;
  return NULL;
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Rewrites identifiers starting with ta_/TA_, outside #include lines and string
 * literals (tensor names in metadata must stay as the model spells them). */
static void reprefix(StrBuf *out, const char *text, const char *prefix, const char *PREFIX) {
  const char *p = text, *kept = text; /* text from `kept` to p is copied unchanged */
  bool line_start = true, in_include = false, in_string = false;
  while (*p) {
    if (line_start) in_include = strncmp(p, "#include", 8) == 0;
    line_start = *p == '\n';
    if (*p == '"' && (p == text || p[-1] != '\\' || (p >= text + 2 && p[-2] == '\\'))) in_string = !in_string;
    if (line_start) in_string = false;
    bool at_ident = p == text || !ident_char(p[-1]);
    if (!in_include && !in_string && at_ident && (strncmp(p, "ta_", 3) == 0 || strncmp(p, "TA_", 3) == 0)) {
      bool upper = p[0] == 'T';
      sb_appendn(out, kept, (size_t)(p - kept));
      sb_append(out, upper ? PREFIX : prefix);
      sb_append(out, upper ? "_TA_" : "_ta_");
      p += 3;
      kept = p;
      continue;
    }
    p++;
  }
  sb_appendn(out, kept, (size_t)(p - kept));
}

/* reprefix into a buffer of exactly the text's size (measured first): kernel sources
 * and the model file are copied once, without doubling slack. */
static void reprefix_exact(StrBuf *out, const char *text, const char *prefix, const char *PREFIX) {
  StrBuf count;
  sb_init_counting(&count);
  reprefix(&count, text, prefix, PREFIX);
  sb_reserve_exact(out, count.len);
  reprefix(out, text, prefix, PREFIX);
}

static bool add_runtime_file(Module *mod, Arena *a, const char *name, Diag *d, bool required) {
  const char *text = find_runtime(name);
  if (!text) return required ? diag_error(d, "internal error: runtime file %s is missing", name) : true;
  StrBuf *sb = module_add_file(mod, a, arena_printf(a, "src/%s", name));
  if (!sb) return diag_error(d, "internal error: too many module files");
  reprefix_exact(sb, text, mod->prefix, mod->PREFIX);
  return true;
}

/* The emitted model file calls kernels by their runtime names: rename them too. */
static void reprefix_model_file(Module *mod, Arena *a) {
  const char *path = arena_printf(a, "src/%s_model.c", mod->name);
  for (int i = 0; i < mod->n_files; i++) {
    if (strcmp(mod->files[i].path, path) != 0) continue;
    StrBuf out;
    sb_init_heap(&out, &a->heap);
    reprefix_exact(&out, sb_cstr(&mod->files[i].text), mod->prefix, mod->PREFIX);
    sb_free(&mod->files[i].text);
    mod->files[i].text = out;
  }
}

bool export_runtime(const Model *m, Module *mod, Diag *d) {
  Arena *a = m->arena;
  reprefix_model_file(mod, a);
  if (!add_runtime_file(mod, a, "ta_common.h", d, true)) return false;
  for (int i = 0; i < mod->n_families; i++) {
    if (!add_runtime_file(mod, a, arena_printf(a, "ta_%s.h", mod->families[i]), d, true)) return false;
    if (!add_runtime_file(mod, a, arena_printf(a, "ta_%s.c", mod->families[i]), d, false)) return false;
  }
  return true;
}
