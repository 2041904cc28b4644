/* C start-up of the QEMU harness: initialise .data/.bss, run, exit; report faults. */
#include "harness.h"

void ta_start(void) __attribute__((noreturn));
void ta_fault(uint32_t exception) __attribute__((noreturn));

void ta_start(void) {
  const uint32_t *from = __data_load;
  uint32_t *to = __data_start;
  while (to < __data_end) *to++ = *from++;
  for (to = __bss_start; to < __bss_end; to++) *to = 0;
  ta_exit(ta_harness_main());
}

/* Any exception is a failure here (nothing enables interrupts): name it, dump
 * the fault status registers, exit with TA_EXIT_FAULT_BASE + its number. */
void ta_fault(uint32_t exception) {
  ta_print("tinyaot harness: fault\n");
  ta_print_u32("exception", exception);
  ta_print_u32("cfsr", *(volatile uint32_t *)0xE000ED28u);
  ta_print_u32("hfsr", *(volatile uint32_t *)0xE000ED2Cu);
  ta_print_u32("bfar", *(volatile uint32_t *)0xE000ED38u);
  ta_exit(TA_EXIT_FAULT_BASE + (int)exception);
}
