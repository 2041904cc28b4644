/* SPLIT: cuts its input into equal parts along a constant axis (bytes copied as is). */
#include "data_movement.h"

enum { SPLIT_OPTIONS = 35, OPT_NUM_SPLITS = 0 };

static const TensorType split_types[] = {TT_INT8};

/* Each output has the input's rank and dimensions, except along the axis where all
 * outputs share one extent. */
static bool split_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, node->n_out > 0 ? node->n_out : 1)) return false;
  if (!op_expect_options(pc, node, SPLIT_OPTIONS)) return false;
  const Tensor *in = node_input(pc->model, node, 1);
  if (!dm_expect_dtype(pc, node, in, split_types, 1, "") || !dm_expect_dense(pc, node, in, TA_MAX_RANK)) return false;
  int64_t axis_value;
  int n_axis;
  if (!dm_const_ints(pc, node, node_input(pc->model, node, 0), "axis", false, 1, &axis_value, &n_axis)) return false;
  int axis = n_axis == 1 ? dm_axis(axis_value, in->rank) : -1;
  if (axis < 0) return op_error(pc, node, "axis must be one value in [-%d, %d)", in->rank, in->rank);
  int num_splits = fb_i32(&node->options, OPT_NUM_SPLITS, node->n_out);
  if (num_splits != node->n_out)
    return op_error(pc, node, "num_splits is %d but the operator has %d outputs", num_splits, node->n_out);
  int64_t *axis_dims = arena_calloc(pc->arena, (size_t)node->n_out, sizeof *axis_dims);
  if (!axis_dims) return op_error(pc, node, "out of memory");
  for (int i = 0; i < node->n_out; i++) {
    const Tensor *out = node_output(pc->model, node, i);
    bool ok = out->rank == in->rank && out->dims[axis] == in->dims[axis] / node->n_out;
    for (int d = 0; ok && d < in->rank; d++) ok = d == axis || out->dims[d] == in->dims[d];
    if (!ok || in->dims[axis] % node->n_out != 0)
      return op_error(pc, node, "%s has shape %s, not one of %d equal parts of %s along axis %d",
                      op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out), node->n_out,
                      tensor_shape_str(pc->arena, in), axis);
    if (!op_expect_type(pc, node, out, in->type)) return false;
    axis_dims[i] = out->dims[axis];
  }
  return dm_plan_concat_split(pc, node, true, in, axis, node->n_out, axis_dims);
}

const OpDef op_split = {
    .name = "SPLIT",
    .builtin_code = 49,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "constant axis",
    .prepare = split_prepare,
    .emit = dm_emit_concat_split,
};
