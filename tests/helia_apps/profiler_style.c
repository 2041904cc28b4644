/* A heliaAOT application in the style of heliaPROFILER's firmware for heliaAOT modules:
 *   AmbiqAI/helia-profiler, src/helia_profiler/firmware/templates/main_aot.cc.j2
 *   (the context is a static object whose initialiser sets .callback and .user_data
 *   before <prefix>_model_init; the operator callback switches on
 *   <prefix>_op_state_run_started / _run_finished of <prefix>_operator_state_t; inputs
 *   and outputs are reached through <prefix>_num_inputs / _num_outputs and
 *   ctx.inputs[i].data / .size; it includes <prefix>_model.h and <prefix>_common.h).
 * Our own code, written against that API for prefix "aot"; compiled unchanged against
 * tinyaot modules on the host and on QEMU Cortex-M4/M55 (tests/suites/helia_api.sh). */
#include <string.h>

#include "aot_model.h"
#include "aot_common.h"
#include "app_io.h"

enum { MAX_OPS = 512 };
static int32_t started[MAX_OPS];
static int n_started, n_finished, out_of_order;
static int32_t open_op = -1;

static void model_operator_cb(int32_t op, aot_operator_state_t state, int32_t status, void *user_data) {
  int *calls = (int *)user_data;
  (void)status;
  ++*calls;
  if (state == aot_op_state_run_started) {
    if (open_op != -1) out_of_order++;
    open_op = op;
    if (n_started < MAX_OPS) started[n_started] = op;
    n_started++;
  } else if (state == aot_op_state_run_finished) {
    if (open_op != op) out_of_order++;
    open_op = -1;
    n_finished++;
  }
}

static int callback_calls;
static aot_model_context_t aot_model_ctx = {
    .callback = model_operator_cb,
    .user_data = &callback_calls,
};

int app_main(void) {
  int i;
  int32_t aot_status = aot_model_init(&aot_model_ctx);
  if (aot_status != 0) return 10;
  for (i = 0; i < aot_num_inputs; i++) {
    size_t size = 0;
    const void *stimulus = app_input(i, &size);
    if (!stimulus || size != aot_model_ctx.inputs[i].size) return 11;
    memcpy(aot_model_ctx.inputs[i].data, stimulus, aot_model_ctx.inputs[i].size);
  }
  if (aot_model_run(&aot_model_ctx) != 0) return 12;
  /* the callback set before init must have seen every operator start and finish */
  if (n_started == 0 || n_started != n_finished || out_of_order) return 13;
  if (callback_calls != n_started + n_finished) return 14;
  for (i = 1; i < n_started && i < MAX_OPS; i++)
    if (started[i] == started[i - 1]) return 15;
  for (i = 0; i < aot_num_outputs; i++)
    if (app_output(i, aot_model_ctx.outputs[i].data, aot_model_ctx.outputs[i].size) != 0) return 16;
  return 0;
}
