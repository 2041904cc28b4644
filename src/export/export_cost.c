#include "export_cost.h"

#include "../resolve/cost_model.h"

static double total(const Model *m, CostCore core) {
  double s = 0.0;
  for (int k = 0; k < m->n_nodes; k++) s += cost_node_estimate(m, &m->nodes[k], core);
  return s;
}

void cost_report_json(const Model *m, const Plan *p, StrBuf *js) {
  const CostCore core = cost_core_of(&p->platform);
  sb_printf(js, ",\n  \"cost_model\": {\"core\": \"%s\", \"estimated_instructions\": %.0f, \"operators\": [",
            cost_core_name(core), total(m, core));
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    sb_printf(js, "%s\n    {\"index\": %d, \"kernel\": ", k ? "," : "", (int)n->index);
    sb_append_json_string(js, n->kernel ? n->kernel : "");
    sb_printf(js, ", \"estimated_instructions\": %.0f}", cost_node_estimate(m, n, core));
  }
  sb_append(js, "]}");
}

void cost_report_md(const Model *m, const Plan *p, StrBuf *md) {
  const CostCore core = cost_core_of(&p->platform);
  const double sum = total(m, core);
  sb_printf(md, "## Estimated instructions\n\nThe cost model's estimate for %s (formulas fitted to QEMU counts, "
                "docs/kernels.md \"Cost model\"; the host's platform is estimated as Cortex-M4): **%.0f** per "
                "inference.\n\n| op | operator | kernel | est. instructions | share |\n|---:|---|---|---:|---:|\n",
            cost_core_name(core), sum);
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    const double e = cost_node_estimate(m, n, core);
    sb_printf(md, "| %d | %s | %s | %.0f | %.1f%% |\n", (int)n->index, n->opname ? n->opname : "",
              n->kernel ? n->kernel : "-", e, sum > 0 ? 100.0 * e / sum : 0.0);
  }
  sb_append(md, "\n");
}
