#include "transform.h"

enum { BUILTIN_RESHAPE = 22, BUILTIN_SQUEEZE = 43, BUILTIN_EXPAND_DIMS = 70 };

static bool is_pure_reshape(int32_t code) {
  return code == BUILTIN_RESHAPE || code == BUILTIN_SQUEEZE || code == BUILTIN_EXPAND_DIMS;
}

/* A reshape can share storage when both sides hold the same bytes and neither side
 * is state that outlives one inference. */
static void alias_reshape(Model *m, Node *n) {
  if (n->n_in < 1 || n->n_out != 1 || n->in[0] < 0) return;
  Tensor *in = &m->tensors[n->in[0]];
  Tensor *out = &m->tensors[n->out[0]];
  if (in->is_variable || out->is_variable || in->bytes != out->bytes || in->type != out->type) return;
  if (out->is_input) return;
  if (in->data) {
    out->data = in->data; /* a reshaped constant is the same constant, stored once */
  } else if (transform_joins_io(m, in->id, out->id)) {
    return; /* keep input and output buffers distinct */
  }
  out->alias_of = in->id;
  n->is_alias = true;
}

bool transform_model(Model *m, const TransformOptions *opt, Diag *d) {
  return transform_model_stats(m, opt, NULL, d);
}

bool transform_model_stats(Model *m, const TransformOptions *opt, TransformStats *stats, Diag *d) {
  (void)d;
  /* integer I/O first: the QUANTIZE it drops is no identity for elide_quantize to share */
  if (opt->integer_io) transform_integer_io(m);
  /* folds first: a folded PAD's output no longer exists for an alias to share */
  const int folded = opt->fold_pad ? transform_fold_pads(m) : 0;
  const int elided = opt->elide_quantize ? transform_elide_quantize(m) : 0;
  if (stats) stats->pads_folded = folded, stats->quantizes_elided = elided;
  if (opt->alias_reshapes)
    for (int k = 0; k < m->n_nodes; k++)
      if (is_pure_reshape(m->nodes[k].builtin_code)) alias_reshape(m, &m->nodes[k]);
  return true;
}
