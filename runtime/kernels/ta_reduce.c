/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: reductions, ARG_MAX and ARG_MIN (see ta_reduce.h). */
#include "ta_reduce.h"

/* Steps the odometer idx over levels [0, rank), moving *offset by the strides;
 * returns 0 once every position was visited. */
static int32_t step(int32_t *idx, int32_t *offset, int32_t rank, const int32_t *count, const int32_t *stride) {
  int32_t d;
  for (d = rank - 1; d >= 0; d--) {
    *offset += stride[d];
    if (++idx[d] < count[d]) return 1;
    *offset -= stride[d] * count[d];
    idx[d] = 0;
  }
  return 0;
}

/* Position of one element while walking a set of levels (outer: the kept element;
 * inner: the start of one row of the reduced elements). */
typedef struct ta_reduce_cursor_t {
  int32_t idx[TA_REDUCE_MAX_DIMS];
  int32_t offset;
} ta_reduce_cursor_t;

static int32_t next_output(const ta_reduce_params_t *p, ta_reduce_cursor_t *c) {
  return step(c->idx, &c->offset, p->outer_rank, p->outer_count, p->outer_stride);
}

/* The reductions loop over the last inner level (a row) themselves; these step the
 * levels above it and locate element i of the current row. Only for inner_rank > 0. */
static int32_t next_row(const ta_reduce_params_t *p, ta_reduce_cursor_t *row) {
  return step(row->idx, &row->offset, p->inner_rank - 1, p->inner_count, p->inner_stride);
}

static int32_t row_length(const ta_reduce_params_t *p) { return p->inner_count[p->inner_rank - 1]; }

static ptrdiff_t row_at(const ta_reduce_params_t *p, const ta_reduce_cursor_t *row, int32_t i) {
  return row->offset + (ptrdiff_t)i * p->inner_stride[p->inner_rank - 1];
}

static int32_t sum_s8(const ta_reduce_params_t *p, const int8_t *x) {
  ta_reduce_cursor_t row = {{0}, 0};
  int32_t acc = 0, i;
  if (p->inner_rank == 0) return x[0];
  do {
    for (i = 0; i < row_length(p); i++) acc += x[row_at(p, &row, i)];
  } while (next_row(p, &row));
  return acc;
}

static int8_t max_s8(const ta_reduce_params_t *p, const int8_t *x) {
  ta_reduce_cursor_t row = {{0}, 0};
  int32_t i;
  int8_t best = INT8_MIN;
  if (p->inner_rank == 0) return x[0];
  do {
    for (i = 0; i < row_length(p); i++) {
      const int8_t v = x[row_at(p, &row, i)];
      if (v > best) best = v;
    }
  } while (next_row(p, &row));
  return best;
}

static float sum_f32(const ta_reduce_params_t *p, const float *x) {
  ta_reduce_cursor_t row = {{0}, 0};
  int32_t i;
  float acc = 0.0f;
  if (p->inner_rank == 0) return x[0];
  do {
    for (i = 0; i < row_length(p); i++) acc += x[row_at(p, &row, i)];
  } while (next_row(p, &row));
  return acc;
}

static int32_t sum_s16(const ta_reduce_params_t *p, const int16_t *x) {
  ta_reduce_cursor_t row = {{0}, 0};
  int32_t acc = 0, i;
  if (p->inner_rank == 0) return x[0];
  do {
    for (i = 0; i < row_length(p); i++) acc += x[row_at(p, &row, i)];
  } while (next_row(p, &row));
  return acc;
}

/* The extreme value over the reduced elements, starting from `init` (TFLite's
 * ReduceGeneric: the type's lowest value for MAX, its largest for MIN). */
#define TA_REDUCE_EXTREME(name, T, init, better)                   \
  static T name(const ta_reduce_params_t *p, const T *x) {         \
    ta_reduce_cursor_t row = {{0}, 0};                             \
    int32_t i;                                                     \
    T best = (init);                                               \
    if (p->inner_rank == 0) return x[0];                           \
    do {                                                           \
      for (i = 0; i < row_length(p); i++) {                        \
        const T v = x[row_at(p, &row, i)];                         \
        if (better(v, best)) best = v;                             \
      }                                                            \
    } while (next_row(p, &row));                                   \
    return best;                                                   \
  }

#define TA_GREATER(a, b) ((a) > (b))
#define TA_LESS(a, b) ((a) < (b))
TA_REDUCE_EXTREME(min_s8, int8_t, INT8_MAX, TA_LESS)
TA_REDUCE_EXTREME(max_f32, float, -3.40282347e+38f, TA_GREATER)
TA_REDUCE_EXTREME(min_f32, float, 3.40282347e+38f, TA_LESS)

void ta_reduce_sum_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output) {
  const int32_t zero_sum = p->input_zero_point * p->reduce_count;
  ta_reduce_cursor_t c = {{0}, 0};
  do {
    const int32_t acc = sum_s8(p, input + c.offset) - zero_sum;
    const int32_t q = ta_requantize(acc, p->multiplier, p->shift) + p->output_zero_point;
    *output++ = (int8_t)ta_clamp(q, INT8_MIN, INT8_MAX);
  } while (next_output(p, &c));
}

void ta_reduce_max_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output) {
  ta_reduce_cursor_t c = {{0}, 0};
  do {
    *output++ = max_s8(p, input + c.offset);
  } while (next_output(p, &c));
}

void ta_reduce_mean_f32(const ta_reduce_params_t *p, const float *input, float *output) {
  const float n = (float)p->reduce_count;
  ta_reduce_cursor_t c = {{0}, 0};
  do {
    *output++ = sum_f32(p, input + c.offset) / n;
  } while (next_output(p, &c));
}

void ta_reduce_sum_s16(const ta_reduce_params_t *p, const int16_t *input, int16_t *output) {
  const int32_t zero_sum = p->input_zero_point * p->reduce_count;
  ta_reduce_cursor_t c = {{0}, 0};
  do {
    const int32_t acc = sum_s16(p, input + c.offset) - zero_sum;
    const int32_t q = ta_requantize(acc, p->multiplier, p->shift) + p->output_zero_point;
    *output++ = (int16_t)ta_clamp(q, INT16_MIN, INT16_MAX);
  } while (next_output(p, &c));
}

void ta_reduce_sum_f32(const ta_reduce_params_t *p, const float *input, float *output) {
  ta_reduce_cursor_t c = {{0}, 0};
  do {
    *output++ = sum_f32(p, input + c.offset);
  } while (next_output(p, &c));
}

void ta_reduce_min_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output) {
  ta_reduce_cursor_t c = {{0}, 0};
  do {
    *output++ = min_s8(p, input + c.offset);
  } while (next_output(p, &c));
}

void ta_reduce_max_f32(const ta_reduce_params_t *p, const float *input, float *output) {
  ta_reduce_cursor_t c = {{0}, 0};
  do {
    *output++ = max_f32(p, input + c.offset);
  } while (next_output(p, &c));
}

void ta_reduce_min_f32(const ta_reduce_params_t *p, const float *input, float *output) {
  ta_reduce_cursor_t c = {{0}, 0};
  do {
    *output++ = min_f32(p, input + c.offset);
  } while (next_output(p, &c));
}

/* The first index along the axis whose value beats every earlier one. */
#define TA_ARG_EXTREME(name, T, better)                                              \
  void name(const ta_arg_max_params_t *p, const T *input, int32_t *output) {         \
    int32_t o, j, i;                                                                 \
    for (o = 0; o < p->outer; o++) {                                                 \
      const T *block = input + (ptrdiff_t)o * p->axis_size * p->inner;               \
      for (j = 0; j < p->inner; j++) {                                               \
        T best = block[j];                                                           \
        int32_t best_index = 0;                                                      \
        for (i = 1; i < p->axis_size; i++) {                                         \
          const T v = block[(ptrdiff_t)i * p->inner + j];                            \
          if (better(v, best)) {                                                     \
            best = v;                                                                \
            best_index = i;                                                          \
          }                                                                          \
        }                                                                            \
        *output++ = best_index;                                                      \
      }                                                                              \
    }                                                                                \
  }

TA_ARG_EXTREME(ta_arg_max_s8_i32, int8_t, TA_GREATER)
TA_ARG_EXTREME(ta_arg_max_f32_i32, float, TA_GREATER)
TA_ARG_EXTREME(ta_arg_min_s8_i32, int8_t, TA_LESS)
TA_ARG_EXTREME(ta_arg_min_f32_i32, float, TA_LESS)
