/* Helpers shared by the data-movement, shape and reduction operators. */
#include "data_movement.h"

#include <stdio.h>
#include <string.h>

#include "../ir/quant.h"

bool dm_const_ints(PrepareCtx *pc, const Node *node, const Tensor *t, const char *what, bool allow_int64,
                   int64_t max_count, int64_t *vals, int *n) {
  if (!tensor_is_const(t))
    return op_error(pc, node, "%s (%s) must be a constant tensor: tinyaot resolves it at compile time", what,
                    op_tensor_desc(pc, t));
  if (t->type != TT_INT32 && !(allow_int64 && t->type == TT_INT64))
    return op_error(pc, node, "%s (%s) has dtype %s, expected int32%s", what, op_tensor_desc(pc, t),
                    tensor_type_name(t->type), allow_int64 ? " or int64" : "");
  if (t->elems > max_count)
    return op_error(pc, node, "%s (%s) has %lld values, at most %lld are allowed", what, op_tensor_desc(pc, t),
                    (long long)t->elems, (long long)max_count);
  for (int64_t i = 0; i < t->elems; i++) vals[i] = t->type == TT_INT32 ? const_i32(t, i) : const_i64(t, i);
  *n = (int)t->elems;
  return true;
}

int dm_axis(int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) return -1;
  return (int)(axis < 0 ? axis + rank : axis);
}

bool dm_expect_dtype(PrepareCtx *pc, const Node *node, const Tensor *t, const TensorType *types, int n,
                     const char *why) {
  char list[128] = "";
  for (int i = 0; i < n; i++) {
    if (t->type == types[i]) return true;
    size_t len = strlen(list);
    snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", tensor_type_name(types[i]));
  }
  return op_error(pc, node, "%s has dtype %s; supported: %s%s%s", op_tensor_desc(pc, t), tensor_type_name(t->type),
                  list, why[0] ? " - " : "", why);
}

bool dm_expect_same_quant(PrepareCtx *pc, const Node *node, const Tensor *ref, const Tensor *t) {
  if (!op_expect_type(pc, node, t, ref->type)) return false;
  if (ref->n_quant == 0 && t->n_quant == 0) return true;
  if (tensor_scale(ref) != tensor_scale(t) || tensor_zero_point(ref) != tensor_zero_point(t))
    return op_error(pc, node, "%s is quantized (scale %g, zero point %d) unlike %s (scale %g, zero point %d); this "
                    "operator moves values without requantizing them",
                    op_tensor_desc(pc, t), (double)tensor_scale(t), (int)tensor_zero_point(t),
                    op_tensor_desc(pc, ref), (double)tensor_scale(ref), (int)tensor_zero_point(ref));
  return true;
}

bool dm_expect_dense(PrepareCtx *pc, const Node *node, const Tensor *t, int max_rank) {
  if (t->rank > max_rank)
    return op_error(pc, node, "%s has rank %d, at most %d is supported", op_tensor_desc(pc, t), t->rank, max_rank);
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] < 1)
      return op_error(pc, node, "%s has shape %s: empty or unknown dimensions are not supported",
                      op_tensor_desc(pc, t), tensor_shape_str(pc->arena, t));
  if (t->elems > INT32_MAX / 8)
    return op_error(pc, node, "%s has %lld elements, too many for 32-bit indexing", op_tensor_desc(pc, t),
                    (long long)t->elems);
  return true;
}

const char *dm_list_str(Arena *a, const int64_t *v, int n) {
  char buf[256];
  size_t len = 0;
  buf[len++] = '[';
  for (int i = 0; i < n && len < sizeof buf - 24; i++)
    len += (size_t)snprintf(buf + len, sizeof buf - len, i ? ",%lld" : "%lld", (long long)v[i]);
  buf[len++] = ']';
  buf[len] = 0;
  return arena_strdup(a, buf);
}

void dm_strides(const Tensor *t, int64_t *strides) {
  int64_t s = 1;
  for (int i = t->rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= t->dims[i];
  }
}

/* Drops single-iteration loops and merges a loop into its outer neighbour when the
 * outer step equals the inner loop's whole extent. */
static int merge_loops(int rank, int64_t *count, int64_t *stride) {
  int n = 0;
  for (int d = 0; d < rank; d++) {
    if (count[d] == 1) continue;
    if (n > 0 && stride[n - 1] == count[d] * stride[d]) {
      count[n - 1] *= count[d];
      stride[n - 1] = stride[d];
      continue;
    }
    count[n] = count[d];
    stride[n] = stride[d];
    n++;
  }
  return n;
}

bool dm_plan_strided_copy(PrepareCtx *pc, const Node *node, StridedCopy *sc, int rank, const int64_t *count_in,
                          const int64_t *stride_in, int64_t start, const Tensor *in, const Tensor *out) {
  const int64_t elem = (int64_t)tensor_type_size(in->type);
  int64_t count[DM_MAX_LOOPS], stride[DM_MAX_LOOPS], total = 1;
  if (rank > DM_MAX_LOOPS) return op_error(pc, node, "needs %d copy loops, at most %d are supported", rank, DM_MAX_LOOPS);
  for (int d = 0; d < rank; d++) {
    count[d] = count_in[d];
    stride[d] = stride_in[d];
    if (count[d] < 1) return op_error(pc, node, "the operation selects no elements (empty outputs are not supported)");
    total *= count[d];
  }
  if (total != out->elems)
    return op_error(pc, node, "selects %lld elements but %s has shape %s (%lld elements)", (long long)total,
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out), (long long)out->elems);
  int n = merge_loops(rank, count, stride);
  int64_t run = 1;
  if (n > 0 && stride[n - 1] == 1) run = count[--n]; /* the innermost loop reads contiguously */
  /* Every element read must lie inside the input. */
  int64_t lo = start, hi = start + run - 1;
  for (int d = 0; d < n; d++) {
    int64_t reach = (count[d] - 1) * stride[d];
    if (reach < 0) lo += reach; else hi += reach;
  }
  if (lo < 0 || hi >= in->elems)
    return op_error(pc, node, "internal error: copy plan reads elements %lld..%lld of %s (%lld elements)",
                    (long long)lo, (long long)hi, op_tensor_desc(pc, in), (long long)in->elems);
  sc->rank = n;
  for (int d = 0; d < n; d++) {
    sc->count[d] = (int32_t)count[d];
    sc->stride[d] = (int32_t)(stride[d] * elem); /* |stride| < elems, which dm_expect_dense bounds */
  }
  sc->start = (int32_t)(start * elem);
  sc->run_bytes = (int32_t)(run * elem);
  return true;
}

void dm_fmt_list(char *buf, size_t cap, const int32_t *v, int n) {
  size_t len = 0;
  buf[0] = 0;
  if (n == 0) snprintf(buf, cap, "0");
  for (int i = 0; i < n && len < cap; i++) len += (size_t)snprintf(buf + len, cap - len, i ? ", %d" : "%d", (int)v[i]);
}

bool dm_prepare_strided_copy(PrepareCtx *pc, Node *node, int rank, const int64_t *count, const int64_t *stride,
                             int64_t start, const Tensor *in, const Tensor *out) {
  StridedCopy *sc = arena_alloc(pc->arena, sizeof *sc);
  if (!sc) return op_error(pc, node, "out of memory");
  if (!dm_plan_strided_copy(pc, node, sc, rank, count, stride, start, in, out)) return false;
  node->op_data = sc;
  node->kernel = "ta_strided_copy";
  node->families[0] = "strided_copy";
  return true;
}

void dm_emit_strided_copy(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const StridedCopy *sc = node->op_data;
  char counts[128], strides[128];
  dm_fmt_list(counts, sizeof counts, sc->count, sc->rank);
  dm_fmt_list(strides, sizeof strides, sc->stride, sc->rank);
  em_decl(ec,
          "static const ta_strided_copy_params_t %s_params = {\n  .rank = %d,\n  .count = {%s},\n"
          "  .stride = {%s},\n  .start = %d,\n  .run_bytes = %d,\n};",
          em_op_name(ec), sc->rank, counts, strides, (int)sc->start, (int)sc->run_bytes);
  em_call(ec, "ta_strided_copy", 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

bool dm_plan_concat_split(PrepareCtx *pc, Node *node, bool split, const Tensor *whole, int axis, int parts,
                          const int64_t *part_axis_dims) {
  const int64_t elem = (int64_t)tensor_type_size(whole->type);
  int64_t outer = 1, inner = 1, total = 0;
  for (int i = 0; i < axis; i++) outer *= whole->dims[i];
  for (int i = axis + 1; i < whole->rank; i++) inner *= whole->dims[i];
  ConcatSplit *cs = arena_alloc(pc->arena, sizeof *cs);
  int32_t *chunks = arena_calloc(pc->arena, (size_t)parts, sizeof *chunks);
  if (!cs || !chunks) return op_error(pc, node, "out of memory");
  for (int i = 0; i < parts; i++) {
    chunks[i] = (int32_t)(part_axis_dims[i] * inner * elem); /* bounded by the whole tensor's bytes */
    total += part_axis_dims[i];
  }
  if (total != whole->dims[axis])
    return op_error(pc, node, "the parts add up to %lld along axis %d but %s has %lld there", (long long)total, axis,
                    op_tensor_desc(pc, whole), (long long)whole->dims[axis]);
  cs->split = split;
  cs->whole = whole->id;
  cs->parts = parts;
  cs->outer = (int32_t)outer;
  cs->chunk_bytes = chunks;
  node->op_data = cs;
  node->kernel = split ? "ta_split" : "ta_concat";
  node->families[0] = "concat_split";
  node->macs = 0;
  return true;
}

void dm_emit_concat_split(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const ConcatSplit *cs = node->op_data;
  const char *name = em_op_name(ec);
  const char *chunks = em_table_i32(ec, "chunk_bytes", cs->chunk_bytes, (size_t)cs->parts);
  em_decl(ec, "static const ta_concat_split_params_t %s_params = {\n  .parts = %d,\n  .outer = %d,\n"
          "  .chunk_bytes = %s,\n};", name, cs->parts, (int)cs->outer, chunks);
  const int32_t *ids = cs->split ? node->out : node->in;
  em_body(ec, "{");
  em_body(ec, "  %s parts[%d] = {", cs->split ? "void *const" : "const void *const", cs->parts);
  for (int i = 0; i < cs->parts; i++) em_body(ec, "    %s%s", em_tensor(ec, ids[i]), i + 1 < cs->parts ? "," : "");
  em_body(ec, "  };");
  if (cs->split)
    em_body(ec, "  ta_split(&%s_params, %s, parts);", name, em_tensor(ec, cs->whole));
  else
    em_body(ec, "  ta_concat(&%s_params, parts, %s);", name, em_tensor(ec, cs->whole));
  em_body(ec, "}");
}

bool dm_split_prepare(PrepareCtx *pc, Node *node, const DmSplitOp *op) {
  if (!op_expect_io(pc, node, op->n_inputs, op->n_inputs, node->n_out > 0 ? node->n_out : 1)) return false;
  if (!op_expect_options(pc, node, op->options)) return false;
  const Tensor *in = node_input(pc->model, node, op->data_input);
  if (!dm_expect_dtype(pc, node, in, op->types, op->n_types, "") || !dm_expect_dense(pc, node, in, TA_MAX_RANK))
    return false;
  int64_t axis_value;
  int n_axis;
  if (!dm_const_ints(pc, node, node_input(pc->model, node, op->axis_input), "axis", false, 1, &axis_value, &n_axis))
    return false;
  int axis = n_axis == 1 ? dm_axis(axis_value, in->rank) : -1;
  if (axis < 0) return op_error(pc, node, "axis must be one value in [-%d, %d)", in->rank, in->rank);
  /* SPLIT and SPLIT_V share the layout; 0 (absent) stands for the operator's output count. */
  int num_splits = node->opts.split.num_splits ? node->opts.split.num_splits : node->n_out;
  if (num_splits != node->n_out)
    return op_error(pc, node, "num_splits is %d but the operator has %d outputs", num_splits, node->n_out);
  int64_t *axis_dims = arena_calloc(pc->arena, (size_t)node->n_out, sizeof *axis_dims);
  if (!axis_dims) return op_error(pc, node, "out of memory");
  for (int i = 0; i < node->n_out; i++) {
    const Tensor *out = node_output(pc->model, node, i);
    if (!op->check_part(pc, node, in, out, axis) || !op_expect_type(pc, node, out, in->type)) return false;
    axis_dims[i] = out->dims[axis];
  }
  return dm_plan_concat_split(pc, node, true, in, axis, node->n_out, axis_dims);
}

/* ---- DEPTH_TO_SPACE, SPACE_TO_DEPTH, RESIZE_* ------------------------------------------ */

bool dm_block_io(PrepareCtx *pc, const Node *node, uint8_t options, const TensorType *types, int n_types,
                 const Tensor **in, const Tensor **out, int64_t *block_size) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, options)) return false;
  *in = node_input(pc->model, node, 0);
  *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, *in, types, n_types, "") || !op_expect_type(pc, node, *out, (*in)->type) ||
      !dm_expect_dense(pc, node, *in, 4) || !dm_expect_dense(pc, node, *out, 4))
    return false;
  *block_size = node->opts.space_to_depth.block_size; /* DEPTH_TO_SPACE shares the layout */
  if ((*in)->rank != 4 || (*out)->rank != 4) return op_error(pc, node, "input and output must be 4D (NHWC)");
  return true;
}

bool dm_expect_block_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, int64_t b,
                           const int64_t expect[4]) {
  if (out->dims[0] != expect[0] || out->dims[1] != expect[1] || out->dims[2] != expect[2] || out->dims[3] != expect[3])
    return op_error(pc, node, "%s has shape %s; block size %lld turns %s into [%lld,%lld,%lld,%lld]",
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out), (long long)b,
                    tensor_shape_str(pc->arena, in), (long long)expect[0], (long long)expect[1],
                    (long long)expect[2], (long long)expect[3]);
  return true;
}

bool dm_resize_io(PrepareCtx *pc, const Node *node, uint8_t options, const TensorType *types, int n_types,
                  const Tensor **in, const Tensor **out) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, options)) return false;
  const Tensor *i = node_input(pc->model, node, 0), *o = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, i, types, n_types, "") || !op_expect_type(pc, node, o, i->type) ||
      !dm_expect_dense(pc, node, i, 4) || !dm_expect_dense(pc, node, o, 4))
    return false;
  if (i->rank != 4 || o->rank != 4 || i->dims[0] != o->dims[0] || i->dims[3] != o->dims[3])
    return op_error(pc, node, "input %s and output %s must be NHWC with equal batch and depth",
                    tensor_shape_str(pc->arena, i), tensor_shape_str(pc->arena, o));
  int64_t size[2];
  int n = 0;
  if (!dm_const_ints(pc, node, node_input(pc->model, node, 1), "size", false, 2, size, &n)) return false;
  if (n != 2 || size[0] != o->dims[1] || size[1] != o->dims[2])
    return op_error(pc, node, "size %s does not match %s (shape %s)", dm_list_str(pc->arena, size, n),
                    op_tensor_desc(pc, o), tensor_shape_str(pc->arena, o));
  *in = i;
  *out = o;
  return true;
}
