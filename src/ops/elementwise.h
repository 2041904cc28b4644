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

/* Reads the fused_activation_function of the node's decoded options (default NONE)
 * and accepts NONE, RELU, RELU_N1_TO_1 and RELU6. */
bool ew_fused_activation(PrepareCtx *pc, const Node *node, int *act);
/* Per-tensor quantization with scale > 0 and a zero point inside the dtype's range. */
bool ew_expect_quant(PrepareCtx *pc, const Node *node, const Tensor *t);
/* ew_expect_quant plus zero point == 0 (TFLite's symmetric int16 kernels). */
bool ew_expect_symmetric(PrepareCtx *pc, const Node *node, const Tensor *t);
/* Same dtype and element count as `in`, at most INT32_MAX elements. */
bool ew_expect_unary_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out);
/* Both tensors have the same scale and zero point. */
bool ew_expect_same_quant(PrepareCtx *pc, const Node *node, const Tensor *a, const Tensor *b);
/* TFLite QuantizeMultiplierSmallerThanOneExp: rejects m outside (0, 1) (and, through
 * op_quant_multiplier, one that rounds up to 1). */
bool ew_multiplier_below_one(PrepareCtx *pc, const Node *node, double m, const char *what, int32_t *q,
                             int32_t *shift);
/* TFLite QuantizeMultiplier for a factor that may exceed 1, applied by ta_requantize:
 * op_quant_multiplier with QUANT_RANGE_INT32. */
bool ew_multiplier(PrepareCtx *pc, const Node *node, double m, const char *what, int32_t *q, int32_t *shift);
/* Writes a finite float as a C99 literal that reads back exactly ("0.25f");
 * infinities become +-FLT_MAX, TFLite's bounds for an absent activation. */
void ew_float_literal(char *buf, size_t cap, float f);
/* Emits "<kernel>(&<op>_<descriptor>, in1, in2, out);", the call of every binary
 * elementwise kernel (`descriptor` is the suffix of its em_decl name: "params"). */
void ew_emit_binary_call(EmitCtx *ec, const Node *node, const char *descriptor);

/* ---- binary arithmetic: ADD, SUB, MUL, SQUARED_DIFFERENCE ---- */

/* Which descriptor a quantized arithmetic kernel takes. */
typedef enum EwArithParams { EW_ADDSUB_PARAMS, EW_MUL_PARAMS } EwArithParams;

/* Prepared data of ADD, SUB, MUL and SQUARED_DIFFERENCE: the broadcast walk and the
 * fields of ta_addsub_params_t / ta_mul_params_t (MUL leaves the input multipliers
 * and left_shift unused) or, for float32, ta_arith_f32_params_t. */
typedef struct EwArith {
  EwBcast bc;
  TensorType type;
  EwArithParams params;
  /* quantized */
  int32_t in1_offset, in2_offset, in1_multiplier, in1_shift, in2_multiplier, in2_shift;
  int32_t left_shift, out_multiplier, out_shift, out_offset, act_min, act_max;
  /* float32 */
  float act_min_f, act_max_f;
  /* int8 ADD / SUB without broadcasting: the folded plan (addsub_flat.h), else NULL */
  const struct AddFlatPlan *flat;
} EwArith;

/* What sets ADD, SUB and MUL apart; each operator file defines one. */
typedef struct EwArithOp {
  const char *name;       /* "ADD", for messages */
  uint8_t options;        /* OptionsKind (the BuiltinOptions tag) */
  EwArithParams params;   /* descriptor of the quantized kernels */
  const char *kernel_s8, *kernel_s16, *kernel_f32;
  bool macs_per_element;  /* one multiply per output element (MUL); otherwise 0 MACs */
  int flat_sign;          /* int8 same-shape inputs: +1 ADD, -1 SUB (addsub_flat.h); 0 none */
  /* Validates the int8 / int16 quantization and fills the quantized fields of d
   * (act is the fused activation). */
  bool (*prepare_quantized)(PrepareCtx *pc, Node *node, EwArith *d, int act, const Tensor *a, const Tensor *b,
                            const Tensor *out);
} EwArithOp;

/* prepare() of ADD, SUB and MUL: two inputs of the output's dtype (int8, int16 or
 * float32), the fused activation, broadcasting, then op->prepare_quantized. */
bool ew_arith_prepare(PrepareCtx *pc, Node *node, const EwArithOp *op);
/* emit() of every EwArith node. */
void ew_arith_emit(EmitCtx *ec, const Model *m, const Node *node);
/* The quantized constants of ADD and SUB (TFLite Micro's general-scale path). With
 * single_precision the factors are computed in float and only then widened to
 * double, as TFLite Micro's SUB does; ADD computes them in double. */
bool ew_addsub_quantized(PrepareCtx *pc, Node *node, EwArith *d, int act, const Tensor *a, const Tensor *b,
                         const Tensor *out, bool single_precision);
/* The in1 / in2 multipliers from their factors, each checked to lie in (0, 1). */
bool ew_input_multipliers(PrepareCtx *pc, const Node *node, EwArith *d, double m1, double m2);

/* ---- MAXIMUM, MINIMUM ---- */

/* prepare() of MAXIMUM / MINIMUM (int8, one quantization shared by the inputs and
 * the output, which TFLite compares raw); node->op_data is the EwBcast. */
bool ew_raw_compare_prepare(PrepareCtx *pc, Node *node, const char *name, uint8_t options, const char *kernel);
/* emit() of ew_raw_compare_prepare nodes: the ta_bcast_t and the kernel call. */
void ew_raw_compare_emit(EmitCtx *ec, const Model *m, const Node *node);

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

/* What sets LOGISTIC and TANH apart; each operator file defines one. */
typedef struct EwSigmoidOp {
  const char *name;      /* "LOGISTIC", for messages */
  const char *function;  /* "logistic", for messages about the int8 path */
  /* int8: TFLite's fixed output quantization ("1/256" spells the scale in messages),
   * the gemmlowp function from Q4.27 to Q0.31, and the rounding shift that brings
   * its result to output steps (31 - log2(1 / scale)). */
  float out_scale_s8;
  const char *out_scale_text;
  int32_t out_zero_point_s8;
  int32_t (*q4_to_q31)(int32_t x);
  int result_shift;
  bool is_tanh;          /* int16: see ew_sigmoid16_rescale */
  const char *kernel_s16, *kernel_f32;
} EwSigmoidOp;

/* prepare() of LOGISTIC and TANH: int8 tabulated here, int16 and float32 by the
 * kernels op names; emit() is ew_unary_emit. */
bool ew_sigmoid_prepare(PrepareCtx *pc, Node *node, const EwSigmoidOp *op);

#endif
