/* TRANSPOSE: permutes dimensions (constant perm) as a strided copy that walks the
 * output in order and reads the input with permuted strides. */
#include "data_movement.h"

enum { MAX_RANK = 6 };

static const TensorType transpose_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

static bool transpose_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, OPTS_TRANSPOSE)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, transpose_types, DM_COUNT(transpose_types), "") ||
      !op_expect_type(pc, node, out, in->type) ||
      !dm_expect_dense(pc, node, in, MAX_RANK) || !dm_expect_dense(pc, node, out, MAX_RANK))
    return false;
  int64_t perm[MAX_RANK], count[MAX_RANK], stride[MAX_RANK], strides[MAX_RANK];
  int n = 0;
  if (!dm_const_ints(pc, node, node_input(pc->model, node, 1), "perm", false, MAX_RANK, perm, &n)) return false;
  bool used[MAX_RANK] = {false};
  bool ok = n == in->rank && out->rank == in->rank;
  for (int d = 0; ok && d < n; d++) {
    ok = perm[d] >= 0 && perm[d] < n && !used[perm[d]] && out->dims[d] == in->dims[perm[d]];
    if (ok) used[perm[d]] = true;
  }
  if (!ok)
    return op_error(pc, node, "perm %s is not a permutation taking %s (shape %s) to %s (shape %s)",
                    dm_list_str(pc->arena, perm, n), op_tensor_desc(pc, in), tensor_shape_str(pc->arena, in),
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out));
  dm_strides(in, strides);
  for (int d = 0; d < n; d++) {
    count[d] = in->dims[perm[d]];
    stride[d] = strides[perm[d]];
  }
  StridedCopy *sc = arena_alloc(pc->arena, sizeof *sc);
  if (!sc) return op_error(pc, node, "out of memory");
  if (!dm_plan_strided_copy(pc, node, sc, n, count, stride, 0, in, out)) return false;
  node->op_data = sc;
  node->kernel = "ta_strided_copy";
  node->families[0] = "strided_copy";
  return true;
}

const OpDef op_transpose = {
    .name = "TRANSPOSE",
    .builtin_code = 39,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "constant int32 perm; rank <= 6",
    .prepare = transpose_prepare,
    .emit = dm_emit_strided_copy,
};
