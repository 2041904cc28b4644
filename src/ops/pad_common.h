/* Shared contract of PAD and PADV2: constant paddings, the pad value (the output zero
 * point, zero, or the constant_values input) and the ta_pad_params_t descriptor. */
#ifndef TINYAOT_PAD_COMMON_H
#define TINYAOT_PAD_COMMON_H
#include "op.h"

/* Validates a PAD / PADV2 node whose data dtype is one of types[0..n_types) and fills
 * node->op_data / kernel / families. */
bool pad_prepare(PrepareCtx *pc, Node *node, const TensorType *types, int n_types);
void pad_emit(EmitCtx *ec, const Model *m, const Node *node);

#endif
