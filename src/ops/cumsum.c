/* CUMSUM: the running sum along one axis (constant), optionally exclusive and/or
 * reversed; float32 and int8. TFLite Micro's int8 sum starts from the rescaled -zero
 * point of the input instead of 0, so a non-zero input zero point shifts every output
 * by it; we compute the same (runtime/kernels/ta_accumulate.h). */
#include "accumulate.h"
#include "data_movement.h"
#include "elementwise.h"
#include "op.h"

typedef struct CumsumData {
  TensorType type;
  int64_t outer, depth, inner;
  bool exclusive, reverse;
  AccumS8 q;
} CumsumData;

static bool cumsum_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, OPTS_CUMSUM)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_FLOAT32 && in->type != TT_INT8)
    return op_error(pc, node, "%s has dtype %s; CUMSUM supports int8 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, in->type) || !ew_expect_unary_shape(pc, node, in, out) ||
      !dm_expect_dense(pc, node, in, TA_MAX_RANK))
    return false;
  if (in->rank < 1) return op_error(pc, node, "%s must have rank >= 1", op_tensor_desc(pc, in));
  int64_t axis_value;
  int n_axis;
  if (!dm_const_ints(pc, node, node_input(pc->model, node, 1), "axis", false, 1, &axis_value, &n_axis)) return false;
  const int axis = n_axis == 1 ? dm_axis(axis_value, in->rank) : -1;
  if (axis < 0) return op_error(pc, node, "axis must be one value in [-%d, %d)", in->rank, in->rank);
  CumsumData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->type = in->type;
  d->outer = d->inner = 1;
  for (int i = 0; i < in->rank; i++) {
    if (i < axis) d->outer *= in->dims[i];
    if (i > axis) d->inner *= in->dims[i];
  }
  d->depth = in->dims[axis];
  d->exclusive = node->opts.cumsum.exclusive;
  d->reverse = node->opts.cumsum.reverse;
  if (in->type == TT_INT8 && !accum_prepare_s8(pc, node, in, out, &d->q)) return false;
  node->op_data = d;
  node->kernel = in->type == TT_INT8 ? "ta_cumsum_s8" : "ta_cumsum_f32";
  node->families[0] = "accumulate";
  node->macs = 0;
  return true;
}

static void cumsum_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const CumsumData *d = node->op_data;
  if (d->outer * d->depth * d->inner == 0) return;
  char q[512] = "{0}";
  if (d->type == TT_INT8) accum_s8_init(q, sizeof q, &d->q);
  em_decl(ec,
          "static const ta_cumsum_params_t %s_params = {\n  .outer = %lld, .depth = %lld, .inner = %lld,\n"
          "  .exclusive = %d, .reverse = %d,\n  .q = %s,\n};",
          em_op_name(ec), (long long)d->outer, (long long)d->depth, (long long)d->inner, d->exclusive, d->reverse, q);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_cumsum = {
    .name = "CUMSUM",
    .builtin_code = 128,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "constant axis; exclusive and reverse; int8 sums start at the rescaled -zero point as in "
                   "TFLite Micro (a non-zero input zero point is counted once more)",
    .prepare = cumsum_prepare,
    .emit = cumsum_emit,
};
