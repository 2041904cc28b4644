/* The per-operator cost model: estimated instructions of a kernel on a core, from the
 * operator's geometry, with coefficients fitted to instructions measured under QEMU
 * (bench/layers.json for the DSP/MVE tiers, bench/cost/layers_portable.json for the
 * portable kernels; `make cost-model` refits cost_table.c, docs/kernels.md "Cost model").
 * Used by the budget trade and `--opt balanced` (src/cli/pipeline.c) and shown by
 * `tinyaot inspect` and report.json/report.md. */
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

/* One fitted formula: instructions = sum coef[i] * term[i] for `kernel` on `core`.
 * kernel "*" is the core's fallback for kernels the bench never measured. */
typedef struct CostRow {
  CostCore core;
  const char *kernel;
  double coef[COST_N_TERMS];
  int n_points;       /* measured layers it was fitted on */
  double max_rel_err; /* worst |estimate - measured| / measured over them */
} CostRow;

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

void cost_features(const Model *m, const Node *n, CostFeatures *f);
/* The core whose coefficients apply: MVE -> Cortex-M55, otherwise Cortex-M4 (the host's
 * estimates are Cortex-M4's portable ones). */
CostCore cost_core_of(const Platform *p);
const char *cost_core_name(CostCore c);
/* Estimated instructions of `kernel` (a Node.kernel name) on `core` for this geometry;
 * 0 for an alias. `fitted` (optional) says whether the kernel has its own formula. */
double cost_estimate(CostCore core, const char *kernel, const CostFeatures *f, bool *fitted);
double cost_node_estimate(const Model *m, const Node *n, CostCore core);
/* Code bytes of one kernel family on a core (0 when unmeasured). */
uint32_t cost_family_code_bytes(CostCore core, const char *family);

#endif
