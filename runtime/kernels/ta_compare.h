/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: comparisons (EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS,
 * LESS_EQUAL), logic (LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT, REDUCE_ALL) and SELECT_V2, with NumPy
 * broadcasting through the ta_bcast_t walk of ta_elementwise.h. bool tensors are one
 * byte per element, 0 or 1.
 *
 * Quantized int8 comparisons follow TensorFlow Lite Micro: each input is offset by
 * its zero point, shifted left by 8 bits and rescaled by its own scale (a multiplier
 * below one), and the two rescaled values are compared. Inputs with different
 * quantizations are therefore compared by real value, up to that rounding. */
#ifndef TA_COMPARE_H
#define TA_COMPARE_H
#include "ta_common.h"
#include "ta_elementwise.h"

typedef enum ta_compare_op_t {
  TA_CMP_EQUAL = 0,
  TA_CMP_NOT_EQUAL = 1,
  TA_CMP_GREATER = 2,
  TA_CMP_GREATER_EQUAL = 3,
  TA_CMP_LESS = 4,
  TA_CMP_LESS_EQUAL = 5
} ta_compare_op_t;

typedef struct ta_compare_params_t {
  ta_bcast_t bc;
  int32_t op;                        /* ta_compare_op_t */
  /* int8 only */
  int32_t left_shift;                /* 8 */
  int32_t in1_offset, in2_offset;    /* -zero_point */
  int32_t in1_multiplier, in1_shift; /* the input's scale as a multiplier below one, shift <= 0 */
  int32_t in2_multiplier, in2_shift;
} ta_compare_params_t;

void ta_compare_f32(const ta_compare_params_t *p, const float *in1, const float *in2, uint8_t *out);
void ta_compare_i32(const ta_compare_params_t *p, const int32_t *in1, const int32_t *in2, uint8_t *out);
void ta_compare_i64(const ta_compare_params_t *p, const int64_t *in1, const int64_t *in2, uint8_t *out);
/* bool (EQUAL, NOT_EQUAL) */
void ta_compare_b(const ta_compare_params_t *p, const uint8_t *in1, const uint8_t *in2, uint8_t *out);
void ta_compare_s8(const ta_compare_params_t *p, const int8_t *in1, const int8_t *in2, uint8_t *out);

/* bool logic; a byte is true when it is not 0, the output is 0 or 1. */
void ta_logical_and(const ta_bcast_t *bc, const uint8_t *in1, const uint8_t *in2, uint8_t *out);
void ta_logical_or(const ta_bcast_t *bc, const uint8_t *in1, const uint8_t *in2, uint8_t *out);
void ta_logical_not(int32_t size, const uint8_t *in, uint8_t *out);

/* SELECT_V2: out = cond ? x : y, the three broadcast to the output shape. The walk is
 * the output's dimensions (after merging runs all three traverse contiguously) with
 * each input's element step per dimension (0 = broadcast). */
#define TA_SELECT_MAX_RANK 6
typedef struct ta_select_params_t {
  int32_t rank;                         /* 1..TA_SELECT_MAX_RANK */
  int32_t elem_size;                    /* bytes per element of x, y and out */
  int32_t dims[TA_SELECT_MAX_RANK];
  int32_t cond_stride[TA_SELECT_MAX_RANK];
  int32_t x_stride[TA_SELECT_MAX_RANK];
  int32_t y_stride[TA_SELECT_MAX_RANK];
} ta_select_params_t;

void ta_select_v2(const ta_select_params_t *p, const uint8_t *cond, const void *x, const void *y, void *out);

/* REDUCE_ALL: out = AND over the reduced axes. The input is walked in order over its
 * dimensions (extent-1 dimensions dropped, adjacent kept or adjacent reduced ones
 * merged); out_stride is the output element step per input dimension, 0 on a reduced
 * axis. An empty reduction gives true. */
#define TA_REDUCE_ALL_MAX_RANK 8
typedef struct ta_reduce_all_params_t {
  int32_t rank;                             /* 1..TA_REDUCE_ALL_MAX_RANK */
  int32_t out_size;                         /* output elements */
  int32_t dims[TA_REDUCE_ALL_MAX_RANK];
  int32_t out_stride[TA_REDUCE_ALL_MAX_RANK];
} ta_reduce_all_params_t;

void ta_reduce_all(const ta_reduce_all_params_t *p, const uint8_t *in, uint8_t *out);

#endif
