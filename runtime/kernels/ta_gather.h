/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: GATHER along one axis with int32 indices, byte for byte.
 *
 * The input is seen as [batch][outer][axis_size][inner] and the indices as
 * [batch][coords]; the output is [batch][outer][coords][inner]. */
#ifndef TA_GATHER_H
#define TA_GATHER_H
#include "ta_common.h"

typedef struct ta_gather_params_t {
  int32_t batch;       /* leading dimensions shared by input and indices (batch_dims) */
  int32_t outer;       /* input dimensions between the batch dims and the axis */
  int32_t axis_size;   /* input extent along the gathered axis */
  int32_t coords;      /* indices per batch */
  int32_t inner_bytes; /* bytes of one gathered slice */
} ta_gather_params_t;

/* Returns 0, or -1 when an index is outside [0, axis_size): TFLite Micro fails the
 * inference there; this kernel writes zeros for such slices and reports it. Indices
 * that are model constants are checked by the compiler instead. */
int32_t ta_gather(const ta_gather_params_t *p, const void *input, const int32_t *indices, void *output);

#endif
