/* Shared contract of PAD and PADV2 (see pad_common.h). As in TFLite Micro the input
 * values are copied unchanged and an int8 pad value is used as stored: without a
 * constant_values input it is the output zero point, with one it is that raw value
 * (which must share the output's quantization). float pads with 0 or the value. */
#include "pad_common.h"

#include <math.h>
#include <stdio.h>

#include "../ir/quant.h"
#include "data_movement.h"

enum { PAD_MAX_DIMS = 6 }; /* TA_PAD_MAX_DIMS of runtime/kernels/ta_pad.h */

typedef struct PadPlan {
  TensorType type;
  int rank;
  int32_t out_dims[PAD_MAX_DIMS], in_dims[PAD_MAX_DIMS], before[PAD_MAX_DIMS];
  int32_t pad_int;
  float pad_f32;
} PadPlan;

/* Reads the [rank, 2] paddings and checks them against the output's shape. */
static bool read_paddings(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, PadPlan *pp) {
  int64_t pads[2 * PAD_MAX_DIMS];
  int n = 0;
  const Tensor *paddings = node_input(pc->model, node, 1);
  if (!dm_const_ints(pc, node, paddings, "paddings", false, 2 * PAD_MAX_DIMS, pads, &n)) return false;
  if (n != 2 * in->rank || out->rank != in->rank)
    return op_error(pc, node, "paddings (%s) must hold 2 values per dimension of %s (rank %d)",
                    op_tensor_desc(pc, paddings), op_tensor_desc(pc, in), in->rank);
  for (int d = 0; d < in->rank; d++) {
    int64_t lo = pads[2 * d], hi = pads[2 * d + 1];
    if (lo < 0 || hi < 0) return op_error(pc, node, "negative padding %s is not supported", dm_list_str(pc->arena, pads, n));
    if (in->dims[d] + lo + hi != out->dims[d])
      return op_error(pc, node, "padding %s by %s gives a different shape than %s (%s)",
                      tensor_shape_str(pc->arena, in), dm_list_str(pc->arena, pads, n), op_tensor_desc(pc, out),
                      tensor_shape_str(pc->arena, out));
    pp->in_dims[d] = in->dims[d];
    pp->out_dims[d] = out->dims[d];
    pp->before[d] = (int32_t)lo;
  }
  pp->rank = in->rank;
  return true;
}

/* Merges trailing unpadded dimensions into their outer neighbour so that the
 * kernel's rows are as long as possible. */
static void merge_unpadded_tail(PadPlan *pp) {
  while (pp->rank > 1) {
    int last = pp->rank - 1;
    if (pp->out_dims[last] != pp->in_dims[last]) break; /* padded: before + after > 0 */
    pp->in_dims[last - 1] *= pp->in_dims[last];
    pp->out_dims[last - 1] *= pp->in_dims[last];
    pp->before[last - 1] *= pp->in_dims[last];
    pp->rank--;
  }
}

/* Reads little-endian integer element 0 of a constant of 2 or 4 bytes. */
static int32_t const_int_le(const Tensor *t) {
  const uint8_t *b = t->data;
  if (t->type == TT_INT16) return (int16_t)(uint16_t)(b[0] | (b[1] << 8));
  return (int32_t)((uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24));
}

static bool read_pad_value(PrepareCtx *pc, const Node *node, const Tensor *out, PadPlan *pp) {
  const Tensor *cv = node->n_in > 2 ? node_input(pc->model, node, 2) : NULL;
  const bool quantized = out->type == TT_INT8 || out->type == TT_INT16;
  if (!cv) {
    /* TFLite Micro pads quantized tensors with the output zero point */
    pp->pad_int = quantized ? tensor_zero_point(out) : 0;
    pp->pad_f32 = 0.0f;
    const int32_t lo = out->type == TT_INT8 ? INT8_MIN : INT16_MIN, hi = out->type == TT_INT8 ? INT8_MAX : INT16_MAX;
    if (quantized && (pp->pad_int < lo || pp->pad_int > hi))
      return op_error(pc, node, "output zero point %d is outside %s", (int)pp->pad_int, tensor_type_name(out->type));
    return true;
  }
  if (!tensor_is_const(cv))
    return op_error(pc, node, "constant_values (%s) must be a constant tensor", op_tensor_desc(pc, cv));
  if (!op_expect_type(pc, node, cv, out->type)) return false;
  if (cv->elems != 1)
    return op_error(pc, node, "constant_values (%s) must hold one value", op_tensor_desc(pc, cv));
  if (quantized && (tensor_scale(cv) != tensor_scale(out) || tensor_zero_point(cv) != tensor_zero_point(out)))
    return op_error(pc, node, "constant_values (%s) must share the output's scale and zero point",
                    op_tensor_desc(pc, cv));
  switch (out->type) {
    case TT_INT8: pp->pad_int = (int8_t)cv->data[0]; break;
    case TT_INT16:
    case TT_INT32: pp->pad_int = const_int_le(cv); break;
    default:
      pp->pad_f32 = const_f32(cv, 0);
      if (!isfinite(pp->pad_f32)) return op_error(pc, node, "constant_values is not a finite number");
      break;
  }
  return true;
}

/* The kernel for a dtype: every one copies bytes around a fill value. */
static const char *pad_kernel(TensorType type) {
  switch (type) {
    case TT_INT8: return "ta_pad_s8";
    case TT_INT16: return "ta_pad_s16";
    case TT_INT32: return "ta_pad_i32";
    default: return "ta_pad_f32";
  }
}

bool pad_prepare(PrepareCtx *pc, Node *node, const TensorType *types, int n_types) {
  if (!op_expect_io(pc, node, 2, 3, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, types, n_types, "") || !op_expect_type(pc, node, out, in->type)) return false;
  if (!dm_expect_dense(pc, node, in, PAD_MAX_DIMS) || !dm_expect_dense(pc, node, out, PAD_MAX_DIMS)) return false;
  if (in->rank < 1) return op_error(pc, node, "%s is a scalar; nothing to pad", op_tensor_desc(pc, in));
  PadPlan *pp = arena_alloc(pc->arena, sizeof *pp);
  if (!pp) return op_error(pc, node, "out of memory");
  pp->type = in->type;
  if (!read_paddings(pc, node, in, out, pp) || !read_pad_value(pc, node, out, pp)) return false;
  merge_unpadded_tail(pp);
  node->op_data = pp;
  node->kernel = pad_kernel(in->type);
  node->families[0] = "pad";
  node->macs = 0;
  return true;
}

void pad_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const PadPlan *pp = node->op_data;
  char out_dims[128], in_dims[128], before[128], value[48];
  dm_fmt_list(out_dims, sizeof out_dims, pp->out_dims, pp->rank);
  dm_fmt_list(in_dims, sizeof in_dims, pp->in_dims, pp->rank);
  dm_fmt_list(before, sizeof before, pp->before, pp->rank);
  if (pp->type == TT_FLOAT32)
    snprintf(value, sizeof value, "%af", (double)pp->pad_f32);
  else if (pp->pad_int == INT32_MIN)
    snprintf(value, sizeof value, "INT32_MIN"); /* -2147483648 is not an int literal */
  else
    snprintf(value, sizeof value, "%ld", (long)pp->pad_int);
  em_decl(ec,
          "static const ta_pad_params_t %s_params = {\n  .rank = %d,\n  .out_dims = {%s},\n  .in_dims = {%s},\n"
          "  .before = {%s},\n};",
          em_op_name(ec), pp->rank, out_dims, in_dims, before);
  em_call(ec, node->kernel, 4, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
          em_literal(ec, pp->type == TT_FLOAT32 ? "float" : "int32_t", value), em_tensor(ec, node->out[0]));
}
