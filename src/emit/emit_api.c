/* The API operators' emit() calls (emit_api.h) and the lowering pass that runs them:
 * each operator's declarations, body and init into a Lowered, the constants and derived
 * tables its code reads into the plan. */
#include "emit_api.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../ops/op.h"
#include "../plan/patch.h"
#include "../ir/quant.h"
#include "../ir/storage.h"
#include "emit_internal.h"
#include "emit_values.h"

/* C type of an expression an operator may pass to em_call. */
typedef struct ArgType {
  const char *expr, *ctype;
} ArgType;

struct EmitCtx {
  Model *m;
  Plan *p;
  Module *mod;
  Arena *arena;
  const Node *node;
  const char *op_name;
  Lowered *cur;
  int32_t pos;          /* schedule position of the node being lowered */
  int *const_of_tensor; /* tensor id -> index in p->consts, -1 */
  ArgType *arg_types;   /* expressions of the current node and their C types */
  int n_arg_types, cap_arg_types;
  bool *state_reset;    /* tensor id -> reset by its operator's init */
  bool in_init;
  bool oom;
};

/* ---- the API operators use ------------------------------------------------ */

const char *em_op_name(EmitCtx *ec) { return ec->op_name; }

static void register_arg(EmitCtx *ec, const char *expr, const char *ctype) {
  if (ec->n_arg_types == ec->cap_arg_types) {
    int cap = ec->cap_arg_types ? ec->cap_arg_types * 2 : 32;
    ArgType *grown = arena_calloc(ec->arena, (size_t)cap, sizeof *grown);
    if (!grown) {
      ec->oom = true;
      return;
    }
    if (ec->n_arg_types) memcpy(grown, ec->arg_types, sizeof *grown * (size_t)ec->n_arg_types);
    ec->arg_types = grown;
    ec->cap_arg_types = cap;
  }
  ec->arg_types[ec->n_arg_types++] = (ArgType){expr, ctype};
}

static const char *arg_type(const EmitCtx *ec, const char *expr) {
  if (strcmp(expr, "NULL") == 0) return "void *"; /* converts to any pointer type */
  for (int i = ec->n_arg_types - 1; i >= 0; i--)
    if (strcmp(ec->arg_types[i].expr, expr) == 0) return ec->arg_types[i].ctype;
  return NULL;
}

static void note_reader(ConstItem *c, int32_t k) {
  if (k < c->first_reader) c->first_reader = k;
  if (k > c->last_reader) c->last_reader = k;
}

static const char *const_of(EmitCtx *ec, const Tensor *t) {
  int idx = ec->const_of_tensor[t->id];
  if (idx >= 0) {
    note_reader(&ec->p->consts[idx], ec->pos);
    return ec->p->consts[idx].symbol;
  }
  ConstItem *c = plan_add_const(ec->p, ec->arena, t->id, -1, ec->pos);
  if (!c) {
    ec->oom = true;
    return "NULL";
  }
  char frag[48];
  emit_sanitize(frag, sizeof frag, t->name);
  c->symbol = arena_printf(ec->arena, "W%d", (int)t->id);
  c->array_name = arena_printf(ec->arena, "%s_t%d%s%s", ec->mod->prefix, (int)t->id, frag[0] ? "_" : "", frag);
  c->ctype = tensor_type_ctype(t->type);
  c->type = t->type;
  c->what = arena_printf(ec->arena, "tensor %d '%s' %s %s", (int)t->id, t->name, tensor_dtype_desc(t),
                         tensor_shape_str(ec->arena, t));
  c->bytes = t->data;
  c->size = t->bytes;
  c->elems = (size_t)t->elems;
  ec->const_of_tensor[t->id] = ec->p->n_consts - 1;
  return c->symbol;
}

const char *em_tensor(EmitCtx *ec, int32_t id) {
  if (id < 0 || id >= ec->m->n_tensors) return "NULL";
  const Tensor *t = &ec->m->tensors[tensor_storage(ec->m, id)];
  const char *ctype = tensor_type_ctype(t->type);
  if (tensor_is_const(t)) {
    const char *sym = const_of(ec, t);
    register_arg(ec, sym, arena_printf(ec->arena, "const %s *", ctype));
    return sym;
  }
  /* a view (patch bands, plan/patch.c): its rows start inside the storage tensor */
  const size_t view = tensor_view_offset(ec->m, id), es = tensor_type_size(t->type) ? tensor_type_size(t->type) : 1;
  const char *sym = view ? arena_printf(ec->arena, "(T%d + %zu)", (int)t->id, view / es)
                         : arena_printf(ec->arena, "T%d", (int)t->id);
  register_arg(ec, sym, arena_printf(ec->arena, "%s *", ctype));
  return sym;
}

const char *em_scratch(EmitCtx *ec) {
  if (!ec->node || ec->node->scratch_tensor < 0) return "NULL";
  return em_tensor(ec, ec->node->scratch_tensor);
}

const char *em_literal(EmitCtx *ec, const char *ctype, const char *text) {
  const char *expr = arena_strdup(ec->arena, text);
  if (!expr) {
    ec->oom = true;
    return "0";
  }
  register_arg(ec, expr, ctype);
  return expr;
}

const char *em_int(EmitCtx *ec, int64_t v) {
  bool small = v >= INT32_MIN && v <= INT32_MAX;
  return em_literal(ec, small ? "int32_t" : "int64_t", arena_printf(ec->arena, "%lld", (long long)v));
}

const char *em_name(EmitCtx *ec, const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  const char *s = arena_strdup(ec->arena, buf);
  if (!s) ec->oom = true;
  return s ? s : "";
}

const char *em_desc(EmitCtx *ec, const char *suffix) {
  return arena_printf(ec->arena, "&%s_%s", ec->op_name, suffix);
}

/* "static const TYPE NAME = ..." declares a descriptor: "&NAME" has type "const TYPE *". */
static void register_descriptor(EmitCtx *ec, const char *text) {
  static const char lead[] = "static const ";
  if (strncmp(text, lead, sizeof lead - 1) != 0) return;
  const char *type = text + sizeof lead - 1, *sp = type;
  while (*sp && *sp != ' ' && *sp != '\n') sp++;
  const char *name = sp + (*sp == ' '), *end = name;
  while ((*end >= 'a' && *end <= 'z') || (*end >= 'A' && *end <= 'Z') || (*end >= '0' && *end <= '9') || *end == '_') end++;
  if (*sp != ' ' || end == name || strncmp(end, " =", 2) != 0) return;
  register_arg(ec, arena_printf(ec->arena, "&%.*s", (int)(end - name), name),
               arena_printf(ec->arena, "const %.*s *", (int)(sp - type), type));
}

void em_call(EmitCtx *ec, const char *kernel, int n_args, ...) {
  Lowered *L = ec->cur;
  const char **args = arena_calloc(ec->arena, (size_t)n_args + 1, sizeof(char *));
  const char **types = arena_calloc(ec->arena, (size_t)n_args + 1, sizeof(char *));
  StrBuf line;
  sb_init_heap(&line, &ec->arena->heap);
  if (!args || !types) ec->oom = true;
  sb_printf(&line, "  %s(", kernel);
  va_list ap;
  va_start(ap, n_args);
  for (int i = 0; i < n_args; i++) {
    const char *a = va_arg(ap, const char *);
    const char *t = arg_type(ec, a);
    if (!t) L->bad_arg = true;
    if (args) args[i] = a, types[i] = t;
    sb_printf(&line, "%s%s", i ? ", " : "", a);
  }
  va_end(ap);
  sb_append(&line, ");\n");
  sb_append(&L->body, sb_cstr(&line));
  sb_free(&line);
  L->calls++;
  L->kernel = kernel;
  L->n_args = n_args;
  L->args = args;
  L->types = types;
}

void em_inline(EmitCtx *ec, const Node *inner, const char *tag) {
  const Node *outer = ec->node;
  const char *outer_name = ec->op_name;
  char frag[48];
  emit_sanitize(frag, sizeof frag, inner->opname);
  ec->node = inner;
  ec->op_name = arena_printf(ec->arena, "%s_%s%d_%s", outer_name, tag, (int)inner->index, frag);
  sb_append(&ec->cur->body, "  {\n");
  inner->def->emit(ec, ec->m, inner);
  sb_append(&ec->cur->body, "  }\n");
  ec->node = outer;
  ec->op_name = outer_name;
}

void em_reset_state(EmitCtx *ec, int32_t tensor_id) {
  if (!ec->in_init || tensor_id < 0 || tensor_id >= ec->m->n_tensors) return;
  int32_t s = tensor_storage(ec->m, tensor_id);
  const Tensor *t = &ec->m->tensors[s];
  if (!t->is_variable || !plan_needs_storage(ec->m, s)) return;
  int value = t->type == TT_INT8 ? (int)tensor_zero_point(t) : 0;
  sb_printf(&ec->cur->init, "  memset(T%d, %d, %zuu); /* '%s' starts at %s */\n", (int)s, value, t->bytes, t->name,
            value ? "its zero point" : "zero");
  ec->state_reset[s] = true;
}

static void append_fmt(StrBuf *sb, const char *lead, const char *fmt, va_list ap) {
  char buf[8192];
  vsnprintf(buf, sizeof buf, fmt, ap);
  sb_append(sb, lead);
  sb_append(sb, buf);
  sb_append(sb, "\n");
}

void em_kernel_variants(EmitCtx *ec, const char *macro, uint32_t bits) {
  Module *mod = ec->mod;
  int j = 0;
  while (j < mod->n_variants && strcmp(mod->variants[j].macro, macro) < 0) j++;
  if (j < mod->n_variants && strcmp(mod->variants[j].macro, macro) == 0) {
    mod->variants[j].bits |= bits;
    return;
  }
  /* Full: the family stays unrestricted (every variant compiled), which is always correct. */
  if (mod->n_variants >= (int)(sizeof mod->variants / sizeof mod->variants[0])) return;
  memmove(&mod->variants[j + 1], &mod->variants[j], sizeof mod->variants[0] * (size_t)(mod->n_variants - j));
  mod->variants[j].macro = macro;
  mod->variants[j].bits = bits;
  mod->n_variants++;
}

void em_decl(EmitCtx *ec, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t at = ec->cur->decls.len;
  append_fmt(&ec->cur->decls, "", fmt, ap);
  va_end(ap);
  if (!ec->cur->decls.oom) register_descriptor(ec, sb_cstr(&ec->cur->decls) + at);
}

void em_body(EmitCtx *ec, const char *fmt, ...) {
  ec->cur->unstructured = true;
  va_list ap;
  va_start(ap, fmt);
  append_fmt(&ec->cur->body, "  ", fmt, ap);
  va_end(ap);
}

static int32_t const_input(const EmitCtx *ec, int slot) {
  const Node *n = ec->node;
  if (slot >= n->n_in || n->in[slot] < 0 || n->in[slot] >= ec->m->n_tensors) return -1;
  return tensor_is_const(&ec->m->tensors[n->in[slot]]) ? n->in[slot] : -1;
}

/* The model tensor a table derived from input `slot` re-lays or folds (-1: none), so that
 * rules naming that tensor by id place the table too (docs/memory.md). */
static int32_t source_of(const EmitCtx *ec, int slot) {
  if (slot < 0) return -1;
  int32_t id = const_input(ec, slot);
  return id >= 0 || slot != EM_FROM_BIAS ? id : const_input(ec, EM_FROM_WEIGHTS);
}

/* The same table an earlier band of the same patched operator derived (plan/patch.c: the
 * bands of one operator share its weights, biases and requantisation tables), or NULL. */
static ConstItem *band_table(EmitCtx *ec, const char *suffix, TensorType type, const uint8_t *bytes, size_t size) {
  if (!ec->node->patched) return NULL;
  const char *tail = arena_printf(ec->arena, "_%s", suffix);
  const size_t tl = tail ? strlen(tail) : 0;
  for (int i = 0; tail && i < ec->p->n_consts; i++) {
    ConstItem *k = &ec->p->consts[i];
    const size_t sl = k->symbol ? strlen(k->symbol) : 0;
    if (k->tensor_id == -1 && k->op_index == ec->node->index && k->type == type && k->size == size && sl > tl &&
        strcmp(k->symbol + sl - tl, tail) == 0 && memcmp(k->bytes, bytes, size) == 0)
      return k;
  }
  return NULL;
}

/* A table an operator derived: stored little-endian like model constants. */
static const char *add_table(EmitCtx *ec, const char *suffix, int source, TensorType type, const void *v, size_t n,
                             size_t es) {
  uint8_t *bytes = arena_alloc(ec->arena, n * es + 1);
  if (!bytes) {
    ec->oom = true;
    return "NULL";
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t x = 0;
    memcpy(&x, (const uint8_t *)v + i * es, es); /* host order in, little-endian out */
    for (size_t b = 0; b < es; b++) bytes[i * es + b] = (uint8_t)(x >> (8 * b));
  }
  ConstItem *shared = band_table(ec, suffix, type, bytes, n * es);
  if (shared) {
    if (ec->pos > shared->last_reader) shared->last_reader = ec->pos;
    register_arg(ec, shared->symbol, arena_printf(ec->arena, "const %s *", shared->ctype));
    return shared->symbol;
  }
  ConstItem *c = plan_add_const(ec->p, ec->arena, -1, ec->node->index, ec->pos);
  if (!c) {
    ec->oom = true;
    return "NULL";
  }
  c->source_tensor = source_of(ec, source);
  c->symbol = ec->node->patched ? arena_printf(ec->arena, "K%d_band%d_%s", (int)ec->node->index, (int)ec->node->band, suffix)
                                : arena_printf(ec->arena, "K%d_%s", (int)ec->node->index, suffix);
  c->array_name = arena_printf(ec->arena, "%s_%s_%s", ec->mod->prefix, ec->op_name, suffix);
  c->ctype = tensor_type_ctype(type);
  c->type = type;
  c->what = arena_printf(ec->arena, "operator %d (%s) table '%s' %s[%zu]%s", (int)ec->node->index, ec->node->opname,
                         suffix, tensor_type_name(type), n,
                         c->source_tensor >= 0 && ec->m->tensors[c->source_tensor].stored_int4
                             ? " from int4 (unpacked to int8)" : "");
  c->bytes = bytes;
  c->size = n * es;
  c->elems = n;
  register_arg(ec, c->symbol, arena_printf(ec->arena, "const %s *", c->ctype));
  return c->symbol;
}

const char *em_table_i8(EmitCtx *ec, const char *s, const int8_t *v, size_t n) { return add_table(ec, s, -1, TT_INT8, v, n, 1); }
const char *em_table_u8(EmitCtx *ec, const char *s, const uint8_t *v, size_t n) { return add_table(ec, s, -1, TT_UINT8, v, n, 1); }
const char *em_table_i16(EmitCtx *ec, const char *s, const int16_t *v, size_t n) { return add_table(ec, s, -1, TT_INT16, v, n, 2); }
const char *em_table_i32(EmitCtx *ec, const char *s, const int32_t *v, size_t n) { return add_table(ec, s, -1, TT_INT32, v, n, 4); }
const char *em_table_i64(EmitCtx *ec, const char *s, const int64_t *v, size_t n) { return add_table(ec, s, -1, TT_INT64, v, n, 8); }
const char *em_table_f32(EmitCtx *ec, const char *s, const float *v, size_t n) { return add_table(ec, s, -1, TT_FLOAT32, v, n, 4); }
const char *em_table_i8_from(EmitCtx *ec, const char *s, int src, const int8_t *v, size_t n) {
  return add_table(ec, s, src, TT_INT8, v, n, 1);
}
const char *em_table_i16_from(EmitCtx *ec, const char *s, int src, const int16_t *v, size_t n) {
  return add_table(ec, s, src, TT_INT16, v, n, 2);
}
const char *em_table_i32_from(EmitCtx *ec, const char *s, int src, const int32_t *v, size_t n) {
  return add_table(ec, s, src, TT_INT32, v, n, 4);
}

/* ---- lowering: every operator's emit against this API ---------------------- */

/* The capability derivation at emit time: a DESCRIPTOR_DRIVEN operator must have
 * emitted exactly one structured call whose arguments all have known types. */
static bool check_descriptor_driven(const Node *n, const Lowered *L, Diag *d) {
  if (!(n->def->capabilities & CAP_DESCRIPTOR_DRIVEN)) return true;
  if (L->calls == 1 && !L->unstructured && !L->bad_arg) return true;
  return diag_error(d, "internal error: operator %d (%s) declares DESCRIPTOR_DRIVEN but its run body is %s",
                    (int)n->index, n->opname,
                    L->unstructured ? "free text (em_body)" : L->calls != 1 ? "not exactly one em_call" :
                                                                              "a call with an argument of unknown type");
}

static bool lower_nodes(EmitCtx *ec, Lowered *low, Diag *d) {
  Model *m = ec->m;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    sb_init_heap(&low[k].decls, &ec->arena->heap);
    sb_init_heap(&low[k].body, &ec->arena->heap);
    sb_init_heap(&low[k].init, &ec->arena->heap);
    low[k].group = low[k].row = -1;
    if (n->is_alias) continue;
    char frag[48];
    emit_sanitize(frag, sizeof frag, n->opname);
    ec->node = n;
    ec->pos = k;
    ec->op_name = n->patched ? arena_printf(ec->arena, "op%d_band%d_%s", (int)n->index, (int)n->band, frag)
                             : arena_printf(ec->arena, "op%d_%s", (int)n->index, frag);
    ec->cur = &low[k];
    ec->n_arg_types = 0;
    n->def->emit(ec, m, n);
    if (n->def->emit_init) {
      ec->in_init = true;
      n->def->emit_init(ec, m, n);
      ec->in_init = false;
      low[k].has_init = true;
    }
    low[k].fn = arena_printf(ec->arena, "%s_%s", ec->mod->prefix, ec->op_name);
    if (!check_descriptor_driven(n, &low[k], d)) return false;
  }
  if (ec->oom) return diag_error(d, "out of memory while emitting");
  return true;
}

bool emit_lower(Model *m, Plan *p, Module *mod, Lowered *low, bool *state_reset, Diag *d) {
  EmitCtx ec = {.m = m, .p = p, .mod = mod, .arena = m->arena, .state_reset = state_reset};
  ec.const_of_tensor = arena_calloc(m->arena, (size_t)m->n_tensors + 1, sizeof(int));
  if (!ec.const_of_tensor) return diag_error(d, "out of memory");
  for (int i = 0; i < m->n_tensors; i++) ec.const_of_tensor[i] = -1;
  return lower_nodes(&ec, low, d);
}
