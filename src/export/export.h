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
/* --module.type: the ecosystem the build glue is written for (docs/heliaaot.md). */
typedef enum ModuleType {
  MODULE_TYPE_DEFAULT,    /* no --module.type: every tinyaot glue (CMake, Make, Zephyr, module.mk) */
  MODULE_TYPE_NEURALSPOT, /* module.mk */
  MODULE_TYPE_ZEPHYR,     /* zephyr/{module.yml,CMakeLists.txt,Kconfig} */
  MODULE_TYPE_CMAKE,      /* CMakeLists.txt, cmake/ toolchains */
  MODULE_TYPE_NSX,        /* CMakeLists.txt with nsx::<name>, nsx-module.yaml */
  MODULE_TYPE_CMSIS_PACK, /* <vendor>.<name>.pdsc (and the .pack archive) */
} ModuleType;
/* NULL or a heliaAOT type name; false for an unknown name. */
bool export_module_type(const char *name, ModuleType *type);
/* Adds the build glue of `type_name` (NULL: the default) and README.md. `out_path` (may
 * be NULL) decides the archive: *.pack needs cmsis_pack (implied by the default). Call it
 * after every other file is in the module: the glue lists them. */
bool export_build_files(const Model *m, const Plan *p, Module *mod, const char *type_name, const char *out_path,
                        Diag *d);
/* --module.path ending in .pack or .zip: the module is written as one zip archive. */
bool export_is_archive(const char *path);
/* The archive: .pack has the module's files at its root (the .pdsc among them), .zip
 * wraps them in <name>/. Written to a temporary file and renamed: all or nothing. */
bool export_write_archive(const Module *mod, const char *path, Diag *d);
/* The bytes written for a module file: its SPDX/version header where the format has
 * comments, then its text (export_stamp.c). Caller frees; NULL when out of memory. */
char *export_stamped(const ModuleFile *f, size_t *len);
/* Adds report.json, report.md and report.html. */
void export_report(const Model *m, const Plan *p, Module *mod);
/* Adds report.html: the same plan as a self-contained page (timelines per memory,
 * budgets, stream schedule, operators; export_report_html.c). */
void export_report_html(const Model *m, const Plan *p, Module *mod);
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
/* The same for any list of files (tinyaot run's outputs, more than a module holds), with
 * its own manifest file name: each writer replaces only the files its manifest lists. */
bool export_write_files(const ModuleFile *files, int n_files, const char *dir, const char *manifest, bool force,
                        Diag *d);

#endif
