/* SQUARED_DIFFERENCE: (a - b)^2 with NumPy broadcasting, int8 (TFLite Micro's
 * rescale-then-square path). */
#include <math.h>

#include "../resolve/quant.h"
#include "elementwise.h"
#include "op.h"

enum { SQUARED_DIFFERENCE_OPTIONS = 76, SQDIFF_LEFT_SHIFT = 7 };

/* Inputs are shifted left by 7 bits and brought to 2 * max(scale1, scale2); the
 * squared difference is then on (2 * max)^2 / 2^14 and rescaled to the output by a
 * multiplier that may exceed 1. The kernel is ADD's descriptor with no activation. */
static bool prepare_constants(PrepareCtx *pc, Node *node, EwArith *d, const Tensor *a, const Tensor *b,
                              const Tensor *out) {
  d->type = TT_INT8;
  d->params = EW_ADDSUB_PARAMS;
  d->in1_offset = -tensor_zero_point(a);
  d->in2_offset = -tensor_zero_point(b);
  d->out_offset = tensor_zero_point(out);
  d->left_shift = SQDIFF_LEFT_SHIFT;
  d->act_min = -128;
  d->act_max = 127;
  const double twice_max = 2.0 * (double)fmaxf(tensor_scale(a), tensor_scale(b));
  const float shifted_out_scale = (float)(1 << (2 * SQDIFF_LEFT_SHIFT)) * tensor_scale(out); /* float, as TFLite */
  if (!ew_input_multipliers(pc, node, d, (double)tensor_scale(a) / twice_max, (double)tensor_scale(b) / twice_max))
    return false;
  const double m = twice_max * twice_max / (double)shifted_out_scale;
  return ew_multiplier(pc, node, m, "output", &d->out_multiplier, &d->out_shift);
}

static bool squared_difference_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, SQUARED_DIFFERENCE_OPTIONS)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (out->type != TT_INT8)
    return op_error(pc, node, "%s has dtype %s; SQUARED_DIFFERENCE supports int8", op_tensor_desc(pc, out),
                    tensor_type_name(out->type));
  if (!op_expect_type(pc, node, a, TT_INT8) || !op_expect_type(pc, node, b, TT_INT8)) return false;
  if (!ew_expect_quant(pc, node, a) || !ew_expect_quant(pc, node, b) || !ew_expect_quant(pc, node, out))
    return false;
  EwArith *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, a, b, out, &d->bc) || !prepare_constants(pc, node, d, a, b, out)) return false;
  node->op_data = d;
  node->kernel = "ta_squared_difference_s8";
  node->families[0] = "elementwise";
  node->macs = out->elems;
  return true;
}

const OpDef op_squared_difference = {
    .name = "SQUARED_DIFFERENCE",
    .builtin_code = 99,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions",
    .prepare = squared_difference_prepare,
    .emit = ew_arith_emit,
};
