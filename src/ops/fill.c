/* FILL: a tensor of the output's (static) shape whose every element is the scalar
 * value input. The value's bytes are copied: a quantized value must share the
 * output's quantization. */
#include "elementwise.h"
#include "fill_common.h"

static bool fill_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *dims = node_input(pc->model, node, 0), *value = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (dims->type != TT_INT32 && dims->type != TT_INT64)
    return op_error(pc, node, "%s (the dimensions) has dtype %s; FILL takes int32 or int64", op_tensor_desc(pc, dims),
                    tensor_type_name(dims->type));
  if (dims->elems != out->rank)
    return op_error(pc, node, "%s holds %lld dimensions for an output of rank %d", op_tensor_desc(pc, dims),
                    (long long)dims->elems, out->rank);
  if (tensor_is_const(dims))
    for (int k = 0; k < out->rank; k++) {
      const int64_t d = dims->type == TT_INT32 ? const_i32(dims, k) : const_i64(dims, k);
      if (d != out->dims[k])
        return op_error(pc, node, "%s asks for extent %lld in dimension %d, the output has %d",
                        op_tensor_desc(pc, dims), (long long)d, k, (int)out->dims[k]);
    }
  if (!fill_copyable_type(value->type))
    return op_error(pc, node, "%s has dtype %s; FILL supports float32, int8, int16, int32, int64, uint8, bool",
                    op_tensor_desc(pc, value), tensor_type_name(value->type));
  if (!op_expect_type(pc, node, out, value->type)) return false;
  if (value->elems != 1)
    return op_error(pc, node, "%s (the value) has %lld elements, expected a scalar", op_tensor_desc(pc, value),
                    (long long)value->elems);
  if (value->n_quant > 0 && !ew_expect_same_quant(pc, node, value, out)) return false;
  node->kernel = "ta_fill";
  node->families[0] = "fill";
  return true;
}

static void fill_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *out = node_output(m, node, 0);
  if (out->elems == 0) return;
  em_call(ec, node->kernel, 4, em_int(ec, out->elems), em_int(ec, (int64_t)tensor_type_size(out->type)),
          em_tensor(ec, node->in[1]), em_tensor(ec, node->out[0]));
}

const OpDef op_fill = {
    .name = "FILL",
    .builtin_code = 94,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool",
    .constraints = "output shape static (a constant dimensions input must match it); a quantized value shares the "
                   "output's quantization (copied, not rescaled)",
    .prepare = fill_prepare,
    .emit = fill_emit,
};
