/* Runs every unit test table (unit_tables.h); prints PASS/FAIL per test. */
#include "unit.h"

int main(void) {
  const UnitTest *tables[] = {
#define UNIT_TABLE(table) table,
#include "unit_tables.h"
#undef UNIT_TABLE
  };
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
