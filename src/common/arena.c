/* Bump allocator (see arena.h): blocks from the counted heap, freed together. */
#include "arena.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaBlock {
  ArenaBlock *next;
  size_t cap, used;
  _Alignas(16) unsigned char data[];
};

enum { ARENA_FIRST_BLOCK = 4 * 1024, ARENA_MAX_BLOCK = 64 * 1024 };

void arena_init(Arena *a) {
  a->head = NULL;
  a->next_block = ARENA_FIRST_BLOCK;
  a->used_total = 0;
  a->heap = (HeapStats){0, 0};
}

void arena_free(Arena *a) {
  ArenaBlock *b = a->head;
  while (b) {
    ArenaBlock *n = b->next;
    heap_free(&a->heap, b, sizeof(ArenaBlock) + b->cap);
    b = n;
  }
  a->head = NULL;
}

/* A block with room for `need` bytes. Ordinary blocks grow from 4 KiB to 64 KiB, so a
 * small model's arena stays small, and become the current block; a request larger than
 * the next ordinary block gets a block of its own, linked behind the current one so
 * that the current block's free space is still used. */
static ArenaBlock *arena_new_block(Arena *a, size_t need) {
  const bool own = need > a->next_block;
  const size_t cap = own ? need : a->next_block;
  if (cap > SIZE_MAX - sizeof(ArenaBlock)) return NULL;
  ArenaBlock *b = heap_alloc(&a->heap, sizeof(ArenaBlock) + cap);
  if (!b) return NULL;
  b->cap = cap;
  b->used = 0;
  if (own && a->head) {
    b->next = a->head->next;
    a->head->next = b;
  } else {
    b->next = a->head;
    a->head = b;
    if (a->next_block < ARENA_MAX_BLOCK) a->next_block *= 2;
  }
  return b;
}

void *arena_alloc(Arena *a, size_t size) {
  size_t need = (size + 15u) & ~(size_t)15u;
  if (need < size) return NULL;
  ArenaBlock *b = a->head;
  if (!b || b->cap - b->used < need) b = arena_new_block(a, need);
  if (!b) return NULL;
  void *p = b->data + b->used;
  b->used += need;
  a->used_total += need;
  memset(p, 0, need);
  return p;
}

void *arena_calloc(Arena *a, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return NULL;
  size_t total = count * size;
  return arena_alloc(a, total ? total : 1);
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  if (p) {
    memcpy(p, s, n);
    p[n] = 0;
  }
  return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *p = arena_alloc(a, (size_t)n + 1);
  if (!p) return NULL;
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}
