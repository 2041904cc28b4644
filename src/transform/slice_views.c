/* SPLIT / SPLIT_V / UNPACK / SLICE / STRIDED_SLICE outputs as views of their input (issue
 * 17 item 2, the other half of concat_views.c).
 *
 * These operators copy bytes and nothing else (ta_split, ta_strided_copy: no
 * requantisation). When an output is one contiguous byte range of the input (a split
 * along an axis with every input dimension before it 1, a slice whose copy plan merges
 * into a single run), it can be that range: the output becomes a view of the input
 * (Tensor.alias_of + alias_offset, as patch bands and concatenation inputs are), and the
 * operator runs no code once every output is a view. The input then stays live while any
 * view is read (lifetimes fold into the storage tensor) and costs its bytes that long:
 * the pipeline keeps each view only where the live peak does not grow (pipeline.c,
 * view_slices).
 *
 * A view reads the input's bytes when its readers run, not when the copy would have: so
 * every operator writing the input's storage must run before the slicing one (no state,
 * no constant: a constant's bytes are emitted without an offset), and no reader may write
 * through its input (IF / WHILE / CALL_ONCE bind their subgraphs to the operator's
 * tensors). In-place execution needs nothing more: it only writes over a storage tensor
 * at its last use and whole (plan/inplace.c compares the contract's bytes with the
 * storage's), so over a view only when that view is the whole input. Same type and
 * quantization on both sides, as the brief of the rewrite asks (the copy would not
 * requantise either, but a reader sees one tensor's parameters on shared bytes). */
#include <string.h>

#include "../ir/copy_plan.h"
#include "../ir/quant.h"
#include "transform.h"

enum {
  BUILTIN_STRIDED_SLICE = 45,
  BUILTIN_SPLIT = 49,
  BUILTIN_SLICE = 65,
  BUILTIN_UNPACK = 88,
  BUILTIN_SPLIT_V = 102,
  BUILTIN_IF = 118,
  BUILTIN_WHILE = 119,
  BUILTIN_CALL_ONCE = 129,
};

/* Byte offset in the input of output o of node n, or -1 when that output is not one
 * contiguous range of it (the operators' own prepared copy plans say where it lies). */
static int64_t output_offset(const Model *m, const Node *n, int o) {
  if (!n->op_data || !n->kernel) return -1;
  const Tensor *y = &m->tensors[n->out[o]];
  if (n->builtin_code == BUILTIN_SLICE || n->builtin_code == BUILTIN_STRIDED_SLICE) {
    const StridedCopy *sc = n->op_data;
    if (strcmp(n->kernel, "ta_strided_copy") != 0 || sc->rank != 0 || sc->start < 0 ||
        (size_t)sc->run_bytes != y->bytes)
      return -1;
    return sc->start;
  }
  const ConcatSplit *cs = n->op_data;
  if (strcmp(n->kernel, "ta_split") != 0 || !cs->split || cs->outer != 1 || cs->parts != n->n_out) return -1;
  int64_t offset = 0;
  for (int i = 0; i < o; i++) offset += cs->chunk_bytes[i];
  return (size_t)cs->chunk_bytes[o] == y->bytes ? offset : -1;
}

/* Every operator writing storage s (through any view of it) runs before position k. */
static bool written_only_before(const Model *m, int32_t s, int k) {
  for (int j = k; j < m->n_nodes; j++)
    for (int o = 0; o < m->nodes[j].n_out; o++)
      if (m->nodes[j].out[o] >= 0 && tensor_storage(m, m->nodes[j].out[o]) == s) return false;
  return true;
}

/* Some operator that binds subgraphs to its inputs reads tensor id. */
static bool read_by_subgraph_op(const Model *m, int32_t id) {
  for (int j = 0; j < m->n_nodes; j++) {
    const int32_t c = m->nodes[j].builtin_code;
    if (c != BUILTIN_IF && c != BUILTIN_WHILE && c != BUILTIN_CALL_ONCE) continue;
    for (int i = 0; i < m->nodes[j].n_in; i++)
      if (m->nodes[j].in[i] == id) return true;
  }
  return false;
}

static bool viewable_output(const Model *m, const Node *n, int o, const Tensor *x) {
  const int32_t id = n->out[o];
  if (id < 0 || id >= m->n_tensors) return false;
  const Tensor *y = &m->tensors[id];
  /* A model output is no view itself (it would hold the whole input to the end). One may
   * still alias a view (a RESHAPE of it): the context's outputs[] then point at the view's
   * offset into its storage (emit_module.c, io_address; once at the storage's start, issue 29). */
  if (y->data || y->is_input || y->is_output || y->is_variable || y->alias_of >= 0 || !tensor_same_quant(x, y)) return false;
  for (int j = 0; j < n->n_out; j++)
    if (j != o && n->out[j] == id) return false;
  return output_offset(m, n, o) >= 0 && !read_by_subgraph_op(m, id) && !transform_joins_io(m, x->id, id);
}

static bool slice_viewable(const Model *m, const Node *n, int k) {
  if (!rewrite_is_slicing(n->builtin_code) || n->is_alias || !n->def || n->n_in < 1 || n->n_out < 1) return false;
  const int32_t data = n->builtin_code == BUILTIN_SPLIT ? 1 : 0; /* SPLIT: axis, then the tensor */
  if (data >= n->n_in || n->in[data] < 0 || n->in[data] >= m->n_tensors) return false;
  const Tensor *x = &m->tensors[n->in[data]];
  const int32_t s = tensor_storage(m, x->id);
  if (s < 0 || tensor_is_const(x) || tensor_is_const(&m->tensors[s]) || x->is_variable || m->tensors[s].is_variable)
    return false;
  if (!written_only_before(m, s, k)) return false;
  for (int o = 0; o < n->n_out; o++)
    if (!viewable_output(m, n, o, x)) return false;
  return true;
}

bool transform_slice_viewable(const Model *m, int k) {
  return k >= 0 && k < m->n_nodes && slice_viewable(m, &m->nodes[k], k);
}

void transform_slice_view(Model *m, int k, bool on) {
  Node *n = &m->nodes[k];
  const int32_t data = n->builtin_code == BUILTIN_SPLIT ? 1 : 0;
  for (int o = 0; o < n->n_out; o++) {
    Tensor *y = &m->tensors[n->out[o]];
    const int64_t offset = on ? output_offset(m, n, o) : 0;
    y->alias_of = on ? n->in[data] : -1;
    y->alias_offset = (size_t)offset;
  }
  n->is_alias = on;
}
