/* RELU6: int8 (a clamp to [q(0), q(6)] of the input quantization, tabulated), int16
 * (the same clamp per element) and float32. TFLite does not rescale, so output and input share one quantization. */
#include <math.h>

#include "../ir/quant.h"
#include "elementwise.h"
#include "math_unary.h"
#include "op.h"

/* int8: clamp(x, zero_point, zero_point + round(6 / scale)) with the bound saturated to int8. */
static bool tabulate_int8(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, EwUnary *u) {
  if (!ew_expect_quant(pc, node, in) || !ew_expect_same_quant(pc, node, in, out)) return false;
  const int32_t zero = tensor_zero_point(in);
  double six = round((double)(6.0f / tensor_scale(in))) + zero;
  six = six < -128 ? -128 : six > 127 ? 127 : six;
  for (int b = 0; b < 256; b++) {
    const int32_t x = ew_lut_input(u, b);
    u->table[b] = (int8_t)(x > six ? (int32_t)six : x < zero ? zero : x);
  }
  return true;
}

/* int16: clamp(x, zero_point, zero_point + round(6 / scale)), bound saturated to int16. */
static bool relu6_int16(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out) {
  if (!ew_expect_quant(pc, node, in) || !ew_expect_same_quant(pc, node, in, out)) return false;
  MathS16 *d = mu_s16_new(pc, node, in, "ta_requant_sign_s16");
  if (!d) return false;
  const int32_t zero = tensor_zero_point(in);
  double six = round((double)(6.0f / tensor_scale(in))) + zero;
  six = six < -32768 ? -32768 : six > 32767 ? 32767 : six;
  d->act_min = zero;
  d->act_max = (int32_t)six;
  return true;
}

static bool relu6_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8 && in->type != TT_INT16 && in->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; RELU6 supports int8, int16 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, in->type) || !ew_expect_unary_shape(pc, node, in, out)) return false;
  if (in->type == TT_FLOAT32) return ew_unary_new(pc, node, EW_PLAIN_F32, in, "ta_relu6_f32") != NULL;
  if (in->type == TT_INT16) return relu6_int16(pc, node, in, out);
  EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
  return u && tabulate_int8(pc, node, in, out, u);
}

const OpDef op_relu6 = {
    .name = "RELU6",
    .builtin_code = 21,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "output quantization equal to the input's",
    .prepare = relu6_prepare,
    .emit = mu_unary_emit,
};
