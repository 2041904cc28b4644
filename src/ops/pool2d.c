/* Shared contract of AVERAGE_POOL_2D and MAX_POOL_2D (see pool2d.h). */
#include "pool2d.h"

#include <float.h>
#include <math.h>

#include "../ir/quant.h"

enum { PADDING_SAME = 0, PADDING_VALID = 1 };

static int64_t min_i64(int64_t a, int64_t b) { return a < b ? a : b; }

/* TFLite's output size and leading padding for one spatial dimension (dilation 1). */
static bool pool_dim(int padding, int32_t in, int32_t filter, int32_t stride, int32_t *out, int32_t *pad) {
  int64_t o = padding == PADDING_SAME ? ((int64_t)in + stride - 1) / stride : ((int64_t)in + stride - filter) / stride;
  if (o <= 0 || o > INT32_MAX) return false;
  const int64_t span = (o - 1) * stride + filter; /* input extent the windows cover */
  if (span > INT32_MAX) return false;              /* window ends must fit the kernel's int32 */
  const int64_t total = span - in;
  *out = (int32_t)o;
  *pad = total > 0 ? (int32_t)(total / 2) : 0;
  return true;
}

static bool pool_read_options(PrepareCtx *pc, const Node *node, PoolData *d, int *padding, int *act) {
  if (!op_expect_options(pc, node, OPTS_POOL_2D)) return false;
  const Pool2DOptions *o = &node->opts.pool2d;
  *padding = o->padding;
  d->stride_w = o->stride_w;
  d->stride_h = o->stride_h;
  d->filter_w = o->filter_w;
  d->filter_h = o->filter_h;
  *act = o->activation;
  if (*padding != PADDING_SAME && *padding != PADDING_VALID)
    return op_error(pc, node, "padding %d is not supported (SAME or VALID)", *padding);
  if (d->stride_w <= 0 || d->stride_h <= 0 || d->filter_w <= 0 || d->filter_h <= 0)
    return op_error(pc, node, "stride %dx%d and filter %dx%d must be positive", (int)d->stride_h, (int)d->stride_w,
                    (int)d->filter_h, (int)d->filter_w);
  return true;
}

static bool pool_check_shapes(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, int padding,
                              PoolData *d) {
  if (in->rank != 4 || out->rank != 4)
    return op_error(pc, node, "%s and %s must be 4-D NHWC, have shapes %s and %s", op_tensor_desc(pc, in),
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, in), tensor_shape_str(pc->arena, out));
  for (int i = 0; i < 4; i++)
    if (in->dims[i] <= 0) return op_error(pc, node, "%s has a non-positive dimension", op_tensor_desc(pc, in));
  if (in->elems > INT32_MAX || out->elems > INT32_MAX)
    return op_error(pc, node, "%s or %s has more than 2^31 elements", op_tensor_desc(pc, in), op_tensor_desc(pc, out));
  d->batches = in->dims[0];
  d->in_h = in->dims[1];
  d->in_w = in->dims[2];
  d->depth = in->dims[3];
  if (!pool_dim(padding, d->in_h, d->filter_h, d->stride_h, &d->out_h, &d->pad_h) ||
      !pool_dim(padding, d->in_w, d->filter_w, d->stride_w, &d->out_w, &d->pad_w))
    return op_error(pc, node, "filter %dx%d does not fit %s (%s padding)", (int)d->filter_h, (int)d->filter_w,
                    op_tensor_desc(pc, in), padding == PADDING_SAME ? "SAME" : "VALID");
  if (out->dims[0] != d->batches || out->dims[1] != d->out_h || out->dims[2] != d->out_w || out->dims[3] != d->depth)
    return op_error(pc, node, "%s has shape %s, expected [%d,%d,%d,%d]", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), (int)d->batches, (int)d->out_h, (int)d->out_w, (int)d->depth);
  return true;
}

/* TFLM requires the same quantization on both sides: pooling never rescales. */
static bool pool_check_quant(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, int act,
                             PoolData *d) {
  if (!op_expect_quantized(pc, node, in) || !op_expect_quantized(pc, node, out)) return false;
  if (fabs((double)tensor_scale(in) - (double)tensor_scale(out)) > 1.0e-6 ||
      tensor_zero_point(in) != tensor_zero_point(out))
    return op_error(pc, node, "%s and %s must share scale and zero point", op_tensor_desc(pc, in),
                    op_tensor_desc(pc, out));
  /* the integer mean sums one window in int32: bound its cell count */
  const int64_t cells = (int64_t)min_i64(d->filter_h, d->in_h) * min_i64(d->filter_w, d->in_w);
  const int64_t max_cells = in->type == TT_INT16 ? 65535 : (1 << 23);
  if (cells > max_cells)
    return op_error(pc, node, "a %dx%d window covers %lld cells; at most %lld fit the int32 sum", (int)d->filter_h,
                    (int)d->filter_w, (long long)cells, (long long)max_cells);
  if (!quant_activation_range(act, out->type, tensor_scale(out), tensor_zero_point(out), &d->act_min, &d->act_max))
    return op_error(pc, node, "fused activation %d is not supported", act);
  return true;
}

static bool pool_check_act_f32(PrepareCtx *pc, const Node *node, int act, PoolData *d) {
  if (!quant_activation_range_f32(act, &d->act_min_f, &d->act_max_f))
    return op_error(pc, node, "fused activation %d is not supported", act);
  if (isinf(d->act_min_f)) d->act_min_f = -FLT_MAX; /* TFLite clamps to the finite range */
  if (isinf(d->act_max_f)) d->act_max_f = FLT_MAX;
  return true;
}

static const char *pool_suffix(TensorType t) {
  return t == TT_INT8 ? "s8" : t == TT_INT16 ? "s16" : "f32";
}

bool pool2d_prepare(PrepareCtx *pc, Node *node, const char *kernel_base) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  PoolData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  int padding, act;
  if (!pool_read_options(pc, node, d, &padding, &act)) return false;
  if (!pool_check_shapes(pc, node, in, out, padding, d)) return false;
  if (!op_expect_type(pc, node, out, in->type)) return false;
  d->type = in->type;
  bool ok;
  switch (in->type) {
    case TT_INT8:
    case TT_INT16: ok = pool_check_quant(pc, node, in, out, act, d); break;
    case TT_FLOAT32: ok = pool_check_act_f32(pc, node, act, d); break;
    default:
      return op_error(pc, node, "%s has dtype %s; supported: int8, int16, float32", op_tensor_desc(pc, in),
                      tensor_type_name(in->type));
  }
  if (!ok) return false;
  node->op_data = d;
  node->kernel = arena_printf(pc->arena, "%s_%s", kernel_base, pool_suffix(in->type));
  node->families[0] = "pooling";
  node->macs = 0;
  return true;
}

void pool2d_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const PoolData *d = node->op_data;
  const char *name = em_op_name(ec);
  em_decl(ec,
          "static const ta_pool_params_t %s_params = {\n  .batches = %d, .depth = %d, .in_h = %d, .in_w = %d,"
          " .out_h = %d, .out_w = %d,\n  .filter_h = %d, .filter_w = %d, .stride_h = %d, .stride_w = %d,"
          " .pad_h = %d, .pad_w = %d,\n  .act_min = %d, .act_max = %d, .act_min_f = %af, .act_max_f = %af,\n};",
          name, (int)d->batches, (int)d->depth, (int)d->in_h, (int)d->in_w, (int)d->out_h, (int)d->out_w,
          (int)d->filter_h, (int)d->filter_w, (int)d->stride_h, (int)d->stride_w, (int)d->pad_h, (int)d->pad_w,
          (int)d->act_min, (int)d->act_max, (double)d->act_min_f, (double)d->act_max_f);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}
