/* PACK: stacks equally shaped inputs along a new axis (bytes copied as is). */
#include "data_movement.h"


static const TensorType pack_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

static bool pack_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, IR_MAX_NODE_IO, 1)) return false;
  if (!op_expect_options(pc, node, OPTS_PACK)) return false;
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, out, pack_types, DM_COUNT(pack_types), "") ||
      !dm_expect_dense(pc, node, out, TA_MAX_RANK))
    return false;
  /* 0 is the schema default, i.e. the field absent: the operator's input count. */
  int values = node->opts.pack.values_count ? node->opts.pack.values_count : node->n_in;
  if (values != node->n_in)
    return op_error(pc, node, "values_count is %d but the operator has %d inputs", values, node->n_in);
  int axis = dm_axis(node->opts.pack.axis, out->rank);
  if (axis < 0 || out->dims[axis] != node->n_in)
    return op_error(pc, node, "axis %d of %s (shape %s) must exist and have extent %d",
                    (int)node->opts.pack.axis, op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), node->n_in);
  int64_t *axis_dims = arena_calloc(pc->arena, (size_t)node->n_in, sizeof *axis_dims);
  if (!axis_dims) return op_error(pc, node, "out of memory");
  for (int i = 0; i < node->n_in; i++) {
    const Tensor *in = node_input(pc->model, node, i);
    if (!in) return op_error(pc, node, "input %d is missing", i);
    /* The input's shape is the output's without the packed axis. */
    bool ok = in->rank == out->rank - 1;
    for (int d = 0; ok && d < in->rank; d++) ok = in->dims[d] == out->dims[d < axis ? d : d + 1];
    if (!ok)
      return op_error(pc, node, "%s has shape %s; packing it along axis %d cannot give %s", op_tensor_desc(pc, in),
                      tensor_shape_str(pc->arena, in), axis, tensor_shape_str(pc->arena, out));
    if (!op_expect_type(pc, node, in, out->type)) return false;
    axis_dims[i] = 1;
  }
  return dm_plan_concat_split(pc, node, false, out, axis, node->n_in, axis_dims);
}

const OpDef op_pack = {
    .name = "PACK",
    .builtin_code = 83,
    /* Not DESCRIPTOR_DRIVEN: the run body builds an array of the parts' pointers. */
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "",
    .prepare = pack_prepare,
    .emit = dm_emit_concat_split,
};
