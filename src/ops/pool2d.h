/* Shared contract of AVERAGE_POOL_2D and MAX_POOL_2D: Pool2DOptions, TFLite
 * padding, shape and quantization checks, and the ta_pool_params_t descriptor. */
#ifndef TINYAOT_POOL2D_H
#define TINYAOT_POOL2D_H
#include "op.h"

typedef struct PoolData {
  TensorType type;
  int32_t batches, depth, in_h, in_w, out_h, out_w;
  int32_t filter_h, filter_w, stride_h, stride_w, pad_h, pad_w;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
} PoolData;

/* Validates a pooling node and fills node->op_data / kernel / families. `kernel_base`
 * is "ta_avg_pool" or "ta_max_pool"; the dtype suffix is appended. */
bool pool2d_prepare(PrepareCtx *pc, Node *node, const char *kernel_base);
/* Emits the descriptor and the call of node->kernel. */
void pool2d_emit(EmitCtx *ec, const Model *m, const Node *node);

#endif
