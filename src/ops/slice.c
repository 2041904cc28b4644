/* SLICE: a box of `size` elements starting at `begin` (size -1: to the end), as a
 * strided copy. */
#include "data_movement.h"

enum { MAX_RANK = 5 };

static const TensorType slice_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

static bool slice_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 3, 3, 1) || !op_expect_options(pc, node, OPTS_SLICE)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  const Tensor *begin_t = node_input(pc->model, node, 1);
  const Tensor *size_tensor = node_input(pc->model, node, 2);
  if (!dm_expect_dtype(pc, node, in, slice_types, DM_COUNT(slice_types), "") ||
      !op_expect_type(pc, node, out, in->type) ||
      !dm_expect_dense(pc, node, in, MAX_RANK) || !dm_expect_dense(pc, node, out, MAX_RANK))
    return false;
  int64_t begin[MAX_RANK], size[MAX_RANK], strides[MAX_RANK], start = 0;
  int nb = 0, ns = 0;
  if (!dm_const_ints(pc, node, begin_t, "begin", true, MAX_RANK, begin, &nb) ||
      !dm_const_ints(pc, node, size_tensor, "size", true, MAX_RANK, size, &ns))
    return false;
  if (begin_t->type != size_tensor->type) return op_error(pc, node, "begin and size must have the same dtype");
  if (nb != in->rank || ns != in->rank)
    return op_error(pc, node, "begin and size need %d values each (the input's rank), have %d and %d", in->rank, nb, ns);
  dm_strides(in, strides);
  for (int d = 0; d < in->rank; d++) {
    if (begin[d] < 0 || begin[d] > in->dims[d])
      return op_error(pc, node, "begin[%d] = %lld is outside [0, %d]", d, (long long)begin[d], (int)in->dims[d]);
    if (size[d] == -1) size[d] = in->dims[d] - begin[d];
    if (size[d] < 0 || size[d] > in->dims[d] - begin[d])
      return op_error(pc, node, "size[%d] = %lld does not fit after begin %lld in extent %d", d, (long long)size[d],
                      (long long)begin[d], (int)in->dims[d]);
    if (size[d] != out->dims[d] || out->rank != in->rank)
      return op_error(pc, node, "the slice has shape %s but %s has shape %s", dm_list_str(pc->arena, size, in->rank),
                      op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out));
    start += begin[d] * strides[d];
  }
  StridedCopy *sc = arena_alloc(pc->arena, sizeof *sc);
  if (!sc) return op_error(pc, node, "out of memory");
  if (!dm_plan_strided_copy(pc, node, sc, in->rank, size, strides, start, in, out)) return false;
  node->op_data = sc;
  node->kernel = "ta_strided_copy";
  node->families[0] = "strided_copy";
  return true;
}

const OpDef op_slice = {
    .name = "SLICE",
    .builtin_code = 65,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "constant int32/int64 begin and size; rank <= 5",
    .prepare = slice_prepare,
    .emit = dm_emit_strided_copy,
};
