/* Growable text buffer; see strbuf.h. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(StrBuf *sb) { memset(sb, 0, sizeof *sb); }

void sb_init_heap(StrBuf *sb, HeapStats *heap) {
  sb_init(sb);
  sb->heap = heap;
}

void sb_init_counting(StrBuf *sb) {
  sb_init(sb);
  sb->counting = true;
}

void sb_free(StrBuf *sb) {
  HeapStats *heap = sb->heap;
  heap_free(heap, sb->data, sb->cap);
  sb_init_heap(sb, heap);
}

static bool sb_grow_to(StrBuf *sb, size_t cap) {
  char *p = heap_realloc(sb->heap, sb->data, sb->cap, cap);
  if (!p) {
    sb->oom = true;
    return false;
  }
  sb->data = p;
  sb->cap = cap;
  return true;
}

/* Room for `extra` more bytes and the terminator, doubling the capacity. */
static bool sb_reserve(StrBuf *sb, size_t extra) {
  if (sb->oom || sb->counting) return false;
  if (sb->len + extra + 1 <= sb->cap) return true;
  size_t cap = sb->cap ? sb->cap : 256;
  while (cap < sb->len + extra + 1) cap *= 2;
  return sb_grow_to(sb, cap);
}

bool sb_reserve_exact(StrBuf *sb, size_t extra) {
  if (sb->oom || sb->counting) return false;
  if (sb->len + extra + 1 <= sb->cap) return true;
  return sb_grow_to(sb, sb->len + extra + 1);
}

void sb_appendn(StrBuf *sb, const char *s, size_t n) {
  if (sb->counting) {
    sb->len += n;
    return;
  }
  if (!sb_reserve(sb, n)) return;
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = 0;
}

void sb_append(StrBuf *sb, const char *s) { sb_appendn(sb, s, strlen(s)); }

char *sb_extend(StrBuf *sb, size_t n) {
  if (!sb_reserve_exact(sb, n)) return NULL;
  char *p = sb->data + sb->len;
  memset(p, 0, n);
  sb->len += n;
  sb->data[sb->len] = 0;
  return p;
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n >= 0 && sb->counting) sb->len += (size_t)n;
  if (n < 0 || !sb_reserve(sb, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb->len += (size_t)n;
}

const char *sb_cstr(StrBuf *sb) { return sb->data ? sb->data : ""; }

void sb_append_json_string(StrBuf *sb, const char *s) {
  sb_append(sb, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') sb_printf(sb, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) sb_printf(sb, "\\u%04x", (unsigned)(unsigned char)*s);
    else sb_appendn(sb, s, 1);
  }
  sb_append(sb, "\"");
}
