#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "../load/loader.h"

typedef struct Parser {
  Arena *arena;
  yaml_document_t *doc;
  const char *name;
  Config *c;
  Diag *d;
  const char *option; /* a command-line option's value (errors name it), or NULL: the file */
} Parser;

static int line_of(const yaml_node_t *n) { return n ? (int)n->start_mark.line + 1 : 0; }

/* Messages quote scalars from the file, which may span lines: keep them on one line. */
static void one_line(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 32) *s = '?';
}

static bool err(Parser *p, const yaml_node_t *n, const char *fmt, const char *a, const char *b) {
  char msg[512];
  snprintf(msg, sizeof msg, fmt, a, b);
  one_line(msg);
  if (p->option) return diag_error(p->d, "%s: %s", p->option, msg);
  return diag_error(p->d, "line %d: %s", line_of(n), msg);
}

/* Edit distance (insertions, deletions, substitutions) of two short keys, for "did you
 * mean"; longer keys are not compared (the result is capped at 99). */
static int key_distance(const char *s, const char *t) {
  enum { N = 40 };
  size_t ls = strlen(s), lt = strlen(t);
  if (ls >= N || lt >= N) return 99;
  int row[N], prev[N];
  for (size_t j = 0; j <= lt; j++) prev[j] = (int)j;
  for (size_t i = 1; i <= ls; i++) {
    row[0] = (int)i;
    for (size_t j = 1; j <= lt; j++) {
      int best = prev[j - 1] + (s[i - 1] != t[j - 1]);
      if (prev[j] + 1 < best) best = prev[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
    }
    memcpy(prev, row, sizeof(int) * (lt + 1));
  }
  return prev[lt];
}

/* The known key closest to `key` when it is a likely typo (as the command line's "did
 * you mean": at most a third of the key's length, 1..4 edits), else NULL. */
static const char *closest_key(const char *key, const char *const *known) {
  const char *best = NULL;
  int best_d = 99;
  for (; known && *known; known++) {
    int d = key_distance(key, *known);
    if (d < best_d) best_d = d, best = *known;
  }
  int limit = (int)strlen(key) / 3;
  if (limit < 1) limit = 1;
  if (limit > 4) limit = 4;
  return best && best_d <= limit ? best : NULL;
}

/* An ignored key: a warning, or under --strict an error, naming the closest known key of
 * the section when it looks like a typo. False stops the parse. */
static bool unknown_key(Parser *p, const yaml_node_t *k, const char *section, const char *const *known) {
  char shown[128], hint[96] = "";
  snprintf(shown, sizeof shown, "%s", k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "?");
  one_line(shown);
  const char *close = closest_key(shown, known);
  if (close) snprintf(hint, sizeof hint, "; did you mean '%s'?", close);
  if (p->c->strict) {
    char msg[400];
    snprintf(msg, sizeof msg, "unknown key '%s' in %s (--strict)%s", shown, section, hint);
    return err(p, k, "%s%s", msg, "");
  }
  if (p->c->quiet) { /* the caller reads the file again and warns then */
  } else if (p->option) fprintf(stderr, "tinyaot: warning: %s: unknown key '%s' in %s (ignored)%s\n", p->option, shown, section, hint);
  else fprintf(stderr, "tinyaot: warning: %s: line %d: unknown key '%s' in %s (ignored)%s\n", p->name, line_of(k),
               shown, section, hint);
  p->c->warnings++;
  return true;
}

/* The keys of each section, for "did you mean" (the parse functions below read them). */
static const char *const KEYS_TENSOR_ATTRS[] = {"memory", "constant_destination_memory", "residency", NULL};
static const char *const KEYS_TENSOR_RULE[] = {"type", "id", "attributes", "memory", "constant_destination_memory",
                                               "residency", NULL};
static const char *const KEYS_CONSTRAINT[] = {"name", "max_size", "size", NULL};
static const char *const KEYS_MEMORY[] = {"constraints", "tensors", "allocate_arenas", "auto_hydrate_constants",
                                          "dump_residency_json", "planner", "optimize", NULL};
static const char *const KEYS_OP_ATTRS[] = {"code_placement", "scratch_placement", "lut_mode", NULL};
static const char *const KEYS_OP_RULE[] = {"type", "id", "attributes", "code_placement", "scratch_placement",
                                           "lut_mode", NULL};
static const char *const KEYS_PLATFORM_MEM[] = {"name", "type", "size", "writable", "executable", "non_volatile", NULL};
static const char *const KEYS_PLATFORM[] = {"name", "cpu", "core", "capabilities", "alignment", "memories", NULL};
static const char *const KEYS_MODEL[] = {"path", "subgraph", "type", "name", "description", "version", NULL};
static const char *const KEYS_MODULE[] = {"path", "name", "prefix", "type", NULL};
static const char *const KEYS_TEST[] = {"enabled", "golden_data", "tolerance", NULL};
static const char *const KEYS_MODELS_ENTRY[] = {"model", "module", NULL};
static const char *const KEYS_TRANSFORM[] = {"name", "enabled", "options", NULL};
static const char *const KEYS_ROOT[] = {"model", "module", "test", "platform", "memory", "operators", "transforms",
                                        "verbose", "force", "log_file", "models", "shared_scratch", NULL};

static yaml_node_t *node(Parser *p, int id) { return yaml_document_get_node(p->doc, id); }

static const char *scalar(const yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static bool is_null(const yaml_node_t *n) {
  const char *s = scalar(n);
  return s && (!strcasecmp(s, "None") || !strcasecmp(s, "null") || !strcmp(s, "~") || !*s);
}

static bool want_string(Parser *p, const yaml_node_t *n, const char *key, const char **out) {
  const char *s = scalar(n);
  if (!s) return err(p, n, "'%s' must be a string%s", key, "");
  for (const char *c = s; *c; c++) /* names and paths end up in one-line messages */
    if ((unsigned char)*c < 32) return err(p, n, "'%s' must be a single-line string without control characters%s", key, "");
  *out = arena_strdup(p->arena, s);
  return *out != NULL;
}

static bool want_uint(Parser *p, const yaml_node_t *n, const char *key, uint64_t *out) {
  const char *s = scalar(n);
  if (!s || !*s) return err(p, n, "'%s' must be a non-negative integer%s", key, "");
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  uint64_t mult = 1;
  if (!strcasecmp(end, "KB") || !strcasecmp(end, "K") || !strcasecmp(end, "KiB")) mult = 1024;
  else if (!strcasecmp(end, "MB") || !strcasecmp(end, "M") || !strcasecmp(end, "MiB")) mult = 1024 * 1024;
  else if (*end) return err(p, n, "'%s' must be a non-negative integer (got '%s')", key, s);
  if (errno || s[0] == '-' || v > UINT64_MAX / mult) return err(p, n, "'%s' is out of range (got '%s')", key, s);
  *out = (uint64_t)v * mult;
  return true;
}

static bool want_bool(Parser *p, const yaml_node_t *n, const char *key, bool *out) {
  const char *s = scalar(n);
  if (s && (!strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcmp(s, "1"))) *out = true;
  else if (s && (!strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcmp(s, "0"))) *out = false;
  else return err(p, n, "'%s' must be true or false%s", key, "");
  return true;
}

static bool want_mem(Parser *p, const yaml_node_t *n, const char *key, MemType *out) {
  const char *s = scalar(n);
  if (!s) return err(p, n, "'%s' must be a memory name%s", key, "");
  *out = mem_parse(s);
  if (*out == MEM_NONE) return err(p, n, "'%s': unknown memory '%s' (ITCM, DTCM, SRAM, MRAM, PSRAM)", key, s);
  return true;
}

/* A key given twice in one mapping is an error: YAML loaders keep one of the two values
 * silently (PyYAML, heliaAOT's, the last), so the file says two things for one setting;
 * the command line refuses a repeated option the same way. */
static bool unique_keys(Parser *p, const yaml_node_t *map, const char *key) {
  for (yaml_node_pair_t *a = map->data.mapping.pairs.start; a < map->data.mapping.pairs.top; a++) {
    const char *sa = scalar(yaml_document_get_node(p->doc, a->key));
    if (!sa) continue;
    for (yaml_node_pair_t *b = map->data.mapping.pairs.start; b < a; b++) {
      yaml_node_t *kb = yaml_document_get_node(p->doc, b->key);
      const char *sb = scalar(kb);
      if (!sb || strcmp(sa, sb) != 0) continue;
      char where[160];
      snprintf(where, sizeof where, "%s (first at line %d)", key, line_of(kb));
      return err(p, yaml_document_get_node(p->doc, a->key), "'%s' is given twice in %s", sa, where);
    }
  }
  return true;
}

static bool want_map(Parser *p, const yaml_node_t *n, const char *key) {
  if (!n || n->type != YAML_MAPPING_NODE) return err(p, n, "'%s' must be a mapping%s", key, "");
  return unique_keys(p, n, key);
}

static bool want_seq(Parser *p, const yaml_node_t *n, const char *key) {
  if (!n || n->type != YAML_SEQUENCE_NODE) return err(p, n, "'%s' must be a list%s", key, "");
  return true;
}

/* Iterate a mapping's pairs / a sequence's items; names derive from the loop
 * variables so nested loops do not shadow each other. */
#define FOR_PAIRS(p, map, k, v)                                                                          \
  for (yaml_node_pair_t *k##_pair = (map)->data.mapping.pairs.start; k##_pair < (map)->data.mapping.pairs.top; \
       k##_pair++)                                                                                       \
    for (yaml_node_t *k = node(p, k##_pair->key), *v = node(p, k##_pair->value), *k##_once = k; k##_once && v; \
         k##_once = NULL)

#define FOR_ITEMS(p, seq, item)                                                                          \
  for (yaml_node_item_t *item##_it = (seq)->data.sequence.items.start; item##_it < (seq)->data.sequence.items.top; \
       item##_it++)                                                                                      \
    for (yaml_node_t *item = node(p, *item##_it), *item##_once = item; item##_once; item##_once = NULL)

static bool key_is(const yaml_node_t *k, const char *name) {
  const char *s = scalar(k);
  return s && strcmp(s, name) == 0;
}

/* One id: a non-negative decimal integer, plain or quoted ("12", as heliaAOT writes it).
 * With `names` (tensor rules), any other string is a tensor name (heliaAOT's
 * tensor-attributes example names tensors): kept in names[*n_names], bound to ids once
 * the model is loaded (config_bind_tensor_names). A signed number is not a name. */
static bool parse_id(Parser *p, const yaml_node_t *n, int32_t *out, const char **names, int *n_names, bool *is_name) {
  const char *s = scalar(n);
  *is_name = false;
  if (!s || !*s) return err(p, n, "'id' must be an index, a quoted index, a list of them or null%s%s", "", "");
  bool digits = strspn(s, "0123456789") == strlen(s);
  bool is_signed = (s[0] == '-' || s[0] == '+') && s[1] && strspn(s + 1, "0123456789") == strlen(s + 1);
  if (!digits && names && !is_signed) {
    *is_name = true;
    return want_string(p, n, "id", &names[(*n_names)++]);
  }
  if (!digits) return err(p, n, "'id' must be a non-negative integer (got '%s')%s", s, "");
  errno = 0;
  unsigned long long v = strtoull(s, NULL, 10);
  if (errno || v > INT32_MAX) return err(p, n, "'id' is out of range (got '%s')%s", s, "");
  *out = (int32_t)v;
  return true;
}

/* `id`: an index, a string, a list of either, or null (= no id: the rule matches any).
 * `names` NULL: indices only (operator rules); else tensor names are taken too. */
static bool parse_ids(Parser *p, yaml_node_t *v, bool *has_id, int *n_ids, int32_t **ids, const char ***names,
                      int *n_names) {
  *has_id = false;
  *n_ids = 0;
  *ids = NULL;
  if (v->type == YAML_SCALAR_NODE && is_null(v)) return true;
  if (v->type != YAML_SEQUENCE_NODE && v->type != YAML_SCALAR_NODE)
    return err(p, v, "'id' must be an index, a quoted index, a list of them or null%s%s", "", "");
  int count = v->type == YAML_SEQUENCE_NODE ? (int)(v->data.sequence.items.top - v->data.sequence.items.start) : 1;
  *ids = arena_calloc(p->arena, (size_t)count + 1, sizeof(int32_t));
  if (!*ids) return diag_error(p->d, "out of memory");
  const char **nm = NULL;
  if (names) {
    *n_names = 0;
    nm = arena_calloc(p->arena, (size_t)count + 1, sizeof *nm);
    if (!nm) return diag_error(p->d, "out of memory");
    *names = nm;
  }
  *has_id = true;
  if (v->type == YAML_SCALAR_NODE) {
    bool is_name;
    if (!parse_id(p, v, &(*ids)[0], nm, n_names, &is_name)) return false;
    *n_ids = is_name ? 0 : 1;
    if (names && !is_name) *names = NULL;
    return true;
  }
  FOR_ITEMS(p, v, item) {
    bool is_name;
    if (!parse_id(p, item, &(*ids)[*n_ids], nm, n_names, &is_name)) return false;
    if (!is_name) (*n_ids)++;
  }
  if (names && *n_names == 0) *names = NULL; /* indices only */
  return true;
}

/* One tensor attribute; *known is false when `k` is not one. */
static bool tensor_attribute(Parser *p, yaml_node_t *k, yaml_node_t *v, TensorRule *r, bool *known) {
  *known = true;
  if (key_is(k, "memory")) {
    r->has_memory = true;
    r->memory = MEM_NONE;
    return is_null(v) || want_mem(p, v, "memory", &r->memory);
  }
  if (key_is(k, "constant_destination_memory")) {
    if (is_null(v)) return true;
    r->has_dest = true;
    return want_mem(p, v, "constant_destination_memory", &r->dest);
  }
  if (key_is(k, "residency")) {
    const char *s = scalar(v);
    if (is_null(v)) return true;
    if (s && !strcasecmp(s, "direct")) r->residency = RES_DIRECT;
    else if (s && !strcasecmp(s, "pin")) r->residency = RES_PIN;
    else if (s && !strcasecmp(s, "stream")) r->residency = RES_STREAM;
    else return err(p, v, "'residency' must be direct, pin or stream (got '%s')%s", s ? s : "?", "");
    return true;
  }
  *known = false;
  return true;
}

/* The checks of one rule's attributes together (after nested and flat keys). */
static bool check_tensor_rule(Parser *p, yaml_node_t *map, TensorRule *r) {
  if (r->has_dest && (r->residency == RES_DIRECT || r->residency == RES_STREAM))
    return err(p, map, "one rule cannot pair constant_destination_memory with residency '%s'%s",
               r->residency == RES_DIRECT ? "direct" : "stream", "");
  if (r->has_dest) r->residency = RES_PIN; /* a destination implies pin at this rule's precedence */
  if (r->residency && r->has_type && r->type != RULE_CONSTANT && r->type != RULE_ANY)
    return err(p, map, "residency applies to constants only, not to type '%s'%s",
               r->type == RULE_SCRATCH ? "scratch" : "persistent", "");
  return true;
}

static bool parse_tensor_type(Parser *p, yaml_node_t *v, TensorRule *r) {
  const char *s = scalar(v);
  r->has_type = true;
  if (s && !strcasecmp(s, "scratch")) r->type = RULE_SCRATCH;
  else if (s && !strcasecmp(s, "persistent")) r->type = RULE_PERSISTENT;
  else if (s && !strcasecmp(s, "constant")) r->type = RULE_CONSTANT;
  else if (s && (!strcmp(s, "*") || is_null(v))) r->has_type = false;
  else return err(p, v, "'type' must be SCRATCH, PERSISTENT, CONSTANT or * (got '%s')%s", s ? s : "?", "");
  return true;
}

/* A rule {type, id, attributes: {...}}; the attributes may also sit beside type/id. */
static bool parse_tensor_rule(Parser *p, yaml_node_t *map, TensorRule *r) {
  if (!want_map(p, map, "memory.tensors entry")) return false;
  r->line = line_of(map);
  FOR_PAIRS(p, map, k, v) {
    bool known;
    if (key_is(k, "type")) {
      if (!parse_tensor_type(p, v, r)) return false;
    } else if (key_is(k, "id")) {
      if (!parse_ids(p, v, &r->has_id, &r->n_ids, &r->ids, &r->id_names, &r->n_id_names)) return false;
    } else if (key_is(k, "attributes")) {
      if (is_null(v)) continue;
      if (!want_map(p, v, "attributes")) return false;
      FOR_PAIRS(p, v, kk, vv) {
        if (!tensor_attribute(p, kk, vv, r, &known)) return false;
        if (!known && !unknown_key(p, kk, "tensor attributes", KEYS_TENSOR_ATTRS)) return false;
      }
    } else {
      if (!tensor_attribute(p, k, v, r, &known)) return false;
      if (!known && !unknown_key(p, k, "memory.tensors entry", KEYS_TENSOR_RULE)) return false;
    }
  }
  return check_tensor_rule(p, map, r);
}

/* memory.constraints (the file's key, or --memory.constraints). */
static bool parse_constraints(Parser *p, yaml_node_t *v) {
  Config *c = p->c;
  if (!want_seq(p, v, "memory.constraints")) return false;
  FOR_ITEMS(p, v, item) {
    if (!want_map(p, item, "memory.constraints entry")) return false;
    if (c->n_constraints >= CONFIG_MAX_CONSTRAINTS) return err(p, item, "too many constraints%s%s", "", "");
    MemoryConstraint *mc = &c->constraints[c->n_constraints++];
    mc->line = line_of(item);
    mc->mem = MEM_NONE;
    bool has_size = false;
    FOR_PAIRS(p, item, kk, vv) {
      if (key_is(kk, "name")) {
        if (!want_mem(p, vv, "name", &mc->mem)) return false;
      } else if (key_is(kk, "max_size") || key_is(kk, "size")) {
        /* `size`: heliaAOT's template spelling of the same budget */
        const char *which = scalar(kk);
        if (has_size) return err(p, kk, "a constraint takes one of 'max_size' and 'size' (got both)%s%s", "", "");
        mc->max_size = UINT64_MAX; /* null: the platform's size */
        if (!is_null(vv) && !want_uint(p, vv, which, &mc->max_size)) return false;
        has_size = true;
      } else {
        if (!unknown_key(p, kk, "memory.constraints entry", KEYS_CONSTRAINT)) return false;
      }
    }
    if (mc->mem == MEM_NONE || !has_size) return err(p, item, "a constraint needs 'name' and 'max_size' (or 'size')%s%s", "", "");
  }
  return true;
}

/* memory.tensors (the file's key, or --memory.tensors). */
static bool parse_tensor_rules(Parser *p, yaml_node_t *k, yaml_node_t *v) {
  Config *c = p->c;
  /* A second list would be written past the first one's allocation. */
  if (c->rules) return err(p, k, "'%s%s' is given twice", "memory.", "tensors");
  if (!want_seq(p, v, "memory.tensors")) return false;
  int n = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
  c->rules = arena_calloc(p->arena, (size_t)n + 1, sizeof(TensorRule));
  if (!c->rules) return diag_error(p->d, "out of memory");
  FOR_ITEMS(p, v, item) {
    if (!parse_tensor_rule(p, item, &c->rules[c->n_rules])) return false;
    c->n_rules++;
  }
  return true;
}

static bool parse_memory(Parser *p, yaml_node_t *map) {
  Config *c = p->c;
  if (!want_map(p, map, "memory")) return false;
  FOR_PAIRS(p, map, k, v) {
    if (is_null(v)) continue; /* a key given as null is not set */
    if (key_is(k, "constraints")) {
      if (!parse_constraints(p, v)) return false;
    } else if (key_is(k, "tensors")) {
      if (!parse_tensor_rules(p, k, v)) return false;
    } else if (key_is(k, "allocate_arenas")) {
      if (!want_bool(p, v, "allocate_arenas", &c->allocate_arenas)) return false;
      c->has_allocate_arenas = true;
    } else if (key_is(k, "auto_hydrate_constants")) {
      if (!want_bool(p, v, "auto_hydrate_constants", &c->auto_hydrate_constants)) return false;
      c->has_auto_hydrate_constants = true;
    } else if (key_is(k, "dump_residency_json")) {
      if (!want_bool(p, v, "dump_residency_json", &c->dump_residency_json)) return false;
      c->has_dump_residency_json = true;
    } else if (key_is(k, "optimize")) {
      /* tinyaot's --memory.optimize (heliaAOT has no such key) */
      if (!want_string(p, v, "memory.optimize", &c->memory_optimize)) return false;
      if (strcmp(c->memory_optimize, "default") != 0 && strcmp(c->memory_optimize, "max") != 0)
        return err(p, v, "'memory.optimize' must be default or max (got '%s')%s", c->memory_optimize, "");
    } else if (key_is(k, "planner")) {
      /* heliaAOT's one planner is "greedy"; tinyaot's planner takes that name */
      if (is_null(v)) continue;
      if (!want_string(p, v, "memory.planner", &c->planner)) return false;
      if (strcasecmp(c->planner, "greedy") != 0)
        return err(p, v, "'memory.planner' must be greedy (got '%s')%s", c->planner, "");
    } else {
      if (!unknown_key(p, k, "memory", KEYS_MEMORY)) return false;
    }
  }
  return true;
}

/* One operator attribute; *known is false when `k` is not one. */
static bool operator_attribute(Parser *p, yaml_node_t *k, yaml_node_t *v, OperatorRule *r, bool *known) {
  *known = true;
  if (key_is(k, "code_placement")) return is_null(v) || want_mem(p, v, "code_placement", &r->code_placement);
  if (key_is(k, "scratch_placement")) return is_null(v) || want_mem(p, v, "scratch_placement", &r->scratch_placement);
  if (key_is(k, "lut_mode")) {
    if (is_null(v)) return true;
    if (!want_string(p, v, "lut_mode", &r->lut_mode)) return false;
    if (strcasecmp(r->lut_mode, "per_op") != 0 && strcasecmp(r->lut_mode, "universal") != 0)
      return err(p, v, "'lut_mode' must be per_op or universal (got '%s')%s", r->lut_mode, "");
    return true;
  }
  *known = false;
  return true;
}

/* A rule {type, id, attributes: {...}} (heliaAOT) or with the attributes beside type/id. */
static bool parse_operator_rule(Parser *p, yaml_node_t *item, OperatorRule *r) {
  if (!want_map(p, item, "operators entry")) return false;
  r->line = line_of(item);
  r->code_placement = r->scratch_placement = MEM_NONE;
  FOR_PAIRS(p, item, k, v) {
    bool known;
    if (key_is(k, "id")) {
      if (!parse_ids(p, v, &r->has_id, &r->n_ids, &r->ids, NULL, NULL)) return false;
    } else if (key_is(k, "type")) {
      if (is_null(v)) continue;
      if (!want_string(p, v, "type", &r->op_type)) return false;
      if (strcmp(r->op_type, "*") == 0) r->op_type = NULL; /* "*": every operator */
    } else if (key_is(k, "attributes")) {
      if (is_null(v)) continue;
      if (!want_map(p, v, "attributes")) return false;
      FOR_PAIRS(p, v, kk, vv) {
        if (!operator_attribute(p, kk, vv, r, &known)) return false;
        if (!known && !unknown_key(p, kk, "operator attributes", KEYS_OP_ATTRS)) return false;
      }
    } else {
      if (!operator_attribute(p, k, v, r, &known)) return false;
      if (!known && !unknown_key(p, k, "operators entry", KEYS_OP_RULE)) return false;
    }
  }
  return true;
}

static bool parse_operators(Parser *p, yaml_node_t *seq) {
  Config *c = p->c;
  if (is_null(seq)) return true;
  if (!want_seq(p, seq, "operators")) return false;
  if (c->op_rules) return err(p, seq, "'%s%s' is given twice", "", "operators");
  int n = (int)(seq->data.sequence.items.top - seq->data.sequence.items.start);
  c->op_rules = arena_calloc(p->arena, (size_t)n + 1, sizeof(OperatorRule));
  if (!c->op_rules) return diag_error(p->d, "out of memory");
  FOR_ITEMS(p, seq, item) {
    if (!parse_operator_rule(p, item, &c->op_rules[c->n_op_rules])) return false;
    c->n_op_rules++;
  }
  return true;
}

/* One memory of a custom platform: a list entry {name, size, writable, executable,
 * non_volatile}, or (mt known: a mapping's key) its size alone or that map without name. */
static bool parse_platform_memory(Parser *p, yaml_node_t *item, MemType mt, Platform *pl) {
  Memory m = {true, 0, true, true, false, false};
  bool exec_set = false;
  if (mt != MEM_NONE && item->type == YAML_SCALAR_NODE) {
    if (!want_uint(p, item, "size", &m.size)) return false;
  } else {
    if (!want_map(p, item, "platform.memories entry")) return false;
    FOR_PAIRS(p, item, kk, vv) {
      if (key_is(kk, "name") || key_is(kk, "type")) {
        MemType named;
        if (!want_mem(p, vv, "memory name", &named)) return false;
        if (mt != MEM_NONE && named != mt)
          return err(p, vv, "memory '%s' is listed under '%s'", mem_name(named), mem_name(mt));
        mt = named;
      } else if (key_is(kk, "size")) {
        if (!want_uint(p, vv, "size", &m.size)) return false;
      } else if (key_is(kk, "writable")) {
        if (!want_bool(p, vv, "writable", &m.writable)) return false;
      } else if (key_is(kk, "executable")) {
        if (!want_bool(p, vv, "executable", &m.executable)) return false;
        exec_set = true;
      } else if (key_is(kk, "non_volatile")) {
        if (!want_bool(p, vv, "non_volatile", &m.non_volatile)) return false;
      } else {
        if (!unknown_key(p, kk, "platform.memories entry", KEYS_PLATFORM_MEM)) return false;
      }
    }
  }
  if (mt == MEM_NONE) return err(p, item, "a memory needs a 'name'%s%s", "", "");
  if (pl->mem[mt].present) return err(p, item, "memory %s is listed twice%s", mem_name(mt), "");
  /* as on the built-in platforms: code may run from every memory but DTCM */
  if (!exec_set) m.executable = mt != MEM_DTCM;
  if (mt == MEM_MRAM && !m.non_volatile) m.non_volatile = true, m.writable = false;
  pl->mem[mt] = m;
  return true;
}

static bool parse_custom_platform(Parser *p, yaml_node_t *map) {
  Platform *pl = &p->c->custom_platform;
  memset(pl, 0, sizeof *pl);
  const char *name = NULL, *cpu = "cortex-m55";
  bool has_memories = false;
  FOR_PAIRS(p, map, k, v) {
    if (key_is(k, "name")) {
      if (!want_string(p, v, "platform.name", &name)) return false;
    } else if (key_is(k, "cpu") || key_is(k, "core")) {
      if (!want_string(p, v, "platform.cpu", &cpu)) return false;
    } else if (key_is(k, "capabilities")) {
      if (!want_seq(p, v, "platform.capabilities")) return false;
      FOR_ITEMS(p, v, item) {
        const char *s = scalar(item);
        if (s && !strcasecmp(s, "dsp")) pl->dsp = true;
        else if (s && (!strcasecmp(s, "mve") || !strcasecmp(s, "helium"))) pl->mve = true;
        else return err(p, item, "unknown capability '%s' (dsp, mve)%s", s ? s : "?", "");
      }
    } else if (key_is(k, "alignment")) {
      uint64_t al;
      if (!want_uint(p, v, "platform.alignment", &al)) return false;
      if (al == 0 || al > 4096 || (al & (al - 1))) return err(p, v, "'alignment' must be a power of two up to 4096%s%s", "", "");
      pl->alignment = (uint32_t)al;
    } else if (key_is(k, "clock_mhz")) {
      uint64_t mhz;
      if (!want_uint(p, v, "platform.clock_mhz", &mhz)) return false;
      if (mhz == 0 || mhz > 4000) return err(p, v, "'clock_mhz' must be 1 to 4000%s%s", "", "");
      pl->clock_hz = (uint32_t)mhz * 1000000u;
    } else if (key_is(k, "memories")) {
      has_memories = true;
      if (v->type == YAML_MAPPING_NODE) { /* heliaAOT's form: {SRAM: 3MB, DTCM: {size: ...}} */
        if (!want_map(p, v, "platform.memories")) return false;
        FOR_PAIRS(p, v, kk, vv) {
          MemType mt;
          if (!want_mem(p, kk, "memory name", &mt) || !parse_platform_memory(p, vv, mt, pl)) return false;
        }
      } else {
        if (!want_seq(p, v, "platform.memories")) return false;
        FOR_ITEMS(p, v, item)
          if (!parse_platform_memory(p, item, MEM_NONE, pl)) return false;
      }
    } else {
      if (!unknown_key(p, k, "platform", KEYS_PLATFORM)) return false;
    }
  }
  if (!name) return err(p, map, "platform needs a 'name'%s%s", "", "");
  p->c->platform_line = line_of(map);
  if (!has_memories) {
    /* A known name with no memories is just a reference to the built-in platform. */
    p->c->platform_name = name;
    return true;
  }
  snprintf(pl->name, sizeof pl->name, "%s", name);
  snprintf(pl->cpu, sizeof pl->cpu, "%s", cpu);
  platform_finish(pl);
  p->c->has_custom_platform = true;
  p->c->platform_name = arena_strdup(p->arena, pl->name);
  return true;
}

static bool want_int(Parser *p, const yaml_node_t *n, const char *key, int max, int *out) {
  uint64_t v;
  const char *s = scalar(n);
  if (!s || strspn(s, "0123456789") != strlen(s) || !*s) return err(p, n, "'%s' must be a non-negative integer%s", key, "");
  if (!want_uint(p, n, key, &v)) return false;
  if (v > (uint64_t)max) return err(p, n, "'%s' is out of range (got '%s')", key, s);
  *out = (int)v;
  return true;
}

static bool parse_model(Parser *p, yaml_node_t *map) {
  Config *c = p->c;
  if (map->type == YAML_SCALAR_NODE) return want_string(p, map, "model", &c->model_path);
  if (!want_map(p, map, "model")) return false;
  FOR_PAIRS(p, map, k, v) {
    bool ok = true;
    if (is_null(v)) continue;
    if (key_is(k, "path")) ok = want_string(p, v, "model.path", &c->model_path);
    else if (key_is(k, "subgraph")) {
      if (!want_int(p, v, "model.subgraph", 1 << 20, &c->subgraph)) return false;
      c->has_subgraph = true;
      /* the loader reads single-subgraph models: index 0 is the one there is */
      if (c->subgraph != 0) return err(p, v, "model.subgraph %s: tinyaot converts single-subgraph models (subgraph 0)%s", scalar(v), "");
    }
    else if (key_is(k, "type")) {
      ok = want_string(p, v, "model.type", &c->model_type);
      if (ok && strcasecmp(c->model_type, "tflite") != 0 && strcasecmp(c->model_type, "litert") != 0)
        return err(p, v, "'model.type' must be tflite or litert (got '%s')%s", c->model_type, "");
    } else if (key_is(k, "name")) ok = want_string(p, v, "model.name", &c->model_name);
    else if (key_is(k, "description")) ok = want_string(p, v, "model.description", &c->model_description);
    else if (key_is(k, "version")) ok = want_string(p, v, "model.version", &c->model_version);
    else ok = unknown_key(p, k, "model", KEYS_MODEL);
    if (!ok) return false;
  }
  return true;
}

static bool parse_module(Parser *p, yaml_node_t *map) {
  Config *c = p->c;
  if (!want_map(p, map, "module")) return false;
  FOR_PAIRS(p, map, k, v) {
    bool ok = true;
    if (is_null(v)) continue;
    if (key_is(k, "path")) ok = want_string(p, v, "module.path", &c->module_path);
    else if (key_is(k, "name")) ok = want_string(p, v, "module.name", &c->module_name);
    else if (key_is(k, "prefix")) ok = want_string(p, v, "module.prefix", &c->module_prefix);
    else if (key_is(k, "type")) {
      static const char *const types[] = {"neuralspot", "zephyr", "cmake", "nsx", "cmsis_pack"};
      ok = want_string(p, v, "module.type", &c->module_type);
      bool known = false;
      for (size_t i = 0; ok && i < sizeof types / sizeof types[0]; i++) known = known || !strcasecmp(c->module_type, types[i]);
      if (ok && !known)
        return err(p, v, "'module.type' must be neuralspot, zephyr, cmake, nsx or cmsis_pack (got '%s')%s", c->module_type, "");
    } else ok = unknown_key(p, k, "module", KEYS_MODULE);
    if (!ok) return false;
  }
  return true;
}

static bool parse_test(Parser *p, yaml_node_t *map) {
  Config *c = p->c;
  if (!want_map(p, map, "test")) return false;
  FOR_PAIRS(p, map, k, v) {
    bool ok = true;
    if (is_null(v)) continue;
    if (key_is(k, "enabled")) ok = want_bool(p, v, "test.enabled", &c->test_enabled), c->has_test_enabled = true;
    else if (key_is(k, "golden_data")) ok = want_string(p, v, "test.golden_data", &c->test_golden_data);
    else if (key_is(k, "tolerance")) {
      const char *s = scalar(v);
      char *end = NULL;
      double t = s ? strtod(s, &end) : -1.0;
      if (!s || !*s || *end || !(t >= 0.0) || t > 1e9)
        return err(p, v, "'test.tolerance' must be a non-negative number (got '%s')%s", s ? s : "?", "");
      c->test_tolerance = t;
      c->has_test_tolerance = true;
    } else ok = unknown_key(p, k, "test", KEYS_TEST);
    if (!ok) return false;
  }
  return true;
}

/* One `transforms` entry: a name, or heliaAOT's template form {name, enabled, options}
 * (options: the pass's own settings, a mapping, not read since no pass runs). */
static bool parse_transform(Parser *p, yaml_node_t *item, const char **name, bool *enabled) {
  if (item->type == YAML_SCALAR_NODE) return want_string(p, item, "transforms entry", name);
  if (item->type != YAML_MAPPING_NODE) return err(p, item, "a transforms entry must be a name or {name, enabled, options}%s%s", "", "");
  if (!want_map(p, item, "transforms entry")) return false;
  *name = NULL;
  FOR_PAIRS(p, item, k, v) {
    bool ok = true;
    if (key_is(k, "name")) ok = want_string(p, v, "transforms name", name);
    else if (key_is(k, "enabled")) ok = is_null(v) || want_bool(p, v, "enabled", enabled);
    else if (key_is(k, "options")) {
      if (!is_null(v) && v->type != YAML_MAPPING_NODE) return err(p, v, "'options' must be a mapping%s%s", "", "");
      ok = is_null(v) || want_map(p, v, "options");
    } else ok = unknown_key(p, k, "transforms entry", KEYS_TRANSFORM);
    if (!ok) return false;
  }
  if (!*name) return err(p, item, "a transforms entry needs a 'name'%s%s", "", "");
  return true;
}

/* `transforms`: heliaAOT's graph passes by name; tinyaot runs its own fixed set. */
static bool parse_transforms(Parser *p, yaml_node_t *v) {
  Config *c = p->c;
  if (is_null(v)) return true;
  if (!want_seq(p, v, "transforms")) return false;
  int n = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
  c->transforms = arena_calloc(p->arena, (size_t)n + 1, sizeof *c->transforms);
  if (!c->transforms) return diag_error(p->d, "out of memory");
  c->transforms_line = line_of(v);
  FOR_ITEMS(p, v, item) {
    bool enabled = true;
    if (!parse_transform(p, item, &c->transforms[c->n_transforms], &enabled)) return false;
    if (enabled) c->n_transforms++; /* `enabled: false` asks for nothing */
  }
  if (c->n_transforms == 0) return true;
  if (c->strict)
    return err(p, v, "'transforms' is not applied: tinyaot runs its own fixed transforms (--strict)%s%s", "", "");
  if (c->quiet) { /* the caller reads the file again and warns then */
  } else if (p->option) fprintf(stderr, "tinyaot: warning: %s: ignored: tinyaot runs its own fixed transforms\n", p->option);
  else fprintf(stderr, "tinyaot: warning: %s: line %d: 'transforms' ignored: tinyaot runs its own fixed transforms\n",
               p->name, line_of(v));
  c->warnings++;
  return true;
}

/* `models:` (tinyaot): each entry is heliaAOT's `model` (a path, or a map with path) and
 * optionally `module` with name and prefix, parsed by the same functions into a scratch
 * Config; the group's module.path is the output folder. */
static bool parse_models(Parser *p, yaml_node_t *v) {
  Config *c = p->c;
  if (!want_seq(p, v, "models")) return false;
  int n = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
  c->models = arena_calloc(p->arena, (size_t)n + 1, sizeof *c->models);
  if (!c->models) return diag_error(p->d, "out of memory");
  FOR_ITEMS(p, v, item) {
    if (!want_map(p, item, "models entry")) return false;
    Config one;
    config_defaults(&one);
    one.strict = c->strict;
    one.quiet = c->quiet;
    p->c = &one;
    bool ok = true;
    FOR_PAIRS(p, item, k, val) {
      if (!ok) break;
      if (key_is(k, "model")) ok = parse_model(p, val);
      else if (key_is(k, "module")) ok = is_null(val) || parse_module(p, val);
      else ok = unknown_key(p, k, "a models entry", KEYS_MODELS_ENTRY);
    }
    p->c = c;
    c->warnings += one.warnings;
    if (!ok) return false;
    if (!one.model_path) return err(p, item, "a models entry needs model.path%s%s", "", "");
    if (one.module_path || one.module_type)
      return err(p, item, "a models entry takes module.name and module.prefix only (the group's module.path is the "
                          "output folder)%s%s", "", "");
    c->models[c->n_models++] = (struct ConfigModel){one.model_path, one.module_name, one.module_prefix};
  }
  if (c->n_models == 0) return err(p, v, "'models' is empty%s%s", "", "");
  return true;
}

static bool parse_root(Parser *p, yaml_node_t *root) {
  Config *c = p->c;
  if (!root) return true; /* empty file: all defaults */
  if (!want_map(p, root, "the document")) return false;
  FOR_PAIRS(p, root, k, v) {
    bool ok = true;
    if (key_is(k, "model")) {
      ok = parse_model(p, v);
    } else if (key_is(k, "module")) {
      ok = is_null(v) || parse_module(p, v);
    } else if (key_is(k, "test")) {
      ok = is_null(v) || parse_test(p, v);
    } else if (key_is(k, "platform")) {
      c->platform_line = line_of(v); /* an unknown name is found later, by the pipeline */
      ok = v->type == YAML_SCALAR_NODE ? want_string(p, v, "platform", &c->platform_name)
                                       : (want_map(p, v, "platform") && parse_custom_platform(p, v));
    } else if (key_is(k, "memory")) {
      ok = is_null(v) || parse_memory(p, v);
    } else if (key_is(k, "operators")) {
      ok = parse_operators(p, v);
    } else if (key_is(k, "transforms")) {
      ok = parse_transforms(p, v);
    } else if (key_is(k, "verbose")) {
      ok = is_null(v) || (want_int(p, v, "verbose", 9, &c->verbose) && (c->has_verbose = true));
    } else if (key_is(k, "force")) {
      ok = is_null(v) || (want_bool(p, v, "force", &c->force) && (c->has_force = true));
    } else if (key_is(k, "log_file")) {
      ok = is_null(v) || want_string(p, v, "log_file", &c->log_file);
    } else if (key_is(k, "models")) {
      ok = parse_models(p, v);
    } else if (key_is(k, "shared_scratch")) {
      ok = is_null(v) || (want_bool(p, v, "shared_scratch", &c->shared_scratch) && (c->has_shared_scratch = true));
    } else {
      ok = unknown_key(p, k, "the top level", KEYS_ROOT);
    }
    if (!ok) return false;
  }
  if (c->n_models && (c->model_path || c->module_name || c->module_prefix))
    return err(p, root, "'models' lists the models: not with the top level's model, module.name or module.prefix "
                        "(give them per entry)%s%s", "", "");
  return true;
}

void config_defaults(Config *c) {
  memset(c, 0, sizeof *c);
  c->allocate_arenas = true;
  c->auto_hydrate_constants = true;
}

bool config_parse(Arena *a, const char *name, const char *text, size_t len, Config *c, Diag *d) {
  c->path = name;
  yaml_parser_t parser;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&parser)) return diag_error(d, "out of memory (YAML parser)");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  if (!yaml_parser_load(&parser, &doc)) {
    bool r = diag_error(d, "line %d: invalid YAML: %s", (int)parser.problem_mark.line + 1,
                        parser.problem ? parser.problem : "parse error");
    yaml_parser_delete(&parser);
    return r;
  }
  Parser p = {.arena = a, .doc = &doc, .name = name, .c = c, .d = d};
  bool ok = parse_root(&p, yaml_document_get_root_node(&doc));
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return ok;
}

/* The command line's rule lists (heliaAOT's --memory.constraints, --memory.tensors,
 * --operators, --transforms): the value is YAML or JSON flow text for the key, parsed
 * by the same functions as the file's key; it replaces the file's whole list. */
bool config_parse_option(Arena *a, const char *option, const char *text, Config *c, Diag *d) {
  yaml_parser_t parser;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&parser)) return diag_error(d, "out of memory (YAML parser)");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
  if (!yaml_parser_load(&parser, &doc)) {
    char problem[256];
    snprintf(problem, sizeof problem, "%s", parser.problem ? parser.problem : "parse error");
    one_line(problem);
    bool r = diag_error(d, "%s: invalid YAML/JSON value (column %d): %s", option, (int)parser.problem_mark.column + 1,
                        problem);
    yaml_parser_delete(&parser);
    return r;
  }
  Parser p = {.arena = a, .doc = &doc, .name = option, .c = c, .d = d, .option = option};
  yaml_node_t *v = yaml_document_get_root_node(&doc);
  bool empty = !v || is_null(v); /* nothing after the option: an empty list */
  bool ok = true;
  if (!strcmp(option, "--memory.constraints")) {
    c->n_constraints = 0;
    c->constraints_option = option;
    ok = empty || parse_constraints(&p, v);
  } else if (!strcmp(option, "--memory.tensors")) {
    c->rules = NULL;
    c->n_rules = 0;
    c->rules_option = option;
    ok = empty || parse_tensor_rules(&p, v, v);
  } else if (!strcmp(option, "--operators")) {
    c->op_rules = NULL;
    c->n_op_rules = 0;
    c->op_rules_option = option;
    ok = empty || parse_operators(&p, v);
  } else if (!strcmp(option, "--transforms")) {
    c->transforms = NULL;
    c->n_transforms = 0;
    ok = empty || parse_transforms(&p, v);
  } else {
    ok = diag_error(d, "%s is not a rule-list option", option);
  }
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return ok;
}

/* A relative path in the file is taken from the file's folder (as heliaAOT does:
 * a config and its model travel together); absolute paths stay as written. */
static const char *from_config_dir(Arena *a, const char *config_path, const char *path) {
  if (!path || path[0] == '/') return path;
  const char *slash = strrchr(config_path, '/');
  if (!slash) return path; /* the config is in the current folder */
  return arena_printf(a, "%.*s/%s", (int)(slash - config_path), config_path, path);
}

bool config_load(Arena *a, const char *path, Config *c, Diag *d) {
  const uint8_t *data;
  size_t size;
  if (!load_file(a, path, &data, &size, d)) return false;
  if (size > (1u << 20)) return diag_error(d, "configuration is %zu bytes, over the 1 MiB limit", size);
  if (!config_parse(a, path, (const char *)data, size, c, d)) return false;
  c->model_path = from_config_dir(a, path, c->model_path);
  c->module_path = from_config_dir(a, path, c->module_path);
  c->test_golden_data = from_config_dir(a, path, c->test_golden_data);
  c->log_file = from_config_dir(a, path, c->log_file);
  for (int i = 0; i < c->n_models; i++) c->models[i].path = from_config_dir(a, path, c->models[i].path);
  if ((c->model_path && !c->model_path[0]) || (c->module_path && !c->module_path[0]))
    return diag_error(d, "a path in the configuration is empty");
  return true;
}

bool config_bind_tensor_names(Arena *a, Config *c, const Model *m, Diag *d) {
  for (int i = 0; i < c->n_rules; i++) {
    TensorRule *r = &c->rules[i];
    if (r->n_id_names == 0) continue;
    int extra = 0;
    for (int j = 0; j < r->n_id_names; j++)
      for (int t = 0; t < m->n_tensors; t++) extra += !strcmp(m->tensors[t].name, r->id_names[j]);
    int32_t *ids = arena_calloc(a, (size_t)(r->n_ids + extra) + 1, sizeof *ids);
    if (!ids) return diag_error(d, "out of memory");
    memcpy(ids, r->ids, sizeof *ids * (size_t)r->n_ids);
    int n = r->n_ids;
    for (int j = 0; j < r->n_id_names; j++) {
      int found = 0;
      for (int t = 0; t < m->n_tensors; t++)
        if (!strcmp(m->tensors[t].name, r->id_names[j])) ids[n++] = m->tensors[t].id, found++;
      if (found) continue;
      char at[64];
      if (c->rules_option) snprintf(at, sizeof at, "%s", c->rules_option);
      else snprintf(at, sizeof at, "line %d", r->line);
      if (c->strict) return diag_error(d, "%s: memory.tensors rule: no tensor of the model is named '%s' (--strict)", at, r->id_names[j]);
      if (!c->quiet)
        fprintf(stderr, "tinyaot: warning: %s: %s: memory.tensors rule: no tensor of the model is named '%s'\n",
                c->path ? c->path : "config", at, r->id_names[j]);
      c->warnings++;
    }
    r->ids = ids;
    r->n_ids = n;
    r->n_id_names = 0; /* bound: binding again (another attempt) adds nothing */
  }
  return true;
}

/* Where a rule came from, for messages: "line N" of the file, or the option naming it. */
static const char *rule_origin(char *buf, size_t size, const char *option, int line) {
  if (option) snprintf(buf, size, "%s", option);
  else snprintf(buf, size, "line %d", line);
  return buf;
}

bool config_check_rules(const Config *c, const Platform *pl, Diag *d) {
  char at[64];
  for (int i = 0; i < c->n_rules; i++) {
    const TensorRule *r = &c->rules[i];
    const char *where = rule_origin(at, sizeof at, c->rules_option, r->line);
    if (r->has_memory && r->memory != MEM_NONE && !pl->mem[r->memory].present)
      return diag_error(d, "%s: memory %s does not exist on platform %s", where, mem_name(r->memory), pl->name);
    if (r->has_dest && (!pl->mem[r->dest].present || !pl->mem[r->dest].writable))
      return diag_error(d, "%s: constant_destination_memory %s must be a writable memory of platform %s", where,
                        mem_name(r->dest), pl->name);
    if (r->has_memory && r->memory != MEM_NONE && r->has_type &&
        (r->type == RULE_SCRATCH || r->type == RULE_PERSISTENT) && !pl->mem[r->memory].writable)
      return diag_error(d, "%s: %s tensors need a writable memory; %s is read-only on %s", where,
                        r->type == RULE_SCRATCH ? "scratch" : "persistent", mem_name(r->memory), pl->name);
  }
  for (int i = 0; i < c->n_constraints; i++)
    if (!pl->mem[c->constraints[i].mem].present)
      return diag_error(d, "%s: constraint on %s, which platform %s does not have",
                        rule_origin(at, sizeof at, c->constraints_option, c->constraints[i].line),
                        mem_name(c->constraints[i].mem), pl->name);
  for (int i = 0; i < c->n_op_rules; i++) {
    const OperatorRule *r = &c->op_rules[i];
    const char *where = rule_origin(at, sizeof at, c->op_rules_option, r->line);
    if (r->code_placement != MEM_NONE && (!pl->mem[r->code_placement].present || !pl->mem[r->code_placement].executable))
      return diag_error(d, "%s: code_placement %s is not an executable memory of %s", where,
                        mem_name(r->code_placement), pl->name);
    if (r->scratch_placement != MEM_NONE &&
        (!pl->mem[r->scratch_placement].present || !pl->mem[r->scratch_placement].writable))
      return diag_error(d, "%s: scratch_placement %s is not a writable memory of %s", where,
                        mem_name(r->scratch_placement), pl->name);
  }
  return true;
}

bool config_operator_rule_matches(const OperatorRule *r, int32_t index, const char *opname) {
  if (r->op_type && (!opname || strcasecmp(r->op_type, opname) != 0)) return false;
  if (!r->has_id) return true;
  for (int j = 0; j < r->n_ids; j++)
    if (r->ids[j] == index) return true;
  return false;
}

/* heliaAOT's order (its reference/attributes page, tinyaot's): (type and id) > (type only)
 * > (id only) > (neither). `id_over_type`: its operator-attributes page's reading instead,
 * (type and id) > (id only) > (type only) > (neither), used only to warn where they differ. */
static int operator_specificity(const OperatorRule *r, bool id_over_type) {
  if (id_over_type) return (r->has_id ? 2 : 0) + (r->op_type ? 1 : 0);
  return (r->op_type ? 2 : 0) + (r->has_id ? 1 : 0);
}

OperatorAttrs config_operator_attrs(const Config *c, int32_t index, const char *opname) {
  return config_operator_attrs_order(c, index, opname, false);
}

OperatorAttrs config_operator_attrs_order(const Config *c, int32_t index, const char *opname, bool id_over_type) {
  OperatorAttrs a = {.code_placement = MEM_NONE, .scratch_placement = MEM_NONE};
  int best_code = -1, best_scratch = -1, best_lut = -1;
  for (int i = 0; c && i < c->n_op_rules; i++) {
    const OperatorRule *r = &c->op_rules[i];
    if (!config_operator_rule_matches(r, index, opname)) continue;
    const int s = operator_specificity(r, id_over_type);
    /* >= : at equal specificity the later rule wins; each field on its own */
    if (r->code_placement != MEM_NONE && s >= best_code) {
      best_code = s;
      a.code_placement = r->code_placement;
      a.line_code = r->line;
    }
    if (r->scratch_placement != MEM_NONE && s >= best_scratch) {
      best_scratch = s;
      a.scratch_placement = r->scratch_placement;
      a.line_scratch = r->line;
    }
    if (r->lut_mode && s >= best_lut) {
      best_lut = s;
      a.lut_mode = r->lut_mode;
      a.line_lut = r->line;
    }
  }
  return a;
}

MemType config_operator_placement(const Config *c, int32_t index, const char *opname, bool code) {
  OperatorAttrs a = config_operator_attrs(c, index, opname);
  return code ? a.code_placement : a.scratch_placement;
}
