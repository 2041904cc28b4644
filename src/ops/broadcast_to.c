/* BROADCAST_TO: the input repeated to the output's (static) shape, NumPy rules. The
 * shape input, when constant, must name the output's shape. Values are copied as
 * they are: a quantized input shares the output's quantization. */
#include <stdio.h>

#include "broadcast_walk.h"
#include "elementwise.h"
#include "fill_common.h"

enum { BROADCAST_MAX_LOOPS = 8 }; /* = TA_BROADCAST_MAX_RANK */

static bool broadcast_to_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *shape = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!fill_copyable_type(in->type))
    return op_error(pc, node, "%s has dtype %s; BROADCAST_TO supports float32, int8, int16, int32, int64, uint8, bool",
                    op_tensor_desc(pc, in), tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, in->type)) return false;
  if (in->n_quant > 0 && !ew_expect_same_quant(pc, node, in, out)) return false;
  if (shape->type != TT_INT32 && shape->type != TT_INT64)
    return op_error(pc, node, "%s (the shape) has dtype %s; BROADCAST_TO takes int32 or int64",
                    op_tensor_desc(pc, shape), tensor_type_name(shape->type));
  if (shape->elems != out->rank)
    return op_error(pc, node, "%s holds %lld extents for an output of rank %d", op_tensor_desc(pc, shape),
                    (long long)shape->elems, out->rank);
  if (tensor_is_const(shape))
    for (int k = 0; k < out->rank; k++) {
      const int64_t d = shape->type == TT_INT32 ? const_i32(shape, k) : const_i64(shape, k);
      if (d != out->dims[k])
        return op_error(pc, node, "%s asks for extent %lld in dimension %d, the output has %d",
                        op_tensor_desc(pc, shape), (long long)d, k, (int)out->dims[k]);
    }
  BcWalk *w = arena_calloc(pc->arena, 1, sizeof *w);
  if (!w) return op_error(pc, node, "out of memory");
  const Tensor *ins[1] = {in};
  if (!bw_build(pc, node, out, 1, ins, BROADCAST_MAX_LOOPS, w)) return false;
  node->op_data = w;
  node->kernel = "ta_broadcast_to";
  node->families[0] = "fill";
  return true;
}

static void broadcast_to_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const BcWalk *w = node->op_data;
  const Tensor *out = node_output(m, node, 0);
  if (out->elems == 0) return;
  char dims[160], stride[160];
  bw_list(dims, sizeof dims, w->dims, w->rank);
  bw_list(stride, sizeof stride, w->stride[0], w->rank);
  em_decl(ec, "static const ta_broadcast_params_t %s_params = {.rank = %d, .elem_size = %d, .dims = %s, .stride = %s};",
          em_op_name(ec), w->rank, (int)tensor_type_size(out->type), dims, stride);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_broadcast_to = {
    .name = "BROADCAST_TO",
    .builtin_code = 130,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool",
    .constraints = "output shape static (a constant shape input must match it); a quantized input shares the "
                   "output's quantization",
    .prepare = broadcast_to_prepare,
    .emit = broadcast_to_emit,
};
