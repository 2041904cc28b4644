/* --test.enabled without golden data: expected outputs from a host build and run of the
 * same model (test_case_host.c). */
#ifndef TINYAOT_TEST_CASE_HOST_H
#define TINYAOT_TEST_CASE_HOST_H
#include "pipeline.h"

/* The options of the host build of opt's model (pipeline.c compiles it: this file only
 * builds and runs the result, so the calls go one way). */
void test_case_host_options(const ConvertOptions *opt, ConvertOptions *host);
/* Writes the compiled host module `h` to a temporary folder, builds it with $CC (default
 * cc), runs it on a deterministic stimulus and fills `data` (arena-owned). */
bool test_case_host_run(const Compilation *h, Arena *a, TestCaseData *data, Diag *d);

#endif
