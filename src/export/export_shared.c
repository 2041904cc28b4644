/* Several models in one firmware (tinyaot convert A B C -o DIR [--shared-scratch]): the
 * files of DIR itself. With --shared-scratch every model's scratch arena in a memory
 * overlays one buffer of that memory, sized to the largest (persistent state, pinned and
 * streamed constants stay each model's own); the buffers and the group's owner flag are
 * defined once, in DIR/<SHARED_NAME>.c. DIR/report.json gives the combined figures. */
#include "export_shared.h"

#include <ctype.h>
#include <string.h>

/* Bytes of a model's arenas: all of them, or those of one role. */
static size_t arena_bytes(const Plan *p, int role) {
  size_t n = 0;
  for (int i = 0; i < p->n_arenas; i++)
    if (role < 0 || p->arenas[i].role == (ArenaRole)role) n += p->arenas[i].size;
  return n;
}

void shared_group_sizes(const SharedMember *members, int n, SharedGroup *g) {
  memset(g, 0, sizeof *g);
  for (int k = 0; k < n; k++) {
    const Plan *p = members[k].plan;
    for (int i = 0; i < p->n_arenas; i++) {
      const PlanArena *ar = &p->arenas[i];
      if (ar->role != AR_SCRATCH) continue;
      if (ar->size > g->scratch[ar->memory]) g->scratch[ar->memory] = ar->size;
      g->scratch_name[ar->memory] = ar->name;
    }
    g->separate_bytes += arena_bytes(p, -1);
    g->unshared_bytes += arena_bytes(p, -1) - arena_bytes(p, AR_SCRATCH);
  }
  for (int mem = 0; mem < MEM_COUNT; mem++) g->shared_bytes += g->scratch[mem];
}

static const char *upper_name(Arena *a, const char *s) {
  char *u = arena_strdup(a, s);
  for (char *q = u; q && *q; q++) *q = (char)toupper((unsigned char)*q);
  return u;
}

static void shared_header(const SharedMember *members, int n, const SharedGroup *g, Arena *a, StrBuf *h) {
  const char *S = upper_name(a, SHARED_NAME);
  sb_append(h, "/* The shared scratch of the models");
  for (int k = 0; k < n; k++) sb_printf(h, "%s %s", k ? "," : "", members[k].prefix);
  sb_append(h, " (tinyaot convert --shared-scratch).\n"
               " * Each model's scratch arena in a memory overlays that memory's buffer below, sized to\n"
               " * the largest; their state and constants are not shared. Rule: the models never run\n"
               " * concurrently. <prefix>_model_run returns -3 while another model of the group is\n"
               " * mid-run (" SHARED_NAME "_owner). A model's inputs and outputs live in the scratch: fill\n"
               " * them just before its run and read the outputs before another model of the group runs.\n"
               " * Compile " SHARED_NAME ".c once with the models' sources. */\n");
  sb_printf(h, "#ifndef %s_H\n#define %s_H\n\n#include <stdint.h>\n\n", S, S);
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    if (!g->scratch_name[mem]) continue;
    const char *nm = g->scratch_name[mem], *NM = upper_name(a, nm), *M = mem_name((MemType)mem);
    size_t bytes = g->scratch[mem] ? g->scratch[mem] : 16;
    sb_printf(h, "/* Placement of the %s buffer: define it (e.g. a section attribute) in the build. */\n", M);
    sb_printf(h, "#ifndef %s_PUT_IN_%s\n#define %s_PUT_IN_%s\n#endif\n", S, M, S, M);
    sb_printf(h, "#define %s_%s_BYTES %zuu\n", S, NM, g->scratch[mem]);
    sb_printf(h, "typedef union {\n  uint8_t bytes[%zu];\n  int64_t align_;\n} %s_%s_t;\n", bytes, SHARED_NAME, nm);
    sb_printf(h, "extern %s_%s_t %s_%s;\n\n", SHARED_NAME, nm, SHARED_NAME, nm);
  }
  sb_append(h, "/* 0: no run in progress; otherwise the running model:");
  for (int k = 0; k < n; k++) sb_printf(h, "%s %d %s", k ? "," : "", k + 1, members[k].prefix);
  sb_printf(h, ". */\nextern volatile int32_t %s_owner;\n\n#endif\n", SHARED_NAME);
}

static void shared_source(const SharedGroup *g, Arena *a, StrBuf *c) {
  const char *S = upper_name(a, SHARED_NAME);
  sb_append(c, "/* The group's shared scratch buffers and owner flag (" SHARED_NAME ".h). */\n");
  sb_append(c, "#include \"" SHARED_NAME ".h\"\n\n");
  for (int mem = 0; mem < MEM_COUNT; mem++)
    if (g->scratch_name[mem])
      sb_printf(c, "%s_PUT_IN_%s %s_%s_t %s_%s;\n", S, mem_name((MemType)mem), SHARED_NAME, g->scratch_name[mem],
                SHARED_NAME, g->scratch_name[mem]);
  sb_append(c, "volatile int32_t " SHARED_NAME "_owner;\n");
}

static void group_report(const SharedMember *members, int n, const SharedGroup *g, bool shared, StrBuf *js) {
  sb_printf(js, "{\n  \"shared_scratch\": %s,\n  \"shared_scratch_bytes\": %zu,\n", shared ? "true" : "false",
            shared ? g->shared_bytes : (size_t)0);
  sb_append(js, "  \"shared_scratch_buffers\": [");
  int first = 1;
  for (int mem = 0; shared && mem < MEM_COUNT; mem++) {
    if (!g->scratch_name[mem]) continue;
    sb_printf(js, "%s\n    {\"symbol\": \"%s_%s\", \"memory\": \"%s\", \"bytes\": %zu}", first ? "" : ",", SHARED_NAME,
              g->scratch_name[mem], mem_name((MemType)mem), g->scratch[mem]);
    first = 0;
  }
  sb_append(js, first ? "],\n" : "\n  ],\n");
  /* Together: the shared scratch plus every model's own arenas (state, pinned, stream). */
  sb_printf(js, "  \"combined_arena_bytes\": %zu,\n  \"separate_arena_bytes\": %zu,\n",
            shared ? g->shared_bytes + g->unshared_bytes : g->separate_bytes, g->separate_bytes);
  sb_append(js, "  \"models\": [");
  for (int k = 0; k < n; k++) {
    const Plan *p = members[k].plan;
    sb_append(js, k ? ",\n    {" : "\n    {");
    sb_append(js, "\"name\": ");
    sb_append_json_string(js, members[k].name);
    sb_append(js, ", \"prefix\": ");
    sb_append_json_string(js, members[k].prefix);
    sb_append(js, ", \"model\": ");
    sb_append_json_string(js, members[k].model_path);
    sb_printf(js, ", \"owner_id\": %d, \"arena_bytes\": %zu, \"scratch_bytes\": %zu, \"unshared_bytes\": %zu}", k + 1,
              arena_bytes(p, -1), arena_bytes(p, AR_SCRATCH), arena_bytes(p, -1) - arena_bytes(p, AR_SCRATCH));
  }
  sb_append(js, "\n  ]\n}\n");
}

bool export_shared_group(Module *group, Arena *a, const SharedMember *members, int n, bool shared, Diag *d) {
  SharedGroup g;
  shared_group_sizes(members, n, &g);
  if (shared) {
    StrBuf *h = module_add_file(group, a, SHARED_NAME ".h");
    StrBuf *c = module_add_file(group, a, SHARED_NAME ".c");
    if (!h || !c) return diag_error(d, "out of memory");
    shared_header(members, n, &g, a, h);
    shared_source(&g, a, c);
  }
  StrBuf *js = module_add_file(group, a, "report.json");
  if (!js) return diag_error(d, "out of memory");
  group_report(members, n, &g, shared, js);
  return true;
}
