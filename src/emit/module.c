/* The module's list of generated files, shared by every writer (emit, export, cli). */
#include "emit.h"

StrBuf *module_add_file(Module *mod, Arena *a, const char *path) {
  if (mod->n_files >= MODULE_MAX_FILES) return NULL;
  ModuleFile *f = &mod->files[mod->n_files++];
  f->path = arena_strdup(a, path);
  sb_init_heap(&f->text, &a->heap);
  return &f->text;
}

void module_free(Module *mod) {
  for (int i = 0; i < mod->n_files; i++) sb_free(&mod->files[i].text);
  mod->n_files = 0;
}
