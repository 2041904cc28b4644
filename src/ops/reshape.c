/* RESHAPE: same bytes, new shape. The transform stage aliases the output to the
 * input's storage, so normally no code is emitted; a copy is emitted otherwise. */
#include "../ir/quant.h"
#include "op.h"

static bool reshape_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 2, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!op_expect_type(pc, node, out, in->type)) return false;
  if (in->elems != out->elems)
    return op_error(pc, node, "%s has %lld elements but %s has %lld", op_tensor_desc(pc, in), (long long)in->elems,
                    op_tensor_desc(pc, out), (long long)out->elems);
  if (in->n_quant && out->n_quant &&
      (tensor_scale(in) != tensor_scale(out) || tensor_zero_point(in) != tensor_zero_point(out)))
    return op_error(pc, node, "input and output quantization differ");
  node->kernel = node->is_alias ? "(alias)" : "memcpy";
  return true;
}

static void reshape_emit(EmitCtx *ec, const Model *m, const Node *node) {
  if (node->is_alias) return;
  const Tensor *in = node_input(m, node, 0);
  em_call(ec, "memcpy", 3, em_tensor(ec, node->out[0]), em_tensor(ec, in->id), em_int(ec, (int64_t)in->bytes));
}

const OpDef op_reshape = {
    .name = "RESHAPE",
    .builtin_code = 22,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "any",
    .constraints = "aliased to its input (no copy) unless the input is a model output",
    .prepare = reshape_prepare,
    .emit = reshape_emit,
};
