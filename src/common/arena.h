/* Bump allocator: one per conversion, freed at once. Keeps error paths simple. */
#ifndef TINYAOT_ARENA_H
#define TINYAOT_ARENA_H
#include <stddef.h>

typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
  ArenaBlock *head;
  size_t used_total; /* bytes handed out, for the memory-bound tests */
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
