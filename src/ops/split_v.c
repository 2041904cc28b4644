/* SPLIT_V: cuts its input along a constant axis into parts of the outputs' sizes
 * (the size_splits input, -1 entry included, is already reflected in their shapes). */
#include "data_movement.h"

enum { SPLIT_V_OPTIONS = 79, OPT_NUM_SPLITS = 0 };

static const TensorType split_v_types[] = {TT_INT8};

static bool split_v_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 3, 3, node->n_out > 0 ? node->n_out : 1)) return false;
  if (!op_expect_options(pc, node, SPLIT_V_OPTIONS)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, split_v_types, 1, "") || !dm_expect_dense(pc, node, in, TA_MAX_RANK))
    return false;
  int64_t axis_value;
  int n_axis;
  if (!dm_const_ints(pc, node, node_input(pc->model, node, 2), "axis", false, 1, &axis_value, &n_axis)) return false;
  int axis = n_axis == 1 ? dm_axis(axis_value, in->rank) : -1;
  if (axis < 0) return op_error(pc, node, "axis must be one value in [-%d, %d)", in->rank, in->rank);
  int num_splits = fb_i32(&node->options, OPT_NUM_SPLITS, node->n_out);
  if (num_splits != node->n_out)
    return op_error(pc, node, "num_splits is %d but the operator has %d outputs", num_splits, node->n_out);
  int64_t *axis_dims = arena_calloc(pc->arena, (size_t)node->n_out, sizeof *axis_dims);
  if (!axis_dims) return op_error(pc, node, "out of memory");
  for (int i = 0; i < node->n_out; i++) {
    const Tensor *out = node_output(pc->model, node, i);
    bool ok = out->rank == in->rank;
    for (int d = 0; ok && d < in->rank; d++) ok = d == axis ? out->dims[d] >= 1 : out->dims[d] == in->dims[d];
    if (!ok)
      return op_error(pc, node, "%s has shape %s, not a part of %s along axis %d", op_tensor_desc(pc, out),
                      tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in), axis);
    if (!op_expect_type(pc, node, out, in->type)) return false;
    axis_dims[i] = out->dims[axis];
  }
  return dm_plan_concat_split(pc, node, true, in, axis, node->n_out, axis_dims);
}

const OpDef op_split_v = {
    .name = "SPLIT_V",
    .builtin_code = 102,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "constant axis; part sizes taken from the output shapes",
    .prepare = split_v_prepare,
    .emit = dm_emit_concat_split,
};
