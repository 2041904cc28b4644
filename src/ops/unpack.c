/* UNPACK: cuts its input along one axis into slices without that axis. */
#include "data_movement.h"


static const TensorType unpack_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

static bool unpack_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, node->n_out > 0 ? node->n_out : 1)) return false;
  if (!op_expect_options(pc, node, OPTS_UNPACK)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, unpack_types, DM_COUNT(unpack_types), "") ||
      !dm_expect_dense(pc, node, in, TA_MAX_RANK))
    return false;
  /* 0 is the schema default, i.e. the field absent: the operator's output count. */
  int num = node->opts.unpack.num ? node->opts.unpack.num : node->n_out;
  if (num != node->n_out) return op_error(pc, node, "num is %d but the operator has %d outputs", num, node->n_out);
  int axis = dm_axis(node->opts.unpack.axis, in->rank);
  if (axis < 0 || in->dims[axis] != node->n_out)
    return op_error(pc, node, "axis %d of %s (shape %s) must exist and have extent %d",
                    (int)node->opts.unpack.axis, op_tensor_desc(pc, in), tensor_shape_str(pc->arena, in),
                    node->n_out);
  int64_t *axis_dims = arena_calloc(pc->arena, (size_t)node->n_out, sizeof *axis_dims);
  if (!axis_dims) return op_error(pc, node, "out of memory");
  for (int i = 0; i < node->n_out; i++) {
    const Tensor *out = node_output(pc->model, node, i);
    bool ok = out->rank == in->rank - 1;
    for (int d = 0; ok && d < out->rank; d++) ok = out->dims[d] == in->dims[d < axis ? d : d + 1];
    if (!ok)
      return op_error(pc, node, "%s has shape %s, not a slice of %s along axis %d", op_tensor_desc(pc, out),
                      tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in), axis);
    if (!op_expect_type(pc, node, out, in->type)) return false;
    axis_dims[i] = 1;
  }
  return dm_plan_concat_split(pc, node, true, in, axis, node->n_out, axis_dims);
}

const OpDef op_unpack = {
    .name = "UNPACK",
    .builtin_code = 88,
    /* Not DESCRIPTOR_DRIVEN: the run body builds an array of the parts' pointers. */
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "",
    .prepare = unpack_prepare,
    .emit = dm_emit_concat_split,
};
