/* The helpers every glue writer shares (export_glue.h): beneath export_files.c and the
 * writers (export_cmake.c, export_zephyr.c, export_neuralspot.c, export_pack.c), so
 * export_files.c calls the writers and the writers call only here. */
#include <ctype.h>
#include <string.h>

#include "export_glue.h"

StrBuf *glue_file(Glue *g, const char *path) {
  StrBuf *f = module_add_file(g->mod, g->a, path);
  if (!f) g->full = true;
  return f;
}

bool glue_is_source(const char *p) {
  size_t len = strlen(p);
  return strncmp(p, "src/", 4) == 0 && len > 6 && strcmp(p + len - 2, ".c") == 0;
}

void glue_list_sources(const Glue *g, StrBuf *sb, const char *dir, const char *lead, const char *sep) {
  for (int i = 0; i < g->mod->n_files; i++)
    if (glue_is_source(g->mod->files[i].path)) sb_printf(sb, "%s%s%s%s", lead, dir, g->mod->files[i].path, sep);
}

const char *glue_symbol(Arena *a, const char *name) {
  char *s = arena_strdup(a, name);
  for (char *c = s; c && *c; c++) *c = isalnum((unsigned char)*c) ? (char)toupper((unsigned char)*c) : '_';
  return s ? s : "MODULE";
}
