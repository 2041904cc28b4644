/* emit: the C of the module (header, model, weights), from the resolved IR. Lowers
 * every operator first (collecting the constants its code reads), lets the planner
 * place those constants, then writes the files. */
#ifndef TINYAOT_EMIT_H
#define TINYAOT_EMIT_H
#include <stdbool.h>

#include "../common/diag.h"
#include "../common/strbuf.h"
#include "../ir/ir.h"
#include "../plan/plan.h"
#include "../plan/schedule.h"

/* Room for every runtime kernel family (a .c and a .h each, 45 families today) plus the
 * module's own files: a model using many operators must never run out of either. */
enum { MODULE_MAX_FAMILIES = 64, MODULE_MAX_FILES = 192 };

/* A test case's stimulus and expected outputs (host byte order, which is little-endian on
 * every host tinyaot builds on), from tinyaot's own host run (cli/test_case_host.c). */
typedef struct TestCaseData {
  int n_inputs, n_outputs;
  uint8_t **inputs, **outputs;
  size_t *input_bytes, *output_bytes;
} TestCaseData;

typedef struct ModuleFile {
  const char *path; /* relative to the output directory */
  StrBuf text;      /* may hold binary data (sidecars) */
} ModuleFile;

typedef struct Module {
  const char *name;   /* module name: file names */
  const char *prefix; /* C identifier prefix */
  const char *PREFIX; /* upper-case prefix for macros */
  const char *source; /* model file name, for comments */
  /* heliaAOT's model metadata (model.name/description/version, config or command line),
   * NULL when not given: recorded in report.json and report.md (the version is also a
   * CMSIS pack's release version), not in the code */
  const char *meta_name, *meta_description, *meta_version;
  bool allocate_arenas;
  bool auto_hydrate;
  /* Optimisations gated by operator capabilities (all on by default; docs/operators.md). */
  bool intern;        /* DESCRIPTOR_DRIVEN operators with one call signature share one body */
  bool static_calls;  /* run() calls layers directly when every operator is STATIC_SCHEDULABLE */
  bool init_elision;  /* operators without state (STATELESS) get no init function */
  bool profile;       /* --profile: cycles around every operator into <prefix>_profile[] (emit_profile.c) */
  bool opt_size;      /* --opt size: portable kernels, no re-laid weight tables */
  double opt_balanced; /* --opt balanced=N (0: off): budget_portable holds its choice, budget_mem MEM_NONE */
  const char *cost_choice_json; /* the cost model's candidates when a trade or balanced chose (report.json) */
  const struct PlanSearchLog *plan_search; /* the planning search's candidates (report.json), or NULL */
  /* --opt speed over a memory budget: operators the pipeline put back on the portable
   * kernels (model operator indices, ascending), the memory and the bytes it saved. */
  int n_budget_portable;
  const int32_t *budget_portable;
  MemType budget_mem;
  uint64_t budget_need_fast;   /* bytes that memory needed with every tier */
  /* Default mode over a memory budget: planned again with --memory.optimize max (the
   * memory that overflowed and the bytes it needed in default mode). */
  bool memory_escalated;
  MemType escalated_mem;
  uint64_t escalated_need_default;
  ScheduleReport schedule; /* the reordering of REORDERABLE operators (plan/schedule.c) */
  /* What the emitter did, for the report. */
  int interned_ops, call_groups, init_functions;
  bool direct_calls;
  int n_files;
  ModuleFile files[MODULE_MAX_FILES];
  const char *families[MODULE_MAX_FAMILIES]; /* runtime kernel families used, sorted */
  int n_families;
  /* Kernel variants the layers call (em_kernel_variants), sorted by macro: written to
   * the module's ta_config.h so its kernels compile only those. */
  struct {
    const char *macro;
    uint32_t bits;
  } variants[16];
  int n_variants;
  /* --test.enabled: emit <prefix>_test_case_init/run (emit_test_case.c) with the
   * stimulus and expected outputs of test_golden_data (.npz), compared within
   * test_tolerance. */
  bool test_enabled;
  double test_tolerance;
  const char *test_golden_data;
  const TestCaseData *test_data; /* without golden data: the host run's stimulus and outputs */
  /* --shared-scratch (several models in one firmware, src/cli/convert_multi.c): the
   * scratch arenas are the group's buffers <shared_scratch>_scratch_<mem>, declared in
   * ../../<shared_scratch>.h, and run() holds the group's owner flag
   * <shared_scratch>_owner (shared_id while it runs). NULL: the module owns its scratch. */
  const char *shared_scratch;
  int shared_id;
  /* for host tests: the pinned source blobs (symbol or sidecar) */
  int n_pinned_sources;
  const char *pinned_sources[MEM_COUNT * MEM_COUNT];
} Module;

/* Adds a file to the module; returns its buffer. */
StrBuf *module_add_file(Module *mod, Arena *a, const char *path);
void module_free(Module *mod);
/* Lowers, finishes the plan (constants, budgets) and writes the C files. */
bool emit_module(Model *m, Plan *p, Module *mod, Diag *d);
/* heliaAOT's names for the generated API (emit_helia.c): appended to <name>_model.h,
 * plus include/<prefix>_common.h (and <prefix>_model.h when the name differs). */
void emit_helia_header(const Model *m, const Plan *p, const Module *mod, Arena *a, StrBuf *h);
bool emit_helia_files(Module *mod, Arena *a, Diag *d);
/* --test.enabled: include/<prefix>_test_case.h and src/<name>_test_case.c. */
bool emit_test_case(const Model *m, Module *mod, Arena *a, Diag *d);
/* Region names and byte sizes when arenas are caller-owned (allocate_arenas off). */
const char *emit_region_name(Arena *a, const Plan *p, int arena);

#endif
