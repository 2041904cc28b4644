/* Growable text buffer used to build emitted files and reports. */
#ifndef TINYAOT_STRBUF_H
#define TINYAOT_STRBUF_H
#include <stdbool.h>
#include <stddef.h>

typedef struct StrBuf {
  char *data;
  size_t len, cap;
  bool oom; /* sticky: set when an allocation failed */
} StrBuf;

void sb_init(StrBuf *sb);
void sb_free(StrBuf *sb);
void sb_append(StrBuf *sb, const char *s);
void sb_appendn(StrBuf *sb, const char *s, size_t n);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns a NUL-terminated view ("" when empty). */
const char *sb_cstr(StrBuf *sb);

#endif
