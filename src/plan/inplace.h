/* In-place execution: which operator may write its output over a dying input, at which
 * offset, and the placement of the chains this ties together (inplace.c). */
#ifndef TINYAOT_PLAN_INPLACE_H
#define TINYAOT_PLAN_INPLACE_H
#include <stdint.h>

#include "../ops/op.h"
#include "plan.h"

/* A tensor to place: bytes, lifetime [first, last] over the schedule, tensor id (key),
 * and the offset chosen. */
typedef struct InplaceInterval {
  size_t bytes;
  int32_t first, last, key;
  size_t offset;
} InplaceInterval;

/* The largest delta (output offset - input offset, bytes) at which the contract `a`
 * holds; INT64_MAX when the kernel reads nothing, INT64_MIN when out of memory. */
int64_t inplace_max_delta(HeapStats *h, const InplaceAccess *a);
/* Node k (schedule position) may write output 0 over its input `*input`: that input's
 * storage dies at k, is no graph output or variable, is read through no other operand,
 * and the operator declares a contract describing both tensors (filled in *acc). */
bool inplace_pair(const Model *m, int k, int *input, InplaceAccess *acc);
/* Places iv[0..n) with every in-place tie that saves bytes (without `moves`, only the
 * ties whose output takes its input's own offset: they cost no instruction); returns the
 * arena size and sets iv[].offset, or SIZE_MAX (offsets untouched) when nothing is tied. */
size_t inplace_place(Model *m, InplaceInterval *iv, int n, bool moves, int *n_ties);

#endif
