/* Counted malloc/realloc/free; see heap.h. */
#include "heap.h"

#include <stdlib.h>

static void heap_grew(HeapStats *h, size_t n) {
  h->current += n;
  if (h->current > h->peak) h->peak = h->current;
}

void *heap_alloc(HeapStats *h, size_t n) {
  void *p = malloc(n);
  if (p && h) heap_grew(h, n);
  return p;
}

void *heap_realloc(HeapStats *h, void *p, size_t old_n, size_t new_n) {
  void *q = realloc(p, new_n);
  if (!q || !h) return q;
  /* counted as if old and new coexisted when it grows: realloc may copy */
  if (new_n >= old_n) {
    heap_grew(h, new_n);
    h->current -= old_n;
  } else {
    h->current -= old_n - new_n;
  }
  return q;
}

void heap_free(HeapStats *h, void *p, size_t n) {
  if (!p) return;
  free(p);
  if (h) h->current = h->current >= n ? h->current - n : 0;
}
