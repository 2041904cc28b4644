/* CONCATENATION as views (issue 17 item 2): its inputs written straight into their slice
 * of the output.
 *
 * When every dimension of the output before the axis is 1, the output is its inputs' bytes
 * one after the other; with the same type and quantization on every side (no
 * requantisation) and no fused activation, the concatenation copies bytes and nothing
 * else. Each input then becomes a view of the output at its slice's offset (Tensor.alias_of
 * with alias_offset), its producer writes there directly, and the CONCATENATION runs no code,
 * as a RESHAPE alias does: the inputs stop costing bytes of their own and the copy is gone.
 * Inputs must be tensors one operator writes whole (no model input, constant, state, model
 * output, alias or aliased tensor), each once.
 *
 * A view makes the output live from its first input's producer on, so it can raise the
 * peak where that producer runs long before the concatenation; the pipeline applies the
 * views after the schedule is fixed and keeps each one only where the live peak does not
 * grow (pipeline.c). */
#include "../ir/quant.h"
#include "transform.h"

enum { BUILTIN_CONCATENATION = 2 };

static bool aliased_by_any(const Model *m, int32_t id) {
  for (int i = 0; i < m->n_tensors; i++)
    if (m->tensors[i].alias_of == id) return true;
  return false;
}

/* Exactly one operator (not an alias) writes `id`, before position k. */
static bool one_writer_before(const Model *m, int32_t id, int k) {
  int writers = 0;
  for (int j = 0; j < m->n_nodes; j++)
    for (int o = 0; o < m->nodes[j].n_out; o++)
      if (m->nodes[j].out[o] == id) {
        if (j >= k || m->nodes[j].is_alias) return false;
        writers++;
      }
  return writers == 1;
}

static bool viewable_input(const Model *m, const Node *n, int i, const Tensor *y, int k) {
  const int32_t id = n->in[i];
  if (id < 0 || id >= m->n_tensors) return false;
  const Tensor *x = &m->tensors[id];
  if (x->data || x->is_input || x->is_output || x->is_variable || x->alias_of >= 0 || !tensor_same_quant(x, y)) return false;
  for (int j = 0; j < n->n_in; j++)
    if (j != i && n->in[j] == id) return false;
  return !aliased_by_any(m, id) && one_writer_before(m, id, k);
}

/* True when node k (a CONCATENATION) can run as views; the output's dims before the axis are 1. */
static bool concat_viewable(const Model *m, const Node *n, int k) {
  if (n->builtin_code != BUILTIN_CONCATENATION || n->is_alias || n->n_out != 1 || n->out[0] < 0 || n->n_in < 1 ||
      n->opts.kind != OPTS_CONCATENATION || n->opts.concatenation.activation != 0)
    return false;
  const Tensor *y = &m->tensors[n->out[0]];
  if (y->data || y->is_input || y->is_variable || y->alias_of >= 0 || y->rank < 1) return false;
  int32_t axis = n->opts.concatenation.axis;
  if (axis < 0) axis += y->rank;
  if (axis < 0 || axis >= y->rank) return false;
  for (int d = 0; d < axis; d++)
    if (y->dims[d] != 1) return false;
  size_t bytes = 0;
  for (int i = 0; i < n->n_in; i++) {
    if (!viewable_input(m, n, i, y, k)) return false;
    bytes += m->tensors[n->in[i]].bytes;
  }
  return bytes == y->bytes;
}

bool transform_concat_viewable(const Model *m, int k) {
  return k >= 0 && k < m->n_nodes && concat_viewable(m, &m->nodes[k], k);
}

void transform_concat_view(Model *m, int k, bool on) {
  Node *n = &m->nodes[k];
  size_t offset = 0;
  for (int i = 0; i < n->n_in; i++) {
    Tensor *x = &m->tensors[n->in[i]];
    x->alias_of = on ? n->out[0] : -1;
    x->alias_offset = on ? offset : 0;
    offset += x->bytes;
  }
  n->is_alias = on;
}
