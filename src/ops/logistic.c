/* LOGISTIC (sigmoid): int8 tabulated from TFLite's gemmlowp fixed-point logistic,
 * int16 by TFLite Micro's sigmoid-table interpolation, float32 with expf. */
#include "elementwise.h"
#include "fixed_point.h"
#include "op.h"

/* int8: the Q0.31 logistic is rounded to 1/256 steps and offset by the output zero
 * point -128. */
static const EwSigmoidOp logistic_sigmoid = {
    .name = "LOGISTIC",
    .function = "logistic",
    .out_scale_s8 = 1.0f / 256.0f,
    .out_scale_text = "1/256",
    .out_zero_point_s8 = -128,
    .q4_to_q31 = fx_logistic_q4,
    .result_shift = 23,
    .is_tanh = false,
    .kernel_s16 = "ta_logistic_s16",
    .kernel_f32 = "ta_logistic_f32",
};

static bool logistic_prepare(PrepareCtx *pc, Node *node) { return ew_sigmoid_prepare(pc, node, &logistic_sigmoid); }

const OpDef op_logistic = {
    .name = "LOGISTIC",
    .builtin_code = 14,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "int8 output scale 1/256, zero point -128; int16 zero points 0, output scale 2^-15",
    .prepare = logistic_prepare,
    .emit = ew_unary_emit,
};
