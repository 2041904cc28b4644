/* DEPTHWISE_CONV_2D: int8 (per-channel filters, folded int32 bias), int16x8 (int64 bias)
 * and float32, NHWC with [1,kh,kw,out_c] filters, depth multiplier, SAME/VALID padding,
 * strides and dilations. */
#include <stdio.h>

#include "../resolve/quant.h"
#include "conv_common.h"
#include "op.h"

enum { DEPTHWISE_OPTIONS = 2 }; /* BuiltinOptions.DepthwiseConv2DOptions */
/* DepthwiseConv2DOptions fields. */
enum { OPT_PADDING, OPT_STRIDE_W, OPT_STRIDE_H, OPT_DEPTH_MULTIPLIER, OPT_ACTIVATION, OPT_DILATION_W, OPT_DILATION_H };

typedef enum DwKernel { DW_S8, DW_S16, DW_F32 } DwKernel;

static const char *const dw_kernel_names[] = {"ta_depthwise_conv_s8", "ta_depthwise_conv_s16",
                                              "ta_depthwise_conv_f32"};
static const char *const dw_param_types[] = {"ta_depthwise_conv_s8_params_t", "ta_depthwise_conv_s16_params_t",
                                             "ta_depthwise_conv_f32_params_t"};

typedef struct DwData {
  DwKernel kernel;
  int32_t batches, in_c, out_c, multiplier;
  ConvAxis h, w;
  ConvQuant q;            /* integer kernels */
  int32_t *folded_bias;   /* int8: bias - input_zero_point * sum over taps of filter[.][oc] */
  int32_t input_zero_point, output_zero_point;
  float act_min, act_max; /* float kernel */
} DwData;

/* folded[oc] = bias[oc] - zp * sum over taps of filter[tap][oc], wrapping like int32. */
static int32_t *dw_fold_bias(PrepareCtx *pc, const Tensor *filter, const Tensor *bias, int32_t zp, int32_t out_c) {
  int32_t *folded = arena_alloc(pc->arena, (size_t)out_c * sizeof(int32_t));
  if (!folded) return NULL;
  const int64_t taps = filter->elems / out_c;
  const int8_t *w = (const int8_t *)filter->data;
  for (int32_t oc = 0; oc < out_c; oc++) {
    int64_t sum = 0;
    for (int64_t t = 0; t < taps; t++) sum += w[t * out_c + oc];
    const uint32_t b = bias ? (uint32_t)const_i32(bias, oc) : 0u;
    folded[oc] = (int32_t)(b - (uint32_t)((int64_t)zp * sum));
  }
  return folded;
}

static bool dw_prepare_types(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter, const Tensor *bias,
                             const Tensor *out, DwData *d) {
  if (!op_expect_type(pc, node, out, in->type)) return false;
  switch (in->type) {
    case TT_INT8:
      d->kernel = DW_S8;
      return op_expect_type(pc, node, filter, TT_INT8) && conv_expect_bias(pc, node, bias, TT_INT32, d->out_c);
    case TT_INT16:
      /* TFLite Micro reads the 16x8 bias as int64 unconditionally. */
      d->kernel = DW_S16;
      return op_expect_type(pc, node, filter, TT_INT8) && conv_expect_bias(pc, node, bias, TT_INT64, d->out_c);
    case TT_FLOAT32:
      d->kernel = DW_F32;
      return op_expect_type(pc, node, filter, TT_FLOAT32) && conv_expect_bias(pc, node, bias, TT_FLOAT32, d->out_c);
    default:
      return op_error(pc, node, "input %s has dtype %s; supported: int8, int16 (with int8 filters), float32",
                      op_tensor_desc(pc, in), tensor_type_name(in->type));
  }
}

static bool dw_prepare_shapes(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter, const Tensor *out,
                              DwData *d) {
  if (!conv_expect_4d(pc, node, in, "input") || !conv_expect_4d(pc, node, filter, "filter") ||
      !conv_expect_4d(pc, node, out, "output"))
    return false;
  d->batches = in->dims[0];
  d->in_c = in->dims[3];
  d->out_c = filter->dims[3];
  if (filter->dims[0] != 1)
    return op_error(pc, node, "filter %s must have shape [1, h, w, channels]", op_tensor_desc(pc, filter));
  if (d->out_c % d->in_c != 0)
    return op_error(pc, node, "filter channels %d are not a multiple of the input depth %d", (int)d->out_c,
                    (int)d->in_c);
  d->multiplier = d->out_c / d->in_c;
  /* TFLite's kernel loops over the option's multiplier; it must describe these shapes. */
  const int32_t option = fb_i32(&node->options, OPT_DEPTH_MULTIPLIER, 0);
  if (option != d->multiplier)
    return op_error(pc, node, "depth_multiplier option is %d but the filter has %d channels for %d inputs",
                    (int)option, (int)d->out_c, (int)d->in_c);
  if (out->dims[0] != d->batches || out->dims[3] != d->out_c)
    return op_error(pc, node, "output %s should have batch %d and %d channels", op_tensor_desc(pc, out),
                    (int)d->batches, (int)d->out_c);
  return true;
}

static bool dw_prepare_window(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter, const Tensor *out,
                              DwData *d) {
  const FbTable *o = &node->options;
  const int padding = fb_i8(o, OPT_PADDING, CONV_PAD_SAME);
  d->h = (ConvAxis){.in = in->dims[1], .out = out->dims[1], .k = filter->dims[1],
                    .stride = fb_i32(o, OPT_STRIDE_H, 0), .dil = fb_i32(o, OPT_DILATION_H, 1)};
  d->w = (ConvAxis){.in = in->dims[2], .out = out->dims[2], .k = filter->dims[2],
                    .stride = fb_i32(o, OPT_STRIDE_W, 0), .dil = fb_i32(o, OPT_DILATION_W, 1)};
  int32_t out_h, out_w;
  if (!conv_axis_setup(pc, node, padding, "height", &d->h, &out_h) ||
      !conv_axis_setup(pc, node, padding, "width", &d->w, &out_w))
    return false;
  if (out_h != d->h.out || out_w != d->w.out)
    return op_error(pc, node, "output %s is %dx%d but the window gives %dx%d", op_tensor_desc(pc, out),
                    (int)d->h.out, (int)d->w.out, (int)out_h, (int)out_w);
  return true;
}

static bool dw_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 3, 1) || !op_expect_options(pc, node, DEPTHWISE_OPTIONS)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *filter = node_input(pc->model, node, 1);
  const Tensor *bias = node_input(pc->model, node, 2);
  const Tensor *out = node_output(pc->model, node, 0);
  DwData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!dw_prepare_shapes(pc, node, in, filter, out, d) || !dw_prepare_types(pc, node, in, filter, bias, out, d) ||
      !dw_prepare_window(pc, node, in, filter, out, d))
    return false;
  if (!tensor_is_const(filter))
    return op_error(pc, node, "filter %s must be a constant tensor", op_tensor_desc(pc, filter));
  const int activation = fb_i8(&node->options, OPT_ACTIVATION, ACT_NONE);
  if (d->kernel == DW_F32) {
    if (!conv_float_range(pc, node, activation, &d->act_min, &d->act_max)) return false;
  } else {
    if (!conv_quant_prepare(pc, node, in, filter, 3, out, d->out_c, activation, &d->q)) return false;
    d->input_zero_point = tensor_zero_point(in);
    d->output_zero_point = tensor_zero_point(out);
  }
  if (d->kernel == DW_S8 && !(d->folded_bias = dw_fold_bias(pc, filter, bias, d->input_zero_point, d->out_c)))
    return op_error(pc, node, "out of memory");
  node->op_data = d;
  node->kernel = dw_kernel_names[d->kernel];
  node->families[0] = "depthwise_conv";
  node->macs = out->elems * (int64_t)d->h.k * d->w.k;
  return true;
}

/* Writes the ta_depthwise_geom_t initializer. */
static void dw_geom_init(char *buf, size_t cap, const DwData *d) {
  snprintf(buf, cap,
           "{\n    .batches = %d,\n    .in_h = %d, .in_w = %d, .in_c = %d,\n"
           "    .out_h = %d, .out_w = %d, .out_c = %d,\n    .depth_multiplier = %d,\n    .k_h = %d, .k_w = %d,\n"
           "    .stride_h = %d, .stride_w = %d,\n    .dil_h = %d, .dil_w = %d,\n"
           "    .pad_h = %d, .pad_w = %d,\n  }",
           (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->in_c, (int)d->h.out, (int)d->w.out, (int)d->out_c,
           (int)d->multiplier, (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil,
           (int)d->w.dil, (int)d->h.pad, (int)d->w.pad);
}

static void dw_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const DwData *d = node->op_data;
  const char *name = em_op_name(ec);
  const char *type = dw_param_types[d->kernel];
  char geom[512];
  dw_geom_init(geom, sizeof geom, d);
  /* int8 reads the folded table instead of the model's bias. */
  const char *bias = d->kernel == DW_S8 ? em_table_i32(ec, "folded_bias", d->folded_bias, (size_t)d->out_c)
                                        : em_tensor(ec, node->n_in > 2 ? node->in[2] : -1);
  if (d->kernel == DW_F32) {
    char lo[48], hi[48];
    conv_float_literal(lo, sizeof lo, d->act_min);
    conv_float_literal(hi, sizeof hi, d->act_max);
    em_decl(ec, "static const %s %s_params = {\n  .g = %s,\n  .act_min = %s,\n  .act_max = %s,\n};", type, name, geom,
            lo, hi);
  } else {
    const char *mult = em_table_i32(ec, "multiplier", d->q.multiplier, (size_t)d->out_c);
    const char *shift = em_table_i32(ec, "shift", d->q.shift, (size_t)d->out_c);
    if (d->kernel == DW_S8)
      em_decl(ec,
              "static const %s %s_params = {\n  .g = %s,\n  .input_zero_point = %d,\n  .output_zero_point = %d,\n"
              "  .act_min = %d,\n  .act_max = %d,\n  .multiplier = %s,\n  .shift = %s,\n};",
              type, name, geom, (int)d->input_zero_point, (int)d->output_zero_point, (int)d->q.act_min,
              (int)d->q.act_max, mult, shift);
    else
      em_decl(ec,
              "static const %s %s_params = {\n  .g = %s,\n  .act_min = %d,\n  .act_max = %d,\n"
              "  .multiplier = %s,\n  .shift = %s,\n};",
              type, name, geom, (int)d->q.act_min, (int)d->q.act_max, mult, shift);
  }
  em_body(ec, "%s(&%s_params, %s, %s, %s, %s);", dw_kernel_names[d->kernel], name, em_tensor(ec, node->in[0]),
          em_tensor(ec, node->in[1]), bias, em_tensor(ec, node->out[0]));
}

const OpDef op_depthwise_conv_2d = {
    .name = "DEPTHWISE_CONV_2D",
    .builtin_code = 4,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16x8, float32",
    .constraints = "constant filter and bias; per-channel or per-tensor symmetric int8 filters; int16 bias int64; "
                   "depth_multiplier option must equal output/input channels",
    .prepare = dw_prepare,
    .emit = dw_emit,
};
