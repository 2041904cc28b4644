/* Shared contract of MEAN, SUM, REDUCE_MAX and REDUCE_MIN (and the ARG_MAX / ARG_MIN
 * prepare): the constant axis list, keep_dims, the
 * split of the input's dimensions into kept (output) and reduced loops, and the
 * ta_reduce_params_t descriptor (runtime/kernels/ta_reduce.h). */
#ifndef TINYAOT_REDUCE_COMMON_H
#define TINYAOT_REDUCE_COMMON_H
#include "op.h"

enum { REDUCE_MAX_DIMS = 6 }; /* TA_REDUCE_MAX_DIMS */

typedef struct ReducePlan {
  const char *kernel;
  int outer_rank, inner_rank;
  int32_t outer_count[REDUCE_MAX_DIMS], outer_stride[REDUCE_MAX_DIMS];
  int32_t inner_count[REDUCE_MAX_DIMS], inner_stride[REDUCE_MAX_DIMS];
  int32_t reduce_count;
  int32_t input_zero_point, output_zero_point, multiplier, shift;
  /* The axis tensor as written in the model (negative values, duplicates). */
  int n_raw_axes;
  int64_t raw_axes[REDUCE_MAX_DIMS];
} ReducePlan;

/* Checks the node's inputs, options and output shape and fills a new plan (returned
 * in *plan and node->op_data; node->families set) with the loops and reduce_count;
 * the caller picks the kernel and quantization constants. */
bool reduce_prepare_common(PrepareCtx *pc, Node *node, ReducePlan **plan);
/* The quantized sums accumulate in int32: an int16 input may sum at most 2^16
 * elements (int8's 2^23 bound is checked by reduce_prepare_common). */
bool reduce_expect_sum_bound(PrepareCtx *pc, const Node *node, const Tensor *in, const ReducePlan *rp);
/* Emits the descriptor and the call of plan->kernel. */
void reduce_emit(EmitCtx *ec, const Model *m, const Node *node);

/* ARG_MAX / ARG_MIN (arg_max.c): a constant axis, int8 or float32 input, int32
 * output; node->op_data is the [outer][axis][inner] split, emitted by arg_extreme_emit. */
bool arg_extreme_prepare(PrepareCtx *pc, Node *node, int options, bool is_min);
void arg_extreme_emit(EmitCtx *ec, const Model *m, const Node *node);

#endif
