/* The per-operator cost model: estimated instructions and cycles of a kernel on a core,
 * from the operator's geometry, with coefficients fitted to the instructions and the
 * modelled cycles measured under QEMU (bench/layers.json for the DSP/MVE tiers,
 * bench/cost/layers_portable.json and portable_cycles.json for the portable kernels; the
 * cycles are the QEMU plugin's timing model, docs/cycles.md; `make cost-model` refits cost_table.c,
 * docs/kernels.md "Cost model"). The instruction estimates drive the budget trade and
 * `--opt balanced` (src/cli/pipeline.c); the cycle estimates are reported only (`tinyaot
 * inspect`, report.json/report.md/report.html), with milliseconds at the platform's clock. */
#ifndef TINYAOT_COST_MODEL_H
#define TINYAOT_COST_MODEL_H
#include <stdbool.h>
#include <stdint.h>

#include "../ir/ir.h"
#include "../platform/platform.h"

/* The geometry terms every formula is a linear combination of (same order as the
 * coefficients of CostRow). */
enum {
  COST_MACS, COST_OUT_ELEMS, COST_PIXELS, COST_GATHER, COST_TAP_RUNS, COST_SHALLOW_MACS, COST_IN_ELEMS, COST_CALL,
  COST_N_TERMS
};

/* MACs; output elements; output pixels (elements / channels); window elements gathered (a KxK convolution's im2col copy:
 * output pixels x taps x input channels; a depthwise convolution's border windows: its output
 * elements whose window crosses the padding x taps); tap runs (the innermost loops started:
 * a convolution's MACs / input channels, a depthwise convolution's output pixels x taps,
 * a pooling's output elements x window); the MACs of a convolution with fewer than 4
 * input channels (a first layer: its windows are too shallow for the vector loops, which
 * take other paths); input elements; 1 per call. */
typedef struct CostFeatures {
  double term[COST_N_TERMS];
} CostFeatures;

typedef enum CostCore { COST_M4, COST_M55, COST_N_CORES } CostCore;

/* One fitted formula: instructions = sum coef[i] * term[i] for `kernel` on `core`, and
 * cycles = sum cycle_coef[i] * term[i] when the bench measured its cycles (n_cycle_points > 0).
 * kernel "*" is the core's fallback for kernels the bench never measured. */
typedef struct CostRow {
  CostCore core;
  const char *kernel;
  double coef[COST_N_TERMS];
  int n_points;       /* measured layers it was fitted on */
  double max_rel_err; /* worst |estimate - measured| / measured over them */
  double cycle_coef[COST_N_TERMS];
  int n_cycle_points;       /* layers with measured cycles it was fitted on (0: none) */
  double max_cycle_rel_err; /* worst relative error of the cycle formula over them */
} CostRow;

/* A core's cycles per instruction over every layer measured with cycles: a kernel with no
 * cycle formula of its own is estimated at its instructions times this (0: no cycles known). */
typedef struct CostCpi {
  CostCore core;
  double cycles_per_instruction;
  int n_points;
} CostCpi;

/* Where a cycle estimate comes from. */
typedef enum CostCycleSource {
  COST_CYCLES_NONE,   /* no cycles measured on this core: no estimate */
  COST_CYCLES_FITTED, /* the kernel's own cycle formula */
  COST_CYCLES_CPI     /* its instruction estimate x the core's cycles per instruction */
} CostCycleSource;

/* Code bytes of a runtime kernel family on a core (.text, the largest measured). */
typedef struct CostCode {
  CostCore core;
  const char *family;
  uint32_t bytes;
} CostCode;

extern const CostRow cost_rows[];
extern const int cost_n_rows;
extern const CostCode cost_code[];
extern const int cost_n_code;
extern const CostCpi cost_cpi[];
extern const int cost_n_cpi;

void cost_features(const Model *m, const Node *n, CostFeatures *f);
/* The core whose coefficients apply: MVE -> Cortex-M55, otherwise Cortex-M4 (the host's
 * estimates are Cortex-M4's portable ones). */
CostCore cost_core_of(const Platform *p);
const char *cost_core_name(CostCore c);
/* Estimated instructions of `kernel` (a Node.kernel name) on `core` for this geometry;
 * 0 for an alias. `fitted` (optional) says whether the kernel has its own formula. */
double cost_estimate(CostCore core, const char *kernel, const CostFeatures *f, bool *fitted);
double cost_node_estimate(const Model *m, const Node *n, CostCore core);
/* Estimated cycles of `kernel` on `core` (0 for an alias); `source` (optional) says how. */
double cost_estimate_cycles(CostCore core, const char *kernel, const CostFeatures *f, CostCycleSource *source);
double cost_node_cycles(const Model *m, const Node *n, CostCore core, CostCycleSource *source);
/* Whether any cycles were measured on `core` (else every cycle estimate is unknown). */
bool cost_cycles_known(CostCore core);
const char *cost_cycle_source_name(CostCycleSource s); /* "fitted", "cpi", "none" */
/* Code bytes of one kernel family on a core (0 when unmeasured). */
uint32_t cost_family_code_bytes(CostCore core, const char *family);

#endif
