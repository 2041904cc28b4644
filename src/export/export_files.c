/* Build glue (CMake, Make, Zephyr), the module README and the memory report. */
#include <stdio.h>
#include <string.h>

#include "../transform/transform.h"
#include "../platform/platform.h"
#include "export.h"

static void list_sources(const Module *mod, StrBuf *sb, const char *sep, const char *lead) {
  for (int i = 0; i < mod->n_files; i++) {
    const char *p = mod->files[i].path;
    size_t len = strlen(p);
    if (strncmp(p, "src/", 4) == 0 && len > 2 && strcmp(p + len - 2, ".c") == 0) sb_printf(sb, "%s%s%s", lead, p, sep);
  }
}

static void add_cmake(Module *mod, Arena *a) {
  StrBuf sb;
  sb_init_heap(&sb, &a->heap);
  sb_printf(&sb, "# %s: CMake build of the tinyaot module (a static library).\n"
                 "#   add_subdirectory(%s) and link %s, or build it alone; for a Cortex-M build pass\n"
                 "#   -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-cortex-m4.cmake (or ...-cortex-m55.cmake).\n"
                 "cmake_minimum_required(VERSION 3.13)\nproject(%s C)\n\nadd_library(%s STATIC\n",
            mod->name, mod->name, mod->name, mod->name, mod->name);
  list_sources(mod, &sb, "\n", "  ");
  sb_printf(&sb, ")\ntarget_include_directories(%s PUBLIC include PRIVATE src)\n"
                 "set_target_properties(%s PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)\n"
                 "target_link_libraries(%s PRIVATE m)\n"
                 "# A frame pointer takes r7 from the kernels' widest assembly loops (src/ta_common.h).\n"
                 "if(CMAKE_C_FLAGS MATCHES \"-fno-omit-frame-pointer\")\n"
                 "  target_compile_definitions(%s PRIVATE %s_TA_NO_WIDE_ASM)\nendif()\n",
            mod->name, mod->name, mod->name, mod->name, mod->PREFIX);
  StrBuf *f = module_add_file(mod, a, "CMakeLists.txt");
  if (f) *f = sb; else sb_free(&sb);
}

/* One Cortex-M core the module ships a cross toolchain description for. */
typedef struct CrossTarget {
  const char *core;  /* cortex-m4, cortex-m55: the names `make TARGET=` takes too */
  const char *flags; /* code generation flags: core, float ABI, FPU (MVE is implied by the M55) */
  const char *what;  /* one line for the comments */
} CrossTarget;

static const CrossTarget cross_targets[] = {
    {"cortex-m4", "-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb", "Cortex-M4 (DSP, single-precision FPU)"},
    {"cortex-m55", "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb", "Cortex-M55 (DSP, FPU and Helium/MVE)"},
};
enum { N_CROSS_TARGETS = (int)(sizeof cross_targets / sizeof cross_targets[0]) };

/* Section-per-function/object lets the final link drop kernels the model never calls. */
static const char cross_section_flags[] = "-ffunction-sections -fdata-sections";

/* cmake/arm-none-eabi-<core>.cmake: a bare-metal GNU Arm toolchain file. */
static void add_cmake_toolchains(Module *mod, Arena *a) {
  for (int i = 0; i < N_CROSS_TARGETS; i++) {
    const CrossTarget *t = &cross_targets[i];
    StrBuf *f = module_add_file(mod, a, arena_printf(a, "cmake/arm-none-eabi-%s.cmake", t->core));
    if (!f) return;
    sb_printf(f, "# %s: CMake toolchain file for %s with the GNU Arm bare-metal compiler.\n"
                 "#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-%s.cmake && cmake --build build\n"
                 "# Optimisation and warning flags come from CFLAGS or CMAKE_BUILD_TYPE as usual.\n"
                 "set(CMAKE_SYSTEM_NAME Generic)\nset(CMAKE_SYSTEM_PROCESSOR arm)\n\n"
                 "set(CMAKE_C_COMPILER arm-none-eabi-gcc)\n"
                 "# Bare metal: there is no C runtime start-up to link a test program against.\n"
                 "set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)\n\n"
                 "set(CMAKE_C_FLAGS_INIT \"%s %s\")\n\n"
                 "set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)\nset(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)\n"
                 "set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)\n",
              mod->name, t->what, t->core, t->flags, cross_section_flags);
  }
}

/* `make TARGET=<core>` presets for the plain Makefile, the same flags as the toolchain files. */
static void add_make_cross_presets(StrBuf *sb) {
  sb_append(sb, "\n# Cross builds: `make TARGET=cortex-m4` or `make TARGET=cortex-m55` (arm-none-eabi-gcc,\n"
                "# hard float; the same flags as cmake/arm-none-eabi-<target>.cmake). CFLAGS stays yours.\n"
                "TARGET ?=\nARCH_FLAGS ?=\n");
  for (int i = 0; i < N_CROSS_TARGETS; i++)
    sb_printf(sb, "ifeq ($(TARGET),%s)\nCROSS_COMPILE ?= arm-none-eabi-\nARCH_FLAGS := %s %s\nendif\n",
              cross_targets[i].core, cross_targets[i].flags, cross_section_flags);
  sb_append(sb, "ifneq ($(TARGET),)\nifeq ($(ARCH_FLAGS),)\n$(error unknown TARGET '$(TARGET)': use");
  for (int i = 0; i < N_CROSS_TARGETS; i++) sb_printf(sb, " %s", cross_targets[i].core);
  sb_append(sb, ")\nendif\nCC = $(CROSS_COMPILE)gcc\nAR = $(CROSS_COMPILE)ar\nendif\n");
}

static void add_makefile(Module *mod, Arena *a) {
  StrBuf sb;
  sb_init_heap(&sb, &a->heap);
  sb_printf(&sb, "# %s: plain Make build of the tinyaot module -> lib%s.a\n"
                 "#   make                      host compiler\n"
                 "#   make TARGET=cortex-m4     arm-none-eabi-gcc for Cortex-M4 (or TARGET=cortex-m55)\n"
                 "#   make CC=... CFLAGS=...    any other compiler and flags\n"
                 "CC ?= cc\nAR ?= ar\nCFLAGS ?= -O2\n",
            mod->name, mod->name);
  add_make_cross_presets(&sb);
  sb_append(&sb, "\nSRCS :=");
  list_sources(mod, &sb, "", " ");
  sb_printf(&sb, "\nOBJS := $(SRCS:.c=.o)\n\nlib%s.a: $(OBJS)\n\t$(AR) rcs $@ $^\n\n"
                 "# A frame pointer takes r7 from the kernels' widest assembly loops (src/ta_common.h).\n"
                 "ASM_FLAGS := $(if $(findstring -fno-omit-frame-pointer,$(CFLAGS)),-D%s_TA_NO_WIDE_ASM)\n\n"
                 "%%.o: %%.c\n\t$(CC) -std=c99 $(ARCH_FLAGS) $(CFLAGS) $(ASM_FLAGS) -Iinclude -Isrc -c $< -o $@\n\n"
                 "clean:\n\trm -f $(OBJS) lib%s.a\n\n.PHONY: clean\n",
            mod->name, mod->PREFIX, mod->name);
  StrBuf *f = module_add_file(mod, a, "Makefile");
  if (f) *f = sb; else sb_free(&sb);
  StrBuf zy;
  sb_init_heap(&zy, &a->heap);
  sb_printf(&zy, "# Zephyr: add this directory with ZEPHYR_EXTRA_MODULES; sources below.\n"
                 "zephyr_library_named(%s)\nzephyr_include_directories(include)\nzephyr_library_include_directories(src)\nzephyr_library_sources(\n",
            mod->name);
  list_sources(mod, &zy, "\n", "  ");
  sb_printf(&zy, ")\n# A frame pointer takes r7 from the kernels' widest assembly loops (src/ta_common.h).\n"
                 "if(CONFIG_FRAME_POINTER)\n  zephyr_library_compile_definitions(%s_TA_NO_WIDE_ASM)\nendif()\n",
            mod->PREFIX);
  StrBuf *z = module_add_file(mod, a, "zephyr/CMakeLists.txt");
  if (z) *z = zy; else sb_free(&zy);
  StrBuf *zm = module_add_file(mod, a, "zephyr/module.yml");
  if (zm) sb_printf(zm, "name: %s\nbuild:\n  cmake: zephyr\n", mod->name);
}

static uint64_t arena_bytes(const Plan *p) {
  uint64_t ram = 0;
  for (int i = 0; i < p->n_arenas; i++) ram += p->arenas[i].size;
  return ram;
}

static void add_readme(const Model *m, const Plan *p, Module *mod, Arena *a) {
  StrBuf *sb = module_add_file(mod, a, "README.md");
  if (!sb) return;
  const char *pf = mod->prefix;
  sb_printf(sb, "# %s\n\nInference module generated by tinyaot from `%s` for platform `%s`: %d operators, %d inputs, %d outputs.\n\n",
            mod->name, mod->source, p->platform.name, m->n_nodes, m->n_inputs, m->n_outputs);
  sb_printf(sb, "```c\n#include \"%s_model.h\"\n\n%s_model_context_t ctx;\n%s_model_init(&ctx);\n"
                "memcpy(ctx.inputs[0].data, features, ctx.inputs[0].size);\n%s_model_run(&ctx);\n"
                "const int8_t *scores = ctx.outputs[0].data;\n```\n\n",
            mod->name, pf, pf, pf);
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
  sb_printf(sb, "## Build\n\n- CMake: `add_subdirectory(%s)`, link `%s`.\n- Make: `make` builds `lib%s.a` with the host compiler;\n"
                "  `make CC=... CFLAGS=...` with any other.\n- Zephyr: `zephyr/` is a Zephyr module.\n\n",
            mod->name, mod->name, mod->name);
  sb_append(sb, "Cross builds with the GNU Arm bare-metal toolchain (`arm-none-eabi-gcc`, hard float):\n\n"
                "| core | CMake | Make | flags |\n|---|---|---|---|\n");
  for (int i = 0; i < N_CROSS_TARGETS; i++)
    sb_printf(sb, "| %s | `cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-%s.cmake` | `make TARGET=%s` | `%s %s` |\n",
              cross_targets[i].core, cross_targets[i].core, cross_targets[i].core, cross_targets[i].flags,
              cross_section_flags);
  sb_printf(sb, "\nBoth leave optimisation and warnings to you (`CFLAGS`, e.g. `CFLAGS='-O2 -Wall -Wextra'`; Make\n"
                "defaults to `-O2`). Link the library with `-Wl,--gc-sections` to drop unused kernels, and\n"
                "enable the FPU (and on the M55 the MVE, which shares its coprocessor enable bits) in your start-up\n"
                "code before calling `%s_model_init`. Builds that keep a frame pointer (`-fno-omit-frame-pointer`)\n"
                "need `-D%s_TA_NO_WIDE_ASM` (the Makefile, CMakeLists.txt and the Zephyr module add it when\n"
                "they see that flag): the widest assembly loops then give way to C with the same results.\n",
            pf, mod->PREFIX);
}

static const char *role_name(TensorRole r) {
  return r == ROLE_SCRATCH ? "scratch" : r == ROLE_PERSISTENT ? "persistent" : "constant";
}

static const char *residency_name(Residency r) {
  return r == RES_PIN ? "pin" : r == RES_STREAM ? "stream" : "direct";
}

static void json_string(StrBuf *sb, const char *s) {
  sb_append(sb, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') sb_printf(sb, "\\%c", *s);
    else sb_appendn(sb, s, 1);
  }
  sb_append(sb, "\"");
}

/* What the capability-gated optimisations did; "schedule" lists operator indices in
 * execution order (positions in it are the "steps" of the lifetimes below). */
static void json_optimizations(const Model *m, const Module *mod, StrBuf *js) {
  const ScheduleReport *r = &mod->schedule;
  sb_printf(js, "  \"optimizations\": {\"opt\": \"%s\", \"intern\": %s, \"static_calls\": %s, \"init_elision\": %s, \"reorder\": %s,\n"
                "    \"interned_operators\": %d, \"shared_bodies\": %d, \"direct_calls\": %s, \"init_functions\": %d,\n"
                "    \"reordered\": %s, \"moved_operators\": %d, \"live_peak_before\": %zu, \"live_peak_after\": %zu,"
                " \"live_byte_steps_before\": %llu, \"live_byte_steps_after\": %llu,\n    \"schedule\": [",
            mod->opt_size ? "size" : "speed", mod->intern ? "true" : "false", mod->static_calls ? "true" : "false", mod->init_elision ? "true" : "false",
            r->tried ? "true" : "false", mod->interned_ops, mod->call_groups, mod->direct_calls ? "true" : "false",
            mod->init_functions, r->applied ? "true" : "false", r->moved, r->before.peak, r->after.peak,
            (unsigned long long)r->before.area, (unsigned long long)r->after.area);
  for (int k = 0; k < m->n_nodes; k++) sb_printf(js, "%s%d", k ? ", " : "", (int)m->nodes[k].index);
  sb_append(js, "],\n    \"portable_for_budget\": [");
  for (int i = 0; i < mod->n_budget_portable; i++) sb_printf(js, "%s%d", i ? ", " : "", (int)mod->budget_portable[i]);
  sb_append(js, "]");
  if (mod->n_budget_portable)
    sb_printf(js, ", \"budget_memory\": \"%s\", \"budget_needed_with_all_tiers\": %llu", mem_name(mod->budget_mem),
              (unsigned long long)mod->budget_need_fast);
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
  if (mod->n_budget_portable) {
    sb_printf(md, "\nKernel tiers traded for memory: with every DSP/MVE tier the constants needed %llu bytes of %s, over "
                  "its budget, so %d operators keep the portable kernels (fewest multiply-accumulates per byte of "
                  "re-laid tables first): ",
              (unsigned long long)mod->budget_need_fast, mem_name(mod->budget_mem), mod->n_budget_portable);
    for (int i = 0; i < mod->n_budget_portable; i++) sb_printf(md, "%s%d", i ? ", " : "", (int)mod->budget_portable[i]);
    sb_append(md, ".\n");
  }
}

/* The residency document: every tensor and table, where it lives, when it is live. */
void export_residency_json(const Model *m, const Plan *p, const Module *mod, StrBuf *js) {
  Arena *a = m->arena;
  sb_append(js, "{\n  \"model\": ");
  json_string(js, mod->source);
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
    json_string(js, t->name);
    sb_printf(js, ", \"dtype\": \"%s\", \"shape\": %s, \"bytes\": %zu, \"role\": \"%s\", \"memory\": \"%s\", \"arena\": \"%s\", \"offset\": %zu, \"first_op\": %d, \"last_op\": %d",
              tensor_type_name(t->type), tensor_shape_str(a, t), t->bytes, role_name(st->role),
              mem_name(p->arenas[st->arena].memory), p->arenas[st->arena].name, st->offset, (int)st->first_use,
              (int)st->last_use);
    if (s != i) sb_printf(js, ", \"alias_of\": %d", (int)s);
    sb_append(js, "}");
    first = false;
  }
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    sb_printf(js, "%s    {\"id\": %d, \"name\": ", first ? "" : ",\n", (int)c->tensor_id);
    json_string(js, c->what);
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
    json_string(js, c->what);
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
              s != i ? arena_printf(a, " (alias of %d)", (int)s) : "", p->arenas[st->arena].name, st->offset,
              (int)st->first_use, (int)st->last_use);
  }
  sb_append(md, "\n## Constants\n\n| constant | bytes | image in | read from | residency | arena offset | readers |\n|---|---:|---|---|---|---:|---|\n");
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    char off[32] = "-";
    if (c->arena >= 0) snprintf(off, sizeof off, "%zu", c->offset);
    sb_printf(md, "| %s | %zu | %s | %s | %s | %s | %d..%d |\n", c->what, c->size, mem_name(c->source),
              mem_name(c->runtime), residency_name(c->residency), off, (int)c->first_reader, (int)c->last_reader);
  }
}

void export_build_files(const Model *m, const Plan *p, Module *mod) {
  add_cmake(mod, m->arena);
  add_makefile(mod, m->arena);
  add_cmake_toolchains(mod, m->arena);
  add_readme(m, p, mod, m->arena);
}
