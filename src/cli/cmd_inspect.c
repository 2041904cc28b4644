/* tinyaot inspect: what is in a model and what tinyaot would do with it. */
#include <stdio.h>
#include <string.h>

#include "../load/flatbuffer.h"
#include "../load/loader.h"
#include "../ops/op.h"

#include "../plan/lifetimes.h"
#include "../plan/plan.h"
#include "../resolve/cost_model.h"
#include "../ir/quant.h"
#include "../resolve/resolve.h"
#include "../transform/transform.h"
#include "args.h"
#include "commands.h"
#include "pipeline.h"

static const char inspect_usage[] =
    "usage: tinyaot inspect MODEL.tflite [--json] [--operators] [--platform NAME]\n"
    "\n"
    "Lists operators (kernel, MACs, scratch), tensors (dtype, shape, quantization),\n"
    "weight bytes, the activation lower bound (max over the schedule of live bytes)\n"
    "and what is missing: every operator tinyaot lacks (with its operator indices), every\n"
    "operator that refuses this use of it (dtype, quantization, options) and why; for a\n"
    "model that does not load (several subgraphs), the operators it uses and which are\n"
    "missing. Exit status 1 when the model cannot be compiled. The text numbers operators\n"
    "by the model's index; --json's \"index\" is the position after the transforms fold\n"
    "operators away (PAD into a convolution), its \"model_index\" the model's (a note says\n"
    "when they differ).\n"
    "--operators: per operator, the kernel chosen, its estimated instructions and\n"
    "cycles on the platform's core (the cost model: Cortex-M55 with MVE, else Cortex-M4;\n"
    "cycles fitted to the QEMU timing model, docs/cycles.md) and the milliseconds at the\n"
    "platform's clock (`tinyaot platforms`), its capabilities and scratch usage (--json:\n"
    "estimated_instructions, estimated_cycles, estimated_ms, cycle_source, cost_terms;\n"
    "cycles and ms are null when no cycles were measured on that core).\n"
    "--platform NAME: choose kernels as `convert --platform NAME` would (e.g. the DSP/MVE\n"
    "tiers of cortex-m4, cortex-m55, apollo* boards; see `tinyaot platforms`); default host.\n";

/* The whole model's estimates on a core (instructions, cycles). */
static void model_estimates(const Model *m, CostCore core, double *insns, double *cycles) {
  *insns = *cycles = 0.0;
  for (int k = 0; k < m->n_nodes; k++) {
    *insns += cost_node_estimate(m, &m->nodes[k], core);
    *cycles += cost_node_cycles(m, &m->nodes[k], core, NULL);
  }
}

/* "123456" or "-" when the core has no measured cycles. */
static const char *cycles_text(char *buf, size_t cap, CostCore core, double cycles) {
  if (cost_cycles_known(core)) snprintf(buf, cap, "%.0f", cycles);
  else snprintf(buf, cap, "-");
  return buf;
}

static const char *ms_text(char *buf, size_t cap, CostCore core, const Platform *p, double cycles) {
  if (cost_cycles_known(core)) snprintf(buf, cap, "%.3f", platform_cycles_to_ms(p, cycles));
  else snprintf(buf, cap, "-");
  return buf;
}

static void print_operators(const Model *m, const Platform *p) {
  const CostCore core = cost_core_of(p);
  double insns, cycles;
  model_estimates(m, core, &insns, &cycles);
  char cb[32], mb[32];
  printf("estimated instructions and cycles for %s, ms at %u MHz (%s; cost model, docs/kernels.md)\n",
         cost_core_name(core), (unsigned)(p->clock_hz / 1000000u), p->name);
  printf("%4s  %-28s %-30s %12s %12s %9s %-12s %9s  %s\n", "op", "operator", "kernel", "est. instr", "est. cycles",
         "est. ms", "scratch", "bytes", "capabilities");
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    char caps[160];
    op_capability_text(n->def ? n->def->capabilities : 0, "|", caps, sizeof caps);
    const double c = cost_node_cycles(m, n, core, NULL);
    printf("%4d  %-28s %-30s %12.0f %12s %9s %-12s %9zu  %s\n", (int)n->index, n->opname,
           n->kernel ? n->kernel : (n->def ? "-" : "UNSUPPORTED"), cost_node_estimate(m, n, core),
           cycles_text(cb, sizeof cb, core, c), ms_text(mb, sizeof mb, core, p, c),
           n->def ? op_scratch_usage_name(n->def->scratch_usage) : "-", n->scratch_bytes, n->def ? caps : "-");
  }
  printf("%4s  %-28s %-30s %12.0f %12s %9s\n", "", "total", "", insns, cycles_text(cb, sizeof cb, core, cycles),
         ms_text(mb, sizeof mb, core, p, cycles));
}

static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') putchar('\\');
    putchar(*s);
  }
  putchar('"');
}

static size_t weight_bytes(const Model *m) {
  size_t b = 0;
  for (int i = 0; i < m->n_tensors; i++)
    if (tensor_is_const(&m->tensors[i]) && m->tensors[i].alias_of < 0) b += m->tensors[i].bytes;
  return b;
}

static int64_t total_macs(const Model *m) {
  int64_t s = 0;
  for (int k = 0; k < m->n_nodes; k++) s += m->nodes[k].macs;
  return s;
}

/* Why one operator cannot be compiled, or NULL: not in the operator table, or its
 * prepare refuses this configuration (dtype, quantization, options, shape). prepare
 * only fills the node's own prepared fields, so running it again for the message is
 * harmless. */
static const char *node_refusal(Model *m, Node *n, const char *path) {
  if (!n->def) {
    const Tensor *in = node_input(m, n, 0), *out = node_output(m, n, 0);
    return arena_printf(m->arena, "unsupported operator (%s -> %s)", in ? tensor_type_name(in->type) : "-",
                        out ? tensor_type_name(out->type) : "-");
  }
  Diag nd;
  diag_init(&nd, path);
  PrepareCtx pc = {.model = m, .arena = m->arena, .diag = &nd, .platform = NULL, .find = op_find};
  Platform host;
  if (platform_builtin("host", &host)) pc.platform = &host;
  if (n->def->prepare(&pc, n)) return NULL;
  const char *msg = nd.msg;
  const char *colon = strstr(msg, "): "); /* drop the "operator <i> (<NAME>)" prefix printed beside it */
  return arena_strdup(m->arena, colon ? colon + 3 : msg);
}

/* Every operator the model needs that tinyaot cannot compile, before anyone converts:
 * one line per operator name (dtypes in -> out, operator indices), then the refusal of
 * each operator tinyaot has but not in this configuration. */
static void print_missing(Model *m, const char *path) {
  int n_missing = 0, n_refused = 0;
  bool *listed = arena_calloc(m->arena, (size_t)(m->n_nodes > 0 ? m->n_nodes : 1), sizeof *listed);
  if (!listed) return;
  for (int k = 0; k < m->n_nodes; k++) {
    if (m->nodes[k].def || listed[k]) continue;
    if (n_missing++ == 0) printf("\nmissing operators (tinyaot has no implementation):\n");
    printf("  %-26s operators", m->nodes[k].opname);
    int shown = 0;
    for (int j = k; j < m->n_nodes; j++)
      if (!m->nodes[j].def && !strcmp(m->nodes[j].opname, m->nodes[k].opname)) { /* CUSTOM ops by name */
        listed[j] = true;
        printf("%s%d", shown++ ? ", " : " ", j);
      }
    const Tensor *in = node_input(m, &m->nodes[k], 0), *out = node_output(m, &m->nodes[k], 0);
    printf(" (%s -> %s)\n", in ? tensor_type_name(in->type) : "-", out ? tensor_type_name(out->type) : "-");
  }
  for (int k = 0; k < m->n_nodes; k++) {
    if (!m->nodes[k].def) continue;
    const char *why = node_refusal(m, &m->nodes[k], path);
    if (!why) continue;
    if (n_refused++ == 0) printf("\nrefused configurations (operator supported, this use of it not):\n");
    printf("  operator %d (%s): %s\n", k, m->nodes[k].opname, why);
  }
  if (n_missing || n_refused)
    printf("\n%d operator type%s missing, %d operator%s refused\n", n_missing, n_missing == 1 ? "" : "s", n_refused,
           n_refused == 1 ? "" : "s");
}

/* When the model does not load (several subgraphs, say), still name the operators its
 * operator_codes list holds and which of them tinyaot lacks. */
static void print_codes_of_unloadable(const char *path) {
  Arena a;
  arena_init(&a);
  Diag d;
  diag_init(&d, path);
  const uint8_t *data;
  size_t size;
  if (load_file(&a, path, &data, &size, &d)) {
    FbBuf b;
    fb_init(&b, data, size);
    FbTable root = fb_root(&b, NULL);
    FbVec codes = fb_vector(&root, 1 /* Model.operator_codes */, 4);
    if (fb_ok(&b) && codes.present && codes.len > 0 && codes.len <= LOAD_MAX_OPERATORS) {
      int missing = 0;
      printf("operators used by the model:");
      for (uint32_t i = 0; i < codes.len && fb_ok(&b); i++) {
        FbTable oc = fb_vec_table(&codes, i);
        int32_t dep = fb_i8(&oc, 0, 0), code = fb_i32(&oc, 3, 0);
        if (dep > code) code = dep;
        const bool have = op_find(code) != NULL;
        missing += !have;
        printf(" %s%s", builtin_name(code), have ? "" : " (missing)");
      }
      printf("\n%d of them missing in tinyaot\n", missing);
    }
  }
  arena_free(&a);
}

static void print_text(Model *m, const Diag *d, size_t lb, const Platform *p) {
  printf("model %s: %d operators, %d tensors, %d inputs, %d outputs\n", m->path, m->n_nodes, m->n_model_tensors,
         m->n_inputs, m->n_outputs);
  printf("weights: %zu bytes; MACs: %lld; activation lower bound: %zu bytes\n", weight_bytes(m),
         (long long)total_macs(m), lb);
  const CostCore core = cost_core_of(p);
  double insns, cycles;
  model_estimates(m, core, &insns, &cycles);
  char cb[32], mb[32];
  printf("estimated on %s (%s, %u MHz): %.0f instructions, %s cycles, %s ms\n\n", p->name, cost_core_name(core),
         (unsigned)(p->clock_hz / 1000000u), insns, cycles_text(cb, sizeof cb, core, cycles),
         ms_text(mb, sizeof mb, core, p, cycles));
  printf("%4s  %-28s %-26s %12s %9s  %s\n", "op", "operator", "kernel", "MACs", "scratch", "outputs");
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    const Tensor *o = node_output(m, n, 0);
    printf("%4d  %-28s %-26s %12lld %9zu  %s %s%s\n", (int)n->index, n->opname, n->kernel ? n->kernel : (n->def ? "-" : "UNSUPPORTED"),
           (long long)n->macs, n->scratch_bytes, o ? tensor_type_name(o->type) : "", o ? tensor_shape_str(m->arena, o) : "",
           n->is_alias ? " (alias)" : "");
  }
  int renumbered = 0;
  for (int k = 0; k < m->n_nodes; k++) renumbered += m->nodes[k].index != k;
  if (renumbered)
    printf("note: the transforms folded operators into others (such as a PAD into the convolution that reads it): "
           "`op` is the model's operator index, --json's \"index\" the position after folding (its \"model_index\" "
           "is `op`)\n");
  printf("\n%4s  %-40s %-8s %-18s %10s  %s\n", "id", "tensor", "dtype", "shape", "bytes", "quantization");
  for (int i = 0; i < m->n_model_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    char q[96] = "-";
    if (t->n_quant == 1) snprintf(q, sizeof q, "scale %.9g zp %lld", (double)t->scale[0], (long long)t->zero_point[0]);
    else if (t->n_quant > 1) snprintf(q, sizeof q, "per-channel (%d scales, dim %d)", t->n_quant, (int)t->quant_dim);
    printf("%4d  %-40.40s %-8s %-18s %10zu  %s%s%s\n", i, t->name, tensor_dtype_desc(t),
           tensor_shape_str(m->arena, t), t->bytes, q, tensor_is_const(t) ? " const" : "",
           t->is_variable ? " variable" : t->is_input ? " input" : t->is_output ? " output" : "");
  }
  if (diag_failed(d)) {
    print_missing(m, m->path);
    printf("\nnot compilable: %s%s\n", d->msg, d->extra);
  }
}

/* A cycle estimate and its milliseconds as JSON members (null when the core has none). */
static void json_cycles(CostCore core, const Platform *p, double cycles) {
  if (cost_cycles_known(core))
    printf("\"estimated_cycles\": %.0f, \"estimated_ms\": %.6f", cycles, platform_cycles_to_ms(p, cycles));
  else printf("\"estimated_cycles\": null, \"estimated_ms\": null");
}

static void print_json(const Model *m, const Diag *d, size_t lb, const Platform *p) {
  const CostCore core = cost_core_of(p);
  double insns, cycles;
  model_estimates(m, core, &insns, &cycles);
  printf("{\n  \"model\": ");
  json_str(m->path);
  printf(",\n  \"cost_core\": \"%s\"", cost_core_name(core));
  printf(",\n  \"platform\": ");
  json_str(p->name);
  printf(",\n  \"clock_hz\": %lu,\n  \"estimated_instructions\": %.0f,\n  ", (unsigned long)p->clock_hz, insns);
  json_cycles(core, p, cycles);
  printf(",\n  \"weight_bytes\": %zu,\n  \"macs\": %lld,\n  \"activation_lower_bound\": %zu,\n  \"operators\": [\n",
         weight_bytes(m), (long long)total_macs(m), lb);
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    printf("    {\"index\": %d, \"model_index\": %d, \"name\": ", k, (int)n->index);
    json_str(n->opname);
    printf(", \"supported\": %s, \"kernel\": ", n->def ? "true" : "false");
    json_str(n->kernel ? n->kernel : "");
    printf(", \"macs\": %lld, \"scratch_bytes\": %zu", (long long)n->macs, n->scratch_bytes);
    CostFeatures f;
    cost_features(m, n, &f);
    printf(", \"cost_terms\": [");
    for (int i = 0; i < COST_N_TERMS; i++) printf("%s%.0f", i ? ", " : "", f.term[i]);
    CostCycleSource src;
    const double c = cost_node_cycles(m, n, core, &src);
    printf("], \"estimated_instructions\": %.0f, ", cost_node_estimate(m, n, core));
    json_cycles(core, p, c);
    printf(", \"cycle_source\": \"%s\"}%s\n", cost_cycle_source_name(src), k + 1 < m->n_nodes ? "," : "");
  }
  printf("  ],\n  \"tensors\": [\n");
  for (int i = 0; i < m->n_model_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    printf("    {\"id\": %d, \"name\": ", i);
    json_str(t->name);
    printf(", \"dtype\": \"%s\", \"shape\": %s, \"bytes\": %zu, \"constant\": %s", tensor_dtype_desc(t),
           tensor_shape_str(m->arena, t), t->bytes, tensor_is_const(t) ? "true" : "false");
    if (t->n_quant) printf(", \"scale\": %.9g, \"zero_point\": %lld, \"channels\": %d", (double)t->scale[0],
                           (long long)t->zero_point[0], t->n_quant);
    printf("}%s\n", i + 1 < m->n_model_tensors ? "," : "");
  }
  printf("  ],\n  \"unsupported\": [");
  bool first = true;
  for (int k = 0; k < m->n_nodes; k++)
    if (!m->nodes[k].def) {
      printf("%s{\"index\": %d, \"name\": ", first ? "" : ", ", k);
      json_str(m->nodes[k].opname);
      printf("}");
      first = false;
    }
  printf("],\n  \"errors\": ");
  json_str(diag_failed(d) ? d->msg : "");
  printf("\n}\n");
}

int cmd_inspect(int argc, char **argv) {
  ConvertOptions opt = {0};
  bool json = false, operators = false;
  const char *platform = "host";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(inspect_usage, stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--json")) json = true;
    else if (!strcmp(argv[i], "--operators")) operators = true;
    else if (!strcmp(argv[i], "--platform") || !strcmp(argv[i], "--platform.name")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "tinyaot: error: %s needs a value\n", argv[i]);
        return 2;
      }
      platform = argv[++i];
    }
    else if (argv[i][0] == '-') {
      fprintf(stderr, "tinyaot: error: unknown option '%s' (see inspect --help)\n", argv[i]);
      return 2;
    } else if (!opt.model_path) opt.model_path = argv[i];
    else {
      fprintf(stderr, "tinyaot: error: unexpected argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (!opt.model_path) {
    fprintf(stderr, "tinyaot: error: no model given (see inspect --help)\n");
    return 2;
  }
  Compilation c = {0};
  arena_init(&c.arena);
  Diag d;
  diag_init(&d, opt.model_path);
  if (!pipeline_load(&c, &opt, &d)) {
    diag_print(&d);
    if (!json) print_codes_of_unloadable(opt.model_path);
    pipeline_free(&c);
    return 1;
  }
  Diag rd;
  diag_init(&rd, opt.model_path);
  Platform target;
  if (!platform_builtin(platform, &target)) {
    fprintf(stderr, "tinyaot: error: unknown platform '%s' (see tinyaot platforms)\n", platform);
    pipeline_free(&c);
    return 2;
  }
  resolve_model(&c.model, &target, &rd);
  plan_compute_lifetimes(&c.model);
  for (int i = 0; i < c.model.n_tensors; i++)
    c.model.tensors[i].role = c.model.tensors[i].is_variable ? ROLE_PERSISTENT
                              : tensor_is_const(&c.model.tensors[i]) ? ROLE_CONSTANT : ROLE_SCRATCH;
  size_t lb = plan_live_lower_bound(&c.model);
  if (json) print_json(&c.model, &rd, lb, &target);
  else if (operators) print_operators(&c.model, &target);
  else print_text(&c.model, &rd, lb, &target);
  int rc = diag_failed(&rd) ? 1 : 0;
  pipeline_free(&c);
  return rc;
}
