/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: tensors made from a value or a shape rather than computed
 * elementwise: FILL, ZEROS_LIKE, SHAPE (a compile-time table copied out),
 * BROADCAST_TO, REVERSE_V2 and BROADCAST_ARGS. Element bytes are copied as they are: quantized
 * values are never rescaled (TensorFlow Lite Micro copies them raw too). */
#ifndef TA_FILL_H
#define TA_FILL_H
#include "ta_common.h"

/* count elements of elem_size bytes, each a copy of *value. */
void ta_fill(int32_t count, int32_t elem_size, const void *value, void *out);
/* bytes zero bytes. */
void ta_zero(int32_t bytes, void *out);
/* bytes bytes from src. */
void ta_copy(int32_t bytes, const void *src, void *out);

/* A strided gather written in output order: BROADCAST_TO (steps 0 on broadcast
 * dimensions) and REVERSE_V2 (negative steps from the last element of each reversed
 * dimension). The output's dimensions (runs merged where the input is contiguous),
 * the input element the walk starts at, and the input's element step per dimension. */
#define TA_BROADCAST_MAX_RANK 8
typedef struct ta_broadcast_params_t {
  int32_t rank;                          /* 1..TA_BROADCAST_MAX_RANK */
  int32_t elem_size;                     /* bytes */
  int32_t start;                         /* input element of the first output element */
  int32_t dims[TA_BROADCAST_MAX_RANK];
  int32_t stride[TA_BROADCAST_MAX_RANK];
} ta_broadcast_params_t;

void ta_broadcast_to(const ta_broadcast_params_t *p, const void *in, void *out);

/* BROADCAST_ARGS: the broadcast of shapes s1 (n1 values) and s2 (n2 values), right
 * aligned, into out (n_out = max(n1, n2) values): where one extent is 1 the other
 * wins. Shapes that do not broadcast (TensorFlow Lite Micro fails at run time) give
 * the first shape's extent. */
void ta_broadcast_args_i32(int32_t n1, const int32_t *s1, int32_t n2, const int32_t *s2, int32_t n_out,
                           int32_t *out);
void ta_broadcast_args_i64(int32_t n1, const int64_t *s1, int32_t n2, const int64_t *s2, int32_t n_out,
                           int64_t *out);

#endif
