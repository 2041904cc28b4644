/* TANH: int8 tabulated from TFLite's gemmlowp fixed-point tanh, int16 by TFLite
 * Micro's sigmoid-table interpolation (tanh(x) = 2 sigmoid(2x) - 1), float32 with tanhf. */
#include "elementwise.h"
#include "fixed_point.h"
#include "op.h"

/* int8: the Q0.31 tanh is rounded to 1/128 steps, output zero point 0. */
static const EwSigmoidOp tanh_sigmoid = {
    .name = "TANH",
    .function = "tanh",
    .out_scale_s8 = 1.0f / 128.0f,
    .out_scale_text = "1/128",
    .out_zero_point_s8 = 0,
    .q4_to_q31 = fx_tanh_q4,
    .result_shift = 24,
    /* HEAD passed false here as well: an input scale of exactly 2^-11 takes the
     * general rescale (multiplier 24576, shift 12) instead of TFLite's 3 << 1 fast
     * path; both give the same values, and the descriptor stays as it was. */
    .is_tanh = false,
    .kernel_s16 = "ta_tanh_s16",
    .kernel_f32 = "ta_tanh_f32",
};

static bool tanh_prepare(PrepareCtx *pc, Node *node) { return ew_sigmoid_prepare(pc, node, &tanh_sigmoid); }

const OpDef op_tanh = {
    .name = "TANH",
    .builtin_code = 28,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "int8 output scale 1/128, zero point 0; int16 zero points 0, output scale 2^-15",
    .prepare = tanh_prepare,
    .emit = ew_unary_emit,
};
