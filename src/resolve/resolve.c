#include "resolve.h"

#include <stdio.h>

static const char *node_config(const Model *m, const Node *n) {
  const Tensor *in = node_input(m, n, 0);
  const Tensor *out = node_output(m, n, 0);
  static const char none[] = "?";
  const char *ti = in ? tensor_type_name(in->type) : none;
  const char *to = out ? tensor_type_name(out->type) : none;
  return arena_printf(m->arena, "%s->%s, kernel %s", ti, to, n->kernel ? n->kernel : "?");
}

bool resolve_check_scratch(const Model *m, const Node *n, Diag *d) {
  const OpDef *def = n->def;
  bool needed = n->reads_scratch;
  const char *usage = op_scratch_usage_name(def->scratch_usage);
  switch (def->scratch_usage) {
    case SCRATCH_NO_CTX:
    case SCRATCH_IGNORED:
      if (needed)
        return diag_error(d, "internal error: operator %d (%s) declares scratch usage '%s' but its kernel reads scratch (%s)",
                          n->index, n->opname, usage, node_config(m, n));
      break;
    case SCRATCH_REQUIRED:
      if (!needed)
        return diag_error(d, "internal error: operator %d (%s) declares scratch usage 'required' but its kernel does not read scratch (%s)",
                          n->index, n->opname, node_config(m, n));
      break;
    case SCRATCH_CONDITIONAL:
      if (!def->scratch_needed)
        return diag_error(d, "internal error: operator %d (%s) declares 'conditional' scratch usage without a predicate",
                          n->index, n->opname);
      if (def->scratch_needed(m, n) != needed)
        return diag_error(d, "internal error: operator %d (%s): scratch predicate says %s but the kernel %s scratch (%s)",
                          n->index, n->opname, needed ? "no" : "yes", needed ? "reads" : "does not read",
                          node_config(m, n));
      break;
  }
  if (needed && n->scratch_bytes == 0)
    return diag_error(d, "internal error: operator %d (%s): kernel reads scratch but 0 bytes were sized (%s); refusing to emit a NULL scratch buffer",
                      n->index, n->opname, node_config(m, n));
  return true;
}

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
  PrepareCtx pc = {.model = m, .arena = m->arena, .diag = d, .platform = platform, .find = op_find,
                   .check_scratch = resolve_check_scratch};
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
    if (!resolve_check_scratch(m, n, d)) return false;
    if (n->scratch_bytes > 0 && !add_scratch_tensor(m, n, d)) return false;
  }
  return true;
}
