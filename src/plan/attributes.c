/* Tensor attribute rules: precedence and field-by-field merging. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "plan.h"

/* heliaAOT's order (its reference/attributes page): (type and id) > (type only) >
 * (id only) > (neither). */
static int specificity(const TensorRule *r) {
  bool typed = r->has_type && r->type != RULE_ANY;
  return (typed ? 2 : 0) + (r->has_id ? 1 : 0);
}

static bool rule_matches(const TensorRule *r, RuleType kind, int32_t id) {
  if (r->has_type && r->type != RULE_ANY && r->type != kind) return false;
  if (!r->has_id) return true;
  if (id < 0) return false;
  for (int i = 0; i < r->n_ids; i++)
    if (r->ids[i] == id) return true;
  return false;
}

TensorAttrs attrs_resolve(const Config *c, RuleType kind, int32_t id) {
  TensorAttrs a = {.memory = MEM_NONE, .dest = MEM_NONE};
  int best_mem = -1, best_dest = -1, best_res = -1;
  if (!c) return a;
  for (int i = 0; i < c->n_rules; i++) {
    const TensorRule *r = &c->rules[i];
    if (!rule_matches(r, kind, id)) continue;
    int s = specificity(r);
    /* >= : at equal specificity the later rule wins */
    if (r->has_memory && s >= best_mem) {
      best_mem = s;
      a.memory_set = r->memory != MEM_NONE;
      a.memory = r->memory;
      a.line_memory = r->line;
    }
    if (r->has_dest && s >= best_dest) {
      best_dest = s;
      a.dest_set = true;
      a.dest = r->dest;
      a.line_dest = r->line;
    }
    if (r->residency != RES_UNSET && s >= best_res) {
      best_res = s;
      a.residency = r->residency;
      a.line_residency = r->line;
    }
  }
  return a;
}

/* ---- rules that match nothing (warnings; errors under --strict) --------------- */

static RuleType tensor_kind(const Tensor *t) {
  return t->is_variable ? RULE_PERSISTENT : tensor_is_const(t) ? RULE_CONSTANT : RULE_SCRATCH;
}

static const char *kind_name(RuleType k) {
  return k == RULE_SCRATCH ? "SCRATCH" : k == RULE_PERSISTENT ? "PERSISTENT" : k == RULE_CONSTANT ? "CONSTANT" : "*";
}

/* Does tensor rule `r` match a tensor of the model (with id `id`, or any when -1)? */
static bool tensor_rule_hits(const TensorRule *r, const Model *m, int32_t id) {
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    const int32_t tid = t->is_scratch_buffer ? -1 : t->id; /* kernel scratch: no model id */
    if (id >= 0 && tid != id) continue;
    if (rule_matches(r, tensor_kind(t), tid)) return true;
  }
  return false;
}

static bool operator_rule_hits(const OperatorRule *r, const Model *m, int32_t id) {
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    if (id >= 0 && n->index != id) continue;
    if (config_operator_rule_matches(r, n->index, n->opname)) return true;
  }
  return false;
}

/* One report: false (with d filled) under strict, else a warning on stderr. */
static bool unmatched(const Config *c, bool strict, Diag *d, int line, const char *what) {
  if (strict) return diag_error(d, "line %d: %s (--strict)", line, what);
  fprintf(stderr, "tinyaot: warning: %s: line %d: %s\n", c->path ? c->path : "config", line, what);
  return true;
}

/* heliaAOT documents two orders for operator rules (reference/attributes: type > id; its
 * operator-attributes page: id > type). tinyaot follows the first; where a config's rules
 * give an operator a different attribute under the second, one warning names both. */
static void warn_precedence(const Config *c, const Model *m) {
  int differ = 0;
  char first[320] = "";
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    const OperatorAttrs a = config_operator_attrs_order(c, n->index, n->opname, false);
    const OperatorAttrs b = config_operator_attrs_order(c, n->index, n->opname, true);
    const char *field = NULL, *va = NULL, *vb = NULL;
    int la = 0, lb = 0;
    if (a.code_placement != b.code_placement)
      field = "code_placement", va = mem_name(a.code_placement), vb = mem_name(b.code_placement), la = a.line_code,
      lb = b.line_code;
    else if (a.scratch_placement != b.scratch_placement)
      field = "scratch_placement", va = mem_name(a.scratch_placement), vb = mem_name(b.scratch_placement),
      la = a.line_scratch, lb = b.line_scratch;
    else if ((a.lut_mode == NULL) != (b.lut_mode == NULL) || (a.lut_mode && strcasecmp(a.lut_mode, b.lut_mode) != 0))
      field = "lut_mode", va = a.lut_mode ? a.lut_mode : "-", vb = b.lut_mode ? b.lut_mode : "-", la = a.line_lut,
      lb = b.line_lut;
    if (!field) continue;
    if (differ++ == 0)
      snprintf(first, sizeof first,
               "operator %d (%.40s) takes %s %s from line %d: heliaAOT's reference/attributes order (type-only rules "
               "over id-only rules), which tinyaot follows; its operator-attributes page (id-only over type-only) "
               "gives %s from line %d",
               (int)n->index, n->opname ? n->opname : "?", field, va, la, vb, lb);
  }
  if (differ && !c->quiet)
    fprintf(stderr, "tinyaot: warning: %s: %s (%d operator%s differ)\n", c->path ? c->path : "config", first, differ,
            differ == 1 ? "" : "s");
}

bool attrs_check_unmatched(const Config *c, const Model *m, bool strict, Diag *d) {
  if (c) warn_precedence(c, m);
  char what[160];
  for (int i = 0; c && i < c->n_rules; i++) {
    const TensorRule *r = &c->rules[i];
    const char *type = r->has_type ? kind_name(r->type) : "*";
    if (!r->has_id && !tensor_rule_hits(r, m, -1)) {
      snprintf(what, sizeof what, "memory.tensors rule (type %s) matches no tensor of the model", type);
      if (!unmatched(c, strict, d, r->line, what)) return false;
    }
    /* (ids given as names that no tensor has were reported when they were bound) */
    if (r->has_id && r->n_ids == 0 && !r->id_names &&
        !unmatched(c, strict, d, r->line, "memory.tensors rule has an empty id list"))
      return false;
    for (int j = 0; r->has_id && j < r->n_ids; j++)
      if (!tensor_rule_hits(r, m, r->ids[j])) {
        snprintf(what, sizeof what, "memory.tensors rule (type %s): id %d matches no tensor of the model", type,
                 (int)r->ids[j]);
        if (!unmatched(c, strict, d, r->line, what)) return false;
      }
  }
  for (int i = 0; c && i < c->n_op_rules; i++) {
    const OperatorRule *r = &c->op_rules[i];
    const char *type = r->op_type ? r->op_type : "*";
    if (!r->has_id && !operator_rule_hits(r, m, -1)) {
      snprintf(what, sizeof what, "operators rule (type %.40s) matches no operator of the model", type);
      if (!unmatched(c, strict, d, r->line, what)) return false;
    }
    if (r->has_id && r->n_ids == 0 && !unmatched(c, strict, d, r->line, "operators rule has an empty id list"))
      return false;
    for (int j = 0; r->has_id && j < r->n_ids; j++)
      if (!operator_rule_hits(r, m, r->ids[j])) {
        snprintf(what, sizeof what, "operators rule (type %.40s): id %d matches no operator of the model", type,
                 (int)r->ids[j]);
        if (!unmatched(c, strict, d, r->line, what)) return false;
      }
  }
  return true;
}

/* ---- --verbose 2: the attributes resolved per operator and per tensor ---------- */

static void print_field(FILE *f, const char *name, bool set, const char *value, int line) {
  if (set) fprintf(f, " %s=%s (line %d)", name, value, line);
  else fprintf(f, " %s=-", name);
}

static const char *residency_word(Residency r) {
  return r == RES_DIRECT ? "direct" : r == RES_PIN ? "pin" : r == RES_STREAM ? "stream" : "-";
}

static void print_rules(FILE *f, const TensorAttrs *a) {
  print_field(f, "memory", a->line_memory > 0, a->memory_set ? mem_name(a->memory) : "None", a->line_memory);
  print_field(f, "constant_destination_memory", a->dest_set, a->dest_set ? mem_name(a->dest) : "", a->line_dest);
  print_field(f, "residency", a->residency != RES_UNSET, residency_word(a->residency), a->line_residency);
}

void attrs_print(const Config *c, const Model *m, const Plan *p, FILE *f) {
  fprintf(f, "attributes resolved per operator (rules' lines in %s; '-': no rule sets it):\n",
          c && c->path ? c->path : "no config");
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    OperatorAttrs a = config_operator_attrs(c, n->index, n->opname);
    fprintf(f, "  operator %d %s:", (int)n->index, n->opname);
    print_field(f, "code_placement", a.line_code > 0, mem_name(a.code_placement), a.line_code);
    print_field(f, "scratch_placement", a.line_scratch > 0, mem_name(a.scratch_placement), a.line_scratch);
    if (a.lut_mode) print_field(f, "lut_mode", true, a.lut_mode, a.line_lut);
    fputc('\n', f);
  }
  fprintf(f, "attributes resolved per tensor (-> where the plan put it):\n");
  for (int i = 0; i < m->n_model_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    const RuleType kind = tensor_kind(t);
    TensorAttrs a = attrs_resolve(c, kind, t->id);
    fprintf(f, "  tensor %d '%.60s' %s:", (int)t->id, t->name, kind_name(kind));
    print_rules(f, &a);
    if (kind != RULE_CONSTANT && t->arena >= 0 && t->arena < p->n_arenas)
      fprintf(f, " -> %s (arena %s)", mem_name(p->arenas[t->arena].memory), p->arenas[t->arena].name);
    for (int j = 0; j < p->n_consts; j++) {
      const ConstItem *ci = &p->consts[j];
      if (ci->tensor_id == t->id)
        fprintf(f, " -> stored in %s, read from %s (%s)", mem_name(ci->source), mem_name(ci->runtime),
                residency_word(ci->residency));
    }
    fputc('\n', f);
  }
  for (int j = 0; j < p->n_consts; j++) {
    const ConstItem *ci = &p->consts[j];
    if (ci->tensor_id >= 0) continue;
    TensorAttrs a = attrs_resolve(c, RULE_CONSTANT, ci->source_tensor);
    fprintf(f, "  %s", ci->what);
    if (ci->source_tensor >= 0) fprintf(f, " (rules of tensor %d)", (int)ci->source_tensor);
    fputc(':', f);
    print_rules(f, &a);
    fprintf(f, " -> stored in %s, read from %s (%s)\n", mem_name(ci->source), mem_name(ci->runtime),
            residency_word(ci->residency));
  }
}
