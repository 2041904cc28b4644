/* The storage check every aliasing rewrite shares; its own file so the rewrites call
 * down into it and not back into transform.c, which calls them. */
#include "transform.h"

bool transform_joins_io(const Model *m, int32_t in, int32_t out) {
  const int32_t s = tensor_storage(m, in);
  if (s < 0 || !m->tensors[s].is_input) return false;
  for (int i = 0; i < m->n_outputs; i++)
    for (int32_t id = m->outputs[i], hops = 0; id >= 0 && id < m->n_tensors && hops <= m->n_tensors; hops++) {
      if (id == out) return true;
      id = m->tensors[id].alias_of;
    }
  return false;
}
