/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: strided gather-copy, the one kernel behind SLICE, STRIDED_SLICE,
 * TRANSPOSE, DEPTH_TO_SPACE and SPACE_TO_DEPTH.
 *
 * The compiler turns each of those operators into up to TA_STRIDED_MAX_DIMS nested
 * loops over the OUTPUT in row-major order; dimension d runs count[d] times and moves
 * the read position by stride[d] bytes (negative for reversed slices). Every step
 * copies run_bytes contiguous bytes and appends them to the output. Dimensions that
 * are contiguous in the input are merged into run_bytes at compile time. */
#ifndef TA_STRIDED_COPY_H
#define TA_STRIDED_COPY_H
#include "ta_common.h"

#define TA_STRIDED_MAX_DIMS 6

typedef struct ta_strided_copy_params_t {
  int32_t rank;                          /* loop levels, 0..TA_STRIDED_MAX_DIMS */
  int32_t count[TA_STRIDED_MAX_DIMS];    /* iterations per level, all >= 1 */
  int32_t stride[TA_STRIDED_MAX_DIMS];   /* input bytes advanced per iteration */
  int32_t start;                         /* input byte offset of the first run */
  int32_t run_bytes;                     /* contiguous bytes copied per step, >= 1 */
} ta_strided_copy_params_t;

/* Writes count[0] * ... * count[rank-1] * run_bytes bytes to `output`. */
void ta_strided_copy(const ta_strided_copy_params_t *p, const void *input, void *output);

#endif
