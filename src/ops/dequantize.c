/* DEQUANTIZE: int8 / int16 / uint8 -> float32, scale * (x - zero_point). */
#include "../ir/quant.h"
#include "elementwise.h"
#include "op.h"

typedef struct DequantizeData {
  int64_t size;
  float scale;
  int32_t zero_point;
} DequantizeData;

static bool dequantize_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, OPTS_DEQUANTIZE)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8 && in->type != TT_INT16 && in->type != TT_UINT8)
    return op_error(pc, node, "%s has dtype %s; DEQUANTIZE supports int8, int16 and uint8 inputs",
                    op_tensor_desc(pc, in), tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, TT_FLOAT32) || !ew_expect_unary_shape(pc, node, in, out) ||
      !ew_expect_quant(pc, node, in))
    return false;
  DequantizeData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->size = in->elems;
  d->scale = tensor_scale(in);
  d->zero_point = tensor_zero_point(in);
  node->op_data = d;
  node->kernel = in->type == TT_INT8 ? "ta_dequantize_s8_f32"
                 : in->type == TT_INT16 ? "ta_dequantize_s16_f32"
                                        : "ta_dequantize_u8_f32";
  node->families[0] = "quantize";
  node->macs = 0;
  return true;
}

static void dequantize_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const DequantizeData *d = node->op_data;
  (void)m;
  if (d->size == 0) return;
  char scale[32];
  ew_float_literal(scale, sizeof scale, d->scale);
  em_decl(ec, "static const ta_affine_params_t %s_params = {.size = %lld, .scale = %s, .zero_point = %d};",
          em_op_name(ec), (long long)d->size, scale, d->zero_point);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_dequantize = {
    .name = "DEQUANTIZE",
    .builtin_code = 6,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, uint8 -> float32",
    .constraints = "per-tensor quantization",
    .prepare = dequantize_prepare,
    .emit = dequantize_emit,
};
