/* Helpers shared by the data-movement, shape and reduction operators: reading
 * constant index tensors, normalising axes, dtype lists, the strided-copy plan
 * (runtime/kernels/ta_strided_copy.h) behind SLICE, STRIDED_SLICE, TRANSPOSE,
 * DEPTH_TO_SPACE and SPACE_TO_DEPTH, the concat/split plan, and the checks the
 * SPLIT, block-rearranging and RESIZE operators have in common. */
#ifndef TINYAOT_DATA_MOVEMENT_H
#define TINYAOT_DATA_MOVEMENT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../ir/copy_plan.h"
#include "op.h"

/* Entries of a dtype list (a static array). */
#define DM_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Reads a constant integer tensor (its dtype must be one of int32 / int64 as
 * allowed) into vals[0..*n). `what` names the operand in messages ("axis"). */
bool dm_const_ints(PrepareCtx *pc, const Node *node, const Tensor *t, const char *what, bool allow_int64,
                   int64_t max_count, int64_t *vals, int *n);
/* axis in [-rank, rank) -> [0, rank); -1 when out of range. */
int dm_axis(int64_t axis, int rank);
/* Accepts t when its dtype is in types[0..n); the message lists them. */
bool dm_expect_dtype(PrepareCtx *pc, const Node *node, const Tensor *t, const TensorType *types, int n,
                     const char *why);
/* Same dtype, shape-independent quantization (scale and zero point) as `ref`. */
bool dm_expect_same_quant(PrepareCtx *pc, const Node *node, const Tensor *ref, const Tensor *t);
/* Every tensor dimension >= 1 and at most `max_rank` dimensions. */
bool dm_expect_dense(PrepareCtx *pc, const Node *node, const Tensor *t, int max_rank);
/* "[1,2,3]" from a list, in the arena. */
const char *dm_list_str(Arena *a, const int64_t *v, int n);
/* Row-major element strides of a tensor. */
void dm_strides(const Tensor *t, int64_t *strides);

/* Builds the plan from `rank` loops (count[d] iterations, input step stride[d] in
 * elements) starting at element `start`; merges contiguous loops and checks every
 * read stays inside `in` and the writes fill `out` exactly. Reports through op_error. */
bool dm_plan_strided_copy(PrepareCtx *pc, const Node *node, StridedCopy *sc, int rank, const int64_t *count,
                          const int64_t *stride, int64_t start, const Tensor *in, const Tensor *out);
/* dm_plan_strided_copy into a new arena StridedCopy that becomes node->op_data, with
 * the ta_strided_copy kernel and family. */
bool dm_prepare_strided_copy(PrepareCtx *pc, Node *node, int rank, const int64_t *count, const int64_t *stride,
                             int64_t start, const Tensor *in, const Tensor *out);
/* Emits the descriptor and the ta_strided_copy call for node->op_data (a StridedCopy). */
void dm_emit_strided_copy(EmitCtx *ec, const Model *m, const Node *node);

/* DEPTH_TO_SPACE / SPACE_TO_DEPTH: checks one input of types[0..n_types) and an
 * output of its dtype, both dense 4D (NHWC), and reads block_size (field 0 of the
 * `options` table; 0 when absent, which the caller rejects). */
bool dm_block_io(PrepareCtx *pc, const Node *node, uint8_t options, const TensorType *types, int n_types,
                 const Tensor **in, const Tensor **out, int64_t *block_size);
/* Reports unless `out` has the NHWC shape `expect`, what block size b makes of `in`. */
bool dm_expect_block_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, int64_t b,
                           const int64_t expect[4]);

/* RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR: checks two inputs, one output, the
 * options tag, an input of types[0..n_types) and an output of its dtype, both NHWC
 * with equal batch and depth, and the constant size input [height, width] against
 * the output. */
bool dm_resize_io(PrepareCtx *pc, const Node *node, uint8_t options, const TensorType *types, int n_types,
                  const Tensor **in, const Tensor **out);

/* "a, b, c" for a C initializer ("0" when n is 0: C99 has no empty braces). */
void dm_fmt_list(char *buf, size_t cap, const int32_t *v, int n);

/* Prepares node->op_data (and kernel, family) for joining or cutting `whole` along
 * `axis` (0 <= axis < rank); part i holds part_axis_dims[i] slices of that axis
 * (1 each for PACK / UNPACK). The caller has checked the parts' other dimensions. */
bool dm_plan_concat_split(PrepareCtx *pc, Node *node, bool split, const Tensor *whole, int axis, int parts,
                          const int64_t *part_axis_dims);
void dm_emit_concat_split(EmitCtx *ec, const Model *m, const Node *node);

/* What sets SPLIT and SPLIT_V apart; each operator file defines one. */
typedef struct DmSplitOp {
  int n_inputs;               /* all required */
  uint8_t options;            /* BuiltinOptions tag */
  int data_input, axis_input; /* input indices of the tensor to cut and the axis */
  const TensorType *types;    /* accepted data dtypes */
  int n_types;
  /* Checks output `out`'s shape against `in` cut along `axis`; reports. */
  bool (*check_part)(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, int axis);
} DmSplitOp;

/* prepare() of SPLIT / SPLIT_V: a constant one-value axis, then every output checked
 * by op->check_part and planned as a ConcatSplit (emit: dm_emit_concat_split). */
bool dm_split_prepare(PrepareCtx *pc, Node *node, const DmSplitOp *op);

#endif
