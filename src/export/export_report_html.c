/* report.html: the memory report as one self-contained page (inline CSS, SVG and a few
 * lines of JavaScript; nothing is fetched). Written from the same plan as report.json,
 * and cross-referenced with it: every rectangle carries data-idx, its entry's index in
 * report.json's "tensors", and its geometry is that entry's numbers in the timeline's
 * own units (x: schedule position, y: byte address in the memory). Every string that
 * comes from the model or the configuration is escaped. docs/memory.md describes it. */
#include <string.h>

#include "../plan/patch.h"
#include "../resolve/cost_model.h"
#include "../ir/storage.h"
#include "export.h"

/* One placed entry of report.json's "tensors" (an activation or a constant table). */
typedef struct HtmlEntry {
  int idx;             /* index in report.json's "tensors" */
  int32_t id;          /* tensor id (-1: a derived table) */
  const char *name;
  size_t bytes, offset;
  int arena;           /* Plan.arenas index, -1 when read in place from the image */
  const char *role;    /* scratch / persistent / constant */
  const char *residency;
  int32_t first, last; /* schedule positions */
  int32_t alias_of;    /* -1, or the storage tensor */
  MemType memory;
} HtmlEntry;

/* Text as HTML element content or a quoted attribute value. */
static void html_text(StrBuf *sb, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '&': sb_append(sb, "&amp;"); break;
    case '<': sb_append(sb, "&lt;"); break;
    case '>': sb_append(sb, "&gt;"); break;
    case '"': sb_append(sb, "&quot;"); break;
    case '\'': sb_append(sb, "&#39;"); break;
    default:
      if ((unsigned char)*s < 0x20 && *s != '\t') sb_append(sb, " "); /* control bytes: a space */
      else sb_appendn(sb, s, 1);
    }
  }
}

static const char *role_of(TensorRole r) {
  return r == ROLE_SCRATCH ? "scratch" : r == ROLE_PERSISTENT ? "persistent" : "constant";
}

static const char *residency_of(Residency r) {
  return r == RES_PIN ? "pin" : r == RES_STREAM ? "stream" : "direct";
}

/* report.json's "tensors", in its order (export_residency_json): activations with
 * arena storage (aliases included), then every constant the module stores. */
static int collect_entries(const Model *m, const Plan *p, HtmlEntry *e) {
  int n = 0;
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    int32_t s = tensor_storage(m, i);
    const Tensor *st = &m->tensors[s];
    if (!plan_needs_storage(m, s) || st->arena < 0) continue;
    e[n] = (HtmlEntry){n, t->id, t->name, t->bytes, st->offset + tensor_view_offset(m, i), st->arena, role_of(st->role),
                       st->role == ROLE_PERSISTENT ? "persistent" : "scratch", st->first_use, st->last_use,
                       s != i ? s : -1, p->arenas[st->arena].memory};
    n++;
  }
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    e[n] = (HtmlEntry){n, c->tensor_id, c->what, c->size, c->offset, c->arena, "constant",
                       residency_of(c->residency), c->first_reader, c->last_reader, -1, c->runtime};
    n++;
  }
  return n;
}

static const char page_style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:16px 24px;color:#222;max-width:1200px}\n"
    "h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}\n"
    "td{max-width:480px;overflow-wrap:anywhere}\n"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    ".track{position:relative;height:18px;background:#eee;border:1px solid #999;width:400px}\n"
    ".fill{position:absolute;top:0;bottom:0;left:0;background:#4e79a7}\n"
    ".mark{position:absolute;top:-3px;bottom:-3px;width:2px;background:#d62728}\n"
    ".tl{display:block;width:100%;height:320px;border:1px solid #999;background:#fafafa}\n"
    ".tl rect.t{stroke:#fff;stroke-width:1px;vector-effect:non-scaling-stroke;cursor:pointer}\n"
    ".tl rect.t:hover,.tl rect.sel{stroke:#000;stroke-width:2px}\n"
    ".tl line{stroke:#555;stroke-width:1px;stroke-dasharray:4 3}\n"
    ".scratch{fill:#4e79a7;background:#4e79a7}.persistent{fill:#f28e2b;background:#f28e2b}"
    ".constant{fill:#59a14f;background:#59a14f}\n"
    ".key{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}\n"
    ".axis{display:flex;justify-content:space-between;font-size:12px;color:#555}\n"
    "#info{position:sticky;top:0;background:#fffbe6;border:1px solid #e0c060;padding:6px 10px;z-index:1;\n"
    "height:6.5em;overflow-y:auto}\n" /* fixed: showing a tensor must not move the rectangles */
    "#info dl{display:grid;grid-template-columns:repeat(5,max-content 1fr);gap:2px 8px;margin:0}\n"
    "#info dt{font-weight:600}#info dd{margin:0}#info dd#info-name{grid-column:2 / -1;word-break:break-all}\n";

/* Shows a rectangle's tensor on hover; a click pins it (a second click releases). */
static const char page_script[] =
    "(function () {\n"
    "  var pinned = null;\n"
    "  var fields = ['name', 'id', 'bytes', 'role', 'residency', 'memory', 'arena', 'offset', 'lifetime', 'ops'];\n"
    "  function show(r) {\n"
    "    fields.forEach(function (f) { document.getElementById('info-' + f).textContent = r.getAttribute('data-' + f); });\n"
    "  }\n"
    "  document.querySelectorAll('svg.tl rect.t').forEach(function (r) {\n"
    "    r.addEventListener('mouseenter', function () { if (!pinned) show(r); });\n"
    "    r.addEventListener('click', function () {\n"
    "      if (pinned) pinned.classList.remove('sel');\n"
    "      pinned = pinned === r ? null : r;\n"
    "      if (pinned) { r.classList.add('sel'); show(r); }\n"
    "    });\n"
    "  });\n"
    "  /* bench/layers.json, picked by the user: instructions and cycles per operator index */\n"
    "  var bf = document.getElementById('bench-file');\n"
    "  bf.addEventListener('change', function () {\n"
    "    var f = bf.files[0], rd = new FileReader();\n"
    "    var msg = document.getElementById('bench-status'), t = document.getElementById('operators');\n"
    "    if (!f) return;\n"
    "    rd.onload = function () {\n"
    "      var d, model = t.getAttribute('data-model'), core = t.getAttribute('data-core');\n"
    "      try { d = JSON.parse(rd.result); } catch (e) { msg.textContent = 'not JSON: ' + e.message; return; }\n"
    "      var r = ((d && d.results) || []).filter(function (x) { return x.model === model && x.core === core; })[0];\n"
    "      if (!r) { msg.textContent = 'no measurement of ' + model + ' on ' + core + ' in ' + f.name; return; }\n"
    "      var at = {}, n = 0;\n"
    "      (r.layers || []).forEach(function (l) { at[l.index] = l; });\n"
    "      t.querySelectorAll('tr[data-op]').forEach(function (row) {\n"
    "        var l = at[row.getAttribute('data-op')], cell = row.querySelector('td.instr');\n"
    "        if (!l || typeof l.instructions !== 'number') { cell.textContent = '-'; return; }\n"
    "        cell.textContent = String(l.instructions) +\n"
    "            (l.kernel === row.getAttribute('data-kernel') ? '' : ' (measured with ' + l.kernel + ')');\n"
    "        n++;\n"
    "      });\n"
    "      msg.textContent = n + ' operators measured, ' + r.instructions + ' instructions per run (' + f.name + ')';\n"
    "    };\n"
    "    rd.readAsText(f);\n"
    "  });\n"
    "})();\n";

static uint64_t arenas_in(const Plan *p, MemType mem) {
  uint64_t bytes = 0;
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].memory == mem) bytes += p->arenas[i].size;
  return bytes;
}

/* Percent of `part` in `whole`, clamped to 0..100, for CSS widths. */
static double percent(uint64_t part, uint64_t whole) {
  if (!whole) return 0.0;
  double v = 100.0 * (double)part / (double)whole;
  return v > 100.0 ? 100.0 : v;
}

static void html_summary(const Model *m, const Plan *p, const Module *mod, StrBuf *sb) {
  uint64_t arena_total = 0, scratch_total = 0;
  for (int i = 0; i < p->n_arenas; i++) {
    arena_total += p->arenas[i].size;
    if (p->arenas[i].role == AR_SCRATCH) scratch_total += p->arenas[i].size;
  }
  sb_append(sb, "<h1>tinyaot memory report: ");
  html_text(sb, mod->name);
  sb_append(sb, " (");
  html_text(sb, mod->source);
  sb_append(sb, ")");
  sb_append(sb, "</h1>\n<p>Platform <b>");
  html_text(sb, p->platform.name);
  sb_printf(sb, "</b>, %d operators. Arena bytes (all RAM arenas): <b id=\"arena-bytes\">%llu</b>. "
                "Constants in the image: %zu bytes.</p>\n", m->n_nodes, (unsigned long long)arena_total,
            p->constant_bytes);
  sb_printf(sb, "<p>Lower bounds: the activations need at least <b id=\"activation-lower-bound\">%zu</b> bytes "
                "(most bytes live at one schedule position, all memories, unaligned); the scratch arenas hold "
                "%llu. Each arena's own bound (aligned) is in the table below.",
            p->lower_bound, (unsigned long long)scratch_total);
  const ScheduleReport *r = &mod->schedule;
  if (r->applied)
    sb_printf(sb, " Reordering moved %d operators: live peak %zu &rarr; %zu bytes.", r->moved, r->before.peak,
              r->after.peak);
  sb_append(sb, "</p>\n");
}

/* Per memory: bytes used (arenas and constants in the image) against the budget, with
 * each arena's share; per arena: its size against its lower bound. */
static void html_budgets(const Plan *p, StrBuf *sb) {
  sb_append(sb, "<h2>Memories and budgets</h2>\n<table id=\"budgets\">\n<tr><th>memory</th><th class=\"n\">used</th>"
                "<th class=\"n\">budget</th><th class=\"n\">arenas</th><th>used / budget</th></tr>\n");
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    if (!p->platform.mem[mem].present) continue;
    const char *name = mem_name((MemType)mem);
    uint64_t used = p->used[mem], budget = p->budget[mem];
    sb_printf(sb, "<tr><td>%s%s</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td>",
              name, p->budget_line[mem] ? " (constraint)" : "", (unsigned long long)used, (unsigned long long)budget,
              (unsigned long long)arenas_in(p, (MemType)mem));
    sb_printf(sb, "<td><div class=\"track budget\" data-memory=\"%s\" data-used=\"%llu\" data-budget=\"%llu\" "
                  "title=\"%llu of %llu bytes\"><div class=\"fill\" style=\"width:%.4f%%\"></div></div></td></tr>\n",
              name, (unsigned long long)used, (unsigned long long)budget, (unsigned long long)used,
              (unsigned long long)budget, percent(used, budget));
  }
  sb_append(sb, "</table>\n<p>Used: the arenas in that memory plus the constants the image keeps there.</p>\n");
  sb_append(sb, "<table id=\"arenas\">\n<tr><th>arena</th><th>memory</th><th>role</th><th class=\"n\">bytes</th>"
                "<th class=\"n\">lower bound</th><th class=\"n\">tensors</th><th>lower bound (red) / bytes</th></tr>\n");
  for (int i = 0; i < p->n_arenas; i++) {
    const PlanArena *ar = &p->arenas[i];
    sb_printf(sb, "<tr><td>%s</td><td>%s</td><td>%s</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>"
                  "<td class=\"n\">%d</td><td><div class=\"track\" data-arena=\"%s\" data-bytes=\"%zu\" "
                  "data-lower-bound=\"%zu\"><div class=\"mark\" style=\"left:%.4f%%\"></div></div></td></tr>\n",
              ar->name, mem_name(ar->memory), arena_role_name(ar->role), ar->size, ar->lower_bound, ar->n_tensors,
              ar->name, ar->size, ar->lower_bound, percent(ar->lower_bound, ar->size));
  }
  sb_append(sb, "</table>\n");
}

/* The operator indices a lifetime covers ("3..7", "5"), from schedule positions. */
static void ops_range(const Model *m, int32_t first, int32_t last, StrBuf *sb) {
  if (first < 0 || last < first || last >= m->n_nodes) {
    sb_append(sb, "-");
    return;
  }
  if (first == last) sb_printf(sb, "%d", (int)m->nodes[first].index);
  else sb_printf(sb, "%d..%d", (int)m->nodes[first].index, (int)m->nodes[last].index);
}

/* One rectangle: x = first position, width = positions covered, y = the arena's base in
 * this memory plus the offset, height = bytes. Persistent state and pinned constants
 * hold their bytes for the whole run: they span every position. */
static void html_rect(const Model *m, const Plan *p, const HtmlEntry *e, uint64_t base, StrBuf *sb) {
  const PlanArena *ar = &p->arenas[e->arena];
  bool whole = ar->role == AR_PERSISTENT || ar->role == AR_PINNED;
  int32_t x = whole ? 0 : e->first, w = whole ? m->n_nodes : e->last - e->first + 1;
  if (x < 0) x = 0;
  if (w < 1) w = 1;
  sb_printf(sb, "<rect class=\"t %s\" x=\"%d\" y=\"%llu\" width=\"%d\" height=\"%zu\" data-idx=\"%d\" data-id=\"%d\" "
                "data-name=\"", e->role, (int)x, (unsigned long long)(base + e->offset), (int)w, e->bytes, e->idx,
            (int)e->id);
  html_text(sb, e->name[0] ? e->name : "(unnamed)");
  sb_printf(sb, "\" data-bytes=\"%zu\" data-role=\"%s\" data-residency=\"%s\" data-memory=\"%s\" data-arena=\"%s\" "
                "data-offset=\"%zu\" data-lifetime=\"positions %d..%d\" data-ops=\"",
            e->bytes, e->role, e->residency, mem_name(e->memory), ar->name, e->offset, (int)e->first, (int)e->last);
  ops_range(m, e->first, e->last, sb);
  sb_append(sb, "\"><title>");
  html_text(sb, e->name[0] ? e->name : "(unnamed)");
  sb_printf(sb, " (%zu bytes)</title></rect>\n", e->bytes);
}

/* Per memory holding arenas: the arenas stacked in plan order (y: address from the
 * memory's first arena), one rectangle per placed tensor (aliases share their storage's). */
static void html_timelines(const Model *m, const Plan *p, const HtmlEntry *e, int n, StrBuf *sb) {
  sb_append(sb, "<h2>Timelines</h2>\n<p>Per memory: schedule position left to right, address top to bottom "
                "(the memory's arenas one after another). Colour: <span class=\"key scratch\"></span>scratch"
                "<span class=\"key persistent\"></span>persistent<span class=\"key constant\"></span>constant. "
                "Hover a rectangle for its tensor; click to keep it.</p>\n"
                "<div class=\"timelines\">\n<div id=\"info\"><dl>");
  static const char *const fields[][2] = {{"name", "name"},       {"id", "id"},         {"bytes", "bytes"},
                                          {"role", "role"},       {"residency", "residency"},
                                          {"memory", "memory"},   {"arena", "arena"},   {"offset", "offset"},
                                          {"lifetime", "lifetime"}, {"ops", "operators"}};
  for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
    sb_printf(sb, "<dt>%s</dt><dd id=\"info-%s\">%s</dd>", fields[k][1], fields[k][0],
              k ? "" : "(hover or click a rectangle)");
  sb_append(sb, "</dl></div>\n");
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    uint64_t total = arenas_in(p, (MemType)mem);
    if (!total) continue;
    int count = 0;
    for (int i = 0; i < n; i++) count += e[i].arena >= 0 && e[i].alias_of < 0 && p->arenas[e[i].arena].memory == (MemType)mem;
    sb_printf(sb, "<h3>%s: %llu bytes of arenas, %d tensors</h3>\n", mem_name((MemType)mem), (unsigned long long)total,
              count);
    sb_printf(sb, "<svg class=\"tl\" data-memory=\"%s\" data-positions=\"%d\" data-bytes=\"%llu\" viewBox=\"0 0 %d %llu\" "
                  "preserveAspectRatio=\"none\" xmlns=\"http://www.w3.org/2000/svg\">\n",
              mem_name((MemType)mem), m->n_nodes, (unsigned long long)total, m->n_nodes > 0 ? m->n_nodes : 1,
              (unsigned long long)total);
    uint64_t base = 0;
    sb_append(sb, "<g class=\"arenas\">");
    for (int a = 0; a < p->n_arenas; a++) {
      if (p->arenas[a].memory != (MemType)mem) continue;
      if (base) sb_printf(sb, "<line x1=\"0\" x2=\"%d\" y1=\"%llu\" y2=\"%llu\" vector-effect=\"non-scaling-stroke\"/>",
                          m->n_nodes, (unsigned long long)base, (unsigned long long)base);
      base += p->arenas[a].size;
    }
    sb_append(sb, "</g>\n");
    base = 0;
    for (int a = 0; a < p->n_arenas; a++) {
      if (p->arenas[a].memory != (MemType)mem) continue;
      sb_printf(sb, "<g class=\"arena\" data-arena=\"%s\" data-base=\"%llu\">\n", p->arenas[a].name,
                (unsigned long long)base);
      for (int i = 0; i < n; i++)
        if (e[i].arena == a && e[i].alias_of < 0) html_rect(m, p, &e[i], base, sb);
      sb_append(sb, "</g>\n");
      base += p->arenas[a].size;
    }
    sb_append(sb, "</svg>\n<div class=\"axis\"><span>position 0</span><span>");
    base = 0;
    for (int a = 0; a < p->n_arenas; a++)
      if (p->arenas[a].memory == (MemType)mem) {
        sb_printf(sb, "%s%s at %llu (%zu bytes)", base ? "; " : "arenas top to bottom: ", p->arenas[a].name,
                  (unsigned long long)base, p->arenas[a].size);
        base += p->arenas[a].size;
      }
    sb_printf(sb, "</span><span>position %d</span></div>\n", m->n_nodes > 0 ? m->n_nodes - 1 : 0);
  }
  sb_append(sb, "</div>\n"); /* the info panel sticks while the timelines are in view */
  int direct = 0;
  size_t direct_bytes = 0;
  for (int i = 0; i < n; i++)
    if (e[i].arena < 0) direct++, direct_bytes += e[i].bytes;
  if (direct)
    sb_printf(sb, "<p>%d constant tables (%zu bytes) are read in place from the image (residency direct): "
                  "they have no arena address and are listed in report.md.</p>\n",
              direct, direct_bytes);
}

static void html_streams(const Plan *p, StrBuf *sb) {
  sb_append(sb, "<h2>Stream schedule</h2>\n");
  int n = 0;
  for (int i = 0; i < p->n_consts; i++) n += p->consts[i].residency == RES_STREAM;
  if (!n) {
    sb_append(sb, "<p>No constant is streamed.</p>\n");
    return;
  }
  sb_append(sb, "<p>Constants copied into a stream pool before their first reader.</p>\n<table id=\"streams\">\n"
                "<tr><th class=\"n\">before position</th><th>constant</th><th class=\"n\">bytes</th><th>from</th>"
                "<th>to</th><th class=\"n\">pool offset</th></tr>\n");
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    if (c->residency != RES_STREAM) continue;
    sb_printf(sb, "<tr><td class=\"n\">%d</td><td>", (int)c->first_reader);
    html_text(sb, c->what);
    sb_printf(sb, "</td><td class=\"n\">%zu</td><td>%s</td><td>%s</td><td class=\"n\">%zu</td></tr>\n", c->size,
              mem_name(c->source), mem_name(c->runtime), c->offset);
  }
  sb_append(sb, "</table>\n");
}

/* Bytes of the constants operator `n` reads: the tables it derived and the model's
 * constant tensors among its inputs that the module stores. */
static uint64_t node_weight_bytes(const Plan *p, const Node *n) {
  uint64_t bytes = 0;
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    if (c->tensor_id < 0) {
      if (c->op_index == n->index) bytes += c->size;
      continue;
    }
    for (int k = 0; k < n->n_in; k++)
      if (n->in[k] == c->tensor_id) {
        bytes += c->size;
        break;
      }
  }
  return bytes;
}

static const char *kernel_tier(const Module *mod, const Node *n) {
  if (!n->kernel) return "-";
  for (int i = 0; i < mod->n_budget_portable; i++)
    if (mod->budget_portable[i] == n->index) return "portable (memory budget)";
  if (strstr(n->kernel, "_mve")) return "MVE";
  if (strstr(n->kernel, "_dsp")) return "DSP";
  return "portable";
}

/* bench/layers.json names the core "m4" / "m55": the cpu without "cortex-". */
static const char *bench_core(const Platform *pf) {
  return strncmp(pf->cpu, "cortex-", 7) == 0 ? pf->cpu + 7 : pf->cpu;
}

/* One estimated-cycles and milliseconds cell pair ("-" when the core has no measured cycles). */
static void html_cycles(StrBuf *sb, const Platform *pf, CostCore core, double cycles) {
  if (cost_cycles_known(core))
    sb_printf(sb, "<td class=\"n\">%.0f</td><td class=\"n\">%.3f</td>", cycles, platform_cycles_to_ms(pf, cycles));
  else sb_append(sb, "<td class=\"n\">-</td><td class=\"n\">-</td>");
}

static void html_operators(const Model *m, const Plan *p, const Module *mod, StrBuf *sb) {
  const CostCore core = cost_core_of(&p->platform);
  double insns = 0.0, cycles = 0.0;
  for (int k = 0; k < m->n_nodes; k++) {
    insns += cost_node_estimate(m, &m->nodes[k], core);
    cycles += cost_node_cycles(m, &m->nodes[k], core, NULL);
  }
  sb_printf(sb, "<h2>Operators</h2>\n<p>Estimated by the cost model for %s (docs/kernels.md \"Cost model\"): "
                "%.0f instructions",
            cost_core_name(core), insns);
  if (cost_cycles_known(core))
    sb_printf(sb, ", %.0f cycles, %.3f ms at %u MHz (the platform's clock)", cycles,
              platform_cycles_to_ms(&p->platform, cycles), (unsigned)(p->platform.clock_hz / 1000000u));
  else sb_append(sb, " (no cycles measured on this core)");
  sb_append(sb, " per inference.</p>\n<p>In schedule order. Tier: from the kernel chosen (DSP/MVE variants "
                "end in <code>_dsp</code>/<code>_mve</code>). Weight bytes: the constant tables the operator "
                "reads. Measured instructions and modelled cycles are not known at conversion: <code>make bench</code> "
                "measures them per operator under QEMU; load its <code>bench/layers.json</code> here to fill the "
                "columns (the entry of model <code>");
  html_text(sb, mod->name);
  sb_printf(sb, "</code> on core <code>%s</code>; nothing leaves this page): "
                "<input type=\"file\" id=\"bench-file\" accept=\".json\"> <span id=\"bench-status\"></span></p>\n"
                "<table id=\"operators\" data-model=\"",
            bench_core(&p->platform));
  html_text(sb, mod->name);
  sb_printf(sb, "\" data-core=\"%s\">\n<tr><th class=\"n\">position</th><th class=\"n\">operator</th><th>type</th>"
                "<th>kernel</th><th>tier</th><th class=\"n\">MACs</th><th class=\"n\">weight bytes</th>"
                "<th class=\"n\">scratch</th><th class=\"n\">est. instructions</th><th class=\"n\">est. cycles</th>"
                "<th class=\"n\">est. ms</th><th class=\"n\">instructions</th><th class=\"n\">cycles</th>"
                "<th>output</th></tr>\n",
            bench_core(&p->platform));
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    const char *kernel = n->is_alias ? "(alias: no code)" : n->kernel ? n->kernel : "-";
    sb_printf(sb, "<tr data-op=\"%d\" data-kernel=\"", (int)n->index);
    html_text(sb, kernel);
    sb_printf(sb, "\"><td class=\"n\">%d</td><td class=\"n\">%d</td><td>", k, (int)n->index);
    html_text(sb, n->opname ? n->opname : "?");
    sb_append(sb, "</td><td>");
    html_text(sb, kernel);
    sb_printf(sb, "</td><td>%s</td><td class=\"n\">%lld</td><td class=\"n\">%llu</td><td class=\"n\">%zu</td>"
                  "<td class=\"n\">%.0f</td>",
              n->is_alias ? "-" : kernel_tier(mod, n), (long long)n->macs,
              (unsigned long long)node_weight_bytes(p, n), n->scratch_bytes, cost_node_estimate(m, n, core));
    html_cycles(sb, &p->platform, core, cost_node_cycles(m, n, core, NULL));
    sb_append(sb, "<td class=\"n instr\">-</td><td class=\"n cyc\">-</td><td>");
    const Tensor *out = n->n_out > 0 ? node_output(m, n, 0) : NULL;
    if (out) {
      sb_printf(sb, "%s %s ", tensor_type_name(out->type), tensor_shape_str(m->arena, out));
      html_text(sb, out->name);
    }
    sb_append(sb, "</td></tr>\n");
  }
  sb_append(sb, "</table>\n");
}

void export_report_html(const Model *m, const Plan *p, Module *mod) {
  Arena *a = m->arena;
  HtmlEntry *e = arena_calloc(a, (size_t)m->n_tensors + (size_t)p->n_consts + 1, sizeof *e);
  StrBuf *sb = e ? module_add_file(mod, a, "report.html") : NULL;
  if (!sb) return;
  int n = collect_entries(m, p, e);
  sb_append(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>tinyaot report: ");
  html_text(sb, mod->source);
  sb_printf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
  html_summary(m, p, mod, sb);
  html_budgets(p, sb);
  html_timelines(m, p, e, n, sb);
  html_streams(p, sb);
  html_operators(m, p, mod, sb);
  sb_printf(sb, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
}
