/* SPLIT: cuts its input into equal parts along a constant axis (bytes copied as is). */
#include "data_movement.h"

static const TensorType split_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

/* Each output has the input's rank and dimensions, except along the axis where all
 * outputs share one extent. */
static bool split_check_part(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, int axis) {
  bool ok = out->rank == in->rank && out->dims[axis] == in->dims[axis] / node->n_out;
  for (int d = 0; ok && d < in->rank; d++) ok = d == axis || out->dims[d] == in->dims[d];
  if (!ok || in->dims[axis] % node->n_out != 0)
    return op_error(pc, node, "%s has shape %s, not one of %d equal parts of %s along axis %d",
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out), node->n_out,
                    tensor_shape_str(pc->arena, in), axis);
  return true;
}

/* Inputs: axis, then the tensor to cut. */
static const DmSplitOp split_op = {
    .n_inputs = 2,
    .options = OPTS_SPLIT,
    .data_input = 1,
    .axis_input = 0,
    .types = split_types,
    .n_types = DM_COUNT(split_types),
    .check_part = split_check_part,
};

static bool split_prepare(PrepareCtx *pc, Node *node) { return dm_split_prepare(pc, node, &split_op); }

const OpDef op_split = {
    .name = "SPLIT",
    .builtin_code = 49,
    /* Not DESCRIPTOR_DRIVEN: the run body builds an array of the parts' pointers. */
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "constant axis",
    .prepare = split_prepare,
    .emit = dm_emit_concat_split,
};
