/* Helpers of the unary math operators (ABS, NEG, SQRT, RSQRT, SQUARE, EXP, LOG, SIN,
 * COS, CEIL, FLOOR, ROUND, ELU) and of the int16 / float32 forms of the activations
 * (RELU, RELU6, LEAKY_RELU, HARD_SWISH): shared checks, the float32 kernels of
 * runtime/kernels/ta_math_f32.h and the int16 requantising kernels of
 * runtime/kernels/ta_unary_s16.h. 8-bit forms use the tables of elementwise.h. */
#ifndef TINYAOT_MATH_UNARY_H
#define TINYAOT_MATH_UNARY_H
#include <stdbool.h>
#include <stdint.h>

#include "elementwise.h"
#include "op.h"

/* One input, one output of the same dtype and shape; the input's dtype must be one
 * of `allowed` (bit 1 << TensorType), listed as `dtypes` in the message. */
bool mu_expect_unary(PrepareCtx *pc, Node *node, const char *name, uint32_t allowed, const char *dtypes,
                     const Tensor **in, const Tensor **out);
#define MU_TYPE(t) (1u << (t))

/* float32: the kernel `kernel` of ta_math_f32.h taking (size, in, out). */
bool mu_float_map(PrepareCtx *pc, Node *node, const Tensor *in, const char *kernel);

/* int16: the prepared data of a ta_unary_s16.h kernel. */
typedef struct MathS16 {
  int64_t size;
  int32_t in_offset, out_offset;
  int32_t pos_multiplier, pos_shift, neg_multiplier, neg_shift;
  int32_t act_min, act_max;
  bool raw; /* unquantized (ta_abs_raw_s16 takes only the size) */
} MathS16;

/* Allocates node->op_data, sets the kernel and family; multipliers identity, clamp
 * to the int16 range, offsets 0. */
MathS16 *mu_s16_new(PrepareCtx *pc, Node *node, const Tensor *in, const char *kernel);
/* The identity requantisation (1.0 = 2^30 * 2^1): exact for any int16 difference. */
void mu_identity_multiplier(int32_t *multiplier, int32_t *shift);
void mu_s16_emit(EmitCtx *ec, const Model *m, const Node *node);

/* LEAKY_RELU float32: alpha from the options. */
bool mu_leaky_relu_f32(PrepareCtx *pc, Node *node, const Tensor *in, float alpha);
void mu_leaky_relu_f32_emit(EmitCtx *ec, const Model *m, const Node *node);

/* emit() of operators whose int16 form is a MathS16, float32 leaky relu aside, and
 * whose other forms are EwUnary nodes: dispatches on the input dtype. */
void mu_unary_emit(EmitCtx *ec, const Model *m, const Node *node);

/* TFLite's GetInvSqrtQuantizedMultiplierExp with the reversed shift (kReverseShift):
 * 1 / sqrt(x) for x >= 0 as a multiplier and a shift for fx_requantize (x <= 1 gives
 * INT32_MAX, shift 0). Newton-Raphson in gemmlowp Q3.28, bit for bit. */
void mu_inv_sqrt_multiplier(int32_t x, int32_t *multiplier, int32_t *shift);

#endif
