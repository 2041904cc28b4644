/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: concatenation and split along one axis (see ta_concat_split.h). */
#include "ta_concat_split.h"

void ta_concat(const ta_concat_split_params_t *p, const void *const *parts, void *output) {
  uint8_t *out = (uint8_t *)output;
  int32_t k, i;
  for (k = 0; k < p->outer; k++) {
    for (i = 0; i < p->parts; i++) {
      const int32_t n = p->chunk_bytes[i];
      memcpy(out, (const uint8_t *)parts[i] + (ptrdiff_t)k * n, (size_t)n);
      out += n;
    }
  }
}

void ta_split(const ta_concat_split_params_t *p, const void *input, void *const *parts) {
  const uint8_t *in = (const uint8_t *)input;
  int32_t k, i;
  for (k = 0; k < p->outer; k++) {
    for (i = 0; i < p->parts; i++) {
      const int32_t n = p->chunk_bytes[i];
      memcpy((uint8_t *)parts[i] + (ptrdiff_t)k * n, in, (size_t)n);
      in += n;
    }
  }
}
