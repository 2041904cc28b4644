/* TRANSPOSE_CONV: int8 (per-channel filters, int32 bias), int16x8 (int64 bias) and
 * float32, NHWC with OHWI filters, SAME/VALID padding, strides, fused activation. Inputs are
 * (output_shape, filter, input[, bias]); like TFLite Micro, the output tensor's own
 * shape is used and the output_shape values are not read. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../ir/quant.h"
#include "conv_common.h"
#include "op.h"

/* TransposeConvOptions fields. */
/* Operator inputs. */
enum { IN_OUTPUT_SHAPE, IN_FILTER, IN_INPUT, IN_BIAS };

typedef struct TconvData {
  bool is_int16, is_float;
  float act_min_f, act_max_f;
  int32_t batches, in_h, in_w, in_c, out_h, out_w, out_c, k_h, k_w;
  int32_t stride_h, stride_w, pad_h, pad_w;
  ConvQuant q;
  int32_t input_zero_point, output_zero_point;
} TconvData;

static bool tconv_prepare_types(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter,
                                const Tensor *bias, const Tensor *out, TconvData *d) {
  if (!op_expect_type(pc, node, out, in->type)) return false;
  if (in->type == TT_FLOAT32) {
    d->is_float = true;
    return op_expect_type(pc, node, filter, TT_FLOAT32) && conv_expect_bias(pc, node, bias, TT_FLOAT32, d->out_c);
  }
  if (!op_expect_type(pc, node, filter, TT_INT8)) return false;
  switch (in->type) {
    case TT_INT8: return conv_expect_bias(pc, node, bias, TT_INT32, d->out_c);
    case TT_INT16: d->is_int16 = true; return conv_expect_bias(pc, node, bias, TT_INT64, d->out_c);
    default:
      return op_error(pc, node, "input %s has dtype %s; supported: int8, int16 (with int8 filters), float32",
                      op_tensor_desc(pc, in), tensor_type_name(in->type));
  }
}

static bool tconv_prepare_shapes(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter,
                                 const Tensor *out, TconvData *d) {
  if (!conv_expect_4d(pc, node, in, "input") || !conv_expect_4d(pc, node, filter, "filter") ||
      !conv_expect_4d(pc, node, out, "output"))
    return false;
  d->batches = in->dims[0];
  d->in_h = in->dims[1];
  d->in_w = in->dims[2];
  d->in_c = in->dims[3];
  d->out_h = out->dims[1];
  d->out_w = out->dims[2];
  d->out_c = out->dims[3];
  d->k_h = filter->dims[1];
  d->k_w = filter->dims[2];
  if (filter->dims[0] != d->out_c || filter->dims[3] != d->in_c)
    return op_error(pc, node, "filter %s should be [%d, h, w, %d]", op_tensor_desc(pc, filter), (int)d->out_c,
                    (int)d->in_c);
  if (out->dims[0] != d->batches)
    return op_error(pc, node, "output %s should have batch %d", op_tensor_desc(pc, out), (int)d->batches);
  return true;
}

/* TFLite Micro derives the padding by treating the output as a convolution input
 * (ComputePaddingHeightWidth over the output size, dilation 1). */
static bool tconv_prepare_window(PrepareCtx *pc, Node *node, TconvData *d) {
  const TransposeConvOptions *o = &node->opts.transpose_conv;
  const int padding = o->padding;
  ConvAxis h = {.in = d->out_h, .k = d->k_h, .stride = o->stride_h, .dil = 1};
  ConvAxis w = {.in = d->out_w, .k = d->k_w, .stride = o->stride_w, .dil = 1};
  int32_t unused_h, unused_w;
  if (!conv_axis_setup(pc, node, padding, "height", &h, &unused_h) ||
      !conv_axis_setup(pc, node, padding, "width", &w, &unused_w))
    return false;
  /* The gather loops walk input coordinates up to (out + pad) / stride. */
  if ((int64_t)d->in_h * h.stride > ((int64_t)1 << 30) || (int64_t)d->in_w * w.stride > ((int64_t)1 << 30))
    return op_error(pc, node, "input and stride exceed the supported range");
  d->stride_h = h.stride;
  d->stride_w = w.stride;
  d->pad_h = h.pad;
  d->pad_w = w.pad;
  return true;
}

static bool tconv_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 3, 4, 1) || !op_expect_options(pc, node, OPTS_TRANSPOSE_CONV)) return false;
  const Tensor *filter = node_input(pc->model, node, IN_FILTER);
  const Tensor *in = node_input(pc->model, node, IN_INPUT);
  const Tensor *bias = node_input(pc->model, node, IN_BIAS);
  const Tensor *out = node_output(pc->model, node, 0);
  TconvData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!tconv_prepare_shapes(pc, node, in, filter, out, d) ||
      !tconv_prepare_types(pc, node, in, filter, bias, out, d) || !tconv_prepare_window(pc, node, d))
    return false;
  if (!tensor_is_const(filter))
    return op_error(pc, node, "filter %s must be a constant tensor", op_tensor_desc(pc, filter));
  const int activation = node->opts.transpose_conv.activation;
  node->op_data = d;
  node->families[0] = "transpose_conv";
  node->macs = in->elems * (int64_t)d->k_h * d->k_w * d->out_c;
  if (d->is_float) {
    if (activation == ACT_TANH || activation == ACT_SIGN_BIT ||
        !quant_activation_range_f32(activation, &d->act_min_f, &d->act_max_f))
      return op_error(pc, node, "fused activation %d is not supported for float32 TRANSPOSE_CONV", activation);
    node->kernel = "ta_transpose_conv_f32";
    return true;
  }
  /* ta_transpose_conv_s16 requantises its int64 accumulator with ta_requantize64 */
  const QuantRange range = d->is_int16 ? QUANT_RANGE_INT64 : QUANT_RANGE_INT32;
  if (!conv_quant_prepare(pc, node, in, filter, 0, out, d->out_c, activation, range, &d->q)) return false;
  d->input_zero_point = tensor_zero_point(in);
  d->output_zero_point = tensor_zero_point(out);
  node->kernel = d->is_int16 ? "ta_transpose_conv_s16" : "ta_transpose_conv_s8";
  return true;
}

static void tconv_geom_init(char *buf, size_t cap, const TconvData *d) {
  snprintf(buf, cap,
           "{\n    .batches = %d,\n    .in_h = %d, .in_w = %d, .in_c = %d,\n"
           "    .out_h = %d, .out_w = %d, .out_c = %d,\n    .k_h = %d, .k_w = %d,\n"
           "    .stride_h = %d, .stride_w = %d,\n    .pad_h = %d, .pad_w = %d,\n  }",
           (int)d->batches, (int)d->in_h, (int)d->in_w, (int)d->in_c, (int)d->out_h, (int)d->out_w, (int)d->out_c,
           (int)d->k_h, (int)d->k_w, (int)d->stride_h, (int)d->stride_w, (int)d->pad_h, (int)d->pad_w);
}

/* A C float literal that round-trips; infinite bounds become +-FLT_MAX written as a
 * number (same clamp of every finite value, no float.h needed in the module). */
static const char *tconv_float_literal(char *buf, size_t cap, float v) {
  if (isinf(v)) v = v < 0 ? -FLT_MAX : FLT_MAX;
  snprintf(buf, cap, "%.9g", (double)v);
  if (!strpbrk(buf, ".eEn")) strncat(buf, ".0", cap - strlen(buf) - 1);
  strncat(buf, "f", cap - strlen(buf) - 1);
  return buf;
}

static void tconv_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const TconvData *d = node->op_data;
  const char *name = em_op_name(ec);
  char geom[512];
  tconv_geom_init(geom, sizeof geom, d);
  if (d->is_float) {
    char lo[48], hi[48];
    em_decl(ec, "static const ta_transpose_conv_f32_params_t %s_params = {\n  .g = %s,\n  .act_min = %s,\n"
                "  .act_max = %s,\n};", name, geom, tconv_float_literal(lo, sizeof lo, d->act_min_f),
            tconv_float_literal(hi, sizeof hi, d->act_max_f));
    em_call(ec, node->kernel, 5, em_desc(ec, "params"), em_tensor(ec, node->in[IN_INPUT]),
            em_tensor(ec, node->in[IN_FILTER]), em_tensor(ec, node->n_in > IN_BIAS ? node->in[IN_BIAS] : -1),
            em_tensor(ec, node->out[0]));
    return;
  }
  const char *mult = em_table_i32(ec, "multiplier", d->q.multiplier, (size_t)d->out_c);
  const char *shift = em_table_i32(ec, "shift", d->q.shift, (size_t)d->out_c);
  if (d->is_int16)
    em_decl(ec,
            "static const ta_transpose_conv_s16_params_t %s_params = {\n  .g = %s,\n  .act_min = %d,\n"
            "  .act_max = %d,\n  .multiplier = %s,\n  .shift = %s,\n};",
            name, geom, (int)d->q.act_min, (int)d->q.act_max, mult, shift);
  else
    em_decl(ec,
            "static const ta_transpose_conv_s8_params_t %s_params = {\n  .g = %s,\n  .input_offset = %d,\n"
            "  .output_zero_point = %d,\n  .act_min = %d,\n  .act_max = %d,\n  .multiplier = %s,\n  .shift = %s,\n};",
            name, geom, (int)-d->input_zero_point, (int)d->output_zero_point, (int)d->q.act_min,
            (int)d->q.act_max, mult, shift);
  em_call(ec, node->kernel, 5, em_desc(ec, "params"), em_tensor(ec, node->in[IN_INPUT]),
          em_tensor(ec, node->in[IN_FILTER]), em_tensor(ec, node->n_in > IN_BIAS ? node->in[IN_BIAS] : -1),
          em_tensor(ec, node->out[0]));
}

const OpDef op_transpose_conv = {
    .name = "TRANSPOSE_CONV",
    .builtin_code = 67,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16x8, float32",
    .constraints = "constant filter and bias; int16 bias int64; output shape taken from the output tensor; float32 "
                   "sums in the reference's scatter order",
    .prepare = tconv_prepare,
    .emit = tconv_emit,
};
