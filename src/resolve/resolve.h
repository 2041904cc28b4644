/* resolve: pick a kernel per operator, compute its constants, size and check its
 * scratch against the operator's declared contract. */
#ifndef TINYAOT_RESOLVE_H
#define TINYAOT_RESOLVE_H
#include <stdbool.h>

#include "../common/diag.h"
#include "../ir/ir.h"
#include "../ops/op.h"

/* Prepares every operator; reports every unsupported or invalid operator at once. */
bool resolve_model(Model *m, const Platform *platform, Diag *d);
/* The same, with the operators whose `portable[index]` is true prepared for the
 * platform without its DSP/MVE kernel tiers (the budget trade of the pipeline). */
bool resolve_model_mixed(Model *m, const Platform *platform, const bool *portable, Diag *d);
/* int8 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED / TRANSPOSE_CONV: refuses a bias and
 * weights that let an int32 accumulator overflow (run by resolve_model). */
bool resolve_check_accumulators(const Model *m, Diag *d);

#endif
