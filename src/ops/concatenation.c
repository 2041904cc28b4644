/* CONCATENATION: joins its inputs along one axis. Values are copied unchanged, as
 * TFLite Micro does for every dtype (its int8 kernel does not requantize inputs whose
 * scale or zero point differ from the output's), so the result is bit-exact with it. */
#include "../ir/quant.h"
#include "data_movement.h"


static const TensorType concatenation_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

/* Every input has the output's rank and dimensions except along the axis. */
static bool check_input_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, int axis) {
  bool ok = in->rank == out->rank;
  for (int d = 0; ok && d < out->rank; d++) ok = d == axis || in->dims[d] == out->dims[d];
  if (!ok)
    return op_error(pc, node, "%s has shape %s, which cannot be joined along axis %d into %s of shape %s",
                    op_tensor_desc(pc, in), tensor_shape_str(pc->arena, in), axis, op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out));
  return true;
}

static bool concatenation_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, IR_MAX_NODE_IO, 1)) return false;
  if (!op_expect_options(pc, node, OPTS_CONCATENATION)) return false;
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, out, concatenation_types, DM_COUNT(concatenation_types), "") ||
      !dm_expect_dense(pc, node, out, TA_MAX_RANK))
    return false;
  if (out->rank < 1) return op_error(pc, node, "%s is a scalar; nothing to concatenate", op_tensor_desc(pc, out));
  int act = node->opts.concatenation.activation;
  if (act != ACT_NONE) return op_error(pc, node, "fused activation %d is not supported (TFLite Micro requires none)", act);
  int axis = dm_axis(node->opts.concatenation.axis, out->rank);
  if (axis < 0)
    return op_error(pc, node, "axis %d is outside the output's rank %d", (int)node->opts.concatenation.axis,
                    out->rank);
  int64_t *axis_dims = arena_calloc(pc->arena, (size_t)node->n_in, sizeof *axis_dims);
  if (!axis_dims) return op_error(pc, node, "out of memory");
  for (int i = 0; i < node->n_in; i++) {
    const Tensor *in = node_input(pc->model, node, i);
    if (!in) return op_error(pc, node, "input %d is missing", i);
    if (!op_expect_type(pc, node, in, out->type) || !dm_expect_dense(pc, node, in, TA_MAX_RANK) ||
        !check_input_shape(pc, node, in, out, axis))
      return false;
    axis_dims[i] = in->dims[axis];
  }
  return dm_plan_concat_split(pc, node, false, out, axis, node->n_in, axis_dims);
}

const OpDef op_concatenation = {
    .name = "CONCATENATION",
    .builtin_code = 2,
    /* Not DESCRIPTOR_DRIVEN: the run body builds an array of the parts' pointers. */
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "no fused activation; values are copied without requantization, as TFLite Micro does",
    .prepare = concatenation_prepare,
    .emit = dm_emit_concat_split,
};
