/* The int8 rescaling ADD_N and CUMSUM share (runtime/kernels/ta_accumulate.h):
 * TensorFlow Lite Micro's 8-bit sum path with a left shift of 20 bits. */
#ifndef TINYAOT_ACCUMULATE_H
#define TINYAOT_ACCUMULATE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op.h"

typedef struct AccumS8 {
  int32_t input_offset, left_shift, input_multiplier, input_shift;
  int32_t out_multiplier, out_shift, out_offset, act_min, act_max;
} AccumS8;

/* Checks both quantizations and fills q: the input rescaled to twice its scale
 * (multiplier 1/2), the sum to the output (a factor that must lie below 1). */
bool accum_prepare_s8(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, AccumS8 *q);
/* The braced initializer of a ta_accum_s8_t. */
void accum_s8_init(char *buf, size_t cap, const AccumS8 *q);

#endif
