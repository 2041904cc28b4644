/* Patch-based execution (issue 17 item 4, MCUNetV2): the memory-heavy first stage of a
 * network runs band by band (rows of its last tensor), recomputing the halo each band's
 * receptive field needs, so its large intermediate tensors never exist whole. The chain
 * is rewritten in the IR before resolve (patch.c): one copy of each chain operator per
 * band, with explicit padding for the rows it sees, reading views of the chain input and
 * writing a view of the chain output, so the kernels, the planner and the verifier serve
 * it unchanged. */
#ifndef TINYAOT_PLAN_PATCH_H
#define TINYAOT_PLAN_PATCH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../ir/ir.h"

typedef struct PatchPlan {
  bool active;                /* a chain was rewritten */
  int n_ops;                  /* operators in the chain */
  int32_t *ops;               /* their model operator indices, in order */
  int32_t input_tensor;       /* the chain's input (read band by band, whole) */
  int32_t output_tensor;      /* its output (written band by band, whole) */
  int32_t out_rows;           /* rows of the output */
  int32_t band_rows;          /* output rows per band (the last band may have fewer) */
  int32_t n_bands;
  int64_t chain_macs;         /* MACs of the chain computed once */
  int64_t patched_macs;       /* MACs of all its bands (>= chain_macs: the halo) */
  int64_t model_macs;         /* MACs of the whole model, unpatched */
  size_t layer_by_layer_bound; /* live bytes (16-byte aligned tensors) before patching */
  size_t estimate;            /* the same bound of the patched schedule */
  size_t band_bytes;          /* largest band buffers live at once */
} PatchPlan;

/* Chains may start at node positions 0 .. PATCH_MAX_START - 1 (the network's first stage;
 * the pipeline plans each and keeps the smallest arena). */
enum { PATCH_MAX_START = 4 };
/* Chooses a chain from node position `start`, its end and the band height (the bytes the
 * bound saves against the MACs the halo recomputes) and rewrites the model; leaves it
 * unchanged with pp->active false when nothing lowers the bound. False only on OOM. */
bool patch_model(Model *m, int start, PatchPlan *pp, Diag *d);
/* report.json `"patch": {...}` (enabled false when p is NULL or inactive) and report.md's
 * paragraph (nothing then). */
struct StrBuf;
void patch_report_json(const Model *m, const PatchPlan *p, struct StrBuf *js);
void patch_report_md(const Model *m, const PatchPlan *p, struct StrBuf *md);

#endif
