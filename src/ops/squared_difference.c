/* SQUARED_DIFFERENCE: (a - b)^2 with NumPy broadcasting; int8 and int16 (TFLite
 * Micro's rescale-then-square path), int32 (wrapping) and float32. */
#include <math.h>

#include "../ir/quant.h"
#include "binary_ext.h"
#include "elementwise.h"
#include "op.h"

enum { SQDIFF_LEFT_SHIFT_S8 = 7 };

static const BxOp sqdiff_f32 = {
    .name = "SQUARED_DIFFERENCE", .options = OPTS_SQUARED_DIFFERENCE, .activation = BX_ACT_ABSENT,
    .type = TT_FLOAT32, .kernel = "ta_squared_difference_f32", .macs_per_element = true,
};

static const BxOp sqdiff_i32 = {
    .name = "SQUARED_DIFFERENCE", .options = OPTS_SQUARED_DIFFERENCE, .activation = BX_ACT_ABSENT,
    .type = TT_INT32, .kernel = "ta_squared_difference_i32", .macs_per_element = true,
};

/* Inputs are shifted left (int8: 7 bits; int16: none, its values are already wide)
 * and brought to 2 * max(scale1, scale2); the squared difference is then on
 * (2 * max)^2 / 2^(2 * shift) and rescaled to the output by a multiplier that may
 * exceed 1. The kernel takes ADD's descriptor with the type's full output range. */
static bool prepare_constants(PrepareCtx *pc, Node *node, EwArith *d, const Tensor *a, const Tensor *b,
                              const Tensor *out) {
  const bool is16 = out->type == TT_INT16;
  d->type = out->type;
  d->params = EW_ADDSUB_PARAMS;
  d->in1_offset = -tensor_zero_point(a);
  d->in2_offset = -tensor_zero_point(b);
  d->out_offset = tensor_zero_point(out);
  d->left_shift = is16 ? 0 : SQDIFF_LEFT_SHIFT_S8;
  d->act_min = is16 ? -32768 : -128;
  d->act_max = is16 ? 32767 : 127;
  const double twice_max = 2.0 * (double)fmaxf(tensor_scale(a), tensor_scale(b));
  const float shifted_out_scale = (float)(1 << (2 * d->left_shift)) * tensor_scale(out); /* float, as TFLite */
  if (!ew_input_multipliers(pc, node, d, (double)tensor_scale(a) / twice_max, (double)tensor_scale(b) / twice_max))
    return false;
  const double m = twice_max * twice_max / (double)shifted_out_scale;
  return ew_multiplier(pc, node, m, "output", &d->out_multiplier, &d->out_shift);
}

/* int8 / int16: quantized (int16 with zero points 0, as TFLite Micro requires). */
static bool prepare_quantized(PrepareCtx *pc, Node *node) {
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!op_expect_type(pc, node, a, out->type) || !op_expect_type(pc, node, b, out->type)) return false;
  if (out->type == TT_INT16) {
    if (!ew_expect_symmetric(pc, node, a) || !ew_expect_symmetric(pc, node, b) ||
        !ew_expect_symmetric(pc, node, out))
      return false;
  } else if (!ew_expect_quant(pc, node, a) || !ew_expect_quant(pc, node, b) || !ew_expect_quant(pc, node, out)) {
    return false;
  }
  EwArith *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, a, b, out, &d->bc) || !prepare_constants(pc, node, d, a, b, out)) return false;
  node->op_data = d;
  node->macs = out->elems;
  if (out->type == TT_INT16) {
    node->kernel = "ta_squared_difference_s16";
    bx_set_families(node);
  } else {
    node->kernel = "ta_squared_difference_s8";
    node->families[0] = "elementwise";
  }
  return true;
}

static bool squared_difference_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, OPTS_SQUARED_DIFFERENCE)) return false;
  const Tensor *out = node_output(pc->model, node, 0);
  switch (out->type) {
    case TT_INT8:
    case TT_INT16: return prepare_quantized(pc, node);
    case TT_INT32: return bx_prepare_plain(pc, node, &sqdiff_i32);
    case TT_FLOAT32: return bx_prepare_plain(pc, node, &sqdiff_f32);
    default:
      return op_error(pc, node, "%s has dtype %s; SQUARED_DIFFERENCE supports int8, int16, int32 and float32",
                      op_tensor_desc(pc, out), tensor_type_name(out->type));
  }
}

const OpDef op_squared_difference = {
    .name = "SQUARED_DIFFERENCE",
    .builtin_code = 99,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, float32",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions; int16 needs zero "
                   "points 0; int32 wraps",
    .prepare = squared_difference_prepare,
    .emit = bx_arith_emit,
};
