/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: constant padding (see ta_pad.h). */
#include "ta_pad.h"

/* Fills `count` elements of `elem` bytes with the value at `value`. */
static uint8_t *fill(uint8_t *dst, int32_t count, const uint8_t *value, int32_t elem) {
  int32_t i;
  if (elem == 1) {
    memset(dst, value[0], (size_t)count);
    return dst + count;
  }
  for (i = 0; i < count; i++) memcpy(dst + (ptrdiff_t)i * elem, value, (size_t)elem);
  return dst + (ptrdiff_t)count * elem;
}

/* True when output row `idx` (all dimensions but the last) lies inside the input. */
static int row_inside(const ta_pad_params_t *p, const int32_t *idx) {
  int32_t d;
  for (d = 0; d < p->rank - 1; d++)
    if (idx[d] < p->before[d] || idx[d] >= p->before[d] + p->in_dims[d]) return 0;
  return 1;
}

static void pad_bytes(const ta_pad_params_t *p, const uint8_t *in, const uint8_t *value, int32_t elem,
                      uint8_t *out) {
  const int32_t last = p->rank - 1;
  const int32_t left = p->before[last];
  const int32_t width = p->in_dims[last];
  const int32_t right = p->out_dims[last] - left - width;
  int32_t idx[TA_PAD_MAX_DIMS] = {0};
  int32_t d;
  for (;;) {
    if (row_inside(p, idx)) {
      out = fill(out, left, value, elem);
      memcpy(out, in, (size_t)width * (size_t)elem);
      out += (ptrdiff_t)width * elem;
      in += (ptrdiff_t)width * elem;
      out = fill(out, right, value, elem);
    } else {
      out = fill(out, p->out_dims[last], value, elem);
    }
    for (d = last - 1; d >= 0; d--) {
      if (++idx[d] < p->out_dims[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

void ta_pad_s8(const ta_pad_params_t *p, const int8_t *input, int8_t pad_value, int8_t *output) {
  pad_bytes(p, (const uint8_t *)input, (const uint8_t *)&pad_value, 1, (uint8_t *)output);
}

void ta_pad_f32(const ta_pad_params_t *p, const float *input, float pad_value, float *output) {
  pad_bytes(p, (const uint8_t *)input, (const uint8_t *)&pad_value, 4, (uint8_t *)output);
}

void ta_pad_s16(const ta_pad_params_t *p, const int16_t *input, int16_t pad_value, int16_t *output) {
  pad_bytes(p, (const uint8_t *)input, (const uint8_t *)&pad_value, 2, (uint8_t *)output);
}

void ta_pad_i32(const ta_pad_params_t *p, const int32_t *input, int32_t pad_value, int32_t *output) {
  pad_bytes(p, (const uint8_t *)input, (const uint8_t *)&pad_value, 4, (uint8_t *)output);
}

/* The input index an output index of one dimension mirrors to. */
static int32_t mirror_index(int32_t i, int32_t before, int32_t in_dim, int32_t offset) {
  const int32_t j = i - before;
  if (j < 0) return -j - 1 + offset;
  if (j >= in_dim) return 2 * in_dim - 1 - j - offset;
  return j;
}

void ta_mirror_pad(const ta_mirror_pad_params_t *p, const void *input, void *output) {
  const uint8_t *in = (const uint8_t *)input;
  uint8_t *out = (uint8_t *)output;
  const int32_t last = p->rank - 1;
  int32_t stride[TA_PAD_MAX_DIMS]; /* input element strides */
  int32_t idx[TA_PAD_MAX_DIMS] = {0};
  int32_t d;
  stride[last] = 1;
  for (d = last - 1; d >= 0; d--) stride[d] = stride[d + 1] * p->in_dims[d + 1];
  for (;;) {
    /* one output row: the outer dimensions fix the input row, the last one mirrors */
    ptrdiff_t row = 0;
    int32_t i;
    for (d = 0; d < last; d++) row += (ptrdiff_t)mirror_index(idx[d], p->before[d], p->in_dims[d], p->offset) * stride[d];
    for (i = 0; i < p->out_dims[last]; i++) {
      const ptrdiff_t at = row + mirror_index(i, p->before[last], p->in_dims[last], p->offset);
      memcpy(out, in + at * p->elem_bytes, (size_t)p->elem_bytes);
      out += p->elem_bytes;
    }
    for (d = last - 1; d >= 0; d--) {
      if (++idx[d] < p->out_dims[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}
