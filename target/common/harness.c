/* The measured program: one tinyaot module, the inputs of one corpus case, init and
 * one inference; outputs and figures go back to the host over semihosting.
 * Built with -DTA_PREFIX=<module prefix> -DTA_MODEL_HEADER="<name>_model.h". */
#include "harness.h"
#include TA_MODEL_HEADER

#define TA_GLUE_(a, b) a##b
#define TA_GLUE(a, b) TA_GLUE_(a, b)
#define MODEL(suffix) TA_GLUE(TA_PREFIX, suffix)

typedef MODEL(_model_context_t) model_context_t;

uint32_t ta_bench_sp_at_call;
/* Global, not static: the instruction counter's layer run finds it by name (the
 * module reads its callback field between operators). */
model_context_t ta_bench_context;

/* Key=value report written to harness.txt (no C library in the harness: its
 * code size must not hide what the module pulls in). */
static char report[512];
static uint32_t report_len;

static void report_text(const char *s) {
  while (*s && report_len + 1 < sizeof report) report[report_len++] = *s++;
}

static void report_u32(const char *key, uint32_t value) {
  char digits[12];
  int n = 0;
  report_text(key);
  report_text("=");
  do {
    digits[n++] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value);
  while (n && report_len + 1 < sizeof report) report[report_len++] = digits[--n];
  report_text("\n");
}

/* The layer run (bench/README.md): QEMU passes the semihosting argument "layers" and
 * the module then reports every operator's start and end to ta_bench_on_operator.
 * Otherwise the callback stays NULL (a zeroed global; model_init keeps it): the measured run. */
static int layer_run_requested(void) {
  static const char word[] = "layers";
  char line[sizeof word];
  uint32_t i;
  if (ta_command_line(line, sizeof line) != 0) return 0;
  for (i = 0; i < sizeof word; i++)
    if (line[i] != word[i]) return 0;
  return 1;
}

static void copy_bytes(uint8_t *to, const uint8_t *from, uint32_t n) {
  while (n--) *to++ = *from++;
}

static int load_inputs(void) {
  uint32_t i, n = (uint32_t)(sizeof ta_bench_context.inputs / sizeof ta_bench_context.inputs[0]);
  if (ta_case_num_inputs != n) {
    ta_print("tinyaot harness: the case has a different number of inputs than the model\n");
    return -1;
  }
  for (i = 0; i < n; i++) {
    if (ta_case_inputs[i].size != ta_bench_context.inputs[i].size) {
      ta_print_u32("tinyaot harness: input size mismatch, input", i);
      return -1;
    }
    copy_bytes((uint8_t *)ta_bench_context.inputs[i].data, ta_case_inputs[i].data, ta_case_inputs[i].size);
  }
  return 0;
}

/* Bytes of stack the measured call used: from its SP down to the lowest painted
 * word that was overwritten (the paint covers everything below that SP). */
static uint32_t stack_peak(void) {
  const uint32_t *top = (const uint32_t *)(uintptr_t)ta_bench_sp_at_call;
  const uint32_t *w = __stack_limit;
  while (w < top && *w == TA_STACK_PAINT) w++;
  return (uint32_t)((uintptr_t)top - (uintptr_t)w);
}

static int write_outputs(void) {
  uint32_t i, n = (uint32_t)(sizeof ta_bench_context.outputs / sizeof ta_bench_context.outputs[0]);
  for (i = 0; i < n; i++) {
    char path[16] = "out";
    uint32_t len = 3, v = i, div = 1;
    while (v / div >= 10u) div *= 10u;
    for (; div; div /= 10u) path[len++] = (char)('0' + (v / div) % 10u);
    copy_bytes((uint8_t *)path + len, (const uint8_t *)".bin", 5);
    if (ta_write_file(path, ta_bench_context.outputs[i].data, ta_bench_context.outputs[i].size) != 0) return -1;
  }
  return 0;
}

int ta_harness_main(void) {
  int32_t status = MODEL(_model_init)(&ta_bench_context);
  uint32_t peak, reserved = (uint32_t)((uintptr_t)__stack_top - (uintptr_t)__stack_limit);
  report_u32("init_status", (uint32_t)status);
  if (status != 0) {
    ta_write_file("harness.txt", report, report_len);
    return TA_EXIT_INIT_FAILED;
  }
  if (load_inputs() != 0) return TA_EXIT_INPUT_MISMATCH;
  if (layer_run_requested()) /* through void (*)(void): its state is the module's enum type */
    ta_bench_context.callback = (__typeof__(ta_bench_context.callback))(void (*)(void))ta_bench_on_operator;
  status = ta_bench_invoke(&ta_bench_context, (void (*)(void))MODEL(_model_run));
  peak = stack_peak();
  report_u32("run_status", (uint32_t)status);
  report_u32("stack_peak_bytes", peak);
  report_u32("stack_reserved_bytes", reserved);
  if (ta_write_file("harness.txt", report, report_len) != 0) return TA_EXIT_WRITE_FAILED;
  if (status != 0) return TA_EXIT_RUN_FAILED;
  if ((uintptr_t)ta_bench_sp_at_call - peak <= (uintptr_t)__stack_limit) return TA_EXIT_STACK_OVERFLOW;
  return write_outputs() == 0 ? 0 : TA_EXIT_WRITE_FAILED;
}
