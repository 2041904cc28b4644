/* Walks of an output shape for inputs that broadcast to it (SELECT_V2's three inputs,
 * BROADCAST_TO's one): the output's dimensions with extent-1 dimensions dropped and
 * runs every input traverses contiguously merged, and each input's element step per
 * dimension (0 where it is broadcast). */
#ifndef TINYAOT_BROADCAST_WALK_H
#define TINYAOT_BROADCAST_WALK_H
#include <stdbool.h>
#include <stdint.h>

#include "op.h"

enum { BW_MAX_INPUTS = 3 };

typedef struct BcWalk {
  int rank; /* >= 1 */
  int32_t dims[TA_MAX_RANK];
  int32_t stride[BW_MAX_INPUTS][TA_MAX_RANK];
} BcWalk;

/* Checks that each of the n inputs broadcasts to out's shape (NumPy rules, the input
 * rank at most the output's) and builds the walk; refuses walks of more than
 * max_rank dimensions. */
bool bw_build(PrepareCtx *pc, const Node *node, const Tensor *out, int n, const Tensor *const *ins, int max_rank,
              BcWalk *w);
/* "{a, b, c}" of the first w->rank values into buf. */
void bw_list(char *buf, size_t cap, const int32_t *v, int n);

#endif
