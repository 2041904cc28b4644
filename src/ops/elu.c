/* ELU: float32 (x < 0 ? expm1f(x) : x) and int8, tabulated exactly as TFLite Micro
 * fills its table: in float, exp(x) - 1 for x < 0, rounded half away from zero. */
#include <math.h>

#include "math_unary.h"

/* One table entry, each step in single precision as TFLite Micro. */
static int8_t elu_entry(int32_t q, float in_scale, int32_t in_zp, float inverse_out_scale, int32_t out_zp) {
  const float x = in_scale * (float)(q - in_zp);
  const float y = x < 0.0f ? expf(x) - 1.0f : x;
  const float rescaled = roundf(y * inverse_out_scale);
  const int32_t v = (int32_t)(rescaled + (float)out_zp);
  return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

static bool elu_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  if (!mu_expect_unary(pc, node, "ELU", MU_TYPE(TT_INT8) | MU_TYPE(TT_FLOAT32), "int8 and float32", &in, &out))
    return false;
  if (in->type == TT_FLOAT32) return mu_float_map(pc, node, in, "ta_elu_f32");
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out)) return false;
  EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
  if (!u) return false;
  const float inverse_out_scale = 1.0f / tensor_scale(out);
  for (int b = 0; b < 256; b++)
    u->table[b] = elu_entry(ew_lut_input(u, b), tensor_scale(in), tensor_zero_point(in), inverse_out_scale,
                            tensor_zero_point(out));
  return true;
}

const OpDef op_elu = {
    .name = "ELU",
    .builtin_code = 111,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "int8: the table is filled in single precision with expf(x) - 1, as TFLite Micro does "
                   "(float32 uses expm1f)",
    .prepare = elu_prepare,
    .emit = ew_unary_emit,
};
