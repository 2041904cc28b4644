/* Live bytes per step, layer by layer and as the chosen execution runs (savings.h). */
#include "savings.h"

#include "plan.h"
#include "../ir/storage.h"

size_t plan_live_at(const Model *m, int k) {
  size_t live = 0;
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (t->role == ROLE_SCRATCH && plan_needs_storage(m, i) && t->first_use <= k && k <= t->last_use) live += t->bytes;
  }
  return live;
}

size_t plan_inplace_saving(const Model *m, int k) {
  if (k < 0 || k >= m->n_nodes) return 0;
  const Node *n = &m->nodes[k];
  if (!n->inplace || n->inplace_input < 0 || n->inplace_input >= n->n_in || n->n_out < 1 || n->out[0] < 0 ||
      n->in[n->inplace_input] < 0)
    return 0;
  const int64_t xb = (int64_t)m->tensors[tensor_storage(m, n->in[n->inplace_input])].bytes;
  const int64_t yb = (int64_t)m->tensors[tensor_storage(m, n->out[0])].bytes;
  const int64_t d = n->inplace_delta; /* where the output (or its temporary) starts, from the input */
  /* during the kernel the input and the written bytes cover [min(0, d), max(xb, d + yb)) */
  const int64_t lo = d < 0 ? d : 0, hi = xb > d + yb ? xb : d + yb;
  const int64_t saved = xb + yb - (hi - lo);
  return saved > 0 ? (size_t)saved : 0;
}

size_t plan_reached_bound(const Model *m) {
  size_t best = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    const size_t live = plan_live_at(m, k), saved = plan_inplace_saving(m, k);
    const size_t at = live > saved ? live - saved : 0;
    if (at > best) best = at;
  }
  return best;
}
