/* DIV: elementwise quotient with NumPy broadcasting and a fused activation; float32,
 * int32 (truncating) and int8 (TFLite Micro's reciprocal-based quantized path). */
#include "../ir/quant.h"
#include "binary_ext.h"
#include "elementwise.h"
#include "op.h"

enum { DIV_BUILTIN = 42 };

/* The kernel shifts the quotient right by headroom + recip_shift - out_shift; the
 * numerator's headroom is at least 23 for int8 operands (|a - zp| <= 255). */
enum { DIV_S8_MAX_OUT_SHIFT = 23 };

static const BxOp div_f32 = {
    .name = "DIV", .options = OPTS_DIV, .activation = BX_ACT_APPLIED,
    .type = TT_FLOAT32, .kernel = "ta_div_f32", .macs_per_element = false,
};

static const BxOp div_i32 = {
    .name = "DIV", .options = OPTS_DIV, .activation = BX_ACT_APPLIED,
    .type = TT_INT32, .kernel = "ta_div_i32", .macs_per_element = false,
};

/* int8: out = zp_out + (a - zp1) / (b - zp2) * s1 / (s2 * s_out), the factor taken in
 * float (as TFLite Micro computes it) and applied after a Q0.31 reciprocal of the
 * divisor. A zero divisor (b == zp2) is outside the operator's domain. */
static bool div_prepare_s8(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, OPTS_DIV)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!op_expect_type(pc, node, a, TT_INT8) || !op_expect_type(pc, node, b, TT_INT8) ||
      !ew_expect_quant(pc, node, a) || !ew_expect_quant(pc, node, b) || !ew_expect_quant(pc, node, out))
    return false;
  EwArith *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  const int act = node->opts.div.activation;
  if (act != ACT_NONE && act != ACT_RELU && act != ACT_RELU_N1_TO_1 && act != ACT_RELU6)
    return op_error(pc, node, "fused activation %d is not supported (NONE, RELU, RELU_N1_TO_1, RELU6 are)", act);
  if (!ew_broadcast(pc, node, a, b, out, &d->bc)) return false;
  d->type = TT_INT8;
  d->in1_offset = -tensor_zero_point(a);
  d->in2_offset = -tensor_zero_point(b);
  d->out_offset = tensor_zero_point(out);
  const float factor = tensor_scale(a) / (tensor_scale(b) * tensor_scale(out));
  if (!op_quant_multiplier(pc, node, (double)factor, QUANT_RANGE_INT32, &d->out_multiplier, &d->out_shift,
                           "input 1 / (input 2 x output) scale of tensor %d '%s', tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(a), OP_TENSOR_ARG(b), OP_TENSOR_ARG(out)))
    return false;
  if (d->out_shift > DIV_S8_MAX_OUT_SHIFT)
    return op_error(pc, node, "the rescale factor %g is too large for the int8 DIV kernel (shift %d > %d)",
                    (double)factor, (int)d->out_shift, DIV_S8_MAX_OUT_SHIFT);
  if (!quant_activation_range(act, TT_INT8, tensor_scale(out), d->out_offset, &d->act_min, &d->act_max))
    return op_error(pc, node, "cannot compute the activation range");
  node->op_data = d;
  node->kernel = "ta_div_s8";
  bx_set_families(node);
  node->macs = out->elems;
  return true;
}

static bool div_prepare(PrepareCtx *pc, Node *node) {
  if (node->n_out != 1) return op_expect_io(pc, node, 2, 2, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  switch (out->type) {
    case TT_FLOAT32: return bx_prepare_plain(pc, node, &div_f32);
    case TT_INT32: return bx_prepare_plain(pc, node, &div_i32);
    case TT_INT8: return div_prepare_s8(pc, node);
    default:
      return op_error(pc, node, "%s has dtype %s; DIV supports int8, int32 and float32", op_tensor_desc(pc, out),
                      tensor_type_name(out->type));
  }
}

static void div_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const EwArith *d = node->op_data;
  if (d->type != TT_INT8) {
    bx_arith_emit(ec, m, node);
    return;
  }
  if (d->bc.rank == 0) return; /* empty output */
  char bc[512];
  ew_bcast_init(bc, sizeof bc, &d->bc);
  em_decl(ec,
          "static const ta_div_s8_params_t %s_params = {\n  .bc = %s,\n"
          "  .in1_offset = %d, .in2_offset = %d,\n"
          "  .out_multiplier = %d, .out_shift = %d, .out_offset = %d,\n"
          "  .act_min = %d, .act_max = %d,\n};",
          em_op_name(ec), bc, d->in1_offset, d->in2_offset, d->out_multiplier, d->out_shift, d->out_offset,
          d->act_min, d->act_max);
  ew_emit_binary_call(ec, node, "params");
}

const OpDef op_div = {
    .name = "DIV",
    .builtin_code = DIV_BUILTIN,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int32, float32",
    .constraints = "NumPy broadcasting, at most 6 loops after merging contiguous dimensions; fused NONE/RELU/"
                   "RELU_N1_TO_1/RELU6; divisors must be non-zero (int32: x / 0 gives 0, INT32_MIN / -1 wraps; "
                   "int8: a divisor equal to its zero point gives the output zero point); int8 needs "
                   "s1 / (s2 * s_out) < 2^23; where TFLite Micro's reference asserts (a rescale shift above 31: "
                   "small numerators with s1 / (s2 * s_out) below 2^7) tinyaot rounds exactly",
    .prepare = div_prepare,
    .emit = div_emit,
};
