/* heliaAOT's names for the generated API, so that application code written against a
 * heliaAOT module compiles unchanged against a tinyaot one (docs/heliaaot.md, "Generated
 * API"): status codes, operator-state and callback names, element-count size macros,
 * per-memory arena sizes, the tensor descriptor table, <prefix>_common.h, and a check
 * that stops a module compiled for another core than the one it was generated for. */
#include <string.h>

#include "emit.h"

/* The compiler feature macro a platform's kernel tiers need, NULL when the module's C
 * compiles for any core (host, --opt size, a core without DSP/MVE). */
static const char *required_feature(const Module *mod, const Platform *pl, const char **what) {
  if (mod->opt_size) return NULL;
  if (pl->mve) {
    *what = "the M-profile vector extension (MVE, e.g. -mcpu=cortex-m55)";
    return "__ARM_FEATURE_MVE";
  }
  if (pl->dsp) {
    *what = "the DSP extension (e.g. -mcpu=cortex-m4)";
    return "__ARM_FEATURE_DSP";
  }
  return NULL;
}

/* A module with DSP/MVE kernels compiled for a core without them would fail at link
 * time (or compute garbage through fallbacks that do not exist); say so up front. */
static void emit_core_check(const Module *mod, const Platform *pl, StrBuf *h) {
  const char *what = "";
  const char *feature = required_feature(mod, pl, &what);
  if (!feature) return;
  sb_printf(h, "/* Generated for %s (platform %s): its kernels need %s. */\n#if !defined(%s)\n"
               "#error \"%s: this module was generated for %s (platform %s) and needs %s; this compiler "
               "targets another core. Regenerate it with --platform for this core (host compiles anywhere).\"\n#endif\n\n",
            pl->cpu, pl->name, what, feature, mod->name, pl->cpu, pl->name, what);
}

static const char *lower_mem(Arena *a, MemType m) {
  char *s = arena_strdup(a, mem_name(m));
  for (char *q = s; q && *q; q++)
    if (*q >= 'A' && *q <= 'Z') *q = (char)(*q - 'A' + 'a');
  return s ? s : "mem";
}

static void emit_size_macros(const Model *m, const Plan *p, const Module *mod, Arena *a, StrBuf *h) {
  const char *pf = mod->prefix;
  sb_append(h, "/* Elements (not bytes) of each input and output; ctx.inputs[i].size is in bytes. */\n");
  for (int i = 0; i < m->n_inputs; i++)
    sb_printf(h, "#define %s_input_%d_size %lld\n", pf, i, (long long)m->tensors[m->inputs[i]].elems);
  for (int i = 0; i < m->n_outputs; i++)
    sb_printf(h, "#define %s_output_%d_size %lld\n", pf, i, (long long)m->tensors[m->outputs[i]].elems);
  sb_append(h, "/* Bytes of the module's arenas in each memory (activations, state, pinned and streamed constants). */\n");
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    size_t bytes = 0;
    bool any = false;
    for (int i = 0; i < p->n_arenas; i++)
      if (p->arenas[i].memory == (MemType)mem) bytes += p->arenas[i].size, any = true;
    if (any) sb_printf(h, "#define %s_arena_%s_size %zu\n", pf, lower_mem(a, (MemType)mem), bytes);
  }
  sb_append(h, "\n");
}

void emit_helia_header(const Model *m, const Plan *p, const Module *mod, Arena *a, StrBuf *h) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  sb_append(h, "/* ---- heliaAOT's names for this API (docs/heliaaot.md, \"Generated API\") ---- */\n");
  emit_core_check(mod, &p->platform, h);
  sb_printf(h, "/* What init and run return. */\ntypedef enum {\n  %s_status_ok = 0,\n  %s_status_null_context = -1,\n"
               "  %s_status_region_unbound = -2%s\n} %s_status_t;\n",
            pf, pf, pf, mod->shared_scratch ? arena_printf(a, ",\n  %s_status_scratch_busy = -3 /* run: another model of the group is mid-run */", pf) : "", pf);
  sb_printf(h, "typedef %s_op_state_t %s_operator_state_t;\ntypedef %s_op_callback_t %s_operator_callback_t;\n"
               "typedef %s_tensor_t %s_io_buffer_t;\ntypedef %s_tensor_info_t %s_tensor_descriptor_t;\n",
            pf, pf, pf, pf, pf, pf, pf, pf);
  sb_printf(h, "/* The model's inputs, then its outputs: ctx.inputs[i].id and ctx.outputs[i].id index it. */\n"
               "extern const %s_tensor_info_t %s_tensor_descriptors[%s_NUM_INPUTS + %s_NUM_OUTPUTS];\n",
            pf, pf, P, P);
  emit_size_macros(m, p, mod, a, h);
}

static bool has_file(const Module *mod, const char *path) {
  for (int i = 0; i < mod->n_files; i++)
    if (strcmp(mod->files[i].path, path) == 0) return true;
  return false;
}

/* heliaAOT applications include <prefix>_model.h and <prefix>_common.h. */
bool emit_helia_files(Module *mod, Arena *a, Diag *d) {
  const char *paths[2] = {arena_printf(a, "include/%s_model.h", mod->prefix),
                          arena_printf(a, "include/%s_common.h", mod->prefix)};
  for (int k = 0; k < 2; k++) {
    if (!paths[k]) return diag_error(d, "out of memory");
    if (has_file(mod, paths[k])) continue;
    StrBuf *f = module_add_file(mod, a, paths[k]);
    if (!f) return diag_error(d, "internal error: too many module files");
    sb_printf(f, "/* heliaAOT's include name for module %s (prefix %s). Generated by tinyaot. */\n#include \"%s_model.h\"\n",
              mod->name, mod->prefix, mod->name);
  }
  return true;
}
