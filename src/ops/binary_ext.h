/* Binary elementwise operators on the dtypes the quantized helpers of elementwise.h
 * do not cover (float32 DIV-like operators, int16 / int32 / int64 comparisons, int32
 * arithmetic, int8 DIV): prepare and emit for runtime/kernels/ta_binary.h. The
 * prepared data is an EwArith (elementwise.h) whose `type` says which descriptor the
 * kernel takes, so operators can mix these dtypes with their existing paths. */
#ifndef TINYAOT_BINARY_EXT_H
#define TINYAOT_BINARY_EXT_H
#include <stdbool.h>
#include <stdint.h>

#include "elementwise.h"
#include "op.h"

/* How an operator treats its fused activation on a plain (unquantized) dtype. */
typedef enum BxActivation {
  BX_ACT_ABSENT,   /* the operator has no activation option */
  BX_ACT_APPLIED,  /* clamp to TFLite's range for the activation */
  BX_ACT_IGNORED,  /* read and validated, then dropped (TFLite Micro's int32 ADD) */
  BX_ACT_NONE_ONLY /* anything but NONE is refused (behaviour not confirmed) */
} BxActivation;

/* One unquantized dtype of a binary operator: the kernel for that dtype. */
typedef struct BxOp {
  const char *name;      /* "DIV", for messages */
  uint8_t options;       /* BuiltinOptions tag (absent options are accepted) */
  BxActivation activation;
  TensorType type;       /* TT_FLOAT32 or TT_INT32 */
  const char *kernel;
  bool macs_per_element;
} BxOp;

/* Two inputs and the output of op->type, the activation, broadcasting; node->op_data
 * is an EwArith of that type. */
bool bx_prepare_plain(PrepareCtx *pc, Node *node, const BxOp *op);
/* Raw MAXIMUM / MINIMUM on a non-int8 dtype (kernel names the dtype's kernel):
 * inputs and output of one dtype and, when quantized, one quantization; node->op_data
 * is an EwBcast (emit with ew_raw_compare_emit). */
bool bx_prepare_raw(PrepareCtx *pc, Node *node, const char *name, uint8_t options, const char *kernel);
/* Sets the node's families for a ta_binary kernel (it also needs ta_elementwise.h). */
void bx_set_families(Node *node);
/* emit() for EwArith nodes of every dtype: int32 here, the rest by ew_arith_emit. */
void bx_arith_emit(EmitCtx *ec, const Model *m, const Node *node);

#endif
