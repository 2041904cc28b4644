/* SPLIT_V: cuts its input along a constant axis into parts of the outputs' sizes
 * (the size_splits input, -1 entry included, is already reflected in their shapes). */
#include "data_movement.h"

static const TensorType split_v_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

/* Each output has the input's rank and dimensions except along the axis, where it
 * takes at least one slice; dm_plan_concat_split checks that the parts add up. */
static bool split_v_check_part(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, int axis) {
  bool ok = out->rank == in->rank;
  for (int d = 0; ok && d < in->rank; d++) ok = d == axis ? out->dims[d] >= 1 : out->dims[d] == in->dims[d];
  if (!ok)
    return op_error(pc, node, "%s has shape %s, not a part of %s along axis %d", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in), axis);
  return true;
}

/* Inputs: the tensor to cut, size_splits, axis. */
static const DmSplitOp split_v_op = {
    .n_inputs = 3,
    .options = OPTS_SPLIT_V,
    .data_input = 0,
    .axis_input = 2,
    .types = split_v_types,
    .n_types = DM_COUNT(split_v_types),
    .check_part = split_v_check_part,
};

static bool split_v_prepare(PrepareCtx *pc, Node *node) { return dm_split_prepare(pc, node, &split_v_op); }

const OpDef op_split_v = {
    .name = "SPLIT_V",
    .builtin_code = 102,
    /* Not DESCRIPTOR_DRIVEN: the run body builds an array of the parts' pointers. */
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "constant axis; part sizes taken from the output shapes",
    .prepare = split_v_prepare,
    .emit = dm_emit_concat_split,
};
