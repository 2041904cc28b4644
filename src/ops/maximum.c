/* MAXIMUM: elementwise max with NumPy broadcasting; int8, int16, int32, int64 and
 * float32. TFLite compares stored values, so quantized inputs and the output must
 * share one quantization. */
#include "binary_ext.h"
#include "elementwise.h"
#include "op.h"

/* int8 through the elementwise family; the other dtypes through ta_binary. */
static bool maximum_prepare(PrepareCtx *pc, Node *node) {
  const TensorType type = node->n_out == 1 ? node_output(pc->model, node, 0)->type : TT_INT8;
  switch (type) {
    case TT_FLOAT32: return bx_prepare_raw(pc, node, "MAXIMUM", OPTS_MAXIMUM_MINIMUM, "ta_maximum_f32");
    case TT_INT16: return bx_prepare_raw(pc, node, "MAXIMUM", OPTS_MAXIMUM_MINIMUM, "ta_maximum_s16");
    case TT_INT32: return bx_prepare_raw(pc, node, "MAXIMUM", OPTS_MAXIMUM_MINIMUM, "ta_maximum_i32");
    case TT_INT64: return bx_prepare_raw(pc, node, "MAXIMUM", OPTS_MAXIMUM_MINIMUM, "ta_maximum_i64");
    case TT_INT8: return ew_raw_compare_prepare(pc, node, "MAXIMUM", OPTS_MAXIMUM_MINIMUM, "ta_maximum_s8");
    default:
      return op_error(pc, node, "output dtype %s; MAXIMUM supports int8, int16, int32, int64 and float32",
                      tensor_type_name(type));
  }
}

const OpDef op_maximum = {
    .name = "MAXIMUM",
    .builtin_code = 55,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, float32",
    .constraints = "compares stored values: int8 / int16 inputs and output share one quantization; NumPy "
                   "broadcasting, at most 6 loops",
    .prepare = maximum_prepare,
    .emit = ew_raw_compare_emit,
};
