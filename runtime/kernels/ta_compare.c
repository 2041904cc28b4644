/* SPDX-License-Identifier: MIT-0 */
#include "ta_compare.h"
#include "ta_bcast.h"

#include <string.h>

/* The row of one element type: the switch on the operator sits outside the loops. */
#define TA_CMP_ROW(name, T, LOAD)                                                                      \
  static void name(const void *vp, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo,     \
                   int32_t n) {                                                                         \
    const ta_compare_params_t *p = (const ta_compare_params_t *)vp;                                     \
    const T *a = (const T *)v1, *b = (const T *)v2;                                                     \
    uint8_t *o = (uint8_t *)vo;                                                                         \
    int32_t i;                                                                                          \
    switch (p->op) {                                                                                    \
      case TA_CMP_EQUAL: for (i = 0; i < n; i++, a += s1, b += s2) o[i] = LOAD(p, a, 1) == LOAD(p, b, 2); break; \
      case TA_CMP_NOT_EQUAL: for (i = 0; i < n; i++, a += s1, b += s2) o[i] = LOAD(p, a, 1) != LOAD(p, b, 2); break; \
      case TA_CMP_GREATER: for (i = 0; i < n; i++, a += s1, b += s2) o[i] = LOAD(p, a, 1) > LOAD(p, b, 2); break; \
      case TA_CMP_GREATER_EQUAL: for (i = 0; i < n; i++, a += s1, b += s2) o[i] = LOAD(p, a, 1) >= LOAD(p, b, 2); break; \
      case TA_CMP_LESS: for (i = 0; i < n; i++, a += s1, b += s2) o[i] = LOAD(p, a, 1) < LOAD(p, b, 2); break; \
      default: for (i = 0; i < n; i++, a += s1, b += s2) o[i] = LOAD(p, a, 1) <= LOAD(p, b, 2); break;        \
    }                                                                                                   \
  }

#define TA_LOAD_RAW(p, ptr, which) (*(ptr))
#define TA_LOAD_BOOL(p, ptr, which) (*(ptr) != 0)
/* int8: (x - zero_point) * 2^left_shift, rescaled by the input's own multiplier. */
#define TA_LOAD_S8(p, ptr, which)                                                            \
  ta_requantize((*(ptr) + (p)->in##which##_offset) * (1 << (p)->left_shift), (p)->in##which##_multiplier, \
                (p)->in##which##_shift)

TA_CMP_ROW(cmp_row_f32, float, TA_LOAD_RAW)
TA_CMP_ROW(cmp_row_i32, int32_t, TA_LOAD_RAW)
TA_CMP_ROW(cmp_row_i64, int64_t, TA_LOAD_RAW)
TA_CMP_ROW(cmp_row_b, uint8_t, TA_LOAD_BOOL)
TA_CMP_ROW(cmp_row_s8, int8_t, TA_LOAD_S8)

void ta_compare_f32(const ta_compare_params_t *p, const float *in1, const float *in2, uint8_t *out) {
  ta_bcast_walk(&p->bc, in1, sizeof *in1, in2, sizeof *in2, out, 1, cmp_row_f32, p);
}

void ta_compare_i32(const ta_compare_params_t *p, const int32_t *in1, const int32_t *in2, uint8_t *out) {
  ta_bcast_walk(&p->bc, in1, sizeof *in1, in2, sizeof *in2, out, 1, cmp_row_i32, p);
}

void ta_compare_i64(const ta_compare_params_t *p, const int64_t *in1, const int64_t *in2, uint8_t *out) {
  ta_bcast_walk(&p->bc, in1, sizeof *in1, in2, sizeof *in2, out, 1, cmp_row_i64, p);
}

void ta_compare_b(const ta_compare_params_t *p, const uint8_t *in1, const uint8_t *in2, uint8_t *out) {
  ta_bcast_walk(&p->bc, in1, 1, in2, 1, out, 1, cmp_row_b, p);
}

void ta_compare_s8(const ta_compare_params_t *p, const int8_t *in1, const int8_t *in2, uint8_t *out) {
  ta_bcast_walk(&p->bc, in1, 1, in2, 1, out, 1, cmp_row_s8, p);
}

/* ---- logic ---------------------------------------------------------------------------- */

static void and_row(const void *p, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo, int32_t n) {
  const uint8_t *a = (const uint8_t *)v1, *b = (const uint8_t *)v2;
  uint8_t *o = (uint8_t *)vo;
  (void)p;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = (uint8_t)(*a != 0 && *b != 0);
}

static void or_row(const void *p, const void *v1, int32_t s1, const void *v2, int32_t s2, void *vo, int32_t n) {
  const uint8_t *a = (const uint8_t *)v1, *b = (const uint8_t *)v2;
  uint8_t *o = (uint8_t *)vo;
  (void)p;
  for (int32_t i = 0; i < n; i++, a += s1, b += s2) o[i] = (uint8_t)(*a != 0 || *b != 0);
}

void ta_logical_and(const ta_bcast_t *bc, const uint8_t *in1, const uint8_t *in2, uint8_t *out) {
  ta_bcast_walk(bc, in1, 1, in2, 1, out, 1, and_row, NULL);
}

void ta_logical_or(const ta_bcast_t *bc, const uint8_t *in1, const uint8_t *in2, uint8_t *out) {
  ta_bcast_walk(bc, in1, 1, in2, 1, out, 1, or_row, NULL);
}

void ta_logical_not(int32_t size, const uint8_t *in, uint8_t *out) {
  for (int32_t i = 0; i < size; i++) out[i] = (uint8_t)(in[i] == 0);
}

/* ---- SELECT_V2 ----------------------------------------------------------------------- */

void ta_select_v2(const ta_select_params_t *p, const uint8_t *cond, const void *x, const void *y, void *out) {
  const unsigned char *xs = (const unsigned char *)x, *ys = (const unsigned char *)y;
  unsigned char *o = (unsigned char *)out;
  const size_t es = (size_t)p->elem_size;
  const int32_t inner = p->rank - 1;
  int32_t index[TA_SELECT_MAX_RANK] = {0};
  int32_t oc = 0, ox = 0, oy = 0;
  if (p->rank <= 0) return;
  for (;;) {
    const int32_t sc = p->cond_stride[inner], sx = p->x_stride[inner], sy = p->y_stride[inner];
    for (int32_t i = 0; i < p->dims[inner]; i++) {
      const unsigned char *src = cond[oc + i * sc] ? xs + (size_t)(ox + i * sx) * es : ys + (size_t)(oy + i * sy) * es;
      memcpy(o, src, es);
      o += es;
    }
    int32_t d = inner - 1;
    for (; d >= 0; d--) {
      oc += p->cond_stride[d];
      ox += p->x_stride[d];
      oy += p->y_stride[d];
      if (++index[d] < p->dims[d]) break;
      oc -= p->cond_stride[d] * p->dims[d];
      ox -= p->x_stride[d] * p->dims[d];
      oy -= p->y_stride[d] * p->dims[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

/* ---- REDUCE_ALL ------------------------------------------------------------------------ */

void ta_reduce_all(const ta_reduce_all_params_t *p, const uint8_t *in, uint8_t *out) {
  int32_t index[TA_REDUCE_ALL_MAX_RANK] = {0};
  int32_t o = 0;
  for (int32_t i = 0; i < p->out_size; i++) out[i] = 1;
  if (p->rank <= 0) return;
  for (const uint8_t *x = in;; x++) {
    if (*x == 0) out[o] = 0;
    int32_t d = p->rank - 1;
    for (; d >= 0; d--) {
      o += p->out_stride[d];
      if (++index[d] < p->dims[d]) break;
      o -= p->out_stride[d] * p->dims[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}
