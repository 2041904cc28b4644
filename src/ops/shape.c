/* SHAPE: the input's dimensions as an int32 or int64 vector. Shapes are static, so
 * the values are a compile-time table the layer copies into the output. */
#include "fill_common.h"

static bool shape_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (out->type != TT_INT32 && out->type != TT_INT64)
    return op_error(pc, node, "%s has dtype %s; SHAPE writes int32 or int64", op_tensor_desc(pc, out),
                    tensor_type_name(out->type));
  if (out->elems != in->rank)
    return op_error(pc, node, "%s has %lld elements for an input of rank %d", op_tensor_desc(pc, out),
                    (long long)out->elems, in->rank);
  node->kernel = "ta_copy";
  node->families[0] = "fill";
  return true;
}

static void shape_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *in = node_input(m, node, 0), *out = node_output(m, node, 0);
  if (in->rank == 0) return;
  const char *table;
  if (out->type == TT_INT32) {
    table = em_table_i32(ec, "shape", in->dims, (size_t)in->rank);
  } else {
    int64_t dims[TA_MAX_RANK];
    for (int k = 0; k < in->rank; k++) dims[k] = in->dims[k];
    table = em_table_i64(ec, "shape", dims, (size_t)in->rank);
  }
  em_call(ec, node->kernel, 3, em_int(ec, (int64_t)out->bytes), table, em_tensor(ec, node->out[0]));
}

const OpDef op_shape = {
    .name = "SHAPE",
    .builtin_code = 77,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "any input; output int32, int64",
    .constraints = "the shape is a compile-time table copied into the output",
    .prepare = shape_prepare,
    .emit = shape_emit,
};
