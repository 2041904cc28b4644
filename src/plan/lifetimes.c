/* Exact tensor lifetimes over the schedule (node order). */
#include "lifetimes.h"

#include "../ir/storage.h"
#include "plan.h"

/* plan.h's two queries live here, below plan.c, inplace.c and verify.c, so those call
 * one way (plan.c -> inplace.c / verify.c -> here). */
const char *arena_role_name(ArenaRole r) {
  switch (r) {
    case AR_SCRATCH: return "scratch";
    case AR_PERSISTENT: return "persistent";
    case AR_PINNED: return "pinned";
    case AR_STREAM: return "stream";
  }
  return "?";
}

bool plan_needs_storage(const Model *m, int32_t id) {
  const Tensor *t = &m->tensors[id];
  if (t->alias_of >= 0 || tensor_is_const(t)) return false;
  return t->first_use >= 0 || t->is_input || t->is_output || t->is_variable;
}

static void touch(Tensor *t, int32_t pos) {
  if (t->first_use < 0 || pos < t->first_use) t->first_use = pos;
  if (pos > t->last_use) t->last_use = pos;
}

void plan_compute_lifetimes(Model *m) {
  int32_t end = m->n_nodes > 0 ? m->n_nodes - 1 : 0;
  for (int i = 0; i < m->n_tensors; i++) m->tensors[i].first_use = m->tensors[i].last_use = -1;
  for (int i = 0; i < m->n_inputs; i++) touch(&m->tensors[tensor_storage(m, m->inputs[i])], 0);
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    for (int i = 0; i < n->n_in; i++)
      if (n->in[i] >= 0) touch(&m->tensors[tensor_storage(m, n->in[i])], k);
    for (int o = 0; o < n->n_out; o++) touch(&m->tensors[tensor_storage(m, n->out[o])], k);
    for (int i = 0; i < n->n_inter; i++)
      if (n->inter[i] >= 0) touch(&m->tensors[tensor_storage(m, n->inter[i])], k);
    if (n->scratch_tensor >= 0) touch(&m->tensors[n->scratch_tensor], k);
  }
  for (int i = 0; i < m->n_outputs; i++) touch(&m->tensors[tensor_storage(m, m->outputs[i])], end);
  /* Variable tensors persist across inferences: live for the whole schedule. */
  for (int i = 0; i < m->n_tensors; i++)
    if (m->tensors[i].is_variable) {
      touch(&m->tensors[i], 0);
      touch(&m->tensors[i], end);
    }
}
