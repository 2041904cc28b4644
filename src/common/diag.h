/* Diagnostics: every failing stage fills one of these; the CLI prints it as one line. */
#ifndef TINYAOT_DIAG_H
#define TINYAOT_DIAG_H
#include <stdbool.h>

enum { DIAG_MAX_MSG = 1024, DIAG_MAX_EXTRA = 4096 };

typedef struct Diag {
  const char *file;          /* model or config path, for the message prefix */
  char msg[DIAG_MAX_MSG];    /* first error */
  char extra[DIAG_MAX_EXTRA];/* further errors, "; "-separated (unsupported-op lists) */
  int count;
} Diag;

void diag_init(Diag *d, const char *file);
/* Records an error; always returns false so callers can `return diag_error(...)`. */
bool diag_error(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool diag_failed(const Diag *d);
/* Writes "tinyaot: error: <file>: msg" (and any further errors) to stderr. */
void diag_print(const Diag *d);

#endif
