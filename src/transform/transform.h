/* transform: graph rewrites that keep TFLite numerics bit for bit. */
#ifndef TINYAOT_TRANSFORM_H
#define TINYAOT_TRANSFORM_H
#include <stdbool.h>

#include "../common/diag.h"
#include "../ir/ir.h"
#include "../ir/rewrites.h"
#include "../ir/storage.h"

typedef struct TransformOptions {
  bool alias_reshapes; /* RESHAPE / SQUEEZE / EXPAND_DIMS share their input's storage */
  bool fold_pad;       /* PAD/PADV2 with the zero point folded into the convolutions reading it */
  bool elide_quantize; /* identity QUANTIZE and DEQUANTIZE->QUANTIZE round trips share storage, run nothing */
  bool integer_io;     /* --integer-io: a float input's leading QUANTIZE and a float output's trailing
                        * DEQUANTIZE are dropped, the integer tensors become the model's I/O */
} TransformOptions;

/* What the rewrites did, for the report. */
typedef struct TransformStats {
  int pads_folded;
  int quantizes_elided;
} TransformStats;

bool transform_model(Model *m, const TransformOptions *opt, Diag *d);
/* Like transform_model, counting what each rewrite did into `stats` (may be NULL). */
bool transform_model_stats(Model *m, const TransformOptions *opt, TransformStats *stats, Diag *d);
/* fold_pad.c: drops each foldable PAD node; returns how many. */
int transform_fold_pads(Model *m);
/* elide_quantize.c: returns how many QUANTIZE nodes became aliases (dropping the
 * DEQUANTIZE of a round trip); rewrite_quantizes_elided (ir/rewrites.h) counts them afterwards. */
int transform_elide_quantize(Model *m);
/* concat_views.c: can CONCATENATION node k run as views (its inputs written into their
 * slices of its output)? transform_concat_view switches that on or back off;
 * rewrite_concats_viewed (ir/rewrites.h) counts the nodes that run as views. */
bool transform_concat_viewable(const Model *m, int k);
void transform_concat_view(Model *m, int k, bool on);
/* slice_views.c: can SPLIT / SPLIT_V / UNPACK / SLICE / STRIDED_SLICE node k run as views
 * (every output one contiguous range of its input, read in place)? transform_slice_view
 * switches that on or back off; rewrite_slices_viewed (ir/rewrites.h) counts the nodes that
 * run as views. */
bool transform_slice_viewable(const Model *m, int k);
void transform_slice_view(Model *m, int k, bool on);
/* integer_io.c: makes the model's float I/O integer where a QUANTIZE / DEQUANTIZE is all
 * that stands between (see the file); returns how many inputs and outputs changed and
 * records what each replaced (rewrite_integer_io_from, ir/rewrites.h). */
int transform_integer_io(Model *m);
/* Would tensors `in` and `out` sharing storage give a model output the bytes of a model
 * input (they keep distinct buffers)? Transitively: `in`'s storage is an input, and `out`
 * is a model output or some model output aliases it through any chain of aliases and views
 * (issue 29: each rewrite once checked only its own two tensors). */
bool transform_joins_io(const Model *m, int32_t in, int32_t out);

#endif
