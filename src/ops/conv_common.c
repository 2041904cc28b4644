/* Compile-time setup shared by the convolution family; see conv_common.h. */
#include "conv_common.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#include "../ir/quant.h"

/* Keeps every coordinate the kernels form (origin + dilation * tap, o * stride) far from
 * int32 overflow. */
#define CONV_AXIS_LIMIT ((int64_t)1 << 30)

bool conv_axis_setup(PrepareCtx *pc, const Node *node, int padding, const char *what, ConvAxis *ax,
                     int32_t *out_size) {
  if (padding != CONV_PAD_SAME && padding != CONV_PAD_VALID)
    return op_error(pc, node, "padding type %d is not SAME (0) or VALID (1)", padding);
  if (ax->stride < 1) return op_error(pc, node, "%s stride is %d, must be >= 1", what, (int)ax->stride);
  if (ax->dil < 1) return op_error(pc, node, "%s dilation is %d, must be >= 1", what, (int)ax->dil);
  if (ax->k < 1) return op_error(pc, node, "filter %s is %d, must be >= 1", what, (int)ax->k);
  if (ax->fold_lead < 0 || ax->fold_trail < 0)
    return op_error(pc, node, "%s: negative folded padding", what);
  const int64_t effective = (int64_t)(ax->k - 1) * ax->dil + 1;
  const int64_t in = (int64_t)ax->in + ax->fold_lead + ax->fold_trail; /* the padded size the window sees */
  if (in + effective + ax->stride > CONV_AXIS_LIMIT)
    return op_error(pc, node, "%s: input %d, dilated filter %lld and stride %d exceed the supported range", what,
                    (int)ax->in, (long long)effective, (int)ax->stride);
  /* ComputeOutSize (matches TensorFlow's GetWindowedOutputSize). */
  const int64_t out = padding == CONV_PAD_SAME ? (in + ax->stride - 1) / ax->stride
                                               : (in + ax->stride - effective) / ax->stride;
  /* ComputePaddingWithOffset: the leading half of the total, rounded down. */
  int64_t total = (out - 1) * ax->stride + effective - in;
  if (total < 0) total = 0;
  ax->pad = (int32_t)(total / 2 + ax->fold_lead);
  *out_size = (int32_t)out;
  return true;
}

bool conv_expect_4d(PrepareCtx *pc, const Node *node, const Tensor *t, const char *role) {
  if (t->rank != 4)
    return op_error(pc, node, "%s %s has rank %d, expected 4 (%s)", role, op_tensor_desc(pc, t), t->rank,
                    tensor_shape_str(pc->arena, t));
  for (int i = 0; i < 4; i++)
    if (t->dims[i] < 1)
      return op_error(pc, node, "%s %s has an empty or unknown dimension %s", role, op_tensor_desc(pc, t),
                      tensor_shape_str(pc->arena, t));
  if (t->elems > INT32_MAX)
    return op_error(pc, node, "%s %s has %lld elements, more than the kernels index", role, op_tensor_desc(pc, t),
                    (long long)t->elems);
  return true;
}

static bool conv_filter_quant_ok(PrepareCtx *pc, const Node *node, const Tensor *filter, int filter_axis,
                                 int32_t channels) {
  if (filter->n_quant < 1) return op_error(pc, node, "filter %s is not quantized", op_tensor_desc(pc, filter));
  if (filter->n_quant != 1 && filter->n_quant != channels)
    return op_error(pc, node, "filter %s has %d scales for %d output channels", op_tensor_desc(pc, filter),
                    filter->n_quant, (int)channels);
  if (filter->n_quant > 1 && filter->quant_dim != filter_axis)
    return op_error(pc, node, "filter %s is quantized along axis %d, expected %d", op_tensor_desc(pc, filter),
                    (int)filter->quant_dim, filter_axis);
  for (int i = 0; i < filter->n_quant; i++) {
    if (!(filter->scale[i] > 0.f))
      return op_error(pc, node, "filter %s scale %d is %g (must be > 0)", op_tensor_desc(pc, filter), i,
                      (double)filter->scale[i]);
    /* TFLite's per-channel kernels ignore the filter zero point; only symmetric
     * filters give the result the model was trained for. */
    if (filter->zero_point[i] != 0)
      return op_error(pc, node, "filter %s has zero point %lld; int8 filters must be symmetric (0)",
                      op_tensor_desc(pc, filter), (long long)filter->zero_point[i]);
  }
  return true;
}

bool conv_quant_prepare(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *filter, int filter_axis,
                        const Tensor *out, int32_t channels, int activation, QuantRange range, ConvQuant *q) {
  if (!op_expect_quantized(pc, node, in) || !op_expect_quantized(pc, node, out)) return false;
  if (!conv_filter_quant_ok(pc, node, filter, filter_axis, channels)) return false;
  if (in->type == TT_INT16 && (tensor_zero_point(in) != 0 || tensor_zero_point(out) != 0))
    return op_error(pc, node, "int16 activations need zero points 0 (input %d, output %d)",
                    (int)tensor_zero_point(in), (int)tensor_zero_point(out));
  if (in->type == TT_INT8 && (tensor_zero_point(in) < -128 || tensor_zero_point(in) > 127 ||
                              tensor_zero_point(out) < -128 || tensor_zero_point(out) > 127))
    return op_error(pc, node, "int8 zero points out of range (input %d, output %d)", (int)tensor_zero_point(in),
                    (int)tensor_zero_point(out));
  q->multiplier = arena_alloc(pc->arena, (size_t)channels * sizeof(int32_t));
  q->shift = arena_alloc(pc->arena, (size_t)channels * sizeof(int32_t));
  if (!q->multiplier || !q->shift) return op_error(pc, node, "out of memory");
  /* The effective scale is formed in double from the float scales, as TFLite does. */
  const double in_scale = (double)tensor_scale(in), out_scale = (double)tensor_scale(out);
  for (int32_t c = 0; c < channels; c++) {
    const double filter_scale = (double)filter->scale[filter->n_quant > 1 ? c : 0];
    if (!op_quant_multiplier(pc, node, in_scale * filter_scale / out_scale, range, &q->multiplier[c], &q->shift[c],
                             "input x filter / output scale of tensor %d '%s', tensor %d '%s' (output channel %d), "
                             "tensor %d '%s'", OP_TENSOR_ARG(in), OP_TENSOR_ARG(filter), (int)c, OP_TENSOR_ARG(out)))
      return false;
  }
  if (!quant_activation_range(activation, out->type, tensor_scale(out), tensor_zero_point(out), &q->act_min,
                              &q->act_max))
    return op_error(pc, node, "fused activation %d is not supported for %s output", activation,
                    tensor_type_name(out->type));
  if (q->act_min > q->act_max)
    return op_error(pc, node, "fused activation %d leaves an empty output range [%d, %d]", activation,
                    (int)q->act_min, (int)q->act_max);
  return true;
}

bool conv_float_range(PrepareCtx *pc, const Node *node, int activation, float *lo, float *hi) {
  switch (activation) {
    case ACT_NONE: *lo = -FLT_MAX; *hi = FLT_MAX; return true;
    case ACT_RELU: *lo = 0.f; *hi = FLT_MAX; return true;
    case ACT_RELU6: *lo = 0.f; *hi = 6.f; return true;
    case ACT_RELU_N1_TO_1: *lo = -1.f; *hi = 1.f; return true;
    default: return op_error(pc, node, "fused activation %d is not supported", activation);
  }
}

bool conv_expect_bias(PrepareCtx *pc, const Node *node, const Tensor *bias, TensorType type, int32_t n) {
  if (!bias) return true;
  if (bias->type != type)
    return op_error(pc, node, "bias %s has dtype %s, expected %s here", op_tensor_desc(pc, bias),
                    tensor_type_name(bias->type), tensor_type_name(type));
  if (!tensor_is_const(bias))
    return op_error(pc, node, "bias %s must be a constant tensor", op_tensor_desc(pc, bias));
  if (bias->elems != n)
    return op_error(pc, node, "bias %s has %lld elements for %d output channels", op_tensor_desc(pc, bias),
                    (long long)bias->elems, (int)n);
  return true;
}

void conv_float_literal(char *buf, size_t cap, float v) {
  char num[40];
  snprintf(num, sizeof num, "%.9g", (double)v);
  const bool has_point = strpbrk(num, ".e") != NULL;
  snprintf(buf, cap, "%s%sf", num, has_point ? "" : ".0");
}

void conv_inplace_access(const ConvAxis *h, const ConvAxis *w, int32_t in_c, int32_t out_c, int32_t group,
                         bool row_groups, InplaceAccess *a) {
  *a = (InplaceAccess){.in_h = h->in, .in_w = w->in, .in_px = in_c, .out_h = h->out, .out_w = w->out,
                       .out_px = out_c, .k_h = h->k, .k_w = w->k, .stride_h = h->stride, .stride_w = w->stride,
                       .dil_h = h->dil, .dil_w = w->dil, .pad_top = h->pad, .pad_left = w->pad, .group = group,
                       .row_groups = row_groups, .moves = true};
}

const char *conv_inplace_temp(EmitCtx *ec, const Node *node) {
  const char *x = em_tensor(ec, node->in[node->inplace_input]);
  const long long delta = (long long)node->inplace_delta;
  return em_literal(ec, "int8_t *", em_name(ec, "(%s %c %lld)", x, delta < 0 ? '-' : '+', delta < 0 ? -delta : delta));
}
