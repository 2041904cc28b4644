/* ADD: elementwise sum with NumPy broadcasting and a fused activation; int8 and
 * int16 (TFLite Micro's general-scale quantized path) and float32. */
#include <math.h>

#include "../resolve/quant.h"
#include "elementwise.h"
#include "op.h"

enum { ADD_OPTIONS = 11, ADD_OPT_ACTIVATION = 0 };

typedef struct AddData {
  EwBcast bc;
  TensorType type;
  /* quantized */
  int32_t in1_offset, in2_offset, in1_multiplier, in1_shift, in2_multiplier, in2_shift;
  int32_t left_shift, out_multiplier, out_shift, out_offset, act_min, act_max;
  /* float32 */
  float act_min_f, act_max_f;
} AddData;

/* Both inputs are brought to 2 * max(scale1, scale2) after a left shift of 20 bits
 * (int8) or 15 (int16) that keeps precision; the sum is then rescaled to the
 * output. Multipliers are computed in double, as TFLite Micro's ADD does. */
static bool prepare_quantized(PrepareCtx *pc, Node *node, AddData *d, int act, const Tensor *a, const Tensor *b,
                              const Tensor *out) {
  if (!ew_expect_quant(pc, node, a) || !ew_expect_quant(pc, node, b) || !ew_expect_quant(pc, node, out))
    return false;
  d->in1_offset = -tensor_zero_point(a);
  d->in2_offset = -tensor_zero_point(b);
  d->out_offset = tensor_zero_point(out);
  d->left_shift = out->type == TT_INT16 ? 15 : 20;
  const double twice_max = 2.0 * (double)fmaxf(tensor_scale(a), tensor_scale(b));
  const double out_scale = (double)(1 << d->left_shift) * (double)tensor_scale(out);
  if (!ew_multiplier_below_one(pc, node, (double)tensor_scale(a) / twice_max, "input 1", &d->in1_multiplier,
                               &d->in1_shift) ||
      !ew_multiplier_below_one(pc, node, (double)tensor_scale(b) / twice_max, "input 2", &d->in2_multiplier,
                               &d->in2_shift) ||
      !ew_multiplier_below_one(pc, node, twice_max / out_scale, "output", &d->out_multiplier, &d->out_shift))
    return false;
  if (!quant_activation_range(act, out->type, tensor_scale(out), d->out_offset, &d->act_min, &d->act_max))
    return op_error(pc, node, "cannot compute the activation range");
  return true;
}

static bool add_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, ADD_OPTIONS)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (out->type != TT_INT8 && out->type != TT_INT16 && out->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; ADD supports int8, int16 and float32", op_tensor_desc(pc, out),
                    tensor_type_name(out->type));
  if (!op_expect_type(pc, node, a, out->type) || !op_expect_type(pc, node, b, out->type)) return false;
  AddData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  int act;
  if (!ew_fused_activation(pc, node, ADD_OPT_ACTIVATION, &act) || !ew_broadcast(pc, node, a, b, out, &d->bc))
    return false;
  d->type = out->type;
  if (out->type == TT_FLOAT32) {
    quant_activation_range_f32(act, &d->act_min_f, &d->act_max_f);
  } else if (!prepare_quantized(pc, node, d, act, a, b, out)) {
    return false;
  }
  node->op_data = d;
  node->kernel = out->type == TT_INT8 ? "ta_add_s8" : out->type == TT_INT16 ? "ta_add_s16" : "ta_add_f32";
  node->families[0] = "elementwise";
  node->macs = 0;
  return true;
}

static void add_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const AddData *d = node->op_data;
  if (d->bc.rank == 0) return; /* empty output */
  char bc[512];
  ew_bcast_init(bc, sizeof bc, &d->bc);
  if (d->type == TT_FLOAT32) {
    char lo[32], hi[32];
    ew_float_literal(lo, sizeof lo, d->act_min_f);
    ew_float_literal(hi, sizeof hi, d->act_max_f);
    em_decl(ec, "static const ta_arith_f32_params_t %s_params = {\n  .bc = %s,\n  .act_min = %s, .act_max = %s,\n};",
            em_op_name(ec), bc, lo, hi);
  } else {
    em_decl(ec,
            "static const ta_addsub_params_t %s_params = {\n  .bc = %s,\n"
            "  .in1_offset = %d, .in2_offset = %d,\n"
            "  .in1_multiplier = %d, .in1_shift = %d,\n"
            "  .in2_multiplier = %d, .in2_shift = %d,\n"
            "  .left_shift = %d,\n"
            "  .out_multiplier = %d, .out_shift = %d, .out_offset = %d,\n"
            "  .act_min = %d, .act_max = %d,\n};",
            em_op_name(ec), bc, d->in1_offset, d->in2_offset, d->in1_multiplier, d->in1_shift, d->in2_multiplier,
            d->in2_shift, d->left_shift, d->out_multiplier, d->out_shift, d->out_offset, d->act_min, d->act_max);
  }
  em_body(ec, "%s(&%s_params, %s, %s, %s);", node->kernel, em_op_name(ec), em_tensor(ec, node->in[0]),
          em_tensor(ec, node->in[1]), em_tensor(ec, node->out[0]));
  (void)m;
}

const OpDef op_add = {
    .name = "ADD",
    .builtin_code = 0,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions; fused NONE/RELU/"
                   "RELU_N1_TO_1/RELU6",
    .prepare = add_prepare,
    .emit = add_emit,
};
