/* QEMU platform of the test applications (target/common startup, semihosting): the
 * case's inputs are linked into the image (ta_case_inputs), outputs are written to the
 * host through semihosting as out<i>.bin. */
#include "app_io.h"
#include "harness.h"

uint32_t ta_bench_sp_at_call; /* startup.S's measured-call glue refers to it */

const void *app_input(int i, size_t *size) {
  if (i < 0 || (uint32_t)i >= ta_case_num_inputs) return 0;
  *size = ta_case_inputs[i].size;
  return ta_case_inputs[i].data;
}

int app_output(int i, const void *data, size_t size) {
  char path[16] = "out";
  uint32_t len = 3, v = (uint32_t)i, div = 1;
  while (v / div >= 10u) div *= 10u;
  for (; div; div /= 10u) path[len++] = (char)('0' + (v / div) % 10u);
  path[len++] = '.', path[len++] = 'b', path[len++] = 'i', path[len++] = 'n', path[len] = '\0';
  return ta_write_file(path, data, (uint32_t)size);
}

int ta_harness_main(void) {
  int rc = app_main();
  if (rc != 0) ta_print_u32("app_main failed", (uint32_t)rc);
  return rc;
}
