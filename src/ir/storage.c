#include "storage.h"

int32_t tensor_storage(const Model *m, int32_t id) {
  /* Alias chains end at a tensor with storage (a concatenation's inputs point forwards to
   * its output, transform/concat_views.c; everything else backwards); the bound guards
   * against a corrupted IR. */
  for (int hops = 0; id >= 0 && id < m->n_tensors && m->tensors[id].alias_of >= 0 && hops < m->n_tensors; hops++)
    id = m->tensors[id].alias_of;
  return id;
}
