/* LOGISTIC (sigmoid): int8 tabulated from TFLite's gemmlowp fixed-point logistic,
 * int16 by TFLite Micro's sigmoid-table interpolation, float32 with expf. */
#include <math.h>

#include "../resolve/quant.h"
#include "elementwise.h"
#include "fixed_point.h"
#include "op.h"

/* int8: the input is rescaled to Q4.27 (inputs beyond +-radius saturate), the
 * Q0.31 logistic is rounded to 1/256 steps and offset by the output zero point
 * -128. Evaluated here for all 256 input bytes. */
static bool tabulate_int8(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, EwUnary *u) {
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out)) return false;
  if (tensor_zero_point(out) != -128 || tensor_scale(out) != 1.0f / 256.0f)
    return op_error(pc, node, "%s must have scale 1/256 and zero point -128 (TFLite's fixed int8 logistic output)",
                    op_tensor_desc(pc, out));
  int shift;
  const double q = frexp((double)tensor_scale(in) * (double)(1 << 27), &shift);
  const double multiplier = round(q * 2147483648.0);
  if (shift < 0 || multiplier >= 2147483648.0)
    return op_error(pc, node, "%s scale %g is outside the int8 logistic's range", op_tensor_desc(pc, in),
                    tensor_scale(in));
  const int32_t radius = (int32_t)floor(ldexp(15.0, 27 - shift)); /* 15 * 2^27 / 2^shift */
  const int32_t zero_point = tensor_zero_point(in);
  for (int b = 0; b < 256; b++) {
    const int32_t x = ew_lut_input(u, b) - zero_point;
    int32_t y;
    if (x <= -radius) {
      y = -128;
    } else if (x >= radius) {
      y = 127;
    } else {
      const int32_t x_q4 = fx_requantize(x, (int32_t)multiplier, shift);
      y = fx_rdbpot(fx_logistic_q4(x_q4), 23) - 128;
      y = y < -128 ? -128 : y > 127 ? 127 : y;
    }
    u->table[b] = (int8_t)y;
  }
  return true;
}

static bool logistic_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8 && in->type != TT_INT16 && in->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; LOGISTIC supports int8, int16 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, in->type) || !ew_expect_unary_shape(pc, node, in, out)) return false;
  switch (in->type) {
    case TT_INT8: {
      EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
      return u && tabulate_int8(pc, node, in, out, u);
    }
    case TT_INT16: {
      EwUnary *u = ew_unary_new(pc, node, EW_SIGMOID16, in, "ta_logistic_s16");
      return u && ew_sigmoid16_rescale(pc, node, in, out, false, u);
    }
    default:
      return ew_unary_new(pc, node, EW_PLAIN_F32, in, "ta_logistic_f32") != NULL;
  }
}

const OpDef op_logistic = {
    .name = "LOGISTIC",
    .builtin_code = 14,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "int8 output scale 1/256, zero point -128; int16 zero points 0, output scale 2^-15",
    .prepare = logistic_prepare,
    .emit = ew_unary_emit,
};
