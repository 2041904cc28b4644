/* Growable text buffer used to build emitted files and reports. */
#ifndef TINYAOT_STRBUF_H
#define TINYAOT_STRBUF_H
#include <stdbool.h>
#include <stddef.h>

#include "heap.h"

typedef struct StrBuf {
  char *data;
  size_t len, cap;
  bool oom;        /* sticky: set when an allocation failed */
  bool counting;   /* only measures: len grows, nothing is stored */
  HeapStats *heap; /* where its allocation is counted, or NULL */
} StrBuf;

void sb_init(StrBuf *sb);
/* sb_init, its allocation counted in `heap` (the conversion's, Arena.heap). */
void sb_init_heap(StrBuf *sb, HeapStats *heap);
/* A buffer that stores nothing and only counts: write large text into one first, then
 * sb_reserve_exact the target and write it again (no doubling slack, no copy). */
void sb_init_counting(StrBuf *sb);
/* Makes room for `extra` more bytes, allocating exactly that much if it must grow. */
bool sb_reserve_exact(StrBuf *sb, size_t extra);
/* Appends n zero bytes (allocated exactly) and returns them to be filled in; NULL when
 * out of memory or counting. */
char *sb_extend(StrBuf *sb, size_t n);
void sb_free(StrBuf *sb);
void sb_append(StrBuf *sb, const char *s);
void sb_appendn(StrBuf *sb, const char *s, size_t n);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a JSON string literal: quotes, backslashes and control bytes escaped. */
void sb_append_json_string(StrBuf *sb, const char *s);
/* Returns a NUL-terminated view ("" when empty). */
const char *sb_cstr(StrBuf *sb);

#endif
