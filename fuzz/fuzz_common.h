/* Shared checks of the fuzz targets: a violated promise aborts, so libFuzzer keeps
 * the input as a crash artifact like any sanitizer report. */
#ifndef TINYAOT_FUZZ_COMMON_H
#define TINYAOT_FUZZ_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"

#define FUZZ_CHECK(cond)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      abort();                                                                  \
    }                                                                           \
  } while (0)

/* The memory bound of docs/robustness.md: what the compiler allocates for a model
 * stays under 10x its size plus a fixed 64 MiB (per-operator tables and text). */
#define FUZZ_MEMORY_FIXED ((size_t)64 << 20)

static inline void fuzz_check_memory(size_t used, size_t size, const char *what) {
  if (used > FUZZ_MEMORY_FIXED + 10 * size) {
    fprintf(stderr, "fuzz check failed: %s used %zu bytes for a %zu-byte model\n", what, used, size);
    abort();
  }
}

/* An error is reported as one non-empty line. */
static inline void fuzz_check_message(const Diag *d) {
  FUZZ_CHECK(d->count > 0 && d->msg[0] != 0);
  FUZZ_CHECK(strchr(d->msg, '\n') == NULL && strchr(d->extra, '\n') == NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
