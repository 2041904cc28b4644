/* --test.enabled without golden data: expected outputs from a host build and run of the
 * same model (test_case_host.c). */
#ifndef TINYAOT_TEST_CASE_HOST_H
#define TINYAOT_TEST_CASE_HOST_H
#include "pipeline.h"

/* Compiles opt's model for the host, builds it with $CC (default cc) in a temporary
 * folder, runs it on a deterministic stimulus and fills `data` (arena-owned). */
bool test_case_host_run(const ConvertOptions *opt, Arena *a, TestCaseData *data, Diag *d);

#endif
