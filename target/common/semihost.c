/* Host I/O for the QEMU harness over Arm semihosting: console text, file writes, the
 * command line, exit. */
#include "harness.h"

enum {
  SYS_OPEN = 0x01,
  SYS_CLOSE = 0x02,
  SYS_WRITE0 = 0x04,
  SYS_WRITE = 0x05,
  SYS_GET_CMDLINE = 0x15,
  SYS_EXIT_EXTENDED = 0x20,
  OPEN_MODE_WB = 5,                         /* fopen mode "wb" */
  ADP_STOPPED_APPLICATION_EXIT = 0x20026 /* reason code of a normal exit */
};

static uint32_t text_length(const char *s) {
  uint32_t n = 0;
  while (s[n]) n++;
  return n;
}

void ta_print(const char *text) { ta_semihost(SYS_WRITE0, (void *)text); }

/* "label=value\n" with value in decimal, without any C library. */
void ta_print_u32(const char *label, uint32_t value) {
  char digits[16];
  int n = 0;
  ta_print(label);
  do {
    digits[n++] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value);
  {
    char line[18];
    int i = 0;
    line[i++] = '=';
    while (n) line[i++] = digits[--n];
    line[i++] = '\n';
    line[i] = 0;
    ta_print(line);
  }
}

int ta_write_file(const char *path, const void *data, uint32_t size) {
  uint32_t open_args[3];
  uint32_t write_args[3];
  int32_t handle;
  int32_t left;
  open_args[0] = (uint32_t)(uintptr_t)path;
  open_args[1] = OPEN_MODE_WB;
  open_args[2] = text_length(path);
  handle = ta_semihost(SYS_OPEN, open_args);
  if (handle < 0) return -1;
  write_args[0] = (uint32_t)handle;
  write_args[1] = (uint32_t)(uintptr_t)data;
  write_args[2] = size;
  left = ta_semihost(SYS_WRITE, write_args); /* bytes NOT written */
  if (ta_semihost(SYS_CLOSE, &write_args[0]) != 0) return -1;
  return left == 0 ? 0 : -1;
}

int ta_command_line(char *text, uint32_t size) {
  uint32_t args[2];
  args[0] = (uint32_t)(uintptr_t)text;
  args[1] = size;
  return ta_semihost(SYS_GET_CMDLINE, args) == 0 ? 0 : -1;
}

void ta_exit(int code) {
  uint32_t args[2];
  args[0] = ADP_STOPPED_APPLICATION_EXIT;
  args[1] = (uint32_t)code;
  for (;;) ta_semihost(SYS_EXIT_EXTENDED, args);
}
