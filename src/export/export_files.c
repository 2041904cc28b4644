/* The module type (which build glue, where the headers go), the module README and the
 * memory report. The glue itself: export_cmake.c, export_zephyr.c, export_neuralspot.c,
 * export_pack.c, and the helpers they share in export_glue.c. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../ir/rewrites.h"
#include "../ir/storage.h"
#include "../platform/platform.h"
#include "../plan/patch.h"
#include "../plan/savings.h"
#include "../plan/search.h"
#include "export_glue.h"
#include "export_cost.h"
#include "export_integer_io.h"

static uint64_t arena_bytes(const Plan *p) {
  uint64_t ram = 0;
  for (int i = 0; i < p->n_arenas; i++) ram += p->arenas[i].size;
  return ram;
}

/* The README's build section: what this module type ships and how its ecosystem uses it. */
static void readme_build(const Glue *g, StrBuf *sb) {
  const Module *mod = g->mod;
  const ModuleType t = g->type;
  const bool cmake = t == MODULE_TYPE_DEFAULT || t == MODULE_TYPE_CMAKE || t == MODULE_TYPE_NSX;
  sb_printf(sb, "## Build\n\nPublic headers are in `%s/`, sources in `src/`.\n\n", g->api_dir);
  if (t == MODULE_TYPE_DEFAULT || t == MODULE_TYPE_CMAKE)
    sb_printf(sb, "- CMake: `add_subdirectory(%s)`, link `%s`.\n", mod->name, mod->name);
  if (t == MODULE_TYPE_NSX)
    sb_printf(sb, "- NSX: vendor this folder under the app's `modules/`, `add_subdirectory` it and link `nsx::%s`;\n"
                  "  `-D%s_ATTRIBUTES_HEADER=<file.h>` names a header defining the placement macros below, included\n"
                  "  before every module source. `nsx-module.yaml` describes the module.\n",
              mod->name, mod->PREFIX);
  if (t == MODULE_TYPE_DEFAULT)
    sb_printf(sb, "- Make: `make%s` builds `lib%s.a` (objects in `obj/<target>/`); `make CC=... CFLAGS=...` with any "
                  "other compiler.\n",
              g->p->platform.mve ? " TARGET=cortex-m55" : g->p->platform.dsp ? " TARGET=cortex-m4" : "", mod->name);
  if (t == MODULE_TYPE_DEFAULT || t == MODULE_TYPE_NEURALSPOT)
    sb_append(sb, "- neuralSPOT: `module.mk`; add this folder to the application's `modules`.\n");
  if (t == MODULE_TYPE_DEFAULT || t == MODULE_TYPE_ZEPHYR)
    sb_append(sb, "- Zephyr: `zephyr/` makes this folder a Zephyr module (`ZEPHYR_EXTRA_MODULES`); Kconfig symbol\n"
                  "  `CONFIG_TINYAOT_<NAME>`, on by default.\n");
  if (t == MODULE_TYPE_CMSIS_PACK)
    sb_printf(sb, "- CMSIS-Pack: `%s.%s.pdsc` describes one component (Machine Learning / %s); archive this folder\n"
                  "  with the pdsc at its root, or convert with `--module.path %s.%s.%s.pack`.\n",
              g->pack_vendor, g->pack_name, mod->name, g->pack_vendor, g->pack_name, g->pack_version);
  sb_append(sb, "\n");
  if (cmake) {
    sb_append(sb, "Cross builds with the GNU Arm bare-metal toolchain (`arm-none-eabi-gcc`, hard float):\n\n"
                  "| core | CMake | flags |\n|---|---|---|\n");
    for (int i = 0; i < glue_n_cross_targets; i++)
      sb_printf(sb, "| %s | `cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-%s.cmake` | `%s %s` |\n",
                glue_cross_targets[i].core, glue_cross_targets[i].core, glue_cross_targets[i].flags, glue_section_flags);
    if (t == MODULE_TYPE_DEFAULT) sb_append(sb, "\nThe Makefile takes `make TARGET=cortex-m4` (or `cortex-m55`) for the same flags.\n");
    sb_append(sb, "\n");
  }
  sb_printf(sb, "Optimisation and warnings are yours (`CFLAGS`, e.g. `CFLAGS='-O2 -Wall -Wextra'`); without any, the\n"
                "Makefile uses `-O2` and the CMake library too when no `CMAKE_BUILD_TYPE` is set. Link the library\n"
                "with `-Wl,--gc-sections` to drop unused kernels, and enable the FPU (and on the M55 the MVE, which\n"
                "shares its coprocessor enable bits) in your start-up code before calling `%s_model_init`. Builds that\n"
                "keep a frame pointer (`-fno-omit-frame-pointer`) need `-D%s_TA_NO_WIDE_ASM` (the build glue adds it\n"
                "when it sees that flag): the widest assembly loops then give way to C with the same results.\n",
            mod->prefix, mod->PREFIX);
}

/* The README's example: a translation unit that compiles as C99 and as C++ against the
 * module (tests/suites/export.sh), each input and output with its own C type. */
static void readme_example(const Model *m, const Module *mod, StrBuf *sb) {
  const char *pf = mod->prefix;
  sb_printf(sb, "```c\n#include <string.h>\n#include \"%s_model.h\"\n\n"
                "static %s_model_context_t ctx; /* zeroed; set ctx.callback before or after init */\n\n"
                "int app_init(void) { return %s_model_init(&ctx); }\n\n/* One inference:",
            mod->name, pf, pf);
  for (int i = 0; i < m->n_inputs; i++) {
    const Tensor *t = &m->tensors[m->inputs[i]];
    sb_printf(sb, "%s input%d holds %zu bytes (%s %s)", i ? "," : "", i, t->bytes, tensor_type_name(t->type),
              tensor_shape_str(m->arena, t));
  }
  sb_append(sb, ". */\nint app_infer(");
  for (int i = 0; i < m->n_inputs; i++) sb_printf(sb, "%sconst void *input%d", i ? ", " : "", i);
  if (m->n_inputs == 0) sb_append(sb, "void");
  sb_append(sb, ") {\n");
  for (int i = 0; i < m->n_outputs; i++) {
    const Tensor *t = &m->tensors[m->outputs[i]];
    sb_printf(sb, "  const %s *output%d; /* %s %s */\n", tensor_type_ctype(t->type), i, tensor_type_name(t->type),
              tensor_shape_str(m->arena, t));
  }
  for (int i = 0; i < m->n_inputs; i++)
    sb_printf(sb, "  memcpy(ctx.inputs[%d].data, input%d, ctx.inputs[%d].size);\n", i, i, i);
  sb_printf(sb, "  if (%s_model_run(&ctx) != 0) return -1;\n", pf);
  for (int i = 0; i < m->n_outputs; i++)
    sb_printf(sb, "  output%d = (const %s *)ctx.outputs[%d].data;\n", i,
              tensor_type_ctype(m->tensors[m->outputs[i]].type), i);
  for (int i = 0; i < m->n_outputs; i++) sb_printf(sb, "  (void)output%d; /* read the results here */\n", i);
  sb_append(sb, "  return 0;\n}\n```\n\n");
}

static void add_readme(Glue *g) {
  const Model *m = g->m;
  const Plan *p = g->p;
  const Module *mod = g->mod;
  StrBuf *sb = glue_file(g, "README.md");
  if (!sb) return;
  const char *pf = mod->prefix;
  sb_printf(sb, "# %s\n\nInference module generated by tinyaot from `%s` for platform `%s`: %d operators, %d inputs, %d outputs.\n\n",
            mod->name, mod->source, p->platform.name, m->n_nodes, m->n_inputs, m->n_outputs);
  readme_example(m, mod, sb);
  sb_append(sb, "## Memory\n\n| arena | memory | role | bytes | lower bound |\n|---|---|---|---:|---:|\n");
  for (int i = 0; i < p->n_arenas; i++)
    sb_printf(sb, "| %s | %s | %s | %zu | %zu |\n", p->arenas[i].name, mem_name(p->arenas[i].memory),
              arena_role_name(p->arenas[i].role), p->arenas[i].size, p->arenas[i].lower_bound);
  sb_printf(sb, "\nConstants: %zu bytes in %d tables. `report.md` says where every tensor lives.\n\n", p->constant_bytes,
            p->n_consts);
  sb_printf(sb, "## Placement\n\nDefine `%s_PUT_IN_<MEM>` (arenas) and `%s_PUT_IN_<MEM>_INIT` (constant tables) for\n"
                "ITCM, DTCM, SRAM, MRAM, PSRAM as section attributes before compiling, e.g.\n"
                "`-D'%s_PUT_IN_DTCM=__attribute__((section(\".dtcm_bss\")))'`.\n"
                "Pinned constants are copied at init by the weak `%s_hydrate_constants`; streamed ones\n"
                "by the weak `%s_stream_copy` before their first reader (override both to use DMA).\n\n",
            mod->PREFIX, mod->PREFIX, mod->PREFIX, pf, pf);
  if (!mod->allocate_arenas)
    sb_printf(sb, "Arenas are caller-owned: bind each region with `%s_bind_arena(region, buf, size)` before\n"
                  "`%s_model_init`; load each `data/%s_const_<mem>.bin` into the memory it names and bind it as\n"
                  "`%s_REGION_CONST_<MEM>`.\n\n",
              pf, pf, mod->name, mod->PREFIX);
  readme_build(g, sb);
}

static const char *role_name(TensorRole r) {
  return r == ROLE_SCRATCH ? "scratch" : r == ROLE_PERSISTENT ? "persistent" : "constant";
}

static const char *residency_name(Residency r) {
  return r == RES_PIN ? "pin" : r == RES_STREAM ? "stream" : "direct";
}

/* What the capability-gated optimisations did; "schedule" lists operator indices in
 * execution order (positions in it are the "steps" of the lifetimes below). */
static void json_optimizations(const Model *m, const Module *mod, StrBuf *js) {
  const ScheduleReport *r = &mod->schedule;
  sb_printf(js, "  \"optimizations\": {\"opt\": \"%s\", \"intern\": %s, \"static_calls\": %s, \"init_elision\": %s, \"reorder\": %s,\n"
                "    \"interned_operators\": %d, \"shared_bodies\": %d, \"direct_calls\": %s, \"init_functions\": %d,\n"
                "    \"reordered\": %s, \"moved_operators\": %d, \"live_peak_before\": %zu, \"live_peak_after\": %zu,"
                " \"live_byte_steps_before\": %llu, \"live_byte_steps_after\": %llu,\n    \"schedule\": [",
            mod->opt_size ? "size" : mod->opt_balanced > 0 ? "balanced" : "speed", mod->intern ? "true" : "false", mod->static_calls ? "true" : "false", mod->init_elision ? "true" : "false",
            r->tried ? "true" : "false", mod->interned_ops, mod->call_groups, mod->direct_calls ? "true" : "false",
            mod->init_functions, r->applied ? "true" : "false", r->moved, r->before.peak, r->after.peak,
            (unsigned long long)r->before.area, (unsigned long long)r->after.area);
  for (int k = 0; k < m->n_nodes; k++) sb_printf(js, "%s%d", k ? ", " : "", (int)m->nodes[k].index);
  sb_append(js, "],\n    \"portable_for_budget\": [");
  for (int i = 0; i < mod->n_budget_portable; i++) sb_printf(js, "%s%d", i ? ", " : "", (int)mod->budget_portable[i]);
  sb_append(js, "]");
  if (mod->n_budget_portable && mod->budget_mem == MEM_NONE)
    sb_printf(js, ", \"portable_by\": \"balanced\", \"instructions_per_byte\": %g", mod->opt_balanced);
  else if (mod->n_budget_portable)
    sb_printf(js, ", \"budget_memory\": \"%s\", \"budget_needed_with_all_tiers\": %llu", mem_name(mod->budget_mem),
              (unsigned long long)mod->budget_need_fast);
  if (mod->cost_choice_json) sb_printf(js, ",\n    \"cost_choice\": %s", mod->cost_choice_json);
  sb_append(js, "},\n");
}

static void md_optimizations(const Model *m, const Module *mod, StrBuf *md) {
  const ScheduleReport *r = &mod->schedule;
  sb_append(md, "\n## Schedule and optimisations\n\n");
  if (!r->tried)
    sb_append(md, "Reordering is off (`--no-reorder`): operators run in the model's order.\n");
  else if (!r->applied)
    sb_printf(md, "Reordering of REORDERABLE operators found no better order: the model's order is kept "
                  "(live peak %zu bytes, %llu byte-steps).\n", r->before.peak, (unsigned long long)r->before.area);
  else
    sb_printf(md, "Reordering of REORDERABLE operators moved %d operators. Live activation bytes, before -> after: "
                  "peak %zu -> %zu, sum over steps %llu -> %llu (%.1f%% less).\n", r->moved, r->before.peak,
              r->after.peak, (unsigned long long)r->before.area, (unsigned long long)r->after.area,
              r->before.area ? 100.0 * (double)(r->before.area - r->after.area) / (double)r->before.area : 0.0);
  sb_append(md, "\nSchedule (operator indices in execution order; lifetimes below are positions in it): ");
  for (int k = 0; k < m->n_nodes; k++) sb_printf(md, "%s%d", k ? ", " : "", (int)m->nodes[k].index);
  sb_printf(md, "\n\nInterning %s: %d operators run through %d shared bodies. Calls: %s. "
                "Per-operator init functions: %d%s.\n",
            mod->intern ? "on" : "off (`--no-intern`)", mod->interned_ops, mod->call_groups,
            mod->direct_calls ? "direct" : "through a table of function pointers", mod->init_functions,
            mod->init_elision ? " (stateless operators have none)" : " (init elision off)");
  if (mod->n_budget_portable && mod->budget_mem == MEM_NONE) {
    sb_printf(md, "\n`--opt balanced=%g`: %d operators keep the portable kernels, their tier saving fewer estimated "
                  "instructions per byte of tables and kernel code than that (the cost model): ",
              mod->opt_balanced, mod->n_budget_portable);
    for (int i = 0; i < mod->n_budget_portable; i++) sb_printf(md, "%s%d", i ? ", " : "", (int)mod->budget_portable[i]);
    sb_append(md, ".\n");
  } else if (mod->n_budget_portable) {
    sb_printf(md, "\nKernel tiers traded for memory: with every DSP/MVE tier the constants needed %llu bytes of %s, over "
                  "its budget, so %d operators keep the portable kernels (fewest estimated instructions lost per byte "
                  "freed first, the cost model): ",
              (unsigned long long)mod->budget_need_fast, mem_name(mod->budget_mem), mod->n_budget_portable);
    for (int i = 0; i < mod->n_budget_portable; i++) sb_printf(md, "%s%d", i ? ", " : "", (int)mod->budget_portable[i]);
    sb_append(md, ".\n");
  }
}

/* Bytes of the scratch arenas (activations and kernel scratch). */
static size_t scratch_bytes(const Plan *p) {
  size_t total = 0;
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].role == AR_SCRATCH) total += p->arenas[i].size;
  return total;
}

/* Node k writes its output (moved or at its input) with a copy after the kernel: the
 * output does not sit where its temporary did. */
static bool inplace_copies(const Model *m, const Node *n) {
  const Tensor *x = &m->tensors[tensor_storage(m, n->in[n->inplace_input])];
  const Tensor *y = &m->tensors[tensor_storage(m, n->out[0])];
  return (int64_t)y->offset != (int64_t)x->offset + n->inplace_delta;
}

/* The planning search's log (plan/search.h): each candidate tried, its outcome and why it
 * was kept or dropped, in the order tried. Its strings are the compiler's own (no quotes
 * or backslashes), so they go in unescaped. */
static void json_plan_search(const Module *mod, StrBuf *js) {
  const PlanSearchLog *log = mod->plan_search;
  sb_append(js, ",\n  \"plan_search\": [");
  for (int i = 0; log && i < log->n; i++)
    sb_printf(js, "%s\n    {\"candidate\": \"%s\", \"result\": \"%s\", \"reason\": \"%s\"}", i ? "," : "",
              log->entries[i].candidate, log->entries[i].result, log->entries[i].reason);
  if (log && log->left_out)
    sb_printf(js, "%s\n    {\"candidate\": \"%d more\", \"result\": \"\", \"reason\": \"left out of the log\"}",
              log->n ? "," : "", log->left_out);
  sb_append(js, "]");
}

/* The two bounds, what each technique saved, and the live bytes of every step
 * (layer by layer, and with the chosen execution): plan/savings.c. */
static void json_savings(const Model *m, const Plan *p, const Module *mod, StrBuf *js) {
  sb_printf(js, ",\n  \"memory_bounds\": {\"mode\": \"%s\", \"escalated\": %s, \"layer_by_layer\": %zu, "
                "\"reached\": %zu, \"scratch_arena_bytes\": %zu",
            p->inplace_moves ? "max" : "default", mod->memory_escalated ? "true" : "false", p->lower_bound,
            plan_reached_bound(m), scratch_bytes(p));
  if (mod->memory_escalated)
    sb_printf(js, ", \"escalated_memory\": \"%s\", \"needed_in_default_mode\": %llu", mem_name(mod->escalated_mem),
              (unsigned long long)mod->escalated_need_default);
  sb_append(js, "}");
  json_plan_search(mod, js);
  sb_append(js, ",\n  \"savings\": [");
  bool first = true;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    const size_t fold = rewrite_fold_bytes(m, n);
    if (fold) {
      sb_printf(js, "%s\n    {\"technique\": \"fold_pad\", \"op\": %d, \"bytes\": %zu}", first ? "" : ",", (int)n->index, fold);
      first = false;
    }
    if (n->is_alias && strcmp(n->opname, "QUANTIZE") == 0 && n->n_out > 0 && n->out[0] >= 0) {
      sb_printf(js, "%s\n    {\"technique\": \"elide_quantize\", \"op\": %d, \"bytes\": %zu}", first ? "" : ",",
                (int)n->index, m->tensors[n->out[0]].bytes);
      first = false;
    }
    if (n->inplace) {
      sb_printf(js, "%s\n    {\"technique\": \"in_place\", \"op\": %d, \"step\": %d, \"type\": \"%s\", \"bytes\": %zu, "
                    "\"delta\": %lld, \"copies\": %s}",
                first ? "" : ",", (int)n->index, k, n->opname, plan_inplace_saving(m, k), (long long)n->inplace_delta,
                inplace_copies(m, n) ? "true" : "false");
      first = false;
    }
  }
  sb_append(js, first ? "],\n  \"live_bytes\": [" : "\n  ],\n  \"live_bytes\": [");
  for (int k = 0; k < m->n_nodes; k++) {
    const size_t live = plan_live_at(m, k), saved = plan_inplace_saving(m, k);
    sb_printf(js, "%s\n    {\"step\": %d, \"op\": %d, \"type\": \"%s\", \"layer_by_layer\": %zu, \"reached\": %zu}",
              k ? "," : "", k, (int)m->nodes[k].index, m->nodes[k].opname, live, live > saved ? live - saved : 0);
  }
  sb_append(js, m->n_nodes ? "\n  ]" : "]");
}

/* report.md: the two bounds and the bytes each technique saved. */
static void md_savings(const Model *m, const Plan *p, const Module *mod, StrBuf *md) {
  sb_printf(md, "## Memory bounds and savings\n\nMode: `--memory.optimize %s`%s. Layer-by-layer bound (whole tensors "
                "live at once): %zu bytes; bound the chosen execution reaches (in-place operators counted once): %zu "
                "bytes; scratch arenas: %zu bytes.\n",
            p->inplace_moves ? "max" : "default",
            mod->memory_escalated ? " (escalated: the default mode was over a memory budget)" : "", p->lower_bound,
            plan_reached_bound(m), scratch_bytes(p));
  if (mod->memory_escalated)
    sb_printf(md, "\nDefault mode needed %llu bytes of %s, over its budget; the plan was made again in max mode.\n",
              (unsigned long long)mod->escalated_need_default, mem_name(mod->escalated_mem));
  bool any = false;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    const size_t fold = rewrite_fold_bytes(m, n);
    const bool elided = n->is_alias && strcmp(n->opname, "QUANTIZE") == 0 && n->n_out > 0 && n->out[0] >= 0;
    if (!fold && !elided && !n->inplace) continue;
    if (!any) sb_append(md, "\n| operator | technique | bytes saved | note |\n|---|---|---:|---|\n");
    any = true;
    if (fold) sb_printf(md, "| %d %s | fold_pad | %zu | the padded input never exists |\n", (int)n->index, n->opname, fold);
    if (elided)
      sb_printf(md, "| %d %s | elide_quantize | %zu | output shares its input |\n", (int)n->index, n->opname,
                m->tensors[n->out[0]].bytes);
    if (n->inplace)
      sb_printf(md, "| %d %s | in_place | %zu | at its step; %s |\n", (int)n->index, n->opname, plan_inplace_saving(m, k),
                n->inplace_delta == 0 ? "output at its input's offset"
                : inplace_copies(m, n) ? "temporary below the input, then moved (a copy)"
                                       : "temporary below the input, output stays there (no copy)");
  }
  sb_append(md, "\n");
}

/* The residency document: every tensor and table, where it lives, when it is live. */
void export_residency_json(const Model *m, const Plan *p, const Module *mod, StrBuf *js) {
  Arena *a = m->arena;
  sb_append(js, "{\n  \"model\": ");
  sb_append_json_string(js, mod->source);
  if (mod->meta_name || mod->meta_description || mod->meta_version) { /* heliaAOT's model.* metadata */
    const char *keys[] = {"name", "description", "version"};
    const char *vals[] = {mod->meta_name, mod->meta_description, mod->meta_version};
    sb_append(js, ",\n  \"model_metadata\": {");
    for (int i = 0, first = 1; i < 3; i++)
      if (vals[i]) {
        sb_printf(js, "%s\"%s\": ", first ? "" : ", ", keys[i]);
        sb_append_json_string(js, vals[i]);
        first = 0;
      }
    sb_append(js, "}");
  }
  int folds;
  size_t folded_bytes;
  rewrite_fold_summary(m, &folds, &folded_bytes);
  sb_printf(js,
            ",\n  \"rewrites\": {\"pad_folds\": %d, \"padded_bytes_removed\": %zu, \"quantizes_elided\": %d, "
            "\"concats_viewed\": %d, \"slices_viewed\": %d}",
            folds, folded_bytes, rewrite_quantizes_elided(m), rewrite_concats_viewed(m), rewrite_slices_viewed(m));
  integer_io_report_json(m, js); /* --integer-io (export_integer_io.c) */
  /* in-place execution (--memory.optimize max, plan/inplace.c): the operators writing over a
   * dying input, and the scratch arenas' bytes against the layer-by-layer bound */
  cost_report_json(m, p, js); /* estimated instructions per operator (resolve/cost_model.c) */
  sb_printf(js, ",\n  \"in_place\": {\"enabled\": %s, \"operators\": [", p->inplace ? "true" : "false");
  for (int k = 0, first = 1; k < m->n_nodes; k++)
    if (m->nodes[k].inplace) {
      sb_printf(js, "%s%d", first ? "" : ", ", (int)m->nodes[k].index);
      first = 0;
    }
  sb_printf(js, "], \"layer_by_layer_bound\": %zu, \"scratch_arena_bytes\": %zu}", p->lower_bound, scratch_bytes(p));
  patch_report_json(m, p->patch, js); /* patch-based execution (plan/patch.c) */
  json_savings(m, p, mod, js);
  sb_printf(js, ",\n  \"platform\": \"%s\",\n  \"operators\": %d,\n  \"activation_lower_bound\": %zu,\n"
                "  \"arena_bytes\": %llu,\n  \"constant_bytes\": %zu,\n  \"allocate_arenas\": %s,\n  \"memories\": [\n",
            p->platform.name, m->n_nodes, p->lower_bound, (unsigned long long)arena_bytes(p), p->constant_bytes,
            mod->allocate_arenas ? "true" : "false");
  bool first = true;
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    if (!p->platform.mem[mem].present) continue;
    sb_printf(js, "%s    {\"name\": \"%s\", \"used\": %llu, \"budget\": %llu}", first ? "" : ",\n",
              mem_name((MemType)mem), (unsigned long long)p->used[mem], (unsigned long long)p->budget[mem]);
    first = false;
  }
  sb_append(js, "\n  ],\n");
  json_optimizations(m, mod, js);
  sb_append(js, "  \"arenas\": [\n");
  for (int i = 0; i < p->n_arenas; i++) {
    const PlanArena *ar = &p->arenas[i];
    sb_printf(js, "    {\"name\": \"%s\", \"memory\": \"%s\", \"role\": \"%s\", \"bytes\": %zu, \"lower_bound\": %zu, \"tensors\": %d}%s\n",
              ar->name, mem_name(ar->memory), arena_role_name(ar->role), ar->size, ar->lower_bound, ar->n_tensors,
              i + 1 < p->n_arenas ? "," : "");
  }
  sb_append(js, "  ],\n  \"tensors\": [\n");
  first = true;
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    int32_t s = tensor_storage(m, i);
    const Tensor *st = &m->tensors[s];
    if (!plan_needs_storage(m, s) || st->arena < 0) continue;
    sb_printf(js, "%s    {\"id\": %d, \"name\": ", first ? "" : ",\n", (int)t->id);
    sb_append_json_string(js, t->name);
    sb_printf(js, ", \"dtype\": \"%s\", \"shape\": %s, \"bytes\": %zu, \"role\": \"%s\", \"memory\": \"%s\", \"arena\": \"%s\", \"offset\": %zu, \"first_op\": %d, \"last_op\": %d",
              tensor_type_name(t->type), tensor_shape_str(a, t), t->bytes, role_name(st->role),
              mem_name(p->arenas[st->arena].memory), p->arenas[st->arena].name, st->offset + tensor_view_offset(m, i),
              (int)st->first_use, (int)st->last_use);
    if (s != i) sb_printf(js, ", \"alias_of\": %d", (int)s);
    sb_append(js, "}");
    first = false;
  }
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    sb_printf(js, "%s    {\"id\": %d, \"name\": ", first ? "" : ",\n", (int)c->tensor_id);
    sb_append_json_string(js, c->what);
    sb_printf(js, ", \"bytes\": %zu, \"role\": \"constant\", \"memory\": \"%s\", \"source_memory\": \"%s\", \"residency\": \"%s\"",
              c->size, mem_name(c->runtime), mem_name(c->source), residency_name(c->residency));
    if (c->arena >= 0) sb_printf(js, ", \"arena\": \"%s\", \"offset\": %zu", p->arenas[c->arena].name, c->offset);
    sb_printf(js, ", \"first_op\": %d, \"last_op\": %d", (int)c->first_reader, (int)c->last_reader);
    if (c->op_index >= 0) sb_printf(js, ", \"derived_by_op\": %d", (int)c->op_index);
    if (c->source_tensor >= 0) sb_printf(js, ", \"source_tensor\": %d", (int)c->source_tensor);
    sb_append(js, "}");
    first = false;
  }
  sb_append(js, "\n  ],\n  \"stream_schedule\": [");
  first = true;
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    if (c->residency != RES_STREAM) continue;
    sb_printf(js, "%s\n    {\"before_op\": %d, \"constant\": ", first ? "" : ",", (int)c->first_reader);
    sb_append_json_string(js, c->what);
    sb_printf(js, ", \"bytes\": %zu, \"from\": \"%s\", \"to\": \"%s\", \"offset\": %zu}", c->size,
              mem_name(c->source), mem_name(c->runtime), c->offset);
    first = false;
  }
  sb_append(js, first ? "]\n}\n" : "\n  ]\n}\n");
}

void export_report(const Model *m, const Plan *p, Module *mod) {
  Arena *a = m->arena;
  StrBuf *js = module_add_file(mod, a, "report.json");
  StrBuf *md = module_add_file(mod, a, "report.md");
  if (!js || !md) return;
  export_residency_json(m, p, mod, js);
  sb_printf(md, "# Memory report: %s on %s\n\n%d operators. Arena bytes (all RAM arenas): **%llu**. "
                "Activation lower bound (max live bytes over the schedule): %zu. Constant bytes (image): %zu.\n\n",
            mod->source, p->platform.name, m->n_nodes, (unsigned long long)arena_bytes(p), p->lower_bound,
            p->constant_bytes);
  if (mod->meta_name || mod->meta_description || mod->meta_version)
    sb_printf(md, "Model: %s%s%s%s%s\n\n", mod->meta_name ? mod->meta_name : mod->source,
              mod->meta_version ? " " : "", mod->meta_version ? mod->meta_version : "",
              mod->meta_description ? " - " : "", mod->meta_description ? mod->meta_description : "");
  int folds;
  size_t folded_bytes;
  rewrite_fold_summary(m, &folds, &folded_bytes);
  if (folds) /* graph rewrites (docs/memory.md); the bound above is the one the rewritten graph reaches */
    sb_printf(md, "Rewrites: %d explicit PAD(s) folded into convolutions (fold_pad; --no-fold-pad keeps them): "
                  "%zu bytes of padded tensors never exist.\n\n", folds, folded_bytes);
  integer_io_report_md(m, md);
  if (rewrite_quantizes_elided(m))
    sb_printf(md, "Rewrites: %d QUANTIZE(s) that change no byte share their input's storage (elide_quantize; "
                  "--no-elide-quantize runs them).\n\n", rewrite_quantizes_elided(m));
  if (rewrite_concats_viewed(m))
    sb_printf(md, "Rewrites: %d CONCATENATION(s) run no code: their inputs are written straight into their "
                  "slices of the output (concat_views; --no-concat-views copies).\n\n", rewrite_concats_viewed(m));
  if (rewrite_slices_viewed(m))
    sb_printf(md, "Rewrites: %d SPLIT/SLICE-like operator(s) run no code: their outputs are read in place as "
                  "views of the input (slice_views; --no-slice-views copies).\n\n", rewrite_slices_viewed(m));
  int in_place = 0;
  for (int k = 0; k < m->n_nodes; k++) in_place += m->nodes[k].inplace;
  if (in_place) {
    sb_printf(md, "In-place execution: %d operator(s) write their output over an input "
                  "they read for the last time (operators", in_place);
    for (int k = 0; k < m->n_nodes; k++)
      if (m->nodes[k].inplace) sb_printf(md, " %d", (int)m->nodes[k].index);
    sb_printf(md, "). Scratch arenas: %zu bytes; layer-by-layer bound (whole tensors live at once): %zu bytes.\n\n",
              scratch_bytes(p), p->lower_bound);
  }
  md_savings(m, p, mod, md);
  patch_report_md(m, p->patch, md);
  cost_report_md(m, p, md);
  sb_append(md, "## Memories\n\n| memory | used | budget |\n|---|---:|---:|\n");
  for (int mem = 0; mem < MEM_COUNT; mem++)
    if (p->platform.mem[mem].present)
      sb_printf(md, "| %s | %llu | %llu%s |\n", mem_name((MemType)mem), (unsigned long long)p->used[mem],
                (unsigned long long)p->budget[mem], p->budget_line[mem] ? " (constraint)" : "");
  sb_append(md, "\n## Arenas\n\nOne per (memory, role). *scratch*: activations and kernel scratch, reused by lifetime; "
                "*persistent*: variable tensors, zeroed at init; *pinned*: constants copied once at init (one bulk "
                "copy per source memory); *stream*: a pool that constants are copied into before their first reader.\n\n"
                "| arena | memory | role | bytes | lower bound | tensors |\n|---|---|---|---:|---:|---:|\n");
  for (int i = 0; i < p->n_arenas; i++) {
    const PlanArena *ar = &p->arenas[i];
    sb_printf(md, "| %s | %s | %s | %zu | %zu | %d |\n", ar->name, mem_name(ar->memory), arena_role_name(ar->role),
              ar->size, ar->lower_bound, ar->n_tensors);
  }
  md_optimizations(m, mod, md);
  sb_append(md, "\n## Activations\n\n| id | name | dtype | shape | bytes | role | arena | offset | live ops |\n|---:|---|---|---|---:|---|---|---:|---|\n");
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    int32_t s = tensor_storage(m, i);
    const Tensor *st = &m->tensors[s];
    if (!plan_needs_storage(m, s) || st->arena < 0) continue;
    sb_printf(md, "| %d | %s | %s | %s | %zu | %s%s | %s | %zu | %d..%d |\n", (int)t->id, t->name[0] ? t->name : "(unnamed)",
              tensor_type_name(t->type), tensor_shape_str(a, t), t->bytes, role_name(st->role),
              s != i ? arena_printf(a, " (alias of %d)", (int)s) : "", p->arenas[st->arena].name,
              st->offset + tensor_view_offset(m, i), (int)st->first_use, (int)st->last_use);
  }
  sb_append(md, "\n## Constants\n\n| constant | bytes | image in | read from | residency | arena offset | readers |\n|---|---:|---|---|---|---:|---|\n");
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    char off[32] = "-";
    if (c->arena >= 0) snprintf(off, sizeof off, "%zu", c->offset);
    sb_printf(md, "| %s | %zu | %s | %s | %s | %s | %d..%d |\n", c->what, c->size, mem_name(c->source),
              mem_name(c->runtime), residency_name(c->residency), off, (int)c->first_reader, (int)c->last_reader);
  }
  export_report_html(m, p, mod);
}

static const char *const type_names[] = {
    [MODULE_TYPE_NEURALSPOT] = "neuralspot", [MODULE_TYPE_ZEPHYR] = "zephyr", [MODULE_TYPE_CMAKE] = "cmake",
    [MODULE_TYPE_NSX] = "nsx",               [MODULE_TYPE_CMSIS_PACK] = "cmsis_pack",
};

/* heliaAOT's module layout has a LICENSE for the generated module. tinyaot's generated
 * code and kernels are MIT-0 (the repository's LICENSE, part 2): this is that licence,
 * labelled as the module's, not heliaAOT's text. */
static void add_license(Glue *g) {
  StrBuf *sb = glue_file(g, "LICENSE");
  if (!sb) return;
  sb_printf(sb, "LICENSE of the generated inference module %s\n\n"
                "This module (its sources, headers, build files, README and reports, including the kernel\n"
                "sources copied into it) was generated by tinyaot and is licensed under the MIT No\n"
                "Attribution License (SPDX: MIT-0). The model's weights written into it remain subject to\n"
                "whatever terms govern the model (%s).\n\n", g->mod->name, g->mod->source);
  sb_append(sb, "MIT No Attribution\n\nCopyright (c) 2026 The tinyaot authors\n\n"
                "Permission is hereby granted, free of charge, to any person obtaining a copy of this\n"
                "software and associated documentation files (the \"Software\"), to deal in the Software\n"
                "without restriction, including without limitation the rights to use, copy, modify,\n"
                "merge, publish, distribute, sublicense, and/or sell copies of the Software, and to\n"
                "permit persons to whom the Software is furnished to do so.\n\n"
                "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,\n"
                "INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A\n"
                "PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT\n"
                "HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION\n"
                "OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE\n"
                "SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.\n");
}

bool export_module_type(const char *name, ModuleType *type) {
  *type = MODULE_TYPE_DEFAULT;
  if (!name) return true;
  for (int t = MODULE_TYPE_NEURALSPOT; t <= MODULE_TYPE_CMSIS_PACK; t++)
    if (strcasecmp(name, type_names[t]) == 0) return *type = (ModuleType)t, true;
  return false;
}

/* heliaAOT's types put the public headers in includes-api/ (its module layout); the
 * default keeps tinyaot's include/. The emitter writes include/: renamed here. */
static void move_headers(Glue *g) {
  Module *mod = g->mod;
  for (int i = 0; i < mod->n_files; i++)
    if (strncmp(mod->files[i].path, "include/", 8) == 0)
      mod->files[i].path = arena_printf(g->a, "%s/%s", g->api_dir, mod->files[i].path + 8);
}

bool export_build_files(const Model *m, const Plan *p, Module *mod, const char *type_name, const char *out_path,
                        Diag *d) {
  Glue g = {.m = m, .p = p, .mod = mod, .a = m->arena, .api_dir = "include"};
  if (!export_module_type(type_name, &g.type))
    return diag_error(d, "module.type '%s' is not one of neuralspot, zephyr, cmake, nsx, cmsis_pack", type_name);
  const bool pack = out_path && strlen(out_path) > 5 && strcmp(out_path + strlen(out_path) - 5, ".pack") == 0;
  if (pack && g.type == MODULE_TYPE_DEFAULT) g.type = MODULE_TYPE_CMSIS_PACK; /* a .pack holds a CMSIS pack */
  if (pack && g.type != MODULE_TYPE_CMSIS_PACK)
    return diag_error(d, "module.path %s is a CMSIS pack, but module.type is %s (use cmsis_pack, or a .zip)", out_path,
                      type_name);
  if (g.type == MODULE_TYPE_CMSIS_PACK && !glue_pack_identity(&g, pack ? out_path : NULL, d)) return false;
  if (g.type != MODULE_TYPE_DEFAULT) {
    g.api_dir = "includes-api";
    move_headers(&g);
  }
  switch (g.type) {
  case MODULE_TYPE_DEFAULT: /* everything tinyaot wrote before module types, plus module.mk */
    glue_cmake(&g), glue_makefile(&g), glue_cmake_toolchains(&g), glue_zephyr(&g), glue_neuralspot(&g);
    break;
  case MODULE_TYPE_NEURALSPOT: glue_neuralspot(&g); break;
  case MODULE_TYPE_ZEPHYR: glue_zephyr(&g); break;
  case MODULE_TYPE_CMAKE: glue_cmake(&g), glue_cmake_toolchains(&g); break;
  case MODULE_TYPE_NSX: glue_nsx(&g), glue_cmake_toolchains(&g); break;
  case MODULE_TYPE_CMSIS_PACK: break; /* last: the pdsc lists the README too */
  }
  add_readme(&g);
  if (g.type != MODULE_TYPE_DEFAULT) add_license(&g); /* heliaAOT's layout; tinyaot's keeps -o . free of it */
  if (g.type == MODULE_TYPE_CMSIS_PACK) glue_pack(&g);
  if (g.full) return diag_error(d, "the module has more than %d files", MODULE_MAX_FILES);
  return true;
}
