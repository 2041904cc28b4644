/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: the broadcast walker of the two-input kernels (ta_elementwise.c,
 * ta_binary.c, ta_compare.c), in a header so each of those families still compiles on
 * its own; the module ships this file with any of them. Include it only from a file
 * that calls the walker. It is static, not inline: an inline hint makes GCC copy the
 * walk into every kernel (1.7 to 3 KB more code per file on Cortex-M). */
#ifndef TA_BCAST_H
#define TA_BCAST_H
#include "ta_elementwise.h"

/* One innermost run: n outputs, input 1 advancing by step1 elements, input 2 by step2. */
typedef void (*ta_bcast_row_fn)(const void *params, const void *in1, int32_t step1, const void *in2, int32_t step2,
                                void *out, int32_t n);

/* Walks the output of the walk bc in order, one `row` call per innermost run; the
 * outer dimensions advance like an odometer (no recursion, no heap). size1, size2 and
 * size_out are the element sizes in bytes. A walk of rank 0 writes nothing. */
static void ta_bcast_walk(const ta_bcast_t *bc, const void *in1, size_t size1, const void *in2, size_t size2,
                          void *out, size_t size_out, ta_bcast_row_fn row, const void *params) {
  const unsigned char *a = (const unsigned char *)in1;
  const unsigned char *b = (const unsigned char *)in2;
  unsigned char *o = (unsigned char *)out;
  const int32_t inner = bc->rank - 1;
  int32_t index[TA_BCAST_MAX_RANK] = {0};
  int32_t off1 = 0, off2 = 0, off_out = 0;
  if (bc->rank <= 0) return;
  for (;;) {
    row(params, a + (size_t)off1 * size1, bc->stride1[inner], b + (size_t)off2 * size2, bc->stride2[inner],
        o + (size_t)off_out * size_out, bc->dims[inner]);
    off_out += bc->dims[inner];
    int32_t d = inner - 1;
    for (; d >= 0; d--) {
      off1 += bc->stride1[d];
      off2 += bc->stride2[d];
      if (++index[d] < bc->dims[d]) break;
      off1 -= bc->stride1[d] * bc->dims[d];
      off2 -= bc->stride2[d] * bc->dims[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

#endif
