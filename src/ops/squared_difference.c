/* SQUARED_DIFFERENCE: (a - b)^2 with NumPy broadcasting, int8 (TFLite Micro's
 * rescale-then-square path). */
#include <math.h>

#include "../resolve/quant.h"
#include "elementwise.h"
#include "op.h"

enum { SQUARED_DIFFERENCE_OPTIONS = 76, SQDIFF_LEFT_SHIFT = 7 };

typedef struct SqDiffData {
  EwBcast bc;
  int32_t in1_offset, in2_offset, in1_multiplier, in1_shift, in2_multiplier, in2_shift;
  int32_t out_multiplier, out_shift, out_offset;
} SqDiffData;

/* Inputs are shifted left by 7 bits and brought to 2 * max(scale1, scale2); the
 * squared difference is then on (2 * max)^2 / 2^14 and rescaled to the output by a
 * multiplier that may exceed 1. */
static bool prepare_constants(PrepareCtx *pc, Node *node, SqDiffData *d, const Tensor *a, const Tensor *b,
                              const Tensor *out) {
  d->in1_offset = -tensor_zero_point(a);
  d->in2_offset = -tensor_zero_point(b);
  d->out_offset = tensor_zero_point(out);
  const double twice_max = 2.0 * (double)fmaxf(tensor_scale(a), tensor_scale(b));
  const float shifted_out_scale = (float)(1 << (2 * SQDIFF_LEFT_SHIFT)) * tensor_scale(out); /* float, as TFLite */
  if (!ew_multiplier_below_one(pc, node, (double)tensor_scale(a) / twice_max, "input 1", &d->in1_multiplier,
                               &d->in1_shift) ||
      !ew_multiplier_below_one(pc, node, (double)tensor_scale(b) / twice_max, "input 2", &d->in2_multiplier,
                               &d->in2_shift))
    return false;
  const double m = twice_max * twice_max / (double)shifted_out_scale;
  quant_multiplier(m, &d->out_multiplier, &d->out_shift);
  if (d->out_multiplier == 0 || d->out_shift > 30)
    return op_error(pc, node, "output rescale factor %g is out of range", m);
  return true;
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
  SqDiffData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, a, b, out, &d->bc) || !prepare_constants(pc, node, d, a, b, out)) return false;
  node->op_data = d;
  node->kernel = "ta_squared_difference_s8";
  node->families[0] = "elementwise";
  node->macs = out->elems;
  return true;
}

static void squared_difference_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const SqDiffData *d = node->op_data;
  (void)m;
  if (d->bc.rank == 0) return; /* empty output */
  char bc[512];
  ew_bcast_init(bc, sizeof bc, &d->bc);
  em_decl(ec,
          "static const ta_addsub_params_t %s_params = {\n  .bc = %s,\n"
          "  .in1_offset = %d, .in2_offset = %d,\n"
          "  .in1_multiplier = %d, .in1_shift = %d,\n"
          "  .in2_multiplier = %d, .in2_shift = %d,\n"
          "  .left_shift = %d,\n"
          "  .out_multiplier = %d, .out_shift = %d, .out_offset = %d,\n"
          "  .act_min = -128, .act_max = 127,\n};",
          em_op_name(ec), bc, d->in1_offset, d->in2_offset, d->in1_multiplier, d->in1_shift, d->in2_multiplier,
          d->in2_shift, SQDIFF_LEFT_SHIFT, d->out_multiplier, d->out_shift, d->out_offset);
  em_body(ec, "%s(&%s_params, %s, %s, %s);", node->kernel, em_op_name(ec), em_tensor(ec, node->in[0]),
          em_tensor(ec, node->in[1]), em_tensor(ec, node->out[0]));
}

const OpDef op_squared_difference = {
    .name = "SQUARED_DIFFERENCE",
    .builtin_code = 99,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions",
    .prepare = squared_difference_prepare,
    .emit = squared_difference_emit,
};
