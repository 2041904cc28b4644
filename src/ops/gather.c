/* GATHER: picks slices of the input along one axis by int32 index (batch_dims
 * supported). Constant indices are range-checked here; runtime indices are checked
 * by the kernel, which zero-fills a slice whose index is out of range (TFLite Micro
 * fails the inference instead; the generated layer has no error path). */
#include "../ir/quant.h"
#include "data_movement.h"


static const TensorType gather_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

typedef struct GatherPlan {
  int32_t batch, outer, axis_size, coords, inner_bytes;
} GatherPlan;

static int64_t product(const int32_t *dims, int from, int to) {
  int64_t p = 1;
  for (int i = from; i < to; i++) p *= dims[i];
  return p;
}

/* Output shape: input[:axis] + indices[batch_dims:] + input[axis+1:]. */
static bool check_output_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *idx,
                               const Tensor *out, int axis, int batch_dims) {
  int64_t want[2 * TA_MAX_RANK];
  int n = 0;
  for (int i = 0; i < axis; i++) want[n++] = in->dims[i];
  for (int i = batch_dims; i < idx->rank; i++) want[n++] = idx->dims[i];
  for (int i = axis + 1; i < in->rank; i++) want[n++] = in->dims[i];
  bool same = n == out->rank;
  for (int i = 0; same && i < n; i++) same = want[i] == out->dims[i];
  if (!same)
    return op_error(pc, node, "%s has shape %s, expected %s", op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out),
                    dm_list_str(pc->arena, want, n));
  return true;
}

static bool check_constant_indices(PrepareCtx *pc, const Node *node, const Tensor *idx, int32_t axis_size) {
  if (!tensor_is_const(idx)) return true;
  for (int64_t i = 0; i < idx->elems; i++) {
    const int32_t v = const_i32(idx, i);
    if (v < 0 || v >= axis_size)
      return op_error(pc, node, "index %d (element %lld of %s) is outside [0, %d)", (int)v, (long long)i,
                      op_tensor_desc(pc, idx), (int)axis_size);
  }
  return true;
}

static bool gather_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, OPTS_GATHER)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *idx = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, gather_types, DM_COUNT(gather_types), "") || !op_expect_type(pc, node, out, in->type) ||
      !op_expect_type(pc, node, idx, TT_INT32) || !dm_expect_dense(pc, node, in, TA_MAX_RANK) ||
      !dm_expect_dense(pc, node, idx, TA_MAX_RANK) || !dm_expect_dense(pc, node, out, TA_MAX_RANK))
    return false;
  const int32_t axis_opt = node->opts.gather.axis, batch_opt = node->opts.gather.batch_dims;
  const int axis = dm_axis(axis_opt, in->rank);
  const int batch_dims = batch_opt < 0 ? batch_opt + idx->rank : batch_opt;
  if (axis < 0) return op_error(pc, node, "axis %d is outside the input's rank %d", (int)axis_opt, in->rank);
  if (batch_dims < 0 || batch_dims > axis || batch_dims > idx->rank)
    return op_error(pc, node, "batch_dims %d must lie in [0, min(axis %d, indices rank %d)]", (int)batch_opt, axis,
                    idx->rank);
  for (int i = 0; i < batch_dims; i++)
    if (in->dims[i] != idx->dims[i])
      return op_error(pc, node, "batch dimension %d differs between the input and the indices", i);
  if (!check_output_shape(pc, node, in, idx, out, axis, batch_dims) ||
      !check_constant_indices(pc, node, idx, in->dims[axis]))
    return false;
  GatherPlan *gp = arena_alloc(pc->arena, sizeof *gp);
  if (!gp) return op_error(pc, node, "out of memory");
  gp->batch = (int32_t)product(in->dims, 0, batch_dims);
  gp->outer = (int32_t)product(in->dims, batch_dims, axis);
  gp->axis_size = in->dims[axis];
  gp->coords = (int32_t)product(idx->dims, batch_dims, idx->rank);
  gp->inner_bytes = (int32_t)(product(in->dims, axis + 1, in->rank) * (int64_t)tensor_type_size(in->type));
  node->op_data = gp;
  node->kernel = "ta_gather";
  node->families[0] = "gather";
  return true;
}

static void gather_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const GatherPlan *gp = node->op_data;
  em_decl(ec,
          "static const ta_gather_params_t %s_params = {\n  .batch = %d,\n  .outer = %d,\n  .axis_size = %d,\n"
          "  .coords = %d,\n  .inner_bytes = %d,\n};",
          em_op_name(ec), (int)gp->batch, (int)gp->outer, (int)gp->axis_size, (int)gp->coords, (int)gp->inner_bytes);
  em_call(ec, "ta_gather", 4, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->in[1]),
          em_tensor(ec, node->out[0]));
}

const OpDef op_gather = {
    .name = "GATHER",
    .builtin_code = 36,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32 (int32 indices)",
    .constraints = "runtime indices out of range give a zero slice (TFLite Micro fails the inference)",
    .prepare = gather_prepare,
    .emit = gather_emit,
};
