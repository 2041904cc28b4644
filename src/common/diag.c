#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void diag_init(Diag *d, const char *file) {
  memset(d, 0, sizeof *d);
  d->file = file;
}

bool diag_error(Diag *d, const char *fmt, ...) {
  char buf[DIAG_MAX_MSG];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (d->count == 0) {
    snprintf(d->msg, sizeof d->msg, "%s", buf);
  } else {
    size_t len = strlen(d->extra);
    if (len + 2 < sizeof d->extra) snprintf(d->extra + len, sizeof d->extra - len, "; %s", buf);
  }
  d->count++;
  return false;
}

bool diag_failed(const Diag *d) { return d->count > 0; }

void diag_print(const Diag *d) {
  if (d->file)
    fprintf(stderr, "tinyaot: error: %s: %s%s\n", d->file, d->msg, d->extra);
  else
    fprintf(stderr, "tinyaot: error: %s%s\n", d->msg, d->extra);
}
