/* Shared by the six comparison operators (EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL,
 * LESS, LESS_EQUAL) and the bool logic operators: NumPy broadcasting of two inputs
 * into a bool output, runtime/kernels/ta_compare.h. */
#ifndef TINYAOT_COMPARISON_H
#define TINYAOT_COMPARISON_H
#include <stdbool.h>

#include "elementwise.h"
#include "op.h"

/* What sets one comparison apart. */
typedef struct CompareOp {
  const char *name;  /* "EQUAL", for messages */
  int32_t op;        /* ta_compare_op_t */
  bool allows_bool;  /* EQUAL / NOT_EQUAL also compare bool tensors */
} CompareOp;

/* Prepared data of a comparison: the walk and the fields of ta_compare_params_t. */
typedef struct CompareData {
  EwBcast bc;
  int32_t op;
  int32_t in1_offset, in2_offset, in1_multiplier, in1_shift, in2_multiplier, in2_shift;
} CompareData;

/* prepare(): two inputs of one dtype (float32, int32, int64, quantized int8; bool
 * when op->allows_bool), a bool output of their broadcast shape. */
bool cmp_prepare(PrepareCtx *pc, Node *node, const CompareOp *op);
/* emit() of every comparison: the ta_compare_params_t and the kernel call. */
void cmp_emit(EmitCtx *ec, const Model *m, const Node *node);

/* prepare() of LOGICAL_AND / LOGICAL_OR: two bool inputs broadcast into a bool
 * output; node->op_data is the EwBcast, emitted by ew_raw_compare_emit. */
bool cmp_logical_prepare(PrepareCtx *pc, Node *node, const char *name, const char *kernel);

#define CMP_CAPABILITIES \
  (CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE)

#endif
