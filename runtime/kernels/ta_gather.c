/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: GATHER (see ta_gather.h). */
#include "ta_gather.h"

int32_t ta_gather(const ta_gather_params_t *p, const void *input, const int32_t *indices, void *output) {
  const uint8_t *in = (const uint8_t *)input;
  uint8_t *out = (uint8_t *)output;
  const size_t slice = (size_t)p->inner_bytes;
  const ptrdiff_t block = (ptrdiff_t)p->axis_size * p->inner_bytes;
  int32_t status = 0;
  int32_t b, o, c;
  for (b = 0; b < p->batch; b++) {
    const int32_t *idx = indices + (ptrdiff_t)b * p->coords;
    for (o = 0; o < p->outer; o++) {
      for (c = 0; c < p->coords; c++) {
        if (idx[c] < 0 || idx[c] >= p->axis_size) {
          memset(out, 0, slice);
          status = -1;
        } else {
          memcpy(out, in + (ptrdiff_t)idx[c] * p->inner_bytes, slice);
        }
        out += slice;
      }
      in += block;
    }
  }
  return status;
}
