/* CAST: elementwise dtype conversion between bool, uint8, int8, int16, int32, uint32,
 * int64 and float32 (runtime/kernels/ta_cast.h says how each pair converts). Any
 * quantization is ignored: the stored values are converted, as in TensorFlow Lite
 * Micro. */
#include "elementwise.h"
#include "op.h"

/* The kernel-name suffix of a dtype, or NULL when CAST does not handle it. */
static const char *cast_suffix(TensorType t) {
  switch (t) {
    case TT_BOOL: return "b";
    case TT_UINT8: return "u8";
    case TT_INT8: return "s8";
    case TT_INT16: return "s16";
    case TT_INT32: return "s32";
    case TT_UINT32: return "u32";
    case TT_INT64: return "s64";
    case TT_FLOAT32: return "f32";
    default: return NULL;
  }
}

static bool cast_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  const char *from = cast_suffix(in->type), *to = cast_suffix(out->type);
  if (!from || !to)
    return op_error(pc, node, "cannot cast %s to %s; CAST supports bool, uint8, int8, int16, int32, uint32, int64 "
                    "and float32", tensor_type_name(in->type), tensor_type_name(out->type));
  if (in->elems != out->elems || in->elems > INT32_MAX)
    return op_error(pc, node, "%s has %lld elements, the input %lld", op_tensor_desc(pc, out), (long long)out->elems,
                    (long long)in->elems);
  node->kernel = arena_printf(pc->arena, "ta_cast_%s_%s", from, to);
  node->families[0] = "cast";
  return true;
}

static void cast_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *in = node_input(m, node, 0);
  if (in->elems == 0) return;
  em_call(ec, node->kernel, 3, em_int(ec, in->elems), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_cast = {
    .name = "CAST",
    .builtin_code = 53,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "bool, uint8, int8, int16, int32, uint32, int64, float32 (every pair)",
    .constraints = "quantization ignored (stored values converted); narrowing integers wrap; float32 to integer "
                   "truncates, and a value outside int32 (int64 for int64/uint32 outputs) or NaN gives INT32_MIN "
                   "(INT64_MIN) before narrowing, as TFLite Micro's static_cast does on x86",
    .prepare = cast_prepare,
    .emit = cast_emit,
};
