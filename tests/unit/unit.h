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

/* Each test file exports a NULL-terminated table. */
extern const UnitTest flatbuffer_tests[], loader_tests[], plan_tests[], quant_tests[], resolve_tests[], config_tests[];
extern const UnitTest elementwise_tests[], heap_tests[];
extern const UnitTest schedule_tests[];
extern const UnitTest options_tests[];
extern const UnitTest math_ops_tests[];
extern const UnitTest s16_dsp_tests[];
extern const UnitTest s16_mve_tests[];
extern const UnitTest npz_tests[];
extern const UnitTest module_types_tests[];
extern const UnitTest rewrites_tests[];
extern const UnitTest patch_tests[];
extern const UnitTest cost_model_tests[];
extern const UnitTest ram_tests[];
extern const UnitTest integer_io_tests[];
extern const UnitTest slice_views_tests[];
extern const UnitTest pooling_tests[];
extern const UnitTest gemm_fcs_tests[];

#endif
