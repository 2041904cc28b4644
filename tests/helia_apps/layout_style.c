/* A heliaAOT application that includes the public headers of heliaAOT's documented module
 * layout (reference/artifacts/module-layout: <prefix>_context.h, _operators.h,
 * _tensors.h, _platform.h) instead of <prefix>_model.h, redirects the module's print
 * hook <PREFIX>_PRINTF (defined before the platform header, as a firmware routes it to
 * its own console) and sizes a per-operator table with <PREFIX>_LAST_IDENTIFIER + 1,
 * indexed by the operator id the callback reports. Our own code for prefix "aot";
 * compiled unchanged against tinyaot modules on the host and on QEMU Cortex-M4/M55
 * (tests/suites/helia_api.sh). */
#include <stdarg.h>
#include <string.h>

static int log_lines;
static int app_log(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  (void)va_arg(ap, int);
  va_end(ap);
  (void)fmt;
  return ++log_lines;
}
#define AOT_PRINTF(...) app_log(__VA_ARGS__)

#include "aot_context.h"
#include "aot_operators.h"
#include "aot_tensors.h"
#include "aot_platform.h"
#include "app_io.h"

static uint32_t runs_of[AOT_LAST_IDENTIFIER + 1];
static int beyond_last, finished;

static void count_operator(int32_t op, aot_operator_state_t state, int32_t status, void *user_data) {
  (void)status;
  (void)user_data;
  if (state != aot_op_state_run_finished) return;
  if (op < 0 || op > AOT_LAST_IDENTIFIER) {
    beyond_last++;
    return;
  }
  runs_of[op]++;
  finished++;
  AOT_PRINTF("operator %d finished\n", (int)op);
}

int app_main(void) {
  static aot_model_context_t ctx;
  int i, distinct = 0;
  ctx.callback = count_operator;
  if (aot_model_init(&ctx) != aot_status_ok) return 30;
  for (i = 0; i < aot_num_inputs; i++) {
    size_t size = 0;
    const void *stimulus = app_input(i, &size);
    if (!stimulus || size != ctx.inputs[i].size || size != aot_tensor_descriptors[ctx.inputs[i].id].size) return 31;
    memcpy(ctx.inputs[i].data, stimulus, size);
  }
  if (aot_model_run(&ctx) != aot_status_ok) return 32;
  if (beyond_last || finished == 0) return 33;
  for (i = 0; i <= AOT_LAST_IDENTIFIER; i++) {
    if (runs_of[i] > 1) return 34; /* each operator id runs once per inference */
    distinct += runs_of[i] != 0;
  }
  if (distinct != finished || log_lines != finished) return 35; /* every line went through the hook */
  for (i = 0; i < aot_num_outputs; i++)
    if (app_output(i, ctx.outputs[i].data, ctx.outputs[i].size) != 0) return 36;
  return 0;
}
