/* export: runtime kernels, build glue, README and memory report, then the files. */
#ifndef TINYAOT_EXPORT_H
#define TINYAOT_EXPORT_H
#include <stdbool.h>

#include "../common/diag.h"
#include "../emit/emit.h"
#include "../ir/ir.h"
#include "../plan/plan.h"

/* Adds the runtime kernel files the module uses (identifiers re-prefixed). */
bool export_runtime(const Model *m, Module *mod, Diag *d);
/* Adds CMakeLists.txt, Makefile, module.mk, README.md. */
void export_build_files(const Model *m, const Plan *p, Module *mod);
/* Adds report.json and report.md. */
void export_report(const Model *m, const Plan *p, Module *mod);
/* The residency document (also report.json): every tensor's memory, residency,
 * offset, size and lifetime, and the stream schedule. */
void export_residency_json(const Model *m, const Plan *p, const Module *mod, StrBuf *js);
/* Writes every file under dir (created if needed). Nothing is written unless the
 * whole module was generated; on a write error the partial files are removed. */
bool export_write(const Module *mod, const char *dir, Diag *d);
/* As export_write, keeping the folder's manifest (.tinyaot-manifest): files tinyaot did
 * not write are never overwritten or deleted, the previous conversion's files are
 * replaced, and a non-empty folder without a manifest is refused unless `force` (then
 * the module is written beside its files). Every file gets an SPDX/version header
 * where its format has comments. */
bool export_write_module(const Module *mod, const char *dir, bool force, Diag *d);

#endif
