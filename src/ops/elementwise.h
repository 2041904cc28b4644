/* Helpers shared by the elementwise operators (ADD, SUB, MUL, SQUARED_DIFFERENCE,
 * MAXIMUM, MINIMUM, PRELU, the activations, QUANTIZE, DEQUANTIZE): broadcast walks
 * for runtime/kernels/ta_elementwise.h, fused activations, quantization checks, and
 * the 256-entry tables behind runtime/kernels/ta_lut.h. */
#ifndef TINYAOT_ELEMENTWISE_H
#define TINYAOT_ELEMENTWISE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op.h"

enum { EW_MAX_BCAST_RANK = 6 }; /* = TA_BCAST_MAX_RANK */

/* A compiled broadcast walk: output extents with runs of jointly contiguous
 * dimensions merged, and each input's element stride (0 = broadcast). */
typedef struct EwBcast {
  int rank;
  int32_t dims[EW_MAX_BCAST_RANK];
  int32_t stride1[EW_MAX_BCAST_RANK];
  int32_t stride2[EW_MAX_BCAST_RANK];
} EwBcast;

/* Checks that `out` has the NumPy broadcast shape of `a` and `b` (ranks up to
 * TA_MAX_RANK, at most EW_MAX_BCAST_RANK after merging) and builds the walk. */
bool ew_broadcast(PrepareCtx *pc, const Node *node, const Tensor *a, const Tensor *b, const Tensor *out,
                  EwBcast *bc);
/* Writes the braced initializer of a ta_bcast_t ("{.rank = 1, ...}") into buf. */
void ew_bcast_init(char *buf, size_t cap, const EwBcast *bc);

/* Reads the fused_activation_function option (field `field`, default NONE) and
 * accepts NONE, RELU, RELU_N1_TO_1 and RELU6. */
bool ew_fused_activation(PrepareCtx *pc, const Node *node, int field, int *act);
/* Per-tensor quantization with scale > 0 and a zero point inside the dtype's range. */
bool ew_expect_quant(PrepareCtx *pc, const Node *node, const Tensor *t);
/* ew_expect_quant plus zero point == 0 (TFLite's symmetric int16 kernels). */
bool ew_expect_symmetric(PrepareCtx *pc, const Node *node, const Tensor *t);
/* Same dtype and element count as `in`, at most INT32_MAX elements. */
bool ew_expect_unary_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out);
/* Both tensors have the same scale and zero point. */
bool ew_expect_same_quant(PrepareCtx *pc, const Node *node, const Tensor *a, const Tensor *b);
/* TFLite QuantizeMultiplierSmallerThanOneExp: rejects m outside (0, 1). */
bool ew_multiplier_below_one(PrepareCtx *pc, const Node *node, double m, const char *what, int32_t *q,
                             int32_t *shift);
/* Writes a finite float as a C99 literal that reads back exactly ("0.25f");
 * infinities become +-FLT_MAX, TFLite's bounds for an absent activation. */
void ew_float_literal(char *buf, size_t cap, float f);

/* A unary operator's prepared data: an 8-bit map tabulated at compile time
 * (ta_lut), TFLite's int16 sigmoid-table interpolation (ta_activation), or a plain
 * float32 kernel taking (size, input, output) (ta_activation_f32). */
typedef enum EwUnaryKind { EW_LUT8, EW_SIGMOID16, EW_PLAIN_F32 } EwUnaryKind;

typedef struct EwUnary {
  EwUnaryKind kind;
  int64_t size;              /* elements */
  bool uint8_input;          /* EW_LUT8: the input bytes are uint8 */
  int8_t table[256];         /* EW_LUT8: output for the input whose byte is b */
  int32_t multiplier, shift; /* EW_SIGMOID16: input rescale */
} EwUnary;

/* Allocates the data in the arena as node->op_data and sets the node's kernel
 * (`kernel` names it for EW_SIGMOID16 / EW_PLAIN_F32) and family. */
EwUnary *ew_unary_new(PrepareCtx *pc, Node *node, EwUnaryKind kind, const Tensor *in, const char *kernel);
/* EW_LUT8: the input value whose byte is b. */
int32_t ew_lut_input(const EwUnary *u, int b);
/* The int16 LOGISTIC / TANH input rescale TFLite Micro derives from the input
 * scale; checks the symmetric, 2^-15 output quantization the kernels assume. */
bool ew_sigmoid16_rescale(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, bool is_tanh,
                          EwUnary *u);
/* emit() of every EwUnary node. */
void ew_unary_emit(EmitCtx *ec, const Model *m, const Node *node);

#endif
