#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaBlock {
  ArenaBlock *next;
  size_t cap, used;
  _Alignas(16) unsigned char data[];
};

enum { ARENA_BLOCK = 64 * 1024 };

void arena_init(Arena *a) { a->head = NULL; a->used_total = 0; }

void arena_free(Arena *a) {
  ArenaBlock *b = a->head;
  while (b) {
    ArenaBlock *n = b->next;
    free(b);
    b = n;
  }
  a->head = NULL;
}

void *arena_alloc(Arena *a, size_t size) {
  size_t need = (size + 15u) & ~(size_t)15u;
  if (need < size) return NULL;
  ArenaBlock *b = a->head;
  if (!b || b->cap - b->used < need) {
    size_t cap = need > ARENA_BLOCK ? need : ARENA_BLOCK;
    if (cap > SIZE_MAX - sizeof(ArenaBlock)) return NULL;
    b = malloc(sizeof(ArenaBlock) + cap);
    if (!b) return NULL;
    b->cap = cap;
    b->used = 0;
    b->next = a->head;
    a->head = b;
  }
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
