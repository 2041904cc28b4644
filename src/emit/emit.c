/* Emits <name>_model.h (public API), <name>_model.c (arenas, descriptors, one
 * function per layer, init/run) and <name>_weights.c/.h (constants). */
#include "emit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../ops/op.h"
#include "../resolve/quant.h"
#include "../transform/transform.h"
#include "emit_values.h"

struct EmitCtx {
  const Model *m;
  const Plan *p;
  Module *mod;
  Arena *arena;
  StrBuf decls;          /* file-scope descriptors of the current layer */
  StrBuf body;           /* statements of the current layer */
  StrBuf *weights_c, *weights_h;
  const Node *node;
  const char *op_name;
  const char **const_names; /* per tensor: emitted constant array, or NULL */
  bool uses_math_h;
};

StrBuf *module_add_file(Module *mod, Arena *a, const char *path) {
  if (mod->n_files >= MODULE_MAX_FILES) return NULL;
  ModuleFile *f = &mod->files[mod->n_files++];
  f->path = arena_strdup(a, path);
  sb_init(&f->text);
  return &f->text;
}

void module_free(Module *mod) {
  for (int i = 0; i < mod->n_files; i++) sb_free(&mod->files[i].text);
  mod->n_files = 0;
}

/* ---- the API operators use ---------------------------------------------- */

const char *em_op_name(EmitCtx *ec) { return ec->op_name; }

static const char *const_symbol(EmitCtx *ec, const Tensor *t) {
  if (ec->const_names[t->id]) return ec->const_names[t->id];
  char frag[48];
  emit_sanitize(frag, sizeof frag, t->name);
  const char *sym = arena_printf(ec->arena, "%s_t%d%s%s", ec->mod->prefix, (int)t->id, frag[0] ? "_" : "", frag);
  const char *ctype = tensor_type_ctype(t->type);
  sb_printf(ec->weights_h, "extern const %s %s[%lld]; /* tensor %d '%s' %s %s */\n", ctype, sym,
            (long long)(t->elems ? t->elems : 1), (int)t->id, t->name, tensor_type_name(t->type),
            tensor_shape_str(ec->arena, t));
  sb_printf(ec->weights_c, "\n/* tensor %d '%s': %s %s, %zu bytes */\n%s_PUT_IN_MRAM const %s %s[%lld] = ", (int)t->id,
            t->name, tensor_type_name(t->type), tensor_shape_str(ec->arena, t), t->bytes, ec->mod->PREFIX, ctype, sym,
            (long long)(t->elems ? t->elems : 1));
  emit_tensor_values(ec->weights_c, t);
  sb_append(ec->weights_c, ";\n");
  if (t->type == TT_FLOAT32) ec->uses_math_h = true;
  ec->const_names[t->id] = sym;
  return sym;
}

const char *em_tensor(EmitCtx *ec, int32_t id) {
  if (id < 0 || id >= ec->m->n_tensors) return "NULL";
  const Tensor *t = &ec->m->tensors[tensor_storage(ec->m, id)];
  if (tensor_is_const(t)) return const_symbol(ec, t);
  return arena_printf(ec->arena, "T%d", (int)t->id);
}

const char *em_scratch(EmitCtx *ec) {
  if (!ec->node || ec->node->scratch_tensor < 0) return "NULL";
  return arena_printf(ec->arena, "T%d", (int)ec->node->scratch_tensor);
}

void em_decl(EmitCtx *ec, const char *fmt, ...) {
  char buf[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  sb_append(&ec->decls, buf);
  sb_append(&ec->decls, "\n");
}

void em_body(EmitCtx *ec, const char *fmt, ...) {
  char buf[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  sb_printf(&ec->body, "  %s\n", buf);
}

static const char *table_begin(EmitCtx *ec, const char *ctype, const char *suffix, size_t n) {
  const char *sym = arena_printf(ec->arena, "%s_%s_%s", ec->mod->prefix, ec->op_name, suffix);
  size_t count = n ? n : 1;
  sb_printf(ec->weights_h, "extern const %s %s[%zu];\n", ctype, sym, count);
  sb_printf(ec->weights_c, "\n/* operator %d (%s): %s, computed by tinyaot */\n%s_PUT_IN_MRAM const %s %s[%zu] = ",
            (int)ec->node->index, ec->node->opname, suffix, ec->mod->PREFIX, ctype, sym, count);
  return sym;
}

static const char *table_ints(EmitCtx *ec, const char *ctype, const char *suffix, size_t n,
                              int64_t (*get)(const void *, size_t), const void *v) {
  const char *sym = table_begin(ec, ctype, suffix, n);
  int64_t chunk[256];
  /* Convert in chunks to keep one formatting path for every integer width. */
  StrBuf *sb = ec->weights_c;
  sb_append(sb, "{");
  for (size_t i = 0; i < n; i += 256) {
    size_t k = n - i < 256 ? n - i : 256;
    for (size_t j = 0; j < k; j++) chunk[j] = get(v, i + j);
    StrBuf part;
    sb_init(&part);
    emit_i64_list(&part, chunk, k);
    /* strip the braces of the chunk list */
    const char *s = sb_cstr(&part);
    size_t len = strlen(s);
    if (len >= 3) sb_appendn(sb, s + 1, len - 3);
    sb_free(&part);
  }
  sb_append(sb, n ? "\n};\n" : " 0 };\n");
  return sym;
}

static int64_t get_i8(const void *v, size_t i) { return ((const int8_t *)v)[i]; }
static int64_t get_u8(const void *v, size_t i) { return ((const uint8_t *)v)[i]; }
static int64_t get_i16(const void *v, size_t i) { return ((const int16_t *)v)[i]; }
static int64_t get_i32(const void *v, size_t i) { return ((const int32_t *)v)[i]; }
static int64_t get_i64(const void *v, size_t i) { return ((const int64_t *)v)[i]; }

const char *em_table_i8(EmitCtx *ec, const char *s, const int8_t *v, size_t n) { return table_ints(ec, "int8_t", s, n, get_i8, v); }
const char *em_table_u8(EmitCtx *ec, const char *s, const uint8_t *v, size_t n) { return table_ints(ec, "uint8_t", s, n, get_u8, v); }
const char *em_table_i16(EmitCtx *ec, const char *s, const int16_t *v, size_t n) { return table_ints(ec, "int16_t", s, n, get_i16, v); }
const char *em_table_i32(EmitCtx *ec, const char *s, const int32_t *v, size_t n) { return table_ints(ec, "int32_t", s, n, get_i32, v); }
const char *em_table_i64(EmitCtx *ec, const char *s, const int64_t *v, size_t n) { return table_ints(ec, "int64_t", s, n, get_i64, v); }

const char *em_table_f32(EmitCtx *ec, const char *suffix, const float *v, size_t n) {
  const char *sym = table_begin(ec, "float", suffix, n);
  emit_f32_list(ec->weights_c, v, n);
  sb_append(ec->weights_c, ";\n");
  ec->uses_math_h = true;
  return sym;
}

/* ---- module files --------------------------------------------------------- */

static const char *dtype_enum(TensorType t) {
  switch (t) {
    case TT_FLOAT32: return "FLOAT32";
    case TT_INT8: return "INT8";
    case TT_UINT8: return "UINT8";
    case TT_INT16: return "INT16";
    case TT_INT32: return "INT32";
    case TT_INT64: return "INT64";
    case TT_BOOL: return "BOOL";
    default: return "UNKNOWN";
  }
}

static void emit_placement_macros(StrBuf *h, const char *P) {
  static const char *const mems[] = {"ITCM", "DTCM", "SRAM", "MRAM", "PSRAM"};
  sb_append(h, "/* Placement: define these (e.g. as section attributes) before including this\n"
               " * header, or in the build, to put each arena and constant table in a memory. */\n");
  for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++) {
    sb_printf(h, "#ifndef %s_PUT_IN_%s\n#define %s_PUT_IN_%s\n#endif\n", P, mems[i], P, mems[i]);
    sb_printf(h, "#ifndef %s_PUT_IN_%s_INIT\n#define %s_PUT_IN_%s_INIT\n#endif\n", P, mems[i], P, mems[i]);
  }
}

static void emit_header(const Model *m, const Module *mod, StrBuf *h) {
  const char *p = mod->prefix, *P = mod->PREFIX;
  sb_printf(h, "/* %s: inference module generated by tinyaot from %s. Do not edit.\n"
               " *\n"
               " * Usage: %s_model_context_t ctx; %s_model_init(&ctx); fill ctx.inputs[i].data;\n"
               " * %s_model_run(&ctx); read ctx.outputs[i].data. No heap; all memory is static. */\n",
            mod->name, mod->source, p, p, p);
  sb_printf(h, "#ifndef %s_MODEL_H\n#define %s_MODEL_H\n\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", P, P);
  emit_placement_macros(h, P);
  sb_printf(h, "\n#define %s_NUM_INPUTS %d\n#define %s_NUM_OUTPUTS %d\n#define %s_NUM_OPERATORS %d\n\n", P,
            m->n_inputs, P, m->n_outputs, P, m->n_nodes);
  sb_printf(h, "typedef enum { %s_OP_RUN_STARTED = 0, %s_OP_RUN_FINISHED = 1 } %s_op_state_t;\n", P, P, p);
  sb_printf(h, "/* Called around every operator when set: op_id is the model's operator index. */\n"
               "typedef void (*%s_op_callback_t)(int32_t op_id, %s_op_state_t state, int32_t status, void *user_data);\n\n",
            p, p);
  sb_printf(h, "typedef enum {\n  %s_DTYPE_FLOAT32, %s_DTYPE_INT8, %s_DTYPE_UINT8, %s_DTYPE_INT16,\n  %s_DTYPE_INT32, %s_DTYPE_INT64, %s_DTYPE_BOOL\n} %s_dtype_t;\n\n",
            P, P, P, P, P, P, P, p);
  sb_printf(h, "typedef struct {\n  void *data;    /* points into the module's arena after init */\n  uint32_t size; /* bytes */\n} %s_tensor_t;\n\n", p);
  sb_printf(h, "typedef struct {\n  const char *name;\n  int32_t id;         /* tensor index in the model */\n  %s_dtype_t dtype;\n  int32_t rank;\n  int32_t shape[%d];\n  float scale;        /* 0 when not quantized */\n  int32_t zero_point;\n  uint32_t size;      /* bytes */\n} %s_tensor_info_t;\n\n",
            p, TA_MAX_RANK, p);
  sb_printf(h, "typedef struct {\n  %s_tensor_t inputs[%s_NUM_INPUTS];\n  %s_tensor_t outputs[%s_NUM_OUTPUTS];\n  %s_op_callback_t callback; /* optional */\n  void *user_data;\n} %s_model_context_t;\n\n",
            p, P, p, P, p, p);
  sb_printf(h, "extern const int32_t %s_num_inputs;\nextern const int32_t %s_num_outputs;\n", p, p);
  sb_printf(h, "extern const %s_tensor_info_t %s_input_info[%s_NUM_INPUTS];\nextern const %s_tensor_info_t %s_output_info[%s_NUM_OUTPUTS];\n\n",
            p, p, P, p, p, P);
  sb_printf(h, "/* Resets state, binds ctx->inputs/outputs to the arena. 0 on success. */\nint32_t %s_model_init(%s_model_context_t *ctx);\n", p, p);
  sb_printf(h, "/* Runs one inference. 0 on success. */\nint32_t %s_model_run(%s_model_context_t *ctx);\n", p, p);
  sb_printf(h, "/* Copies constants into their runtime memory; called by init. Weak: override to use DMA. */\nvoid %s_hydrate_constants(void);\n\n", p);
  sb_append(h, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

static void emit_tensor_info(const Model *m, const Module *mod, StrBuf *c, const char *which, const int32_t *ids, int n) {
  sb_printf(c, "const %s_tensor_info_t %s_%s_info[%s_NUM_%sS] = {\n", mod->prefix, mod->prefix, which, mod->PREFIX,
            strcmp(which, "input") == 0 ? "INPUT" : "OUTPUT");
  for (int i = 0; i < n; i++) {
    const Tensor *t = &m->tensors[ids[i]];
    sb_printf(c, "  {\"%s\", %d, %s_DTYPE_%s, %d, {", t->name, (int)t->id, mod->PREFIX, dtype_enum(t->type), t->rank);
    for (int k = 0; k < TA_MAX_RANK; k++) sb_printf(c, k ? ", %d" : "%d", k < t->rank ? (int)t->dims[k] : 0);
    char scale[48];
    snprintf(scale, sizeof scale, "%.9gf", (double)tensor_scale(t));
    if (!strpbrk(scale, ".e")) snprintf(scale, sizeof scale, "%d.0f", (int)tensor_scale(t));
    sb_printf(c, "}, %s, %d, %zuu},\n", scale, (int)tensor_zero_point(t), t->bytes);
  }
  sb_append(c, "};\n\n");
}

static const char *arena_symbol(Arena *a, const Module *mod, const PlanArena *ar) {
  return arena_printf(a, "%s_%s_arena", mod->prefix, ar->name);
}

static void emit_arenas(const Model *m, const Plan *p, const Module *mod, Arena *a, StrBuf *c) {
  for (int i = 0; i < p->n_arenas; i++) {
    const PlanArena *ar = &p->arenas[i];
    if (ar->size == 0) continue;
    sb_printf(c, "/* %s arena in %s: %zu bytes (lower bound %zu), %d tensors */\n%s_PUT_IN_%s static union {\n  uint8_t bytes[%zu];\n  int64_t align_;\n} %s;\n\n",
              ar->name, ar->memory, ar->size, ar->lower_bound, ar->n_tensors, mod->PREFIX, ar->memory, ar->size,
              arena_symbol(a, mod, ar));
  }
  sb_append(c, "/* Where every non-constant tensor lives: arena, offset, size, live operators. */\n");
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (!plan_needs_storage(m, i) || t->arena < 0) continue;
    sb_printf(c, "#define T%d ((%s *)&%s.bytes[%zu]) /* '%s' %s %s, %zu B, ops %d..%d */\n", (int)t->id,
              tensor_type_ctype(t->type), arena_symbol(a, mod, &p->arenas[t->arena]), t->offset, t->name,
              tensor_type_name(t->type), tensor_shape_str(a, t), t->bytes, (int)t->first_use, (int)t->last_use);
  }
  sb_append(c, "\n");
}

static void layer_comment(const Model *m, Arena *a, const Node *n, StrBuf *c) {
  sb_printf(c, "/* operator %d: %s, kernel %s\n", (int)n->index, n->opname, n->kernel ? n->kernel : "-");
  for (int i = 0; i < n->n_in; i++) {
    const Tensor *t = node_input(m, n, i);
    if (t) sb_printf(c, " *   in%d  tensor %d '%s' %s %s%s\n", i, (int)t->id, t->name, tensor_type_name(t->type),
                     tensor_shape_str(a, t), tensor_is_const(t) ? " (constant)" : "");
  }
  for (int i = 0; i < n->n_out; i++) {
    const Tensor *t = node_output(m, n, i);
    if (t) sb_printf(c, " *   out%d tensor %d '%s' %s %s\n", i, (int)t->id, t->name, tensor_type_name(t->type),
                     tensor_shape_str(a, t));
  }
  sb_append(c, " */\n");
}

static void emit_init(const Model *m, const Plan *p, const Module *mod, Arena *a, StrBuf *c) {
  const char *pf = mod->prefix;
  sb_printf(c, "#if defined(__GNUC__) || defined(__clang__)\n__attribute__((weak))\n#endif\nvoid %s_hydrate_constants(void) {\n  /* Every constant is read in place: nothing to copy. */\n}\n\n", pf);
  sb_printf(c, "int32_t %s_model_init(%s_model_context_t *ctx) {\n  if (ctx == NULL) return -1;\n", pf, pf);
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].role == ROLE_PERSISTENT && p->arenas[i].size)
      sb_printf(c, "  memset(%s.bytes, 0, sizeof %s.bytes);\n", arena_symbol(a, mod, &p->arenas[i]),
                arena_symbol(a, mod, &p->arenas[i]));
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    /* TFLite Micro resets int8 state to its zero point, everything else to 0. */
    if (t->is_variable && t->type == TT_INT8 && tensor_zero_point(t) != 0 && plan_needs_storage(m, i))
      sb_printf(c, "  memset(T%d, %d, %zu); /* '%s' starts at its zero point */\n", (int)t->id,
                (int)tensor_zero_point(t), t->bytes, t->name);
  }
  sb_printf(c, "  %s_hydrate_constants();\n", pf);
  for (int i = 0; i < m->n_inputs; i++) {
    const Tensor *t = &m->tensors[m->inputs[i]];
    sb_printf(c, "  ctx->inputs[%d].data = %s;\n  ctx->inputs[%d].size = %zuu;\n", i,
              tensor_is_const(t) ? "NULL" : arena_printf(a, "T%d", (int)tensor_storage(m, t->id)), i, t->bytes);
  }
  for (int i = 0; i < m->n_outputs; i++) {
    const Tensor *t = &m->tensors[m->outputs[i]];
    int32_t s = tensor_storage(m, t->id);
    bool is_const = tensor_is_const(&m->tensors[s]);
    sb_printf(c, "  ctx->outputs[%d].data = %s;\n  ctx->outputs[%d].size = %zuu;\n", i,
              is_const ? arena_printf(a, "(void *)%s", "NULL") : arena_printf(a, "T%d", (int)s), i, t->bytes);
  }
  sb_append(c, "  ctx->callback = NULL;\n  ctx->user_data = NULL;\n  return 0;\n}\n\n");
}

static void emit_run(const Model *m, const Module *mod, StrBuf *c, const char *const *layer_names) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  sb_printf(c, "static void %s_notify(const %s_model_context_t *ctx, int32_t op, %s_op_state_t state) {\n"
               "  if (ctx->callback) ctx->callback(op, state, 0, ctx->user_data);\n}\n\n", pf, pf, pf);
  sb_printf(c, "int32_t %s_model_run(%s_model_context_t *ctx) {\n  if (ctx == NULL) return -1;\n", pf, pf);
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    if (!layer_names[k]) {
      sb_printf(c, "  /* operator %d (%s): output aliases its input, nothing to run */\n", k, n->opname);
      continue;
    }
    sb_printf(c, "  %s_notify(ctx, %d, %s_OP_RUN_STARTED);\n  %s();\n  %s_notify(ctx, %d, %s_OP_RUN_FINISHED);\n", pf,
              k, P, layer_names[k], pf, k, P);
  }
  sb_append(c, "  return 0;\n}\n");
}

static void collect_families(const Model *m, Module *mod) {
  for (int k = 0; k < m->n_nodes; k++)
    for (int f = 0; f < 4 && m->nodes[k].families[f]; f++) {
      const char *fam = m->nodes[k].families[f];
      int j = 0;
      while (j < mod->n_families && strcmp(mod->families[j], fam) < 0) j++;
      if (j < mod->n_families && strcmp(mod->families[j], fam) == 0) continue;
      if (mod->n_families >= 32) continue;
      memmove(&mod->families[j + 1], &mod->families[j], sizeof(char *) * (size_t)(mod->n_families - j));
      mod->families[j] = fam;
      mod->n_families++;
    }
}

bool emit_module(const Model *m, const Plan *p, Module *mod, Diag *d) {
  Arena *a = m->arena;
  EmitCtx ec = {.m = m, .p = p, .mod = mod, .arena = a};
  ec.const_names = arena_calloc(a, (size_t)m->n_tensors + 1, sizeof(char *));
  const char **layer_names = arena_calloc(a, (size_t)m->n_nodes + 1, sizeof(char *));
  if (!ec.const_names || !layer_names) return diag_error(d, "out of memory");
  collect_families(m, mod);

  StrBuf *h = module_add_file(mod, a, arena_printf(a, "include/%s_model.h", mod->name));
  StrBuf *c = module_add_file(mod, a, arena_printf(a, "src/%s_model.c", mod->name));
  ec.weights_c = module_add_file(mod, a, arena_printf(a, "src/%s_weights.c", mod->name));
  ec.weights_h = module_add_file(mod, a, arena_printf(a, "src/%s_weights.h", mod->name));
  if (!h || !c || !ec.weights_c || !ec.weights_h) return diag_error(d, "internal error: too many module files");
  emit_header(m, mod, h);

  StrBuf layers;
  sb_init(&layers);
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    if (n->is_alias) continue;
    char frag[48];
    emit_sanitize(frag, sizeof frag, n->opname);
    ec.node = n;
    ec.op_name = arena_printf(a, "op%d_%s", k, frag);
    sb_init(&ec.decls);
    sb_init(&ec.body);
    n->def->emit(&ec, m, n);
    layer_comment(m, a, n, &layers);
    sb_append(&layers, sb_cstr(&ec.decls));
    sb_printf(&layers, "static void %s_%s(void) {\n%s}\n\n", mod->prefix, ec.op_name, sb_cstr(&ec.body));
    layer_names[k] = arena_printf(a, "%s_%s", mod->prefix, ec.op_name);
    sb_free(&ec.decls);
    sb_free(&ec.body);
  }

  sb_printf(c, "/* %s: operators of %s as straight-line C. Generated by tinyaot. Do not edit. */\n", mod->name,
            mod->source);
  sb_printf(c, "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n#include \"%s_model.h\"\n#include \"%s_weights.h\"\n",
            mod->name, mod->name);
  for (int i = 0; i < mod->n_families; i++) sb_printf(c, "#include \"ta_%s.h\"\n", mod->families[i]);
  sb_append(c, "\n");
  sb_printf(c, "const int32_t %s_num_inputs = %s_NUM_INPUTS;\nconst int32_t %s_num_outputs = %s_NUM_OUTPUTS;\n\n",
            mod->prefix, mod->PREFIX, mod->prefix, mod->PREFIX);
  emit_tensor_info(m, mod, c, "input", m->inputs, m->n_inputs);
  emit_tensor_info(m, mod, c, "output", m->outputs, m->n_outputs);
  emit_arenas(m, p, mod, a, c);
  sb_append(c, sb_cstr(&layers));
  sb_free(&layers);
  emit_init(m, p, mod, a, c);
  emit_run(m, mod, c, layer_names);

  /* Weights files: header first, then the tables gathered above. */
  StrBuf wc, wh;
  sb_init(&wc);
  sb_init(&wh);
  sb_printf(&wh, "/* %s: constant tables (weights, biases, requantisation constants). Generated by tinyaot. */\n#ifndef %s_WEIGHTS_H\n#define %s_WEIGHTS_H\n#include <stdint.h>\n\n#include \"%s_model.h\"\n\n%s\n#endif\n",
            mod->name, mod->PREFIX, mod->PREFIX, mod->name, sb_cstr(ec.weights_h));
  sb_printf(&wc, "/* %s: constant tables of %s. Generated by tinyaot. Do not edit. */\n#include <stdint.h>\n%s\n#include \"%s_weights.h\"\n%s",
            mod->name, mod->source, ec.uses_math_h ? "#include <math.h>\n" : "", mod->name, sb_cstr(ec.weights_c));
  sb_free(ec.weights_c);
  sb_free(ec.weights_h);
  *ec.weights_c = wc;
  *ec.weights_h = wh;
  for (int i = 0; i < mod->n_files; i++)
    if (mod->files[i].text.oom) return diag_error(d, "out of memory while emitting");
  return true;
}
