/* Shared declarations of the bare-metal QEMU harness (C and assembly). */
#ifndef TA_HARNESS_H
#define TA_HARNESS_H

/* Word the free stack is painted with before the measured call. */
#define TA_STACK_PAINT 0x5AA5F00D

/* Exit codes the host scripts decode (0 = success). */
#define TA_EXIT_INIT_FAILED 2
#define TA_EXIT_RUN_FAILED 3
#define TA_EXIT_INPUT_MISMATCH 4
#define TA_EXIT_WRITE_FAILED 5
#define TA_EXIT_STACK_OVERFLOW 6
#define TA_EXIT_FAULT_BASE 64 /* + exception number */

#ifndef __ASSEMBLER__
#include <stdint.h>

/* startup.S */
int32_t ta_semihost(int32_t op, void *arg);
int32_t ta_bench_invoke(void *context, void (*run)(void));
extern uint32_t ta_bench_sp_at_call;
/* The layer run's operator callback (the module's <prefix>_op_callback_t): marks the
 * start or the end of operator op_id for the instruction counter, nothing else. */
void ta_bench_on_operator(int32_t op_id, int32_t state, int32_t status, void *user_data);

/* semihost.c: host I/O through the debugger trap (QEMU -semihosting). */
void ta_print(const char *text);
void ta_print_u32(const char *label, uint32_t value);
/* Writes size bytes to a host file (path relative to QEMU's working directory); 0 on success. */
int ta_write_file(const char *path, const void *data, uint32_t size);
/* The semihosting command line (QEMU: -semihosting-config ...,arg=WORD), NUL-terminated
 * in text[size]; 0 on success, -1 when the host has none or it does not fit. */
int ta_command_line(char *text, uint32_t size);
void ta_exit(int code) __attribute__((noreturn));

/* harness.c */
int ta_harness_main(void);

/* The corpus case linked into the image (generated case_inputs.S). */
typedef struct {
  const uint8_t *data;
  uint32_t size;
} ta_case_blob_t;
extern const ta_case_blob_t ta_case_inputs[];
extern const uint32_t ta_case_num_inputs;

/* Linker script symbols. */
extern uint32_t __stack_limit[], __stack_top[];
extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[];

/* Entries of the start-up tables of the placement sections (mps3-an547.ld). */
typedef struct {
  const uint32_t *load; /* image in the read-only memory */
  uint32_t *start;      /* where it runs */
  uint32_t bytes;
} ta_copy_entry_t;
typedef struct {
  uint32_t *start;
  uint32_t bytes;
} ta_zero_entry_t;
#endif

#endif
