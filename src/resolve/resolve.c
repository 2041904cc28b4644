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
  if (diag_failed(d) || !resolve_check_accumulators(m, d)) return false;
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    if (!op_check_scratch(m, n, d)) return false;
    if (n->scratch_bytes > 0 && !add_scratch_tensor(m, n, d)) return false;
  }
  return true;
}
