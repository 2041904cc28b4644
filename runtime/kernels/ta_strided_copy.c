/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: strided gather-copy (see ta_strided_copy.h). */
#include "ta_strided_copy.h"

/* Copies n runs whose starts are `stride` bytes apart in the input; the common run
 * sizes get fixed-size copies the compiler turns into single loads and stores. */
static uint8_t *copy_runs(uint8_t *out, const uint8_t *in, int32_t n, int32_t stride, int32_t run) {
  int32_t i;
  switch (run) {
    case 1:
      for (i = 0; i < n; i++) out[i] = in[(ptrdiff_t)i * stride];
      break;
    case 2:
      for (i = 0; i < n; i++) memcpy(out + 2 * i, in + (ptrdiff_t)i * stride, 2);
      break;
    case 4:
      for (i = 0; i < n; i++) memcpy(out + 4 * i, in + (ptrdiff_t)i * stride, 4);
      break;
    default:
      for (i = 0; i < n; i++) memcpy(out + (ptrdiff_t)i * run, in + (ptrdiff_t)i * stride, (size_t)run);
      break;
  }
  return out + (ptrdiff_t)n * run;
}

void ta_strided_copy(const ta_strided_copy_params_t *p, const void *input, void *output) {
  const uint8_t *in = (const uint8_t *)input + p->start;
  uint8_t *out = (uint8_t *)output;
  int32_t idx[TA_STRIDED_MAX_DIMS] = {0};
  int32_t last = p->rank - 1;
  int32_t d;

  if (p->rank == 0) {
    memcpy(out, in, (size_t)p->run_bytes);
    return;
  }
  /* The innermost level is a plain loop; the outer levels advance like an odometer. */
  for (;;) {
    out = copy_runs(out, in, p->count[last], p->stride[last], p->run_bytes);
    for (d = last - 1; d >= 0; d--) {
      in += p->stride[d];
      if (++idx[d] < p->count[d]) break;
      in -= (ptrdiff_t)p->stride[d] * p->count[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}
