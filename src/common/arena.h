/* Bump allocator: one per conversion, freed at once. Keeps error paths simple. */
#ifndef TINYAOT_ARENA_H
#define TINYAOT_ARENA_H
#include <stddef.h>

#include "heap.h"

typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
  ArenaBlock *head;  /* the current block, then the older ones */
  size_t next_block; /* size of the next ordinary block: 4 KiB doubling to 64 KiB */
  size_t used_total; /* bytes handed out */
  HeapStats heap;    /* the conversion's heap: these blocks and what else counts itself here */
} Arena;

void arena_init(Arena *a);
void arena_free(Arena *a);
/* Zeroed, 16-byte aligned; returns NULL only if the system is out of memory. */
void *arena_alloc(Arena *a, size_t size);
/* Overflow-checked count * size; NULL on overflow. */
void *arena_calloc(Arena *a, size_t count, size_t size);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
