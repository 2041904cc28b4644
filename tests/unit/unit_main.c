/* Runs every unit test table; prints PASS/FAIL per test. */
#include "unit.h"

int main(void) {
  const UnitTest *tables[] = {flatbuffer_tests, loader_tests, plan_tests, quant_tests, resolve_tests, config_tests,
                              elementwise_tests, schedule_tests, heap_tests, options_tests, npz_tests, math_ops_tests, module_types_tests, s16_dsp_tests, s16_mve_tests,
                              rewrites_tests, patch_tests, cost_model_tests, ram_tests, integer_io_tests,
                              slice_views_tests, gemm_fcs_tests, pooling_tests};
  int failed = 0, passed = 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    for (const UnitTest *ut = tables[t]; ut->name; ut++) {
      UnitState u = {0, ut->name};
      ut->fn(&u);
      printf("%s %s\n", u.failures ? "FAIL" : "PASS", ut->name);
      if (u.failures) failed++;
      else passed++;
    }
  printf("unit: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
