/* ZEROS_LIKE: a tensor of the input's shape and dtype filled with zero bytes. For a
 * quantized int8 tensor that is the raw value 0, not the zero point, as in
 * TensorFlow Lite Micro. */
#include "fill_common.h"

static bool zeros_like_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (!fill_copyable_type(in->type))
    return op_error(pc, node, "%s has dtype %s; ZEROS_LIKE supports float32, int8, int16, int32, int64, uint8, bool",
                    op_tensor_desc(pc, in), tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, in->type)) return false;
  if (!tensor_same_shape(in, out))
    return op_error(pc, node, "%s has shape %s, expected the input's %s", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in));
  node->kernel = "ta_zero";
  node->families[0] = "fill";
  return true;
}

static void zeros_like_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *out = node_output(m, node, 0);
  if (out->bytes == 0) return;
  em_call(ec, node->kernel, 2, em_int(ec, (int64_t)out->bytes), em_tensor(ec, node->out[0]));
}

const OpDef op_zeros_like = {
    .name = "ZEROS_LIKE",
    .builtin_code = 93,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool",
    .constraints = "int8 output holds the raw value 0, not the zero point (TFLite Micro)",
    .prepare = zeros_like_prepare,
    .emit = zeros_like_emit,
};
