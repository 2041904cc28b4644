#include "ir.h"

#include <stdio.h>
#include <string.h>

const char *tensor_type_name(TensorType t) {
  switch (t) {
    case TT_FLOAT32: return "float32";
    case TT_FLOAT16: return "float16";
    case TT_INT32: return "int32";
    case TT_UINT8: return "uint8";
    case TT_INT64: return "int64";
    case TT_STRING: return "string";
    case TT_BOOL: return "bool";
    case TT_INT16: return "int16";
    case TT_COMPLEX64: return "complex64";
    case TT_INT8: return "int8";
    case TT_FLOAT64: return "float64";
    case TT_RESOURCE: return "resource";
    case TT_UINT32: return "uint32";
    case TT_UINT16: return "uint16";
    case TT_INT4: return "int4";
  }
  return "unknown";
}

/* TFLite's types tinyaot has no TensorType for, by their schema numbers. */
static const char *other_type_name(int t) {
  switch (t) {
    case 11: return "complex128";
    case 12: return "uint64";
    case 14: return "variant";
    case 18: return "bfloat16";
  }
  return NULL;
}

const char *tensor_type_label(Arena *a, TensorType t) {
  const char *name = tensor_type_name(t);
  if (strcmp(name, "unknown") != 0) return name;
  const char *other = other_type_name((int)t);
  return other ? other : arena_printf(a, "unknown (%d)", (int)t);
}

const char *tensor_dtype_desc(const Tensor *t) {
  return t->stored_int4 ? "int4 (unpacked to int8)" : tensor_type_name(t->type);
}

const char *tensor_type_ctype(TensorType t) {
  switch (t) {
    case TT_FLOAT32: return "float";
    case TT_INT32: return "int32_t";
    case TT_UINT8: return "uint8_t";
    case TT_INT64: return "int64_t";
    case TT_BOOL: return "uint8_t";
    case TT_INT16: return "int16_t";
    case TT_INT8: return "int8_t";
    case TT_UINT32: return "uint32_t";
    case TT_UINT16: return "uint16_t";
    default: return "uint8_t";
  }
}

size_t tensor_type_size(TensorType t) {
  switch (t) {
    case TT_FLOAT32: case TT_INT32: case TT_UINT32: return 4;
    case TT_UINT8: case TT_INT8: case TT_BOOL: return 1;
    case TT_INT16: case TT_UINT16: return 2;
    case TT_INT64: return 8;
    default: return 0;
  }
}

Tensor *model_tensor(Model *m, int32_t id) {
  if (id < 0 || id >= m->n_tensors) return NULL;
  return &m->tensors[id];
}

const Tensor *node_input(const Model *m, const Node *n, int i) {
  if (i < 0 || i >= n->n_in || n->in[i] < 0 || n->in[i] >= m->n_tensors) return NULL;
  return &m->tensors[n->in[i]];
}

const Tensor *node_output(const Model *m, const Node *n, int i) {
  if (i < 0 || i >= n->n_out || n->out[i] < 0 || n->out[i] >= m->n_tensors) return NULL;
  return &m->tensors[n->out[i]];
}

bool tensor_is_const(const Tensor *t) { return t->data != NULL && !t->is_variable; }

size_t tensor_view_offset(const Model *m, int32_t id) {
  size_t off = 0;
  for (int hops = 0; id >= 0 && id < m->n_tensors && m->tensors[id].alias_of >= 0 && hops < m->n_tensors; hops++) {
    off += m->tensors[id].alias_offset;
    id = m->tensors[id].alias_of;
  }
  return off;
}

const char *tensor_shape_str(Arena *a, const Tensor *t) {
  char buf[160];
  size_t len = 0;
  buf[len++] = '[';
  for (int i = 0; i < t->rank && len < sizeof buf - 16; i++)
    len += (size_t)snprintf(buf + len, sizeof buf - len, i ? ",%d" : "%d", (int)t->dims[i]);
  buf[len++] = ']';
  buf[len] = 0;
  return arena_strdup(a, buf);
}

int64_t tensor_dim(const Tensor *t, int i) {
  if (i < 0) i += t->rank;
  if (i < 0 || i >= t->rank) return 1;
  return t->dims[i];
}

bool tensor_same_shape(const Tensor *a, const Tensor *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

static bool copy_ids(Arena *a, int32_t **ids, int n) {
  if (!*ids || n <= 0) return true;
  int32_t *c = arena_calloc(a, (size_t)n, sizeof *c);
  if (!c) return false;
  memcpy(c, *ids, sizeof *c * (size_t)n);
  *ids = c;
  return true;
}

/* The nodes' own arrays: their tensor lists (patching and the rewrites replace entries). */
static Node *copy_nodes(Arena *a, const Node *nodes, int n) {
  Node *c = arena_calloc(a, (size_t)n + 1, sizeof *c);
  if (!c) return NULL;
  if (n > 0) memcpy(c, nodes, sizeof *c * (size_t)n);
  for (int k = 0; k < n; k++)
    if (!copy_ids(a, &c[k].in, c[k].n_in) || !copy_ids(a, &c[k].out, c[k].n_out) ||
        !copy_ids(a, &c[k].inter, c[k].n_inter))
      return NULL;
  return c;
}

bool model_copy(const Model *m, Arena *a, Model *out) {
  *out = *m;
  out->arena = a;
  out->tensors = arena_calloc(a, (size_t)m->n_tensors + 1, sizeof *out->tensors);
  if (!out->tensors) return false;
  if (m->n_tensors > 0) memcpy(out->tensors, m->tensors, sizeof *out->tensors * (size_t)m->n_tensors);
  out->nodes = copy_nodes(a, m->nodes, m->n_nodes);
  if (!out->nodes || !copy_ids(a, &out->inputs, m->n_inputs) || !copy_ids(a, &out->outputs, m->n_outputs)) return false;
  if (m->n_subgraphs <= 0) return true;
  out->subgraphs = arena_calloc(a, (size_t)m->n_subgraphs, sizeof *out->subgraphs);
  if (!out->subgraphs) return false;
  memcpy(out->subgraphs, m->subgraphs, sizeof *out->subgraphs * (size_t)m->n_subgraphs);
  for (int s = 0; s < m->n_subgraphs; s++) {
    Subgraph *g = &out->subgraphs[s];
    /* the main graph's nodes are the model's (one array, as the loader left it) */
    g->nodes = m->subgraphs[s].nodes == m->nodes ? out->nodes : copy_nodes(a, g->nodes, g->n_nodes);
    if (!g->nodes) return false;
    if (g->inputs == m->inputs) g->inputs = out->inputs;
    else if (!copy_ids(a, &g->inputs, g->n_inputs)) return false;
    if (g->outputs == m->outputs) g->outputs = out->outputs;
    else if (!copy_ids(a, &g->outputs, g->n_outputs)) return false;
  }
  return true;
}

int32_t model_add_tensor(Model *m, const char *name, TensorType type, size_t bytes) {
  Tensor *nt = arena_calloc(m->arena, (size_t)m->n_tensors + 1, sizeof(Tensor));
  if (!nt) return -1;
  memcpy(nt, m->tensors, (size_t)m->n_tensors * sizeof(Tensor));
  Tensor *t = &nt[m->n_tensors];
  t->id = m->n_tensors;
  t->name = arena_strdup(m->arena, name);
  t->type = type;
  t->rank = 1;
  size_t es = tensor_type_size(type) ? tensor_type_size(type) : 1;
  t->dims[0] = (int32_t)(bytes / es);
  t->elems = t->dims[0];
  t->bytes = bytes;
  t->alias_of = -1;
  t->arena = -1;
  t->first_use = t->last_use = -1;
  m->tensors = nt;
  return m->n_tensors++;
}
