/* heliaAOT's names for the generated API, so that application code written against a
 * heliaAOT module compiles unchanged against a tinyaot one (docs/heliaaot.md, "Generated
 * API"): status codes, operator-state and callback names, element-count size macros,
 * per-memory arena sizes, the tensor descriptor table, the last operator id, the print
 * hook, heliaAOT's public header names (<prefix>_common.h, _context.h, _operators.h,
 * _tensors.h, _platform.h) and a check that stops a module compiled for another core
 * than the one it was generated for. */
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
  int32_t last = -1;
  for (int k = 0; k < m->n_nodes; k++)
    if (m->nodes[k].index > last) last = m->nodes[k].index;
  sb_printf(h, "/* The largest operator id the callback can report (ids are the model's operator indices):\n"
               " * an array of %s_LAST_IDENTIFIER + 1 entries has one per operator. */\n#define %s_LAST_IDENTIFIER %d\n",
            P, P, (int)last);
  sb_printf(h, "/* heliaAOT's print hook, for the application (the module prints nothing itself): printf\n"
               " * unless defined before this header (e.g. -D%s_PRINTF=ns_lp_printf); %s_platform.h\n"
               " * includes <stdio.h> for the default. */\n#ifndef %s_PRINTF\n#define %s_PRINTF(...) printf(__VA_ARGS__)\n#endif\n\n",
            P, pf, P, P);
}

static bool has_file(const Module *mod, const char *path) {
  for (int i = 0; i < mod->n_files; i++)
    if (strcmp(mod->files[i].path, path) == 0) return true;
  return false;
}

/* heliaAOT's public headers, as its module layout names them. tinyaot declares the whole
 * API in NAME_model.h; each of these includes it, so an application may include any of
 * them (the platform header adds <stdio.h> for the default print hook). */
bool emit_helia_files(Module *mod, Arena *a, Diag *d) {
  static const char *const headers[] = {"model", "common", "context", "operators", "tensors", "platform"};
  static const char *const what[] = {"model entry points", "common types and configuration", "the context type",
                                     "the operators (run by the model)", "tensor descriptors and arenas",
                                     "platform hooks: the print hook"};
  for (size_t k = 0; k < sizeof headers / sizeof headers[0]; k++) {
    const char *path = arena_printf(a, "include/%s_%s.h", mod->prefix, headers[k]);
    if (!path) return diag_error(d, "out of memory");
    if (has_file(mod, path)) continue;
    StrBuf *f = module_add_file(mod, a, path);
    if (!f) return diag_error(d, "internal error: too many module files");
    sb_printf(f, "/* heliaAOT's %s_%s.h (%s) for module %s.\n * %s_model.h declares the whole API. */\n",
              mod->prefix, headers[k], what[k], mod->name, mod->name);
    if (strcmp(headers[k], "platform") == 0) sb_append(f, "#include <stdio.h>\n");
    sb_printf(f, "#include \"%s_model.h\"\n", mod->name);
  }
  return true;
}
