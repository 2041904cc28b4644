/* The module writer: lowers every operator through the API (emit_api.c), then writes
 * <name>_model.h (public API), <name>_model.c (arenas, descriptors, one function per
 * layer, hydration, init/run) and <name>_weights.c/.h (constants), and has
 * emit_helia.c and emit_test_case.c add theirs. */
#include "emit.h"

#include <stdio.h>
#include <string.h>

#include "../ops/op.h"
#include "../plan/patch.h"
#include "../ir/quant.h"
#include "../ir/rewrites.h"
#include "../ir/storage.h"
#include "emit_internal.h"
#include "emit_values.h"

/* Operators sharing one kernel call signature: one body, one const table of rows. */
typedef struct CallGroup {
  const char *key;        /* kernel(type, type, ...) */
  const char *kernel;
  const char *name;       /* "conv_s8": <prefix>_run_<name>, <prefix>_<name>_calls */
  int n_args;
  const char **types;
  int count;
} CallGroup;

/* ---- naming ------------------------------------------------------------------ */

static const char *lower(Arena *a, const char *s) {
  char *u = arena_strdup(a, s);
  for (char *q = u; q && *q; q++)
    if (*q >= 'A' && *q <= 'Z') *q = (char)(*q - 'A' + 'a');
  return u;
}

static const char *upper(Arena *a, const char *s) {
  char *u = arena_strdup(a, s);
  for (char *q = u; q && *q; q++)
    if (*q >= 'a' && *q <= 'z') *q = (char)(*q - 'a' + 'A');
  return u;
}

const char *emit_region_name(Arena *a, const Plan *p, int arena) {
  if (arena < p->n_arenas) return upper(a, p->arenas[arena].name);
  return arena_printf(a, "CONST_%s", mem_name((MemType)(arena - p->n_arenas)));
}

/* Caller-owned regions: the planned arenas, then one constant region per source memory. */
static bool const_region_used(const Plan *p, MemType mem) {
  for (int i = 0; i < p->n_consts; i++)
    if (p->consts[i].source == mem) return true;
  return false;
}

static const char *arena_base(Arena *a, const Module *mod, const Plan *p, int arena) {
  if (mod->allocate_arenas) return arena_printf(a, "%s_%s.bytes", mod->prefix, p->arenas[arena].name);
  return arena_printf(a, "%s_regions[%s_REGION_%s]", mod->prefix, mod->PREFIX, emit_region_name(a, p, arena));
}

static const char *const_source_expr(Arena *a, const Module *mod, const Plan *p, const ConstItem *c, size_t src_off) {
  if (mod->allocate_arenas) return c->array_name;
  return arena_printf(a, "((const %s *)(%s_regions[%s_REGION_%s] + %zu))", c->ctype, mod->prefix, mod->PREFIX,
                      emit_region_name(a, p, p->n_arenas + c->source), src_off);
}

/* ---- source layout of constants (per memory) ----------------------------------- */

typedef struct SourceLayout {
  size_t *offset;                       /* per const item */
  size_t size[MEM_COUNT];
  size_t blob_start[MEM_COUNT][MEM_COUNT]; /* pinned (source, destination) blob */
  size_t blob_size[MEM_COUNT][MEM_COUNT];
  size_t blob_dest_offset[MEM_COUNT][MEM_COUNT];
} SourceLayout;

static size_t align16(size_t x) { return (x + 15) / 16 * 16; }

static bool layout_sources(Arena *a, const Plan *p, SourceLayout *sl) {
  memset(sl, 0, sizeof *sl);
  sl->offset = arena_calloc(a, (size_t)p->n_consts + 1, sizeof(size_t));
  if (!sl->offset) return false;
  for (int s = 0; s < MEM_COUNT; s++) {
    size_t off = 0;
    for (int dst = 0; dst < MEM_COUNT; dst++) {
      bool first = true;
      for (int i = 0; i < p->n_consts; i++) {
        const ConstItem *c = &p->consts[i];
        if (c->source != s || c->residency != RES_PIN || c->runtime != dst) continue;
        if (first) {
          sl->blob_start[s][dst] = off;
          sl->blob_dest_offset[s][dst] = c->offset;
          first = false;
        }
        sl->offset[i] = off;
        off += align16(c->size);
        sl->blob_size[s][dst] = off - sl->blob_start[s][dst];
      }
    }
    for (int i = 0; i < p->n_consts; i++) {
      const ConstItem *c = &p->consts[i];
      if (c->source != s || c->residency == RES_PIN) continue;
      sl->offset[i] = off;
      off += align16(c->size);
    }
    sl->size[s] = off;
  }
  return true;
}

/* ---- header ---------------------------------------------------------------------- */

static const char *dtype_enum(TensorType t) {
  switch (t) {
    case TT_FLOAT32: return "FLOAT32";
    case TT_INT8: return "INT8";
    case TT_UINT8: return "UINT8";
    case TT_INT16: return "INT16";
    case TT_INT32: return "INT32";
    case TT_INT64: return "INT64";
    case TT_BOOL: return "BOOL";
    case TT_UINT16: return "UINT16";
    case TT_UINT32: return "UINT32";
    default: return "UNKNOWN";
  }
}

static void emit_placement_macros(StrBuf *h, const char *P) {
  sb_append(h, "/* Placement: define these (e.g. as section attributes) before including this\n"
               " * header, or in the build, to put arenas (PUT_IN_<MEM>, zero-initialised),\n"
               " * constant tables (PUT_IN_<MEM>_INIT, initialised data) and layer functions\n"
               " * with an operators.code_placement rule (CODE_IN_<MEM>) in a memory. */\n");
  for (int i = 0; i < MEM_COUNT; i++) {
    const char *mn = mem_name((MemType)i);
    sb_printf(h, "#ifndef %s_PUT_IN_%s\n#define %s_PUT_IN_%s\n#endif\n", P, mn, P, mn);
    sb_printf(h, "#ifndef %s_PUT_IN_%s_INIT\n#define %s_PUT_IN_%s_INIT\n#endif\n", P, mn, P, mn);
    sb_printf(h, "#ifndef %s_CODE_IN_%s\n#define %s_CODE_IN_%s\n#endif\n", P, mn, P, mn);
  }
}

static void emit_region_api(const Plan *p, const Module *mod, Arena *a, StrBuf *h) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  sb_printf(h, "/* Caller-owned memory (allocate_arenas: false): bind every region before init.\n"
               " * CONST_<MEM> regions hold the constants of that memory: load the matching\n"
               " * data/%s_const_<mem>.bin file there. */\ntypedef enum {\n", mod->name);
  int n = 0;
  for (int i = 0; i < p->n_arenas; i++) sb_printf(h, "  %s_REGION_%s = %d,\n", P, emit_region_name(a, p, i), n++);
  for (int mem = 0; mem < MEM_COUNT; mem++)
    if (const_region_used(p, (MemType)mem))
      sb_printf(h, "  %s_REGION_%s = %d,\n", P, emit_region_name(a, p, p->n_arenas + mem), n++);
  sb_printf(h, "  %s_NUM_ARENA_REGIONS = %d\n} %s_arena_region_t;\n\n", P, n, pf);
  sb_printf(h, "extern const uint32_t %s_arena_region_size[%s_NUM_ARENA_REGIONS];\n", pf, P);
  sb_printf(h, "/* 0 on success; -1 unknown region, -2 NULL buffer, -3 size differs from\n * %s_arena_region_size[region], -4 buffer not 16-byte aligned. */\n"
               "int32_t %s_bind_arena(%s_arena_region_t region, void *buf, size_t size);\n\n",
            pf, pf, pf);
}

/* --integer-io: which I/O the application quantizes or dequantizes itself, and how. */
static void emit_integer_io_note(const Model *m, const char *pf, StrBuf *h) {
  if (!m->integer_io_from) return;
  sb_append(h, "/* Integer I/O (--integer-io): the model file has float here; the module takes and gives\n"
               " * integers. Quantize a float x as TFLite does, q = round(x / scale) + zero_point (half\n"
               " * away from zero, clamped to the type), and dequantize q as (q - zero_point) * scale:\n");
  for (int i = 0; i < m->n_inputs + m->n_outputs; i++) {
    const int32_t was = rewrite_integer_io_from(m, i);
    if (was < 0) continue;
    const bool in = i < m->n_inputs;
    const int k = in ? i : i - m->n_inputs;
    const Tensor *t = &m->tensors[in ? m->inputs[k] : m->outputs[k]];
    sb_printf(h, " * %s %d: %s (%s_%s_info[%d].scale = %.9g, .zero_point = %d), was %s.\n", in ? "input" : "output", k,
              tensor_type_name(t->type), pf, in ? "input" : "output", k, (double)tensor_scale(t),
              (int)tensor_zero_point(t), tensor_type_name(m->tensors[was].type));
  }
  sb_append(h, " */\n\n");
}

static void emit_header(const Model *m, const Plan *p, const Module *mod, Arena *a, const ProfileRows *prof, StrBuf *h) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  sb_printf(h, "/* %s: inference module generated by tinyaot from %s. Do not edit.\n"
               " *\n"
               " * Usage: static %s_model_context_t ctx; (zero-initialised: set ctx.callback and\n"
               " * ctx.user_data before or after init, init keeps them) %s_model_init(&ctx); fill\n"
               " * ctx.inputs[i].data; %s_model_run(&ctx); read ctx.outputs[i].data. No heap. */\n",
            mod->name, mod->source, pf, pf, pf);
  sb_printf(h, "#ifndef %s_MODEL_H\n#define %s_MODEL_H\n\n#include <stddef.h>\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", P, P);
  emit_placement_macros(h, P);
  sb_printf(h, "\n#define %s_NUM_INPUTS %d\n#define %s_NUM_OUTPUTS %d\n#define %s_NUM_OPERATORS %d\n\n", P,
            m->n_inputs, P, m->n_outputs, P, m->n_nodes);
  sb_printf(h, "typedef enum {\n  %s_OP_RUN_STARTED = 0,\n  %s_OP_RUN_FINISHED = 1,\n  %s_op_state_run_started = 0, /* heliaAOT's names */\n"
               "  %s_op_state_run_finished = 1\n} %s_op_state_t;\n", P, P, pf, pf, pf);
  sb_printf(h, "/* Called around every operator when set: op_id is the model's operator index. */\n"
               "typedef void (*%s_op_callback_t)(int32_t op_id, %s_op_state_t state, int32_t status, void *user_data);\n\n",
            pf, pf);
  sb_printf(h, "typedef enum {\n  %s_DTYPE_FLOAT32, %s_DTYPE_INT8, %s_DTYPE_UINT8, %s_DTYPE_INT16,\n  %s_DTYPE_INT32, %s_DTYPE_INT64, %s_DTYPE_BOOL, %s_DTYPE_UINT16, %s_DTYPE_UINT32\n} %s_dtype_t;\n\n",
            P, P, P, P, P, P, P, P, P, pf);
  sb_printf(h, "typedef struct {\n  void *data;    /* points into the module's arena after init */\n  size_t size;   /* bytes */\n"
               "  int32_t id;    /* index in %s_tensor_descriptors */\n} %s_tensor_t;\n\n", pf, pf);
  sb_printf(h, "typedef struct {\n  const char *name;\n  int32_t id;         /* tensor index in the model */\n  %s_dtype_t dtype;\n  int32_t rank;\n  int32_t shape[%d];\n  float scale;        /* 0 when not quantized */\n  int32_t zero_point;\n  uint32_t size;      /* bytes */\n} %s_tensor_info_t;\n\n",
            pf, TA_MAX_RANK, pf);
  sb_printf(h, "typedef struct {\n  %s_tensor_t inputs[%s_NUM_INPUTS];\n  %s_tensor_t outputs[%s_NUM_OUTPUTS];\n  %s_op_callback_t callback; /* optional */\n  void *user_data;\n} %s_model_context_t;\n\n",
            pf, P, pf, P, pf, pf);
  sb_printf(h, "extern const int32_t %s_num_inputs;\nextern const int32_t %s_num_outputs;\n", pf, pf);
  sb_printf(h, "extern const %s_tensor_info_t %s_input_info[%s_NUM_INPUTS];\nextern const %s_tensor_info_t %s_output_info[%s_NUM_OUTPUTS];\n\n",
            pf, pf, P, pf, pf, P);
  emit_integer_io_note(m, pf, h);
  if (!mod->allocate_arenas) emit_region_api(p, mod, a, h);
  sb_printf(h, "/* Resets state, %shydrates constants, binds ctx->inputs/outputs to the arena; keeps\n * ctx->callback and ctx->user_data. 0 on success, -1 for a NULL context, -2 when a region is not bound. */\nint32_t %s_model_init(%s_model_context_t *ctx);\n",
            mod->auto_hydrate ? "" : "(auto_hydrate_constants is off: call hydrate yourself) ", pf, pf);
  if (mod->shared_scratch)
    sb_printf(h, "/* Runs one inference. 0 on success, -3 while another model of the group is mid-run:\n"
                 " * the group's models share one scratch buffer (%s.h) and never run concurrently;\n"
                 " * inputs and outputs live in it (fill the inputs just before run, read the outputs\n"
                 " * before another model of the group runs). */\n", mod->shared_scratch);
  else sb_append(h, "/* Runs one inference. 0 on success. */\n");
  sb_printf(h, "int32_t %s_model_run(%s_model_context_t *ctx);\n", pf, pf);
  sb_printf(h, "/* Copies pinned constants into their runtime memory. Weak: override to use DMA. */\nvoid %s_hydrate_constants(void);\n", pf);
  sb_printf(h, "/* Copies a streamed constant before its first reader. Weak: override to use DMA\n * (it must complete before returning). */\nvoid %s_stream_copy(void *dst, const void *src, uint32_t size);\n\n", pf);
  if (prof) emit_profile_header(mod, prof, h);
  emit_helia_header(m, p, mod, a, h);
  sb_append(h, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

/* ---- model.c --------------------------------------------------------------------- */

static void emit_tensor_info_rows(const Model *m, const Module *mod, StrBuf *c, const int32_t *ids, int n) {
  for (int i = 0; i < n; i++) {
    const Tensor *t = &m->tensors[ids[i]];
    sb_printf(c, "  {\"%s\", %d, %s_DTYPE_%s, %d, {", t->name, (int)t->id, mod->PREFIX, dtype_enum(t->type), t->rank);
    for (int k = 0; k < TA_MAX_RANK; k++) sb_printf(c, k ? ", %d" : "%d", k < t->rank ? (int)t->dims[k] : 0);
    char scale[48];
    snprintf(scale, sizeof scale, "%.9gf", (double)tensor_scale(t));
    if (!strpbrk(scale, ".e")) snprintf(scale, sizeof scale, "%d.0f", (int)tensor_scale(t));
    sb_printf(c, "}, %s, %d, %zuu},\n", scale, (int)tensor_zero_point(t), t->bytes);
  }
}

static void emit_tensor_info(const Model *m, const Module *mod, StrBuf *c, const char *which, const int32_t *ids, int n) {
  sb_printf(c, "const %s_tensor_info_t %s_%s_info[%s_NUM_%sS] = {\n", mod->prefix, mod->prefix, which, mod->PREFIX,
            strcmp(which, "input") == 0 ? "INPUT" : "OUTPUT");
  emit_tensor_info_rows(m, mod, c, ids, n);
  sb_append(c, "};\n\n");
}

/* heliaAOT's descriptor table: the inputs, then the outputs (ctx.inputs[i].id indexes it). */
static void emit_tensor_descriptors(const Model *m, const Module *mod, StrBuf *c) {
  sb_printf(c, "const %s_tensor_info_t %s_tensor_descriptors[%s_NUM_INPUTS + %s_NUM_OUTPUTS] = {\n", mod->prefix,
            mod->prefix, mod->PREFIX, mod->PREFIX);
  emit_tensor_info_rows(m, mod, c, m->inputs, m->n_inputs);
  emit_tensor_info_rows(m, mod, c, m->outputs, m->n_outputs);
  sb_append(c, "};\n\n");
}

static void emit_arenas(const Model *m, const Plan *p, const Module *mod, Arena *a, const SourceLayout *sl, StrBuf *c) {
  if (!mod->allocate_arenas) {
    sb_printf(c, "/* Caller-owned regions, bound by %s_bind_arena. */\nstatic uint8_t *%s_regions[%s_NUM_ARENA_REGIONS];\n",
              mod->prefix, mod->prefix, mod->PREFIX);
    sb_printf(c, "const uint32_t %s_arena_region_size[%s_NUM_ARENA_REGIONS] = {", mod->prefix, mod->PREFIX);
    for (int i = 0; i < p->n_arenas; i++) sb_printf(c, "%s%zuu", i ? ", " : "", p->arenas[i].size);
    for (int mem = 0; mem < MEM_COUNT; mem++)
      if (const_region_used(p, (MemType)mem)) sb_printf(c, ", %zuu", sl->size[mem]);
    sb_append(c, "};\n\n");
  }
  for (int i = 0; i < p->n_arenas; i++) {
    const PlanArena *ar = &p->arenas[i];
    sb_printf(c, "/* %s arena in %s: %zu bytes (lower bound %zu), %d tensors */\n", ar->name, mem_name(ar->memory),
              ar->size, ar->lower_bound, ar->n_tensors);
    if (mod->allocate_arenas && mod->shared_scratch && ar->role == AR_SCRATCH)
      sb_printf(c, "/* overlays the group's shared scratch (every model of the group uses it; run holds %s_owner) */\n"
                   "#define %s_%s %s_%s\ntypedef char %s_%s_fits_shared[sizeof %s_%s.bytes >= %zuu ? 1 : -1];\n\n",
                mod->shared_scratch, mod->prefix, ar->name, mod->shared_scratch, ar->name, mod->prefix, ar->name,
                mod->shared_scratch, ar->name, ar->size);
    else if (mod->allocate_arenas)
      sb_printf(c, "%s_PUT_IN_%s static union {\n  uint8_t bytes[%zu];\n  int64_t align_;\n} %s_%s;\n\n", mod->PREFIX,
                mem_name(ar->memory), ar->size ? ar->size : 16, mod->prefix, ar->name);
  }
  sb_append(c, "\n/* Where every non-constant tensor lives: arena, offset, size, live operators. */\n");
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (!plan_needs_storage(m, i) || t->arena < 0) continue;
    sb_printf(c, "#define T%d ((%s *)(%s + %zu)) /* '%s' %s %s, %zu B, ops %d..%d */\n", (int)t->id,
              tensor_type_ctype(t->type), arena_base(a, mod, p, t->arena), t->offset, t->name,
              tensor_type_name(t->type), tensor_shape_str(a, t), t->bytes, (int)t->first_use, (int)t->last_use);
  }
  sb_append(c, "\n/* Where kernels read every constant: in place, pinned copy or stream pool. */\n");
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *k = &p->consts[i];
    const char *expr = k->residency == RES_DIRECT
                           ? (mod->allocate_arenas ? k->array_name : const_source_expr(a, mod, p, k, sl->offset[i]))
                           : arena_printf(a, "((const %s *)(%s + %zu))", k->ctype, arena_base(a, mod, p, k->arena), k->offset);
    sb_printf(c, "#define %s %s /* %s: %s%s%s */\n", k->symbol, expr, k->what,
              k->residency == RES_DIRECT ? "read in place from " : k->residency == RES_PIN ? "pinned in " : "streamed into ",
              mem_name(k->runtime), k->residency == RES_DIRECT ? "" : arena_printf(a, " from %s", mem_name(k->source)));
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

/* Re-indents file-scope "static const" descriptors as function-local consts. */
static void append_as_locals(StrBuf *c, const char *decls) {
  const char *p = decls;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    sb_append(c, "  ");
    if (len >= 13 && strncmp(p, "static const ", 13) == 0) {
      p += 7;
      len -= 7;
    }
    sb_appendn(c, p, len);
    sb_append(c, "\n");
    p += len + (eol ? 1 : 0);
  }
}

static bool streams_at(const Plan *p, int k) {
  for (int i = 0; i < p->n_consts; i++)
    if (p->consts[i].residency == RES_STREAM && p->consts[i].first_reader == k) return true;
  return false;
}

static void emit_layers(const Model *m, const Plan *p, const Module *mod, Arena *a, const SourceLayout *sl,
                        const Lowered *low, const CallGroup *groups, StrBuf *c) {
  for (int k = 0; k < m->n_nodes; k++) {
    if (!low[k].fn) continue;
    const Node *n = &m->nodes[k];
    layer_comment(m, a, n, c);
    /* Caller-owned arenas: addresses are known only after bind, so descriptors that
     * point into arenas cannot be static initialisers; they become const locals. */
    if (mod->allocate_arenas) sb_append(c, sb_cstr((StrBuf *)&low[k].decls));
    if (low[k].group >= 0) {
      const CallGroup *g = &groups[low[k].group];
      sb_printf(c, "/* runs through %s_run_%s(&%s_%s_calls[%d]) */\n\n", mod->prefix, g->name, mod->prefix, g->name,
                low[k].row);
      continue;
    }
    MemType code = plan_code_memory(p, k);
    if (code != MEM_NONE) /* a static function would be inlined into run(), out of the section */
      sb_printf(c, "#if defined(__GNUC__) || defined(__clang__)\n__attribute__((noinline))\n#endif\n%s_CODE_IN_%s\n",
                mod->PREFIX, mem_name(code));
    sb_printf(c, "static void %s(void) {\n", low[k].fn);
    if (!mod->allocate_arenas) append_as_locals(c, sb_cstr((StrBuf *)&low[k].decls));
    for (int i = 0; i < p->n_consts; i++) {
      const ConstItem *ci = &p->consts[i];
      if (ci->residency == RES_STREAM && ci->first_reader == k)
        sb_printf(c, "  %s_stream_copy((void *)%s, %s, %zuu); /* stream %s */\n", mod->prefix, ci->symbol,
                  const_source_expr(a, mod, p, ci, sl->offset[i]), ci->size, ci->what);
    }
    sb_append(c, sb_cstr((StrBuf *)&low[k].body));
    sb_append(c, "}\n\n");
  }
}

/* ---- interning: one body per call signature, arguments in a const table ------ */

static int find_group(const CallGroup *g, int n, const char *key) {
  for (int i = 0; i < n; i++)
    if (strcmp(g[i].key, key) == 0) return i;
  return -1;
}

static bool internable(const Model *m, const Plan *p, const Module *mod, const Lowered *L, int k) {
  const Node *n = &m->nodes[k];
  return mod->intern && mod->direct_calls && mod->allocate_arenas && L->fn && L->calls == 1 && !L->unstructured &&
         !L->bad_arg && (n->def->capabilities & CAP_DESCRIPTOR_DRIVEN) &&
         plan_code_memory(p, k) == MEM_NONE && !streams_at(p, k);
}

static const char *call_key(Arena *a, const Lowered *L) {
  StrBuf b;
  sb_init_heap(&b, &a->heap);
  sb_printf(&b, "%s(", L->kernel);
  for (int i = 0; i < L->n_args; i++) sb_printf(&b, "%s%s", i ? "," : "", L->types[i]);
  sb_append(&b, ")");
  const char *key = b.oom ? NULL : arena_strdup(a, sb_cstr(&b));
  sb_free(&b);
  return key;
}

/* Groups internable operators by call signature; groups of one stay plain layers.
 * Returns the number of groups (rows assigned in `low`), -1 when out of memory. */
static int group_calls(const Model *m, const Plan *p, Module *mod, Arena *a, Lowered *low, CallGroup **out) {
  CallGroup *g = arena_calloc(a, (size_t)m->n_nodes + 1, sizeof *g);
  const char **keys = arena_calloc(a, (size_t)m->n_nodes + 1, sizeof(char *));
  if (!g || !keys) return -1;
  int n = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    low[k].group = low[k].row = -1;
    if (!internable(m, p, mod, &low[k], k)) continue;
    if (!(keys[k] = call_key(a, &low[k]))) return -1;
    int gi = find_group(g, n, keys[k]);
    if (gi < 0) {
      gi = n++;
      g[gi] = (CallGroup){keys[k], low[k].kernel, NULL, low[k].n_args, low[k].types, 0};
    }
    g[gi].count++;
  }
  int kept = 0;
  for (int i = 0; i < n; i++) {
    if (g[i].count < 2) continue;
    CallGroup *dst = &g[kept];
    *dst = g[i];
    dst->count = 0;
    const char *base = strncmp(dst->kernel, "ta_", 3) == 0 ? dst->kernel + 3 : dst->kernel;
    dst->name = base;
    for (int j = 0, suffix = 2; j < kept; j++)
      if (strcmp(g[j].name, dst->name) == 0) dst->name = arena_printf(a, "%s_%d", base, suffix++), j = -1;
    for (int k = 0; k < m->n_nodes; k++)
      if (keys[k] && strcmp(keys[k], dst->key) == 0) {
        low[k].group = kept;
        low[k].row = dst->count++;
        mod->interned_ops++;
      }
    kept++;
  }
  mod->call_groups = kept;
  *out = g;
  return kept;
}

static void emit_notify(const Module *mod, StrBuf *c) {
  const char *pf = mod->prefix;
  /* --profile: the operator's cycles stop before the callback and start after it */
  if (mod->profile)
    sb_printf(c, "static void %s_notify(const %s_model_context_t *ctx, int32_t op, %s_op_state_t state) {\n"
                 "  if (state == %s_OP_RUN_FINISHED) %s_profile_stop(op);\n"
                 "  if (ctx->callback) ctx->callback(op, state, 0, ctx->user_data);\n"
                 "  if (state == %s_OP_RUN_STARTED) %s_profile_t0 = %s_profile_now();\n}\n\n",
              pf, pf, pf, mod->PREFIX, pf, mod->PREFIX, pf, pf);
  else
    sb_printf(c, "static void %s_notify(const %s_model_context_t *ctx, int32_t op, %s_op_state_t state) {\n"
                 "  if (ctx->callback) ctx->callback(op, state, 0, ctx->user_data);\n}\n\n", pf, pf, pf);
}

/* The shared body is kept out of line (a single copy is the point) and reports its
 * operator to the callback itself, so each operator costs one call in run(). */
static void emit_call_groups(const Model *m, const Module *mod, const Lowered *low, const CallGroup *g, int n_groups,
                             StrBuf *c) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  for (int gi = 0; gi < n_groups; gi++) {
    const CallGroup *grp = &g[gi];
    sb_printf(c, "/* %d operators share one body calling %s; each row of %s_%s_calls holds one operator's arguments. */\n",
              grp->count, grp->kernel, pf, grp->name);
    sb_append(c, "typedef struct {\n  int32_t op;\n");
    for (int i = 0; i < grp->n_args; i++) {
      const char *t = grp->types[i];
      size_t len = strlen(t);
      sb_printf(c, "  %s%sa%d;\n", t, len && t[len - 1] == '*' ? "" : " ", i);
    }
    sb_printf(c, "} %s_%s_call_t;\n\n", pf, grp->name);
    sb_printf(c, "static const %s_%s_call_t %s_%s_calls[%d] = {\n", pf, grp->name, pf, grp->name, grp->count);
    for (int k = 0; k < m->n_nodes; k++) {
      if (low[k].group != gi) continue;
      sb_printf(c, "  {%d", (int)m->nodes[k].index);
      for (int i = 0; i < low[k].n_args; i++) sb_printf(c, ", %s", low[k].args[i]);
      sb_printf(c, "}, /* operator %d (%s) */\n", (int)m->nodes[k].index, m->nodes[k].opname);
    }
    sb_append(c, "};\n\n");
    sb_append(c, "#if defined(__GNUC__) || defined(__clang__)\n__attribute__((noinline))\n#endif\n");
    sb_printf(c, "static void %s_run_%s(const %s_model_context_t *ctx, const %s_%s_call_t *c) {\n", pf, grp->name, pf, pf,
              grp->name);
    sb_printf(c, "  %s_notify(ctx, c->op, %s_OP_RUN_STARTED);\n  %s(", pf, P, grp->kernel);
    for (int i = 0; i < grp->n_args; i++) sb_printf(c, "%sc->a%d", i ? ", " : "", i);
    sb_printf(c, ");\n  %s_notify(ctx, c->op, %s_OP_RUN_FINISHED);\n}\n\n", pf, P);
  }
}

/* Per-operator init functions: those that own state, and every operator when init
 * elision is off. */
static bool needs_init_fn(const Module *mod, const Node *n, const Lowered *L) {
  return L->fn && (L->has_init || !mod->init_elision || !(n->def->capabilities & CAP_STATELESS));
}

static void emit_op_inits(const Model *m, Module *mod, const Lowered *low, StrBuf *c) {
  for (int k = 0; k < m->n_nodes; k++) {
    if (!needs_init_fn(mod, &m->nodes[k], &low[k])) continue;
    sb_printf(c, "/* operator %d (%s): init */\nstatic void %s_init(void) {\n", (int)m->nodes[k].index,
              m->nodes[k].opname, low[k].fn);
    if (low[k].init.len) sb_append(c, sb_cstr((StrBuf *)&low[k].init));
    else sb_append(c, "  /* no state: nothing to reset */\n");
    sb_append(c, "}\n\n");
    mod->init_functions++;
  }
}

static void emit_weak(StrBuf *c) { sb_append(c, "#if defined(__GNUC__) || defined(__clang__)\n__attribute__((weak))\n#endif\n"); }

static void emit_hydrate(const Plan *p, const Module *mod, Arena *a, const SourceLayout *sl, StrBuf *c) {
  emit_weak(c);
  sb_printf(c, "void %s_hydrate_constants(void) {\n", mod->prefix);
  bool any = false;
  for (int s = 0; s < MEM_COUNT; s++)
    for (int dst = 0; dst < MEM_COUNT; dst++) {
      if (!sl->blob_size[s][dst]) continue;
      int arena = -1;
      for (int i = 0; i < p->n_arenas; i++)
        if (p->arenas[i].role == AR_PINNED && p->arenas[i].memory == dst) arena = i;
      const char *src = mod->allocate_arenas
                            ? arena_printf(a, "%s_pinned_%s_from_%s.bytes", mod->prefix, lower(a, mem_name((MemType)dst)),
                                           lower(a, mem_name((MemType)s)))
                            : arena_printf(a, "%s_regions[%s_REGION_CONST_%s] + %zu", mod->prefix, mod->PREFIX,
                                           mem_name((MemType)s), sl->blob_start[s][dst]);
      sb_printf(c, "  /* one bulk copy: every constant pinned in %s whose image lives in %s */\n", mem_name((MemType)dst),
                mem_name((MemType)s));
      sb_printf(c, "  memcpy(%s + %zu, %s, %zuu);\n", arena_base(a, mod, p, arena), sl->blob_dest_offset[s][dst], src,
                sl->blob_size[s][dst]);
      any = true;
    }
  if (!any) sb_append(c, "  /* every constant is read in place: nothing to copy */\n");
  sb_append(c, "}\n\n");
  emit_weak(c);
  sb_printf(c, "void %s_stream_copy(void *dst, const void *src, uint32_t size) {\n  memcpy(dst, src, size);\n}\n\n", mod->prefix);
}

static void emit_bind(const Plan *p, const Module *mod, StrBuf *c) {
  (void)p;
  const char *pf = mod->prefix, *P = mod->PREFIX;
  sb_printf(c, "int32_t %s_bind_arena(%s_arena_region_t region, void *buf, size_t size) {\n"
               "  if ((int32_t)region < 0 || (int32_t)region >= %s_NUM_ARENA_REGIONS) return -1;\n"
               "  if (buf == NULL) return -2;\n"
               "  if (size != %s_arena_region_size[region]) return -3;\n"
               "  if (((uintptr_t)buf & 15u) != 0) return -4;\n"
               "  %s_regions[region] = (uint8_t *)buf;\n  return 0;\n}\n\n",
            pf, pf, P, pf, pf);
}

/* Where a model input or output's bytes start: its storage tensor, plus the offset of the
 * view it may be (a RESHAPE alias of a slice view, of a concatenation's slice, ...: every
 * alias on the way to the storage may add one). */
static const char *io_address(const Model *m, Arena *a, int32_t id) {
  const int32_t s = tensor_storage(m, id);
  const size_t off = tensor_view_offset(m, id);
  return off ? arena_printf(a, "(void *)((uint8_t *)T%d + %zu)", (int)s, off) : arena_printf(a, "T%d", (int)s);
}

static void emit_init(const Model *m, const Module *mod, Arena *a, const Lowered *low, const bool *state_reset,
                      StrBuf *c) {
  const char *pf = mod->prefix;
  sb_printf(c, "int32_t %s_model_init(%s_model_context_t *ctx) {\n  if (ctx == NULL) return -1;\n", pf, pf);
  if (!mod->allocate_arenas)
    sb_printf(c, "  {\n    int r;\n    for (r = 0; r < %s_NUM_ARENA_REGIONS; r++)\n      if (%s_regions[r] == NULL) return -2;\n  }\n",
              mod->PREFIX, pf);
  /* Variable tensors no operator owns (its init resets the rest). TFLite Micro resets
   * int8 state to its zero point, everything else to 0. */
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (!t->is_variable || state_reset[i] || !plan_needs_storage(m, i)) continue;
    if (t->data) { /* a resource variable's start value (its CALL_ONCE init, src/load/resources.c) */
      sb_printf(c, "  {\n    static const uint8_t start[%zu] = {", t->bytes ? t->bytes : 1);
      emit_bytes(c, t->data, t->bytes ? t->bytes : 1);
      sb_printf(c, "};\n    memcpy(T%d, start, %zuu); /* '%s' starts at its init value */\n  }\n", (int)t->id, t->bytes,
                t->name);
      continue;
    }
    int value = t->type == TT_INT8 ? (int)tensor_zero_point(t) : 0;
    sb_printf(c, "  memset(T%d, %d, %zuu); /* '%s' starts at %s */\n", (int)t->id, value, t->bytes, t->name,
              value ? "its zero point" : "zero");
  }
  for (int k = 0; k < m->n_nodes; k++)
    if (needs_init_fn(mod, &m->nodes[k], &low[k])) sb_printf(c, "  %s_init();\n", low[k].fn);
  if (mod->auto_hydrate) sb_printf(c, "  %s_hydrate_constants();\n", pf);
  for (int i = 0; i < m->n_inputs; i++) {
    const Tensor *t = &m->tensors[m->inputs[i]];
    int32_t s = tensor_storage(m, t->id);
    sb_printf(c, "  ctx->inputs[%d].data = %s;\n  ctx->inputs[%d].size = %zuu;\n  ctx->inputs[%d].id = %d;\n", i,
              tensor_is_const(&m->tensors[s]) ? "NULL" : io_address(m, a, t->id), i, t->bytes, i, i);
  }
  for (int i = 0; i < m->n_outputs; i++) {
    const Tensor *t = &m->tensors[m->outputs[i]];
    int32_t s = tensor_storage(m, t->id);
    sb_printf(c, "  ctx->outputs[%d].data = %s;\n  ctx->outputs[%d].size = %zuu;\n  ctx->outputs[%d].id = %d;\n", i,
              tensor_is_const(&m->tensors[s]) ? "NULL" : io_address(m, a, t->id), i, t->bytes, i,
              m->n_inputs + i);
  }
  if (mod->profile) sb_printf(c, "  %s_profile_enable();\n", pf);
  /* callback and user_data are the caller's: heliaAOT applications set them before init. */
  sb_append(c, "  return 0;\n}\n\n");
}

/* --shared-scratch: run takes the group's owner flag, and refuses (-3) while another
 * model of the group (or this one, re-entered from a callback) is mid-run. */
static void emit_run_claim(const Module *mod, StrBuf *c) {
  if (mod->shared_scratch)
    sb_printf(c, "  if (%s_owner != 0) return -3; /* the shared scratch is in use: another run is in progress */\n"
                 "  %s_owner = %d;\n",
              mod->shared_scratch, mod->shared_scratch, mod->shared_id);
  if (mod->profile) sb_printf(c, "  %s_profile_begin_run();\n", mod->prefix);
}

static void emit_run_release(const Module *mod, StrBuf *c) {
  if (mod->profile) sb_printf(c, "  %s_profile_end_run();\n", mod->prefix);
  if (mod->shared_scratch) sb_printf(c, "  %s_owner = 0;\n", mod->shared_scratch);
}

/* Table dispatch: when some operator is not STATIC_SCHEDULABLE or static calls are off. */
static void emit_run_table(const Model *m, const Module *mod, StrBuf *c, const Lowered *low) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  int steps = 0;
  for (int k = 0; k < m->n_nodes; k++) steps += low[k].fn != NULL;
  sb_printf(c, "/* The schedule as a table of layer functions (operators called through pointers). */\n"
               "typedef struct {\n  void (*run)(void);\n  int32_t op;\n} %s_step_t;\n\n", pf);
  sb_printf(c, "static const %s_step_t %s_schedule[%d] = {\n", pf, pf, steps ? steps : 1);
  for (int k = 0; k < m->n_nodes; k++)
    if (low[k].fn) sb_printf(c, "  {%s, %d},\n", low[k].fn, (int)m->nodes[k].index);
  if (!steps) sb_append(c, "  {NULL, -1},\n");
  sb_append(c, "};\n\n");
  sb_printf(c, "int32_t %s_model_run(%s_model_context_t *ctx) {\n  int32_t i;\n  if (ctx == NULL) return -1;\n", pf, pf);
  emit_run_claim(mod, c);
  sb_printf(c, "  for (i = 0; i < %d; i++) {\n    %s_notify(ctx, %s_schedule[i].op, %s_OP_RUN_STARTED);\n"
               "    %s_schedule[i].run();\n    %s_notify(ctx, %s_schedule[i].op, %s_OP_RUN_FINISHED);\n  }\n",
            steps, pf, pf, P, pf, pf, pf, P);
  emit_run_release(mod, c);
  sb_append(c, "  return 0;\n}\n");
}

static void emit_run(const Model *m, const Module *mod, StrBuf *c, const Lowered *low, const CallGroup *groups) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  if (!mod->direct_calls) {
    emit_run_table(m, mod, c, low);
    return;
  }
  sb_printf(c, "int32_t %s_model_run(%s_model_context_t *ctx) {\n  if (ctx == NULL) return -1;\n", pf, pf);
  emit_run_claim(mod, c);
  int calls = 0;
  for (int k = 0; k < m->n_nodes; k++) calls += low[k].fn != NULL;
  /* every operator a view or an alias: run() reports nothing, but the callback helper stays
   * (a static function nothing calls fails -Werror=unused-function) */
  if (!calls) sb_printf(c, "  (void)%s_notify; /* no operator runs code */\n", pf);
  for (int k = 0; k < m->n_nodes; k++) {
    int op = (int)m->nodes[k].index;
    if (!low[k].fn) {
      sb_printf(c, "  /* operator %d (%s): output aliases its input, nothing to run */\n", op, m->nodes[k].opname);
      continue;
    }
    if (low[k].group >= 0) {
      const char *g = groups[low[k].group].name;
      sb_printf(c, "  %s_run_%s(ctx, &%s_%s_calls[%d]); /* operator %d */\n", pf, g, pf, g, low[k].row, op);
      continue;
    }
    sb_printf(c, "  %s_notify(ctx, %d, %s_OP_RUN_STARTED);\n", pf, op, P);
    sb_printf(c, "  %s();\n", low[k].fn);
    sb_printf(c, "  %s_notify(ctx, %d, %s_OP_RUN_FINISHED);\n", pf, op, P);
  }
  emit_run_release(mod, c);
  sb_append(c, "  return 0;\n}\n");
}

/* ---- weights.c ------------------------------------------------------------------- */

static void emit_weights(const Plan *p, const Module *mod, Arena *a, const SourceLayout *sl, StrBuf *wc, StrBuf *wh,
                         bool *uses_math) {
  const char *P = mod->PREFIX;
  if (!mod->allocate_arenas) {
    sb_append(wh, "/* Constants live in caller-bound CONST_<MEM> regions (data/<name>_const_<mem>.bin): no arrays here. */\n");
    return;
  }
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *k = &p->consts[i];
    if (k->residency == RES_PIN) continue;
    size_t n = k->elems ? k->elems : 1;
    sb_printf(wh, "extern const %s %s[%zu]; /* %s */\n", k->ctype, k->array_name, n, k->what);
    sb_printf(wc, "\n/* %s, %zu bytes, in %s */\n%s_PUT_IN_%s_INIT const %s %s[%zu] = ", k->what, k->size,
              mem_name(k->source), P, mem_name(k->source), k->ctype, k->array_name, n);
    emit_le_values(wc, k->bytes, k->elems, k->type);
    sb_append(wc, ";\n");
    if (k->type == TT_FLOAT32) *uses_math = true;
  }
  for (int s = 0; s < MEM_COUNT; s++)
    for (int dst = 0; dst < MEM_COUNT; dst++) {
      size_t size = sl->blob_size[s][dst];
      if (!size) continue;
      const char *name = arena_printf(a, "%s_pinned_%s_from_%s", mod->prefix, lower(a, mem_name((MemType)dst)),
                                      lower(a, mem_name((MemType)s)));
      sb_printf(wh, "typedef union {\n  uint8_t bytes[%zu];\n  int64_t align_;\n} %s_t;\n", size, name);
      sb_printf(wh, "#ifndef %s_PINNED_SOURCE_CONST\n#define %s_PINNED_SOURCE_CONST const\n#endif\n", P, P);
      sb_printf(wh, "extern %s_PINNED_SOURCE_CONST %s_t %s; /* copied to %s by hydration */\n", P, name, name,
                mem_name((MemType)dst));
      sb_printf(wc, "\n/* Image of the constants pinned in %s (one bulk copy at init), little-endian bytes. */\n"
                    "%s_PUT_IN_%s_INIT %s_PINNED_SOURCE_CONST %s_t %s = {{",
                mem_name((MemType)dst), P, mem_name((MemType)s), P, name, name);
      for (int i = 0; i < p->n_consts; i++) {
        const ConstItem *k = &p->consts[i];
        if (k->residency != RES_PIN || k->source != s || k->runtime != dst) continue;
        sb_printf(wc, "\n  /* %s at %zu */", k->what, sl->offset[i] - sl->blob_start[s][dst]);
        emit_bytes(wc, k->bytes, k->size);
        static const uint8_t zeros[16];
        size_t pad = align16(k->size) - k->size;
        if (pad) emit_bytes(wc, zeros, pad);
      }
      sb_append(wc, "\n}};\n");
    }
}

/* Sidecar images of the constant regions when arenas are caller-owned. */
static void emit_sidecars(const Plan *p, Module *mod, Arena *a, const SourceLayout *sl) {
  for (int s = 0; s < MEM_COUNT; s++) {
    if (!const_region_used(p, (MemType)s)) continue;
    StrBuf *f = module_add_file(mod, a, arena_printf(a, "data/%s_const_%s.bin", mod->name, lower(a, mem_name((MemType)s))));
    if (!f) return;
    char *img = sb_extend(f, sl->size[s]); /* the image is built in place */
    if (!img) return;
    for (int i = 0; i < p->n_consts; i++)
      if (p->consts[i].source == s) memcpy(img + sl->offset[i], p->consts[i].bytes, p->consts[i].size);
    mod->pinned_sources[mod->n_pinned_sources++] =
        arena_printf(a, "data/%s_const_%s.bin", mod->name, lower(a, mem_name((MemType)s)));
  }
}

static void add_families(const Node *n, Module *mod) {
  for (int f = 0; f < 4 && n->families[f]; f++) {
    const char *fam = n->families[f];
    int j = 0;
    while (j < mod->n_families && strcmp(mod->families[j], fam) < 0) j++;
    if (j < mod->n_families && strcmp(mod->families[j], fam) == 0) continue;
    if (mod->n_families >= MODULE_MAX_FAMILIES) continue; /* more than the runtime has: cannot happen */
    memmove(&mod->families[j + 1], &mod->families[j], sizeof(char *) * (size_t)(mod->n_families - j));
    mod->families[j] = fam;
    mod->n_families++;
  }
}

static void collect_families(const Model *m, Module *mod) {
  for (int k = 0; k < m->n_nodes; k++) /* an alias runs no kernel: its family ships only for others */
    if (!m->nodes[k].is_alias) add_families(&m->nodes[k], mod);
  /* Operators of IF/WHILE subgraphs run inside their operator's layer (em_inline). */
  for (int s = 1; s < m->n_subgraphs; s++)
    for (int k = 0; k < m->subgraphs[s].n_nodes; k++)
      if (m->subgraphs[s].nodes[k].def) add_families(&m->subgraphs[s].nodes[k], mod);
}

static void free_lowered(Lowered *low, int n) {
  for (int k = 0; k < n; k++) {
    sb_free(&low[k].decls);
    sb_free(&low[k].body);
    sb_free(&low[k].init);
  }
}

/* Direct calls need every scheduled operator to be STATIC_SCHEDULABLE. */
static bool all_static(const Model *m) {
  for (int k = 0; k < m->n_nodes; k++)
    if (!m->nodes[k].is_alias && !(m->nodes[k].def->capabilities & CAP_STATIC_SCHEDULABLE)) return false;
  return true;
}

bool emit_module(Model *m, Plan *p, Module *mod, Diag *d) {
  Arena *a = m->arena;
  bool *state_reset = arena_calloc(a, (size_t)m->n_tensors + 1, sizeof(bool));
  Lowered *low = arena_calloc(a, (size_t)m->n_nodes + 1, sizeof(Lowered));
  if (!state_reset || !low) return diag_error(d, "out of memory");
  collect_families(m, mod);
  mod->direct_calls = mod->static_calls && all_static(m);
  bool ok = emit_lower(m, p, mod, low, state_reset, d);
  if (ok) ok = plan_finish(m, p, d);
  SourceLayout sl;
  if (ok && !layout_sources(a, p, &sl)) ok = diag_error(d, "out of memory");
  CallGroup *groups = NULL;
  int n_groups = ok ? group_calls(m, p, mod, a, low, &groups) : 0;
  if (n_groups < 0) ok = diag_error(d, "out of memory");
  if (!ok) {
    free_lowered(low, m->n_nodes);
    return false;
  }

  StrBuf *h = module_add_file(mod, a, arena_printf(a, "include/%s_model.h", mod->name));
  StrBuf *c = module_add_file(mod, a, arena_printf(a, "src/%s_model.c", mod->name));
  StrBuf *wc = module_add_file(mod, a, arena_printf(a, "src/%s_weights.c", mod->name));
  StrBuf *wh = module_add_file(mod, a, arena_printf(a, "src/%s_weights.h", mod->name));
  if (!h || !c || !wc || !wh) {
    free_lowered(low, m->n_nodes);
    return diag_error(d, "internal error: too many module files");
  }
  ProfileRows prof;
  if (mod->profile && !profile_rows(m, low, a, &prof)) {
    free_lowered(low, m->n_nodes);
    return diag_error(d, "out of memory");
  }
  emit_header(m, p, mod, a, mod->profile ? &prof : NULL, h);

  sb_printf(c, "/* %s: operators of %s as straight-line C. Generated by tinyaot. Do not edit. */\n", mod->name, mod->source);
  sb_printf(c, "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n#include \"%s_model.h\"\n#include \"%s_weights.h\"\n",
            mod->name, mod->name);
  for (int i = 0; i < mod->n_families; i++) sb_printf(c, "#include \"ta_%s.h\"\n", mod->families[i]);
  if (mod->shared_scratch) sb_printf(c, "#include \"../../%s.h\" /* the group's shared scratch */\n", mod->shared_scratch);
  sb_printf(c, "\nconst int32_t %s_num_inputs = %s_NUM_INPUTS;\nconst int32_t %s_num_outputs = %s_NUM_OUTPUTS;\n\n",
            mod->prefix, mod->PREFIX, mod->prefix, mod->PREFIX);
  emit_tensor_info(m, mod, c, "input", m->inputs, m->n_inputs);
  emit_tensor_info(m, mod, c, "output", m->outputs, m->n_outputs);
  emit_tensor_descriptors(m, mod, c);
  emit_arenas(m, p, mod, a, &sl, c);
  emit_layers(m, p, mod, a, &sl, low, groups, c);
  if (mod->profile) emit_profile_source(mod, &prof, c);
  emit_notify(mod, c);
  emit_call_groups(m, mod, low, groups, n_groups, c);
  emit_op_inits(m, mod, low, c);
  emit_hydrate(p, mod, a, &sl, c);
  if (!mod->allocate_arenas) emit_bind(p, mod, c);
  emit_init(m, mod, a, low, state_reset, c);
  emit_run(m, mod, c, low, groups);
  free_lowered(low, m->n_nodes);

  /* The constant tables are most of a module (about 4 bytes of text per weight byte):
   * measured first, then written once into buffers of exactly their size, so the
   * compiler's peak heap stays near the module's size (docs/robustness.md). */
  StrBuf wcount, hcount;
  sb_init_counting(&wcount);
  sb_init_counting(&hcount);
  bool uses_math = false;
  emit_weights(p, mod, a, &sl, &wcount, &hcount, &uses_math);
  static const char weights_h_end[] = "\n#endif\n";
  sb_printf(wh, "/* %s: constant tables (weights, biases, requantisation constants). Generated by tinyaot. */\n#ifndef %s_WEIGHTS_H\n#define %s_WEIGHTS_H\n#include <stdint.h>\n\n#include \"%s_model.h\"\n\n",
            mod->name, mod->PREFIX, mod->PREFIX, mod->name);
  sb_reserve_exact(wh, hcount.len + strlen(weights_h_end));
  sb_printf(wc, "/* %s: constant tables of %s. Generated by tinyaot. Do not edit. */\n#include <stdint.h>\n%s\n#include \"%s_weights.h\"\n",
            mod->name, mod->source, uses_math ? "#include <math.h>\n" : "", mod->name);
  sb_reserve_exact(wc, wcount.len);
  emit_weights(p, mod, a, &sl, wc, wh, &uses_math);
  sb_append(wh, weights_h_end);
  if (!mod->allocate_arenas) emit_sidecars(p, mod, a, &sl);
  else
    for (int s = 0; s < MEM_COUNT; s++)
      for (int dst = 0; dst < MEM_COUNT; dst++)
        if (sl.blob_size[s][dst])
          mod->pinned_sources[mod->n_pinned_sources++] = arena_printf(
              a, "%s_pinned_%s_from_%s", mod->prefix, lower(a, mem_name((MemType)dst)), lower(a, mem_name((MemType)s)));
  if (!emit_helia_files(mod, a, d)) return false;
  if (mod->test_enabled && !emit_test_case(m, mod, a, d)) return false;
  for (int i = 0; i < mod->n_files; i++)
    if (mod->files[i].text.oom) return diag_error(d, "out of memory while emitting");
  return true;
}
