/* SQUEEZE: drops dimensions of extent 1; the bytes are unchanged. Like RESHAPE, the
 * transform stage aliases the output to the input's storage, so normally no code is
 * emitted; a copy is emitted otherwise. */
#include "data_movement.h"


/* The output's shape must be the input's without the squeezed dimensions: the listed
 * ones (each of extent 1), or every extent-1 dimension when none is listed. */
static bool check_squeezed_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out) {
  bool drop[TA_MAX_RANK] = {false};
  const OptInts dims = node->opts.squeeze.squeeze_dims;
  if (dims.n > 0) {
    for (int32_t i = 0; i < dims.n; i++) {
      int axis = dm_axis(dims.v[i], in->rank);
      if (axis < 0 || in->dims[axis] != 1)
        return op_error(pc, node, "squeeze_dims[%d] = %d is not a dimension of extent 1 of %s (shape %s)", (int)i,
                        (int)dims.v[i], op_tensor_desc(pc, in), tensor_shape_str(pc->arena, in));
      drop[axis] = true;
    }
  } else {
    for (int d = 0; d < in->rank; d++) drop[d] = in->dims[d] == 1;
  }
  int k = 0;
  bool ok = true;
  for (int d = 0; d < in->rank && ok; d++) {
    if (drop[d]) continue;
    ok = k < out->rank && out->dims[k] == in->dims[d];
    k++;
  }
  if (!ok || k != out->rank)
    return op_error(pc, node, "%s has shape %s, not %s squeezed", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in));
  return true;
}

static bool squeeze_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  if (!op_expect_options(pc, node, OPTS_SQUEEZE)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_same_quant(pc, node, in, out)) return false;
  if (in->elems != out->elems)
    return op_error(pc, node, "%s has %lld elements but %s has %lld", op_tensor_desc(pc, in), (long long)in->elems,
                    op_tensor_desc(pc, out), (long long)out->elems);
  if (!check_squeezed_shape(pc, node, in, out)) return false;
  node->kernel = node->is_alias ? "(alias)" : "memcpy";
  return true;
}

static void squeeze_emit(EmitCtx *ec, const Model *m, const Node *node) {
  if (node->is_alias) return;
  const Tensor *in = node_input(m, node, 0);
  em_call(ec, "memcpy", 3, em_tensor(ec, node->out[0]), em_tensor(ec, in->id), em_int(ec, (int64_t)in->bytes));
}

const OpDef op_squeeze = {
    .name = "SQUEEZE",
    .builtin_code = 43,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "any",
    .constraints = "aliased to its input (no copy) unless the input is a model output",
    .prepare = squeeze_prepare,
    .emit = squeeze_emit,
};
