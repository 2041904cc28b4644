#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(StrBuf *sb) { memset(sb, 0, sizeof *sb); }

void sb_free(StrBuf *sb) {
  free(sb->data);
  sb_init(sb);
}

static bool sb_reserve(StrBuf *sb, size_t extra) {
  if (sb->oom) return false;
  if (sb->len + extra + 1 <= sb->cap) return true;
  size_t cap = sb->cap ? sb->cap : 256;
  while (cap < sb->len + extra + 1) cap *= 2;
  char *p = realloc(sb->data, cap);
  if (!p) {
    sb->oom = true;
    return false;
  }
  sb->data = p;
  sb->cap = cap;
  return true;
}

void sb_appendn(StrBuf *sb, const char *s, size_t n) {
  if (!sb_reserve(sb, n)) return;
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = 0;
}

void sb_append(StrBuf *sb, const char *s) { sb_appendn(sb, s, strlen(s)); }

void sb_printf(StrBuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !sb_reserve(sb, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb->len += (size_t)n;
}

const char *sb_cstr(StrBuf *sb) { return sb->data ? sb->data : ""; }
