#include "export_cost.h"

#include "../resolve/cost_model.h"

static double total(const Model *m, CostCore core) {
  double s = 0.0;
  for (int k = 0; k < m->n_nodes; k++) s += cost_node_estimate(m, &m->nodes[k], core);
  return s;
}

static double total_cycles(const Model *m, CostCore core) {
  double s = 0.0;
  for (int k = 0; k < m->n_nodes; k++) s += cost_node_cycles(m, &m->nodes[k], core, NULL);
  return s;
}

/* `"estimated_cycles": N, "estimated_ms": X` (null, null when the core has no measured cycles). */
static void json_cycles(StrBuf *js, const Platform *pf, CostCore core, double cycles) {
  if (cost_cycles_known(core))
    sb_printf(js, "\"estimated_cycles\": %.0f, \"estimated_ms\": %.6f", cycles, platform_cycles_to_ms(pf, cycles));
  else sb_append(js, "\"estimated_cycles\": null, \"estimated_ms\": null");
}

void cost_report_json(const Model *m, const Plan *p, StrBuf *js) {
  const CostCore core = cost_core_of(&p->platform);
  sb_printf(js, ",\n  \"cost_model\": {\"core\": \"%s\", \"clock_hz\": %lu, \"estimated_instructions\": %.0f, ",
            cost_core_name(core), (unsigned long)p->platform.clock_hz, total(m, core));
  json_cycles(js, &p->platform, core, total_cycles(m, core));
  sb_append(js, ", \"operators\": [");
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    sb_printf(js, "%s\n    {\"index\": %d, \"kernel\": ", k ? "," : "", (int)n->index);
    sb_append_json_string(js, n->kernel ? n->kernel : "");
    CostCycleSource src;
    const double c = cost_node_cycles(m, n, core, &src);
    sb_printf(js, ", \"estimated_instructions\": %.0f, ", cost_node_estimate(m, n, core));
    json_cycles(js, &p->platform, core, c);
    sb_printf(js, ", \"cycle_source\": \"%s\"}", cost_cycle_source_name(src));
  }
  sb_append(js, "]}");
}

void cost_report_md(const Model *m, const Plan *p, StrBuf *md) {
  const CostCore core = cost_core_of(&p->platform);
  const Platform *pf = &p->platform;
  const double sum = total(m, core), cycles = total_cycles(m, core);
  const bool known = cost_cycles_known(core);
  const unsigned mhz = (unsigned)(pf->clock_hz / 1000000u);
  sb_printf(md, "## Estimated instructions and cycles\n\nThe cost model's estimate for %s (formulas fitted to QEMU "
                "counts, docs/kernels.md \"Cost model\"; the host's platform is estimated as Cortex-M4): **%.0f** "
                "instructions per inference",
            cost_core_name(core), sum);
  if (known)
    sb_printf(md, ", **%.0f** cycles (fitted to the QEMU timing model's cycles, docs/cycles.md), **%.3f ms** at "
                  "%s's %u MHz.\n\n",
              cycles, platform_cycles_to_ms(pf, cycles), pf->name, mhz);
  else sb_printf(md, "; no cycles were measured on %s, so no cycle estimate.\n\n", cost_core_name(core));
  sb_append(md, "| op | operator | kernel | est. instructions | est. cycles | est. ms | share |\n"
                "|---:|---|---|---:|---:|---:|---:|\n");
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    const double e = cost_node_estimate(m, n, core), c = cost_node_cycles(m, n, core, NULL);
    sb_printf(md, "| %d | %s | %s | %.0f | ", (int)n->index, n->opname ? n->opname : "", n->kernel ? n->kernel : "-", e);
    if (known) sb_printf(md, "%.0f | %.3f | ", c, platform_cycles_to_ms(pf, c));
    else sb_append(md, "- | - | ");
    /* the share of the time when cycles are known, else of the instructions */
    const double part = known ? c : e, whole = known ? cycles : sum;
    sb_printf(md, "%.1f%% |\n", whole > 0 ? 100.0 * part / whole : 0.0);
  }
  sb_append(md, "\n");
}
