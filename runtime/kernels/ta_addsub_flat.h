/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 ADD / SUB of two same-shape inputs with constants folded at
 * compile time (the compiler proves them exact against TFLite Micro's reference
 * arithmetic for all 65536 input pairs).
 *
 * One input ("table input") is looked up in a 256-entry table of its rescaled values,
 * the other ("affine input") is multiplied by a step; their sum is rescaled to the
 * output by a high multiply plus constant and a truncating right shift, then clamped:
 *   sum = table[(uint8_t)t] + a * lin_mult
 *   h   = (sum * out_mult) >> 32                              (ta_addsub_s8_flat, out_add = 0)
 *   h   = out_add + ((2 * sum * out_mult + 2^31) >> 32)       (ta_addsub_s8_flat_mve: VQRDMLASH)
 *   out = clamp(h >> out_shift, act_min, act_max)
 * The MVE kernel runs 4 elements per vector with tail predication; without
 * __ARM_FEATURE_MVE it computes the same in plain C. */
#ifndef TA_ADDSUB_FLAT_H
#define TA_ADDSUB_FLAT_H
#include "ta_common.h"

typedef struct ta_addsub_flat_params_t {
  int32_t size;          /* elements */
  const int32_t *table;  /* [256], by the table input's byte as uint8 */
  int32_t lin_mult;
  int32_t out_mult, out_add, out_shift;
  int32_t act_min, act_max;
} ta_addsub_flat_params_t;

void ta_addsub_s8_flat(const ta_addsub_flat_params_t *p, const int8_t *table_in, const int8_t *affine_in,
                       int8_t *out);
void ta_addsub_s8_flat_mve(const ta_addsub_flat_params_t *p, const int8_t *table_in, const int8_t *affine_in,
                           int8_t *out);

#endif
