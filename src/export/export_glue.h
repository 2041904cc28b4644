/* Build glue shared by the module types (export_files.c dispatches, one file per ecosystem). */
#ifndef TINYAOT_EXPORT_GLUE_H
#define TINYAOT_EXPORT_GLUE_H
#include <stdbool.h>

#include "export.h"

/* What one conversion writes the glue for. */
typedef struct Glue {
  const Model *m;
  const Plan *p;
  Module *mod;
  Arena *a;
  ModuleType type;
  const char *api_dir; /* public headers: "include" (tinyaot) or "includes-api" (heliaAOT types) */
  bool full;           /* false once a file could not be added (MODULE_MAX_FILES) */
  /* CMSIS pack identity (export_pack_identity): from the .pack file name
   * (Vendor.Name.Version.pack) or --model.version, else tinyaot / the module name / 1.0.0 */
  const char *pack_vendor, *pack_name, *pack_version;
} Glue;

/* One Cortex-M core the module ships a cross toolchain description for. */
typedef struct CrossTarget {
  const char *core;  /* cortex-m4, cortex-m55: the names `make TARGET=` takes too */
  const char *flags; /* code generation flags: core, float ABI, FPU (MVE is implied by the M55) */
  const char *what;  /* one line for the comments */
} CrossTarget;

extern const CrossTarget glue_cross_targets[];
extern const int glue_n_cross_targets;
/* Section-per-function/object lets the final link drop kernels the model never calls. */
extern const char glue_section_flags[];

/* Adds a file, or marks the glue incomplete. */
StrBuf *glue_file(Glue *g, const char *path);
bool glue_is_source(const char *path); /* src/<x>.c */
/* Appends lead + path + sep for every module source, paths prefixed with `dir`
 * ("" for paths relative to the module root). */
void glue_list_sources(const Glue *g, StrBuf *sb, const char *dir, const char *lead, const char *sep);
/* "CONFIG"-style symbol: the name upper-cased, anything but [A-Z0-9_] as '_'. */
const char *glue_symbol(Arena *a, const char *name);

void glue_cmake(Glue *g);            /* CMakeLists.txt (static library) */
void glue_cmake_toolchains(Glue *g); /* cmake/arm-none-eabi-<core>.cmake */
void glue_makefile(Glue *g);         /* Makefile (make TARGET=<core>) */
void glue_nsx(Glue *g);              /* CMakeLists.txt with nsx::<name>, nsx-module.yaml */
void glue_neuralspot(Glue *g);       /* module.mk */
void glue_zephyr(Glue *g);           /* zephyr/{module.yml,CMakeLists.txt,Kconfig} */
void glue_pack(Glue *g);             /* <vendor>.<name>.pdsc */
/* The pack's default vendor and version (a folder module without --model.version). */
extern const char glue_pack_vendor[];
extern const char glue_pack_version[];
/* Sets g's pack identity from the .pack path (NULL for a folder) and the module's
 * meta_version; false with a one-line reason when the name breaks the CMSIS-Pack rule
 * (Vendor.Name.Version.pack, Version semantic) or disagrees with --model.version. */
bool glue_pack_identity(Glue *g, const char *pack_path, Diag *d);
/* The release date of the pack and the archive's timestamps: SOURCE_DATE_EPOCH when set
 * (reproducible builds), else now; UTC. */
void glue_release_time(int *year, int *month, int *day, int *hour, int *minute, int *second);

#endif
