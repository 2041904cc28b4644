/* ARG_MAX: index of the first largest value along a constant axis; int8 and float32
 * inputs, int32 output. ARG_MIN (arg_min.c) shares this contract. */
#include "data_movement.h"
#include "reduce_common.h"

static const TensorType arg_max_types[] = {TT_INT8, TT_FLOAT32};

typedef struct ArgMaxPlan {
  int32_t outer, axis_size, inner;
} ArgMaxPlan;

/* Shared by ARG_MAX and ARG_MIN (is_min). */
bool arg_extreme_prepare(PrepareCtx *pc, Node *node, int options, bool is_min) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, options)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, arg_max_types, 2, "") || !dm_expect_dense(pc, node, in, TA_MAX_RANK) ||
      !dm_expect_dense(pc, node, out, TA_MAX_RANK))
    return false;
  if (out->type != TT_INT32)
    return op_error(pc, node, "%s has dtype %s; only int32 indices are supported (as in TFLite Micro)",
                    op_tensor_desc(pc, out), tensor_type_name(out->type));
  int64_t axis_value;
  int n = 0;
  if (!dm_const_ints(pc, node, node_input(pc->model, node, 1), "axis", false, 1, &axis_value, &n)) return false;
  const int axis = n == 1 ? dm_axis(axis_value, in->rank) : -1;
  if (axis < 0) return op_error(pc, node, "axis must be one value in [-%d, %d)", in->rank, in->rank);
  bool ok = out->rank == in->rank - 1;
  for (int d = 0; ok && d < out->rank; d++) ok = out->dims[d] == in->dims[d < axis ? d : d + 1];
  if (!ok)
    return op_error(pc, node, "%s has shape %s, not %s without axis %d", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in), axis);
  ArgMaxPlan *ap = arena_alloc(pc->arena, sizeof *ap);
  if (!ap) return op_error(pc, node, "out of memory");
  ap->outer = 1;
  ap->inner = 1;
  for (int d = 0; d < axis; d++) ap->outer *= in->dims[d];
  for (int d = axis + 1; d < in->rank; d++) ap->inner *= in->dims[d];
  ap->axis_size = in->dims[axis];
  node->op_data = ap;
  node->kernel = in->type == TT_FLOAT32 ? (is_min ? "ta_arg_min_f32_i32" : "ta_arg_max_f32_i32")
                                        : (is_min ? "ta_arg_min_s8_i32" : "ta_arg_max_s8_i32");
  node->families[0] = "reduce";
  return true;
}

static bool arg_max_prepare(PrepareCtx *pc, Node *node) { return arg_extreme_prepare(pc, node, OPTS_ARG_MAX, false); }

void arg_extreme_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const ArgMaxPlan *ap = node->op_data;
  em_decl(ec, "static const ta_arg_max_params_t %s_params = {\n  .outer = %d,\n  .axis_size = %d,\n  .inner = %d,\n};",
          em_op_name(ec), (int)ap->outer, (int)ap->axis_size, (int)ap->inner);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_arg_max = {
    .name = "ARG_MAX",
    .builtin_code = 56,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32 -> int32",
    .constraints = "constant int32 axis",
    .prepare = arg_max_prepare,
    .emit = arg_extreme_emit,
};
