/* The --profile test application (tests/suites/profile.sh): runs a module of prefix
 * "prof" once with an operator callback set, checks that <prefix>_profile[] has exactly
 * one row per operator the callback reported, in ascending operator order, with a name,
 * then prints the table through <prefix>_profile_print and the number of operator starts
 * the callback saw ("started N", each band of a banded operator counted). Built with the
 * platform side of tests/helia_apps (host_main.c: files and stdout; qemu_main.c: the
 * linked case and semihosting), so the same checks run on the host and on QEMU. */
#include <string.h>

#include "app_io.h"
#include "prof_model.h"

#if defined(__arm__)
#include "harness.h"
static void print_line(const char *line) { ta_print(line); }
#else
#include <stdio.h>
static void print_line(const char *line) { fputs(line, stdout); }
#endif

enum { MAX_OPS = 1024 };
static int32_t seen[MAX_OPS]; /* operators the callback saw start, ascending, once each */
static int n_seen, n_started, unbalanced;
static int32_t open_op = -1;

static void on_operator(int32_t op, prof_op_state_t state, int32_t status, void *user_data) {
  int i, at;
  (void)status;
  (void)user_data;
  if (state == PROF_OP_RUN_FINISHED) {
    if (open_op != op) unbalanced++;
    open_op = -1;
    return;
  }
  if (open_op != -1) unbalanced++;
  open_op = op;
  n_started++;
  for (at = 0; at < n_seen && seen[at] < op; at++) {}
  if (at < n_seen && seen[at] == op) return; /* a band of an operator already seen */
  if (n_seen == MAX_OPS) {
    unbalanced++;
    return;
  }
  for (i = n_seen; i > at; i--) seen[i] = seen[i - 1];
  seen[at] = op;
  n_seen++;
}

static prof_model_context_t ctx = {.callback = on_operator};

int app_main(void) {
  int i;
  if (prof_model_init(&ctx) != 0) return 10;
  if (prof_profile_counter == NULL || prof_profile_counter[0] == '\0') return 11;
  for (i = 0; i < prof_num_inputs; i++) {
    size_t size = 0;
    const void *stimulus = app_input(i, &size);
    if (!stimulus || size != ctx.inputs[i].size) return 12;
    memcpy(ctx.inputs[i].data, stimulus, size);
  }
  if (prof_model_run(&ctx) != 0) return 13;
  if (unbalanced || open_op != -1) return 14;
  /* one row per operator the callback reported, same order, each named */
  if (n_seen != PROF_PROFILE_ENTRIES) return 15;
  for (i = 0; i < PROF_PROFILE_ENTRIES; i++) {
    if (prof_profile[i].op != seen[i]) return 16;
    if (prof_profile[i].name == NULL || prof_profile[i].name[0] == '\0') return 17;
  }
  /* without a counter every figure stays 0 */
  if (strcmp(prof_profile_counter, "none") == 0) {
    if (prof_profile_run_cycles != 0u) return 18;
    for (i = 0; i < PROF_PROFILE_ENTRIES; i++)
      if (prof_profile[i].cycles != 0u) return 18;
  }
  for (i = 0; i < prof_num_outputs; i++)
    if (app_output(i, ctx.outputs[i].data, ctx.outputs[i].size) != 0) return 19;
  prof_profile_print(print_line);
  {
    /* the callback's count of operator starts (bands included), for the suite's sums */
    char line[32] = "started ";
    int n = 8, k = 0;
    char d[12];
    int v = n_started;
    do d[k++] = (char)('0' + v % 10); while ((v /= 10) != 0);
    while (k > 0) line[n++] = d[--k];
    line[n++] = '\n';
    line[n] = '\0';
    print_line(line);
  }
  return 0;
}
