/* LOG_SOFTMAX over the last dimension: float32 and int8 (TFLite Micro's fixed output
 * quantization 16/256, zero point 127; gemmlowp exp / log in the kernel). */
#include <math.h>

#include "math_unary.h"

enum { LOG_SOFTMAX_INPUT_INT_BITS = 5 }; /* differences in Q5.26 */

typedef struct LogSoftmaxData {
  TensorType type;
  int32_t outer, depth;
  int32_t input_multiplier, input_left_shift, reverse_multiplier, reverse_shift, diff_min;
} LogSoftmaxData;

/* TFLite's PreprocessLogSoftmaxScalingExp (beta 1) and CalculateInputRadius. */
static bool int8_scaling(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, LogSoftmaxData *d) {
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out)) return false;
  if (tensor_scale(out) != 16.0f / 256.0f || tensor_zero_point(out) != 127)
    return op_error(pc, node, "%s must have scale 16/256 and zero point 127 (TFLite's fixed int8 LOG_SOFTMAX output)",
                    op_tensor_desc(pc, out));
  const int frac_bits = 31 - LOG_SOFTMAX_INPUT_INT_BITS;
  double m = (double)tensor_scale(in) * (double)((int64_t)1 << frac_bits);
  if (m > 2147483647.0) m = 2147483647.0;
  const QuantRange above_one = {1, 31, "LOG_SOFTMAX input scaling (a factor above 1)"};
  if (!op_quant_multiplier(pc, node, m, above_one, &d->input_multiplier, &d->input_left_shift,
                           "input scale * 2^26 of tensor %d '%s'", OP_TENSOR_ARG(in)))
    return false;
  const double reverse = (double)((int64_t)1 << (31 - d->input_left_shift)) / (double)d->input_multiplier;
  if (!op_quant_multiplier(pc, node, reverse, QUANT_RANGE_BELOW_ONE, &d->reverse_multiplier, &d->reverse_shift,
                           "reverse input scaling of tensor %d '%s'", OP_TENSOR_ARG(in)))
    return false;
  const double radius = (double)((1 << LOG_SOFTMAX_INPUT_INT_BITS) - 1) * (double)((int64_t)1 << frac_bits) /
                        (double)((int64_t)1 << d->input_left_shift);
  d->diff_min = -(int32_t)floor(radius);
  return true;
}

static bool log_softmax_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  if (!mu_expect_unary(pc, node, "LOG_SOFTMAX", MU_TYPE(TT_INT8) | MU_TYPE(TT_FLOAT32), "int8 and float32", &in,
                       &out))
    return false;
  if (in->rank < 1) return op_error(pc, node, "%s is a scalar; LOG_SOFTMAX needs a last dimension",
                                    op_tensor_desc(pc, in));
  LogSoftmaxData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->type = in->type;
  d->depth = in->dims[in->rank - 1];
  d->outer = d->depth > 0 ? (int32_t)(in->elems / d->depth) : 0;
  if (in->type == TT_INT8 && !int8_scaling(pc, node, in, out, d)) return false;
  node->op_data = d;
  node->kernel = in->type == TT_INT8 ? "ta_log_softmax_s8" : "ta_log_softmax_f32";
  node->families[0] = "log_softmax";
  node->macs = 0;
  return true;
}

static void log_softmax_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const LogSoftmaxData *d = node->op_data;
  (void)m;
  if (d->outer == 0) return;
  if (d->type == TT_FLOAT32)
    em_decl(ec, "static const ta_log_softmax_params_t %s_params = {.outer = %d, .depth = %d};", em_op_name(ec),
            d->outer, d->depth);
  else
    em_decl(ec,
            "static const ta_log_softmax_params_t %s_params = {\n  .outer = %d, .depth = %d,\n"
            "  .input_multiplier = %d, .input_left_shift = %d,\n  .reverse_multiplier = %d, .reverse_shift = %d,\n"
            "  .diff_min = %d,\n};",
            em_op_name(ec), d->outer, d->depth, d->input_multiplier, d->input_left_shift, d->reverse_multiplier,
            d->reverse_shift, d->diff_min);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_log_softmax = {
    .name = "LOG_SOFTMAX",
    .builtin_code = 50,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "last dimension; int8 output scale 16/256, zero point 127",
    .prepare = log_softmax_prepare,
    .emit = log_softmax_emit,
};
