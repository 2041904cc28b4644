/* What the graph rewrites (src/transform) leave in the IR, read back by the stages after
 * them and by the reports: the rewrites mark nodes and tensors (Node.is_alias, the fold_*
 * options, Model.integer_io_from), and these queries read only those marks, so no later
 * stage needs the rewrites themselves. */
#ifndef TINYAOT_REWRITES_H
#define TINYAOT_REWRITES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

/* SPLIT / SPLIT_V / UNPACK / SLICE / STRIDED_SLICE: the operators slice_views may turn into views. */
bool rewrite_is_slicing(int32_t builtin_code);
/* The bytes of the padded tensor convolution n no longer reads (a folded PAD), or 0. */
size_t rewrite_fold_bytes(const Model *m, const Node *n);
/* Convolutions that took a PAD in, and the bytes of the padded tensors that no longer
 * exist (one per convolution: a PAD read by two counts twice). */
void rewrite_fold_summary(const Model *m, int *folds, size_t *bytes);
/* QUANTIZE nodes that became aliases (elide_quantize). */
int rewrite_quantizes_elided(const Model *m);
/* CONCATENATION nodes that run as views (concat_views). */
int rewrite_concats_viewed(const Model *m);
/* Slicing nodes that run as views (slice_views). */
int rewrite_slices_viewed(const Model *m);
/* --integer-io: for input io (< n_inputs) or output io - n_inputs, the float tensor it
 * replaced, or -1. */
int32_t rewrite_integer_io_from(const Model *m, int io);

#endif
