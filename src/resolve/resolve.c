#include "resolve.h"

#include <stdio.h>

static bool add_scratch_tensor(Model *m, Node *n, Diag *d) {
  char name[96];
  snprintf(name, sizeof name, "scratch of operator %d (%s)", (int)n->index, n->opname);
  int32_t id = model_add_tensor(m, name, TT_INT8, n->scratch_bytes);
  if (id < 0) return diag_error(d, "out of memory");
  m->tensors[id].is_scratch_buffer = true;
  n->scratch_tensor = id;
  return true;
}

/* A hybrid (dynamic-range quantised) operator: a float32 activation in, an int8 (or int4)
 * quantised constant beside it. Returns that constant, or NULL. */
static const Tensor *hybrid_weight(const Model *m, const Node *n) {
  bool float_act = false;
  const Tensor *w = NULL;
  for (int i = 0; i < n->n_in; i++) {
    const Tensor *t = node_input(m, n, i);
    if (!t) continue;
    if (!t->data && t->type == TT_FLOAT32) float_act = true;
    if (t->data && t->type == TT_INT8 && t->n_quant > 0 && !w) w = t;
  }
  return float_act ? w : NULL;
}

/* After a failed prepare: when an operator is hybrid, that is the cause, said alone in one
 * line instead of each operator's dtype clauses (TFLite Micro has no hybrid kernels either). */
static void name_hybrid_cause(const Model *m, Diag *d) {
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    const Tensor *w = hybrid_weight(m, n);
    if (!w) continue;
    diag_init(d, d->file);
    diag_error(d, "operator %d (%s): the model is hybrid-quantised (dynamic-range: float32 activations with %s "
                  "weights, tensor %d '%s'), which tinyaot does not support, as TensorFlow Lite Micro does not; "
                  "quantise it fully (integer activations, from a representative dataset) or keep it float32",
               k, n->opname, tensor_dtype_desc(w), (int)w->id, w->name);
    return;
  }
}

bool resolve_model(Model *m, const Platform *platform, Diag *d) { return resolve_model_mixed(m, platform, NULL, d); }

bool resolve_model_mixed(Model *m, const Platform *platform, const bool *portable, Diag *d) {
  Platform plain = *platform;
  plain.dsp = plain.mve = false;
  PrepareCtx pc = {.model = m, .arena = m->arena, .diag = d, .platform = platform, .find = op_find};
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    pc.platform = portable && portable[n->index] ? &plain : platform;
    n->def = op_find(n->builtin_code);
    if (!n->def) {
      const Tensor *in = node_input(m, n, 0);
      diag_error(d, "operator %d (%s): unsupported operator%s%s", k, n->opname, in ? " on " : "",
                 in ? tensor_type_name(in->type) : "");
      continue;
    }
    n->def->prepare(&pc, n);
  }
  if (diag_failed(d)) {
    name_hybrid_cause(m, d);
    return false;
  }
  if (!resolve_check_accumulators(m, d)) return false;
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    if (!op_check_scratch(m, n, d)) return false;
    if (n->scratch_bytes > 0 && !add_scratch_tensor(m, n, d)) return false;
  }
  return true;
}
