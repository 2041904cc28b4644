/* BROADCAST_ARGS: the NumPy broadcast of two shape vectors (int32 or int64), computed
 * at run time because either shape may be an activation (SHAPE's output). */
#include "fill_common.h"

static bool broadcast_args_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (out->type != TT_INT32 && out->type != TT_INT64)
    return op_error(pc, node, "%s has dtype %s; BROADCAST_ARGS supports int32 and int64", op_tensor_desc(pc, out),
                    tensor_type_name(out->type));
  if (!op_expect_type(pc, node, a, out->type) || !op_expect_type(pc, node, b, out->type)) return false;
  if (a->rank != 1 || b->rank != 1 || out->rank != 1)
    return op_error(pc, node, "shapes must be vectors: inputs %s and %s, output %s", tensor_shape_str(pc->arena, a),
                    tensor_shape_str(pc->arena, b), tensor_shape_str(pc->arena, out));
  const int64_t longest = a->elems > b->elems ? a->elems : b->elems;
  if (out->elems != longest)
    return op_error(pc, node, "%s has %lld elements, expected %lld (the longer shape)", op_tensor_desc(pc, out),
                    (long long)out->elems, (long long)longest);
  node->kernel = out->type == TT_INT32 ? "ta_broadcast_args_i32" : "ta_broadcast_args_i64";
  node->families[0] = "fill";
  return true;
}

static void broadcast_args_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *a = node_input(m, node, 0), *b = node_input(m, node, 1), *out = node_output(m, node, 0);
  if (out->elems == 0) return;
  em_call(ec, node->kernel, 6, em_int(ec, a->elems), em_tensor(ec, node->in[0]), em_int(ec, b->elems),
          em_tensor(ec, node->in[1]), em_int(ec, out->elems), em_tensor(ec, node->out[0]));
}

const OpDef op_broadcast_args = {
    .name = "BROADCAST_ARGS",
    .builtin_code = 145,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int32, int64",
    .constraints = "shapes that do not broadcast (TFLite Micro fails at run time) give the first shape's extent",
    .prepare = broadcast_args_prepare,
    .emit = broadcast_args_emit,
};
