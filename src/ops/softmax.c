/* SOFTMAX over the last dimension: int8 -> int8, int8 -> int16, int16 -> int16, float32. */
#include <math.h>

#include "../ir/quant.h"
#include "op.h"

enum { SOFTMAX_LUT_SIZE = 513 };      /* 512 segments + the end point */
enum { SCALED_DIFF_INTEGER_BITS = 5 }; /* int8 path: differences in Q5.26 */

typedef struct SoftmaxData {
  const char *kernel;
  bool is_float;
  int32_t outer, depth;
  float beta;
  int32_t input_multiplier, input_shift, diff_min;
  int16_t *exp_lut, *recip_lut; /* int16 input only */
} SoftmaxData;

/* int8 input: beta * input_scale as a Q5.26 multiplier (capped below 2^31) and the
 * most negative difference that cannot overflow before the multiplication. */
static bool softmax_int8_scaling(PrepareCtx *pc, const Node *node, double input_scale, SoftmaxData *d) {
  const Tensor *in = node_input(pc->model, node, 0);
  double real = (double)d->beta * input_scale * (double)(1 << (31 - SCALED_DIFF_INTEGER_BITS));
  if (real > (double)(1LL << 31) - 1.0) real = (double)(1LL << 31) - 1.0;
  if (!(real > 1.0)) return op_error(pc, node, "beta * input scale = %g is too small", real);
  /* ta_softmax_s8 shifts the (bounded, see diff_min) difference left by input_shift in
   * 32 bits; the cap above keeps the shift <= 31 */
  const QuantRange range = {0, 31, "int8 softmax's left shift"};
  if (!op_quant_multiplier(pc, node, real, range, &d->input_multiplier, &d->input_shift,
                           "beta x input scale x 2^26 of %g, tensor %d '%s'", (double)d->beta, OP_TENSOR_ARG(in)))
    return false;
  double radius = 1.0 * ((1 << SCALED_DIFF_INTEGER_BITS) - 1) * (double)(1LL << (31 - SCALED_DIFF_INTEGER_BITS)) /
                  (double)(1LL << d->input_shift);
  d->diff_min = (int32_t)(-1.0 * (double)(int32_t)floor(radius));
  return true;
}

static float lut_exp(float x) { return expf(x); }
static float lut_one_over_one_plus_x(float x) { return 1.0f / (1.0f + x); }

/* A 513-entry int16 table of fn on [in_min, in_max] with outputs in [-1, 1]
 * mapped onto the int16 range. Each entry is nudged by half the error of linear
 * interpolation at its segment's midpoint, as TFLite's generator does; the
 * arithmetic stays in float, step by step, to reproduce its tables exactly. */
static void softmax_build_lut(float (*fn)(float), float in_min, float in_max, int16_t *lut) {
  const int steps = SOFTMAX_LUT_SIZE - 1;
  const float step = (in_max - in_min) / (float)steps;
  const float half_step = step / 2.0f;
  const float out_scale = (float)(32767 - (-32768) + 1) / (1.0f - (-1.0f));
  for (int i = 0; i < steps; i++) {
    const float val = fn(in_min + (float)i * step);
    const float val_mid = fn(in_min + (float)i * step + half_step);
    const float val_next = fn(in_min + (float)(i + 1) * step);
    const float sample = roundf(val * out_scale);
    const float mid_interpolated = roundf((val_next * out_scale + roundf(val * out_scale)) / 2.0f);
    const float mid_exact = roundf(val_mid * out_scale);
    const float bias = roundf((mid_interpolated - mid_exact) / 2.0f);
    float v = sample - bias;
    v = v < -32768.0f ? -32768.0f : v > 32767.0f ? 32767.0f : v;
    lut[i] = (int16_t)v;
  }
  float last = roundf(fn(in_max) * out_scale);
  last = last < -32768.0f ? -32768.0f : last > 32767.0f ? 32767.0f : last;
  lut[steps] = (int16_t)last;
}

/* int16 input: differences to the row maximum are rescaled so [-65535, 0] covers
 * [-10, 0], the exp table's domain. */
static bool softmax_int16_tables(PrepareCtx *pc, const Node *node, double input_scale, SoftmaxData *d) {
  const Tensor *in = node_input(pc->model, node, 0);
  /* ta_softmax_s16 rescales the differences with ta_requantize */
  if (!op_quant_multiplier(pc, node, input_scale * (double)d->beta / (10.0 / 65535.0), QUANT_RANGE_INT32,
                           &d->input_multiplier, &d->input_shift,
                           "beta x input scale / (10 / 65535) of %g, tensor %d '%s'", (double)d->beta,
                           OP_TENSOR_ARG(in)))
    return false;
  d->exp_lut = arena_alloc(pc->arena, sizeof(int16_t) * SOFTMAX_LUT_SIZE);
  d->recip_lut = arena_alloc(pc->arena, sizeof(int16_t) * SOFTMAX_LUT_SIZE);
  if (!d->exp_lut || !d->recip_lut) return op_error(pc, node, "out of memory");
  softmax_build_lut(lut_exp, -10.0f, 0.0f, d->exp_lut);
  softmax_build_lut(lut_one_over_one_plus_x, 0.0f, 1.0f, d->recip_lut);
  return true;
}

/* The output quantization TFLM insists on for each integer combination. */
static bool softmax_check_output(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out) {
  const float s = tensor_scale(out);
  const int32_t zp = tensor_zero_point(out);
  bool ok;
  const char *want;
  if (in->type == TT_INT8 && out->type == TT_INT8) {
    ok = zp == -128 && s == 1.0f / 256;
    want = "scale 1/256, zero point -128";
  } else if (in->type == TT_INT8) {
    ok = zp == -32768 && fabsf(s - 1.0f / 65536) <= 0.001f * 1.0f / 65536;
    want = "scale 1/65536, zero point -32768";
  } else {
    ok = zp == 0 && fabsf(s - 1.0f / 32768) <= 0.001f * 1.0f / 32768;
    want = "scale 1/32768, zero point 0";
  }
  if (!ok)
    return op_error(pc, node, "%s has scale %g, zero point %d; expected %s", op_tensor_desc(pc, out), (double)s,
                    (int)zp, want);
  return true;
}

static bool softmax_prepare_quantized(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out,
                                      SoftmaxData *d) {
  bool out_ok = in->type == TT_INT8 ? (out->type == TT_INT8 || out->type == TT_INT16) : out->type == TT_INT16;
  if (!out_ok)
    return op_error(pc, node, "%s has dtype %s; %s input gives %s output", op_tensor_desc(pc, out),
                    tensor_type_name(out->type), tensor_type_name(in->type),
                    in->type == TT_INT8 ? "int8 or int16" : "int16");
  if (!op_expect_quantized(pc, node, in) || !op_expect_quantized(pc, node, out)) return false;
  if (!softmax_check_output(pc, node, in, out)) return false;
  const double input_scale = (double)tensor_scale(in);
  if (in->type == TT_INT16) {
    d->kernel = "ta_softmax_s16";
    return softmax_int16_tables(pc, node, input_scale, d);
  }
  d->kernel = out->type == TT_INT8 ? "ta_softmax_s8" : "ta_softmax_s8_s16";
  return softmax_int8_scaling(pc, node, input_scale, d);
}

static bool softmax_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, OPTS_SOFTMAX)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  SoftmaxData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->beta = node->opts.softmax.beta;
  if (!(d->beta > 0.f) || isinf(d->beta))
    return op_error(pc, node, "beta %g must be positive and finite", (double)d->beta);
  if (in->rank < 1 || !tensor_same_shape(in, out) || in->elems <= 0 || tensor_dim(in, -1) <= 0)
    return op_error(pc, node, "%s %s and %s %s must have the same non-empty shape", op_tensor_desc(pc, in),
                    tensor_shape_str(pc->arena, in), op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out));
  if (in->elems > INT32_MAX)
    return op_error(pc, node, "%s has %lld elements, too many", op_tensor_desc(pc, in), (long long)in->elems);
  d->depth = (int32_t)tensor_dim(in, -1);
  d->outer = (int32_t)(in->elems / d->depth);
  /* the int16 kernel sums depth values of up to 32767 in int32 */
  if (in->type == TT_INT16 && d->depth > 65536)
    return op_error(pc, node, "last dimension %d of %s exceeds 65536", (int)d->depth, op_tensor_desc(pc, in));

  bool ok;
  switch (in->type) {
    case TT_FLOAT32:
      ok = op_expect_type(pc, node, out, TT_FLOAT32);
      d->kernel = "ta_softmax_f32";
      d->is_float = true;
      break;
    case TT_INT8:
    case TT_INT16: ok = softmax_prepare_quantized(pc, node, in, out, d); break;
    default:
      return op_error(pc, node, "%s has dtype %s; supported: int8, int16, float32", op_tensor_desc(pc, in),
                      tensor_type_name(in->type));
  }
  if (!ok) return false;
  node->op_data = d;
  node->kernel = d->kernel;
  node->families[0] = d->is_float ? "softmax_f32" : "softmax";
  node->macs = 0;
  return true;
}

static void softmax_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const SoftmaxData *d = node->op_data;
  const char *name = em_op_name(ec);
  if (d->is_float) {
    em_decl(ec, "static const ta_softmax_f32_params_t %s_params = {\n  .outer = %d, .depth = %d, .beta = %af,\n};",
            name, (int)d->outer, (int)d->depth, (double)d->beta);
  } else {
    const char *exp_lut = d->exp_lut ? em_table_i16(ec, "exp_lut", d->exp_lut, SOFTMAX_LUT_SIZE) : "NULL";
    const char *recip_lut = d->recip_lut ? em_table_i16(ec, "recip_lut", d->recip_lut, SOFTMAX_LUT_SIZE) : "NULL";
    em_decl(ec,
            "static const ta_softmax_params_t %s_params = {\n  .outer = %d, .depth = %d,\n"
            "  .input_multiplier = %d, .input_shift = %d, .diff_min = %d,\n  .exp_lut = %s, .recip_lut = %s,\n};",
            name, (int)d->outer, (int)d->depth, (int)d->input_multiplier, (int)d->input_shift, (int)d->diff_min,
            exp_lut, recip_lut);
  }
  em_call(ec, d->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_softmax = {
    .name = "SOFTMAX",
    .builtin_code = 25,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8 -> int8, int8 -> int16, int16 -> int16, float32",
    .constraints = "last dimension; fixed output quantization (1/256 int8, 1/65536 or 1/32768 int16)",
    .prepare = softmax_prepare,
    .emit = softmax_emit,
};
