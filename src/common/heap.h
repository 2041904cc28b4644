/* Heap accounting: what the compiler holds from malloc, now and at most (convert --stats
 * and the memory-bound tests, docs/robustness.md). One HeapStats per conversion, kept in
 * its Arena; the arena's blocks, the StrBufs made with sb_init_heap and the planner's
 * temporaries are counted (malloc's own per-chunk overhead is not). */
#ifndef TINYAOT_HEAP_H
#define TINYAOT_HEAP_H
#include <stddef.h>

typedef struct HeapStats {
  size_t current, peak; /* bytes */
} HeapStats;

/* malloc / realloc / free that keep `h` up to date; h may be NULL (not counted). The
 * caller passes the size it allocated to realloc and free. */
void *heap_alloc(HeapStats *h, size_t n);
void *heap_realloc(HeapStats *h, void *p, size_t old_n, size_t new_n);
void heap_free(HeapStats *h, void *p, size_t n);

#endif
