/* FULLY_CONNECTED: y = act(W x + b) per batch row, int8, int16x8 and float32. */
#include <float.h>
#include <math.h>

#include "../ir/quant.h"
#include "op.h"
#include "tiers/gemm_s16_dsp.h"
#include "tiers/gemm_s16_mve.h"
#include "tiers/gemm_tier.h"


typedef enum FcKernel {
  FC_S8,        /* int8 in/out, int32 bias */
  FC_S16,       /* int16 in/out, int64 bias or none, int64 accumulator */
  FC_S16_ACC32, /* int16 in/out, int32 bias: TFLM accumulates in int32 */
  FC_F32,
} FcKernel;

typedef struct FcData {
  FcKernel kernel;
  int32_t batches, units, depth;
  int32_t input_offset, output_offset;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
  int32_t multiplier, shift;      /* per-tensor weights */
  int32_t *multipliers, *shifts;  /* per-channel weights, else NULL */
  int32_t *folded_bias;           /* int8 with constant weights: bias - in_zp * sum(w), else NULL */
  GemmPlan *gemm;                 /* int8 on a DSP / MVE target: the optimised kernel, else NULL */
  GemmS16Plan *gemm16;            /* int16x8 (int64 bias) on Cortex-M4: ta_gemm_s16_dsp, else NULL */
  GemmS16MvePlan *gemm16m;        /* int16x8 (int64 bias) on Cortex-M55: ta_gemm_s16_mve, else NULL */
} FcData;

static const char *fc_kernel_name(FcKernel k) {
  switch (k) {
    case FC_S8: return "ta_fully_connected_s8";
    case FC_S16: return "ta_fully_connected_s16";
    case FC_S16_ACC32: return "ta_fully_connected_s16_acc32";
    case FC_F32: return "ta_fully_connected_f32";
  }
  return "?";
}

/* Shapes: weights [units, depth]; output [..., units]; the input holds
 * batches * depth elements whatever its rank (TFLite flattens it). */
static bool fc_check_shapes(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *w, const Tensor *bias,
                            const Tensor *out, FcData *d) {
  if (w->rank != 2 || w->dims[0] <= 0 || w->dims[1] <= 0)
    return op_error(pc, node, "%s must be 2-D [units, depth] with positive dims, has shape %s", op_tensor_desc(pc, w),
                    tensor_shape_str(pc->arena, w));
  d->units = w->dims[0];
  d->depth = w->dims[1];
  if (out->rank < 1 || tensor_dim(out, -1) != d->units || out->elems <= 0)
    return op_error(pc, node, "%s has shape %s; its last dimension must be the %d units of %s", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), (int)d->units, op_tensor_desc(pc, w));
  int64_t batches = out->elems / d->units;
  if (batches > INT32_MAX || in->elems != batches * (int64_t)d->depth)
    return op_error(pc, node, "%s has %lld elements, expected %lld batches x depth %d (output %s)",
                    op_tensor_desc(pc, in), (long long)in->elems, (long long)batches, (int)d->depth,
                    tensor_shape_str(pc->arena, out));
  d->batches = (int32_t)batches;
  if (bias && bias->elems != d->units)
    return op_error(pc, node, "%s has %lld elements, expected %d (one per unit)", op_tensor_desc(pc, bias),
                    (long long)bias->elems, (int)d->units);
  return true;
}

/* Float clamp bounds as TFLite's CalculateActivationRange gives them (finite). */
static bool fc_prepare_f32(PrepareCtx *pc, const Node *node, const Tensor *w, const Tensor *bias, const Tensor *out,
                           int act, FcData *d) {
  if (!op_expect_type(pc, node, w, TT_FLOAT32) || !op_expect_type(pc, node, out, TT_FLOAT32)) return false;
  if (bias && !op_expect_type(pc, node, bias, TT_FLOAT32)) return false;
  if (!quant_activation_range_f32(act, &d->act_min_f, &d->act_max_f))
    return op_error(pc, node, "fused activation %d is not supported", act);
  if (isinf(d->act_min_f)) d->act_min_f = -FLT_MAX;
  if (isinf(d->act_max_f)) d->act_max_f = FLT_MAX;
  d->kernel = FC_F32;
  return true;
}

/* Requantisation multipliers, input_scale * weight_scale / output_scale, as TFLM
 * derives them: per-tensor weights multiply the two scales in float, per-channel
 * weights in double (GetQuantizedConvolutionMultipler vs. the per-channel loop). */
static bool fc_prepare_multipliers(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *w,
                                   const Tensor *out, FcData *d) {
  for (int i = 0; i < w->n_quant; i++)
    if (!(w->scale[i] > 0.f) || w->zero_point[i] != 0)
      return op_error(pc, node, "%s must be symmetric (zero point 0) with positive scales; channel %d has scale %g, "
                      "zero point %lld", op_tensor_desc(pc, w), i, (double)w->scale[i], (long long)w->zero_point[i]);
  const double in_scale = (double)tensor_scale(in);
  const double out_scale = (double)tensor_scale(out);
  /* ta_fully_connected_s16 requantises its int64 accumulator with ta_requantize64 */
  const QuantRange range = d->kernel == FC_S16 ? QUANT_RANGE_INT64 : QUANT_RANGE_INT32;
  if (w->n_quant == 1) {
    const float product = tensor_scale(in) * w->scale[0];
    return op_quant_multiplier(pc, node, (double)product / out_scale, range, &d->multiplier, &d->shift,
                               "input x weights / output scale of tensor %d '%s', tensor %d '%s', tensor %d '%s'",
                               OP_TENSOR_ARG(in), OP_TENSOR_ARG(w), OP_TENSOR_ARG(out));
  }
  if (w->n_quant != d->units || w->quant_dim != 0)
    return op_error(pc, node, "%s has %d scales on dimension %d; per-channel weights need one per unit (%d) on "
                    "dimension 0", op_tensor_desc(pc, w), w->n_quant, (int)w->quant_dim, (int)d->units);
  d->multipliers = arena_alloc(pc->arena, sizeof(int32_t) * (size_t)d->units);
  d->shifts = arena_alloc(pc->arena, sizeof(int32_t) * (size_t)d->units);
  if (!d->multipliers || !d->shifts) return op_error(pc, node, "out of memory");
  for (int32_t c = 0; c < d->units; c++)
    if (!op_quant_multiplier(pc, node, in_scale * (double)w->scale[c] / out_scale, range, &d->multipliers[c],
                             &d->shifts[c],
                             "input x weights / output scale of tensor %d '%s', tensor %d '%s' (unit %d), "
                             "tensor %d '%s'", OP_TENSOR_ARG(in), OP_TENSOR_ARG(w), (int)c, OP_TENSOR_ARG(out)))
      return false;
  return true;
}

/* int8 with constant weights: fold -input_zp * sum(w[c]) into the bias so the
 * inner loop is a plain dot product. int32 addition wraps the same either way. */
static bool fc_fold_bias(PrepareCtx *pc, const Node *node, const Tensor *w, const Tensor *bias, FcData *d) {
  if (!tensor_is_const(w) || (bias && !tensor_is_const(bias))) return true;
  d->folded_bias = arena_alloc(pc->arena, sizeof(int32_t) * (size_t)d->units);
  if (!d->folded_bias) return op_error(pc, node, "out of memory");
  const int8_t *wv = (const int8_t *)w->data;
  for (int32_t c = 0; c < d->units; c++) {
    int64_t sum_w = 0;
    for (int32_t k = 0; k < d->depth; k++) sum_w += wv[(int64_t)c * d->depth + k];
    int64_t b = bias ? const_i32(bias, c) : 0;
    d->folded_bias[c] = (int32_t)(uint32_t)(uint64_t)(b + (int64_t)d->input_offset * sum_w);
  }
  d->input_offset = 0;
  return true;
}

static bool fc_prepare_quantized(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *w,
                                 const Tensor *bias, const Tensor *out, int act, FcData *d) {
  if (!op_expect_type(pc, node, w, TT_INT8) || !op_expect_type(pc, node, out, in->type)) return false;
  if (!op_expect_quantized(pc, node, in) || !op_expect_quantized(pc, node, out) || !op_expect_quantized(pc, node, w))
    return false;
  if (in->type == TT_INT8) {
    if (bias && !op_expect_type(pc, node, bias, TT_INT32)) return false;
    d->kernel = FC_S8;
  } else {
    if (tensor_zero_point(in) != 0 || tensor_zero_point(out) != 0)
      return op_error(pc, node, "int16 %s and %s need zero point 0", op_tensor_desc(pc, in), op_tensor_desc(pc, out));
    if (bias && bias->type != TT_INT64 && bias->type != TT_INT32)
      return op_error(pc, node, "%s has dtype %s; int16 fully connected takes an int64 or int32 bias",
                      op_tensor_desc(pc, bias), tensor_type_name(bias->type));
    d->kernel = bias && bias->type == TT_INT32 ? FC_S16_ACC32 : FC_S16;
  }
  d->input_offset = -tensor_zero_point(in);
  d->output_offset = tensor_zero_point(out);
  if (!quant_activation_range(act, out->type, tensor_scale(out), d->output_offset, &d->act_min, &d->act_max))
    return op_error(pc, node, "fused activation %d is not supported", act);
  if (!fc_prepare_multipliers(pc, node, in, w, out, d)) return false;
  return d->kernel == FC_S8 ? fc_fold_bias(pc, node, w, bias, d) : true;
}

/* int8 with constant weights (bias folded) on a DSP or MVE target: the matrix-vector
 * kernel of that tier, one call per batch row. */
static bool fc_prepare_tier(PrepareCtx *pc, const Node *node, const Tensor *w, const Tensor *bias, FcData *d) {
  const GemmTier tier = gemm_tier_for(pc->platform);
  if (d->kernel == FC_S16 && gemm_s16_dsp_available(pc->platform) && tensor_is_const(w) &&
      (!bias || tensor_is_const(bias)) && d->input_offset == 0 && d->output_offset == 0 &&
      !gemm_s16_dsp_plan(pc->arena, d->units, d->depth, (const int8_t *)w->data, bias, d->multipliers, d->shifts,
                         d->multiplier, d->shift, d->act_min, d->act_max, &d->gemm16))
    return op_error(pc, node, "out of memory");
  if (d->kernel == FC_S16 && gemm_s16_mve_available(pc->platform) && tensor_is_const(w) &&
      (!bias || tensor_is_const(bias)) && d->input_offset == 0 && d->output_offset == 0 &&
      !gemm_s16_mve_plan(pc->arena, d->units, d->depth, (const int8_t *)w->data, bias, d->multipliers, d->shifts,
                         d->multiplier, d->shift, d->act_min, d->act_max, &d->gemm16m))
    return op_error(pc, node, "out of memory");
  /* absurd sizes keep the portable kernel (the re-laid tables round them up) */
  if (d->kernel != FC_S8 || !d->folded_bias || tier == GEMM_PORTABLE || d->units > (1 << 24) ||
      d->depth > (1 << 24) || !gemm_quant_supported(d->multipliers, d->shifts, d->multiplier, d->shift, d->units))
    return true;
  d->gemm = arena_alloc(pc->arena, sizeof *d->gemm);
  if (!d->gemm || !gemm_plan(pc->arena, tier, d->units, d->depth, (const int8_t *)w->data, d->folded_bias,
                             d->multipliers, d->shifts, d->multiplier, d->shift, d->output_offset, d->act_min,
                             d->act_max, d->gemm) ||
      !gemm_dsp_use_fcs(pc->arena, d->gemm, (const int8_t *)w->data))
    return op_error(pc, node, "out of memory");
  return true;
}

static bool fc_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 3, 1) || !op_expect_options(pc, node, OPTS_FULLY_CONNECTED)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *w = node_input(pc->model, node, 1);
  const Tensor *bias = node_input(pc->model, node, 2);
  const Tensor *out = node_output(pc->model, node, 0);
  const int act = node->opts.fully_connected.activation;
  const int weights_format = node->opts.fully_connected.weights_format;
  if (weights_format != 0)
    return op_error(pc, node, "weights format %d (shuffled) is not supported, only DEFAULT", weights_format);

  FcData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!fc_check_shapes(pc, node, in, w, bias, out, d)) return false;

  bool ok;
  switch (in->type) {
    case TT_FLOAT32: ok = fc_prepare_f32(pc, node, w, bias, out, act, d); break;
    case TT_INT8:
    case TT_INT16: ok = fc_prepare_quantized(pc, node, in, w, bias, out, act, d); break;
    default:
      return op_error(pc, node, "%s has dtype %s; supported: int8, int16 (int8 weights), float32",
                      op_tensor_desc(pc, in), tensor_type_name(in->type));
  }
  if (!ok || !fc_prepare_tier(pc, node, w, bias, d)) return false;
  node->op_data = d;
  node->kernel = fc_kernel_name(d->kernel);
  node->families[0] = "fully_connected";
  if (d->gemm) {
    node->kernel = d->gemm->tier == GEMM_MVE ? "ta_gemm_s8_mve" : "ta_gemm_s8_dsp";
    node->families[0] = gemm_family(d->gemm->tier);
    node->families[1] = "im2col"; /* the gemm header includes it */
  }
  if (d->gemm16) node->kernel = "ta_gemm_s16_dsp", node->families[0] = "gemm_s16_dsp";
  if (d->gemm16m) node->kernel = "ta_gemm_s16_mve", node->families[0] = "gemm_s16_mve";
  node->macs = (int64_t)d->batches * d->units * d->depth;
  return true;
}

static void fc_emit_f32(EmitCtx *ec, const Node *node, const FcData *d) {
  const char *name = em_op_name(ec);
  em_decl(ec,
          "static const ta_fc_f32_params_t %s_params = {\n  .batches = %d, .out_depth = %d, .accum_depth = %d,\n"
          "  .act_min = %af, .act_max = %af,\n};",
          name, (int)d->batches, (int)d->units, (int)d->depth, (double)d->act_min_f, (double)d->act_max_f);
  em_call(ec, "ta_fully_connected_f32", 5, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
          em_tensor(ec, node->in[1]), node->n_in > 2 ? em_tensor(ec, node->in[2]) : "NULL", em_tensor(ec, node->out[0]));
}

static void fc_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const FcData *d = node->op_data;
  if (d->kernel == FC_F32) {
    fc_emit_f32(ec, node, d);
    return;
  }
  const char *name = em_op_name(ec);
  if (d->gemm) {
    const char *weights = gemm_emit_params(ec, d->gemm);
    em_call(ec, em_name(ec, "ta_gemm_s8_%s%s", gemm_suffix(d->gemm->tier), d->gemm->fcs ? "_fcs" : ""), 5,
            em_desc(ec, "gemm"),
            em_int(ec, d->batches), em_tensor(ec, node->in[0]), weights, em_tensor(ec, node->out[0]));
    return;
  }
  if (d->gemm16) {
    const char *weights = gemm_s16_dsp_emit_params(ec, d->gemm16);
    em_call(ec, "ta_gemm_s16_dsp", 5, em_desc(ec, "gemm16"), em_int(ec, d->batches), em_tensor(ec, node->in[0]),
            weights, em_tensor(ec, node->out[0]));
    return;
  }
  if (d->gemm16m) {
    const char *weights = gemm_s16_mve_emit_params(ec, d->gemm16m);
    em_call(ec, "ta_gemm_s16_mve", 5, em_desc(ec, "gemm16m"), em_int(ec, d->batches), em_tensor(ec, node->in[0]),
            weights, em_tensor(ec, node->out[0]));
    return;
  }
  const char *mults = d->multipliers ? em_table_i32(ec, "multipliers", d->multipliers, (size_t)d->units) : "NULL";
  const char *shifts = d->shifts ? em_table_i32(ec, "shifts", d->shifts, (size_t)d->units) : "NULL";
  const char *bias = d->folded_bias ? em_table_i32_from(ec, "bias", EM_FROM_BIAS, d->folded_bias, (size_t)d->units)
                     : node->n_in > 2 ? em_tensor(ec, node->in[2])
                                      : "NULL";
  em_decl(ec,
          "static const ta_fc_params_t %s_params = {\n  .batches = %d, .out_depth = %d, .accum_depth = %d,\n"
          "  .input_offset = %d, .output_offset = %d, .act_min = %d, .act_max = %d,\n"
          "  .multiplier = %d, .shift = %d, .multipliers = %s, .shifts = %s,\n};",
          name, (int)d->batches, (int)d->units, (int)d->depth, (int)d->input_offset, (int)d->output_offset,
          (int)d->act_min, (int)d->act_max, (int)d->multiplier, (int)d->shift, mults, shifts);
  em_call(ec, fc_kernel_name(d->kernel), 5, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
          em_tensor(ec, node->in[1]), bias, em_tensor(ec, node->out[0]));
}

const OpDef op_fully_connected = {
    .name = "FULLY_CONNECTED",
    .builtin_code = 9,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16x8 (int64 or int32 bias), float32",
    .constraints = "2-D weights in DEFAULT format; int8 weights symmetric, per-tensor or per-unit scales",
    .prepare = fc_prepare,
    .emit = fc_emit,
};
