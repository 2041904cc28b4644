/* HARD_SWISH: x * relu6(x + 3) / 6, int8, tabulated from TFLite's int16
 * fixed-point evaluation (a "relu-ish" factor in [0, 1] times the input), and
 * float32 (ta_math_f32). */
#include "../ir/quant.h"
#include "elementwise.h"
#include "fixed_point.h"
#include "math_unary.h"
#include "op.h"

typedef struct HardSwishParams {
  int32_t in_zero_point, out_zero_point;
  int16_t out_multiplier, relu_multiplier; /* Q0.15 */
  int out_exponent, relu_exponent;         /* out_exponent <= 0 */
} HardSwishParams;

/* Multipliers derived in float, widened to double, then cut to int16. */
static bool hard_swish_params(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, HardSwishParams *p) {
  const float hires_scale = (1.0f / 128.0f) * tensor_scale(in);
  const float relu_scale = 3.0f / 32768.0f; /* 3.0 maps to 32768 */
  const float out_factor = hires_scale / tensor_scale(out), relu_factor = hires_scale / relu_scale;
  int32_t q, e;
  /* TFLite requires the output factor below 1 (exponent <= 0: a rounding right shift) */
  if (!op_quant_multiplier(pc, node, (double)out_factor, QUANT_RANGE_BELOW_ONE, &q, &e,
                           "input / 128 / output scale of tensor %d '%s', tensor %d '%s'", OP_TENSOR_ARG(in),
                           OP_TENSOR_ARG(out)))
    return false;
  p->out_multiplier = fx_downscale_multiplier16(q);
  p->out_exponent = e;
  /* exponents > 0 become a saturating int16 left shift, like TFLite's int32 left shift */
  if (!op_quant_multiplier(pc, node, (double)relu_factor, QUANT_RANGE_INT32, &q, &e,
                           "input / 128 / (3 / 32768) scale of tensor %d '%s'", OP_TENSOR_ARG(in)))
    return false;
  p->relu_multiplier = fx_downscale_multiplier16(q);
  p->relu_exponent = e;
  p->in_zero_point = tensor_zero_point(in);
  p->out_zero_point = tensor_zero_point(out);
  return true;
}

/* One element, step by step as TFLite's reference HardSwish (all int16). */
static int32_t hard_swish_one(const HardSwishParams *p, int32_t x) {
  const int16_t input = fx_wrap16(x - p->in_zero_point);
  const int16_t hires = fx_wrap16(input * (1 << 7));
  const int16_t preshift_out = fx_srdhm16(hires, p->out_multiplier);
  int16_t relu = hires;
  if (p->relu_exponent > 0) relu = fx_sat_lshift16(relu, p->relu_exponent - 1);
  relu = fx_srdhm16(relu, p->relu_multiplier);
  if (p->relu_exponent > 0) relu = fx_sat_lshift16(relu, 1);
  if (p->relu_exponent < 0) relu = fx_rdbpot16(relu, -p->relu_exponent);
  relu = fx_wrap16((relu + (1 << 15)) >> 1); /* [-1, 1] -> [0, 1] */
  const int16_t preshift = fx_sdhm16(relu, preshift_out);
  int16_t y = fx_rdbpot16(preshift, -p->out_exponent);
  y = fx_wrap16(y + p->out_zero_point);
  return y < -128 ? -128 : y > 127 ? 127 : y;
}

static bool hard_swish_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, OPTS_HARD_SWISH)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8 && in->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; HARD_SWISH supports int8 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (in->type == TT_FLOAT32)
    return op_expect_type(pc, node, out, TT_FLOAT32) && ew_expect_unary_shape(pc, node, in, out) &&
           mu_float_map(pc, node, in, "ta_hard_swish_f32");
  if (!op_expect_type(pc, node, out, TT_INT8) || !ew_expect_unary_shape(pc, node, in, out) ||
      !ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out))
    return false;
  HardSwishParams p = {0};
  if (!hard_swish_params(pc, node, in, out, &p)) return false;
  EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
  if (!u) return false;
  for (int b = 0; b < 256; b++) u->table[b] = (int8_t)hard_swish_one(&p, ew_lut_input(u, b));
  return true;
}

const OpDef op_hard_swish = {
    .name = "HARD_SWISH",
    .builtin_code = 117,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "int8: output scale >= input scale / 128",
    .prepare = hard_swish_prepare,
    .emit = ew_unary_emit,
};
