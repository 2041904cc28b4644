#include "broadcast_walk.h"

#include <stdio.h>

/* Extent of input dimension k of an output of rank r (leading dimensions are 1). */
static int64_t padded(const Tensor *t, int r, int k) {
  const int lead = r - t->rank;
  return k < lead ? 1 : t->dims[k - lead];
}

bool bw_build(PrepareCtx *pc, const Node *node, const Tensor *out, int n, const Tensor *const *ins, int max_rank,
              BcWalk *w) {
  const int r = out->rank;
  int64_t steps[BW_MAX_INPUTS][TA_MAX_RANK];
  for (int i = 0; i < n; i++) {
    const Tensor *t = ins[i];
    if (t->rank > r)
      return op_error(pc, node, "%s has rank %d, more than the output's %d", op_tensor_desc(pc, t), t->rank, r);
    int64_t step = 1;
    for (int k = r - 1; k >= 0; k--) {
      const int64_t d = padded(t, r, k);
      if (d != out->dims[k] && d != 1)
        return op_error(pc, node, "%s of shape %s does not broadcast to the output shape %s", op_tensor_desc(pc, t),
                        tensor_shape_str(pc->arena, t), tensor_shape_str(pc->arena, out));
      steps[i][k] = d == 1 ? 0 : step;
      step *= d;
    }
  }
  int m = 0;
  for (int k = 0; k < r; k++) {
    if (out->dims[k] == 1) continue; /* nothing to walk */
    bool merge = m > 0;
    for (int i = 0; i < n && merge; i++) merge = w->stride[i][m - 1] == steps[i][k] * out->dims[k];
    if (merge) {
      w->dims[m - 1] *= out->dims[k];
      for (int i = 0; i < n; i++) w->stride[i][m - 1] = (int32_t)steps[i][k];
      continue;
    }
    w->dims[m] = out->dims[k];
    for (int i = 0; i < n; i++) w->stride[i][m] = (int32_t)steps[i][k];
    m++;
  }
  if (m == 0) { /* a single element */
    w->dims[0] = 1;
    for (int i = 0; i < n; i++) w->stride[i][0] = 0;
    m = 1;
  }
  if (m > max_rank)
    return op_error(pc, node, "broadcasting to %s needs %d loops, at most %d are supported",
                    tensor_shape_str(pc->arena, out), m, max_rank);
  w->rank = m;
  return true;
}

void bw_list(char *buf, size_t cap, const int32_t *v, int n) {
  size_t len = (size_t)snprintf(buf, cap, "{");
  for (int i = 0; i < n && len < cap; i++) len += (size_t)snprintf(buf + len, cap - len, i ? ", %ld" : "%ld", (long)v[i]);
  if (len < cap) snprintf(buf + len, cap - len, "}");
}
