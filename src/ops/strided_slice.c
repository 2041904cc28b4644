/* STRIDED_SLICE: begin / end / strides per axis with begin, end and shrink-axis masks,
 * resolved at compile time into a strided copy. The index arithmetic follows TFLite's
 * strided-slice logic (negative indices count from the end, clamping depends on the
 * stride's sign, a shrunk axis takes one element). */
#include "data_movement.h"

enum { MAX_RANK = 5 };

static const TensorType strided_slice_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* First index visited along an axis of extent `size`. */
static int64_t axis_start(int64_t begin, int64_t step, bool masked, int64_t size) {
  if (begin < 0) begin += size;
  begin = step > 0 ? clamp64(begin, 0, size) : clamp64(begin, -1, size - 1);
  if (masked) begin = step > 0 ? 0 : size - 1;
  return begin;
}

/* One past the last index visited (in the direction of the stride). */
static int64_t axis_stop(int64_t end, int64_t start, int64_t step, bool masked, bool shrink, int64_t size) {
  if (shrink) return start >= size ? start : start + 1;
  if (end < 0) end += size;
  end = step > 0 ? clamp64(end, 0, size) : clamp64(end, -1, size - 1);
  if (masked) end = step > 0 ? size : -1;
  return end;
}

/* Number of indices start, start+step, ... strictly before stop. */
static int64_t axis_count(int64_t start, int64_t stop, int64_t step) {
  if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
  return start > stop ? (start - stop - step - 1) / -step : 0;
}

static bool read_masks(PrepareCtx *pc, const Node *node, int32_t *begin_mask, int32_t *end_mask, int32_t *shrink) {
  const StridedSliceOptions *o = &node->opts.strided_slice;
  if (o->ellipsis_mask != 0 || o->new_axis_mask != 0)
    return op_error(pc, node, "ellipsis_mask and new_axis_mask are not supported (TFLite Micro ignores them)");
  if (o->offset)
    return op_error(pc, node, "the offset option is not supported (TFLite Micro ignores it)");
  *begin_mask = o->begin_mask;
  *end_mask = o->end_mask;
  *shrink = o->shrink_axis_mask;
  return true;
}

static bool strided_slice_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 4, 4, 1) || !op_expect_options(pc, node, OPTS_STRIDED_SLICE)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, strided_slice_types, DM_COUNT(strided_slice_types), "") ||
      !op_expect_type(pc, node, out, in->type) ||
      !dm_expect_dense(pc, node, in, MAX_RANK) || !dm_expect_dense(pc, node, out, MAX_RANK))
    return false;
  int32_t begin_mask = 0, end_mask = 0, shrink = 0;
  int64_t begin[MAX_RANK], end[MAX_RANK], step[MAX_RANK];
  int nb = 0, ne = 0, ns = 0;
  if (!read_masks(pc, node, &begin_mask, &end_mask, &shrink) ||
      !dm_const_ints(pc, node, node_input(pc->model, node, 1), "begin", false, MAX_RANK, begin, &nb) ||
      !dm_const_ints(pc, node, node_input(pc->model, node, 2), "end", false, MAX_RANK, end, &ne) ||
      !dm_const_ints(pc, node, node_input(pc->model, node, 3), "strides", false, MAX_RANK, step, &ns))
    return false;
  if (nb != in->rank || ne != in->rank || ns != in->rank)
    return op_error(pc, node, "begin, end and strides need %d values each (the input's rank), have %d, %d, %d",
                    in->rank, nb, ne, ns);
  int64_t count[MAX_RANK], stride[MAX_RANK], strides[MAX_RANK], start = 0;
  int64_t kept[MAX_RANK];
  int n_kept = 0;
  dm_strides(in, strides);
  for (int d = 0; d < in->rank; d++) {
    if (step[d] == 0) return op_error(pc, node, "strides[%d] is 0", d);
    const bool is_shrunk = shrink >> d & 1;
    const int64_t first = axis_start(begin[d], step[d], begin_mask >> d & 1, in->dims[d]);
    const int64_t stop = axis_stop(end[d], first, step[d], end_mask >> d & 1, is_shrunk, in->dims[d]);
    count[d] = axis_count(first, stop, step[d]);
    stride[d] = step[d] * strides[d];
    start += first * strides[d];
    if (!is_shrunk) kept[n_kept++] = count[d];
  }
  bool same = n_kept == out->rank;
  for (int d = 0; same && d < n_kept; d++) same = kept[d] == out->dims[d];
  if (!same)
    return op_error(pc, node, "the slice has shape %s but %s has shape %s", dm_list_str(pc->arena, kept, n_kept),
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out));
  StridedCopy *sc = arena_alloc(pc->arena, sizeof *sc);
  if (!sc) return op_error(pc, node, "out of memory");
  if (!dm_plan_strided_copy(pc, node, sc, in->rank, count, stride, start, in, out)) return false;
  node->op_data = sc;
  node->kernel = "ta_strided_copy";
  node->families[0] = "strided_copy";
  return true;
}

const OpDef op_strided_slice = {
    .name = "STRIDED_SLICE",
    .builtin_code = 45,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "constant int32 begin/end/strides; begin, end and shrink-axis masks (no ellipsis / new-axis "
                   "masks, no offset); rank <= 5",
    .prepare = strided_slice_prepare,
    .emit = dm_emit_strided_copy,
};
