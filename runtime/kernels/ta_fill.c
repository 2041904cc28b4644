/* SPDX-License-Identifier: MIT-0 */
#include "ta_fill.h"

#include <string.h>

void ta_fill(int32_t count, int32_t elem_size, const void *value, void *out) {
  unsigned char *o = (unsigned char *)out;
  for (int32_t i = 0; i < count; i++, o += elem_size) memcpy(o, value, (size_t)elem_size);
}

void ta_zero(int32_t bytes, void *out) { memset(out, 0, (size_t)bytes); }

void ta_copy(int32_t bytes, const void *src, void *out) { memcpy(out, src, (size_t)bytes); }

void ta_broadcast_to(const ta_broadcast_params_t *p, const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *o = (unsigned char *)out;
  const size_t es = (size_t)p->elem_size;
  const int32_t inner = p->rank - 1;
  int32_t index[TA_BROADCAST_MAX_RANK] = {0};
  int32_t off = p->start;
  if (p->rank <= 0) return;
  for (;;) {
    const int32_t step = p->stride[inner];
    if (step == 1) { /* a contiguous run of the input */
      memcpy(o, src + (size_t)off * es, (size_t)p->dims[inner] * es);
      o += (size_t)p->dims[inner] * es;
    } else {
      for (int32_t i = 0; i < p->dims[inner]; i++, o += es) memcpy(o, src + (size_t)(off + i * step) * es, es);
    }
    int32_t d = inner - 1;
    for (; d >= 0; d--) {
      off += p->stride[d];
      if (++index[d] < p->dims[d]) break;
      off -= p->stride[d] * p->dims[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

#define TA_BROADCAST_ARGS(name, T)                                                           \
  void name(int32_t n1, const T *s1, int32_t n2, const T *s2, int32_t n_out, T *out) {        \
    for (int32_t i = 0; i < n_out; i++) {                                                    \
      const int32_t k1 = n1 - n_out + i, k2 = n2 - n_out + i; /* right aligned */           \
      const T a = k1 >= 0 ? s1[k1] : 1, b = k2 >= 0 ? s2[k2] : 1;                           \
      out[i] = a == 1 ? b : a;                                                               \
    }                                                                                        \
  }

TA_BROADCAST_ARGS(ta_broadcast_args_i32, int32_t)
TA_BROADCAST_ARGS(ta_broadcast_args_i64, int64_t)
