/* Minimal unit-test support: each test is a function; CHECK records failures. */
#ifndef TINYAOT_UNIT_H
#define TINYAOT_UNIT_H
#include <stdio.h>

typedef struct UnitState {
  int failures;
  const char *test;
} UnitState;

#define CHECK(u, cond)                                                              \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      printf("  check failed in %s: %s (%s:%d)\n", (u)->test, #cond, __FILE__, __LINE__); \
      (u)->failures++;                                                              \
    }                                                                               \
  } while (0)

typedef void (*UnitFn)(UnitState *u);
typedef struct UnitTest {
  const char *name;
  UnitFn fn;
} UnitTest;

/* Each test file exports a NULL-terminated table, registered in unit_tables.h. */
#define UNIT_TABLE(table) extern const UnitTest table[];
#include "unit_tables.h"
#undef UNIT_TABLE

#endif
