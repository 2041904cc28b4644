/* emit: the C of the module (header, model, weights), from the resolved IR and plan. */
#ifndef TINYAOT_EMIT_H
#define TINYAOT_EMIT_H
#include <stdbool.h>

#include "../common/diag.h"
#include "../common/strbuf.h"
#include "../ir/ir.h"
#include "../plan/plan.h"

enum { MODULE_MAX_FILES = 64 };

typedef struct ModuleFile {
  const char *path; /* relative to the output directory */
  StrBuf text;
} ModuleFile;

typedef struct Module {
  const char *name;   /* module name: file names */
  const char *prefix; /* C identifier prefix */
  const char *PREFIX; /* upper-case prefix for macros */
  const char *source; /* model file name, for comments */
  int n_files;
  ModuleFile files[MODULE_MAX_FILES];
  const char *families[32]; /* runtime kernel families used, sorted */
  int n_families;
} Module;

/* Adds a file to the module; returns its buffer. */
StrBuf *module_add_file(Module *mod, Arena *a, const char *path);
void module_free(Module *mod);
bool emit_module(const Model *m, const Plan *p, Module *mod, Diag *d);

#endif
