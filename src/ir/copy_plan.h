/* The prepared plans of the byte-copying operators (node->op_data of SLICE,
 * STRIDED_SLICE, TRANSPOSE, ... and of CONCATENATION / SPLIT / PACK / UNPACK, built in
 * src/ops/data_movement.c). They are plain data in the IR because a rewrite after
 * resolve reads them too: transform/slice_views.c turns an output that is one
 * contiguous range of the input into a view. */
#ifndef TINYAOT_COPY_PLAN_H
#define TINYAOT_COPY_PLAN_H
#include <stdbool.h>
#include <stdint.h>

enum { DM_MAX_LOOPS = 6 }; /* = TA_STRIDED_MAX_DIMS */

/* A compiled strided copy: loops over the output, outermost first. */
typedef struct StridedCopy {
  int rank;
  int32_t count[DM_MAX_LOOPS];
  int32_t stride[DM_MAX_LOOPS]; /* bytes */
  int32_t start;                /* bytes */
  int32_t run_bytes;
} StridedCopy;

/* Concatenation / split along one axis (runtime/kernels/ta_concat_split.h). */
typedef struct ConcatSplit {
  bool split;           /* false: parts are the inputs; true: parts are the outputs */
  int32_t whole;        /* the joined tensor: the output, or the split input */
  int parts;
  int32_t outer;
  int32_t *chunk_bytes; /* [parts] */
} ConcatSplit;

#endif
