/* C start-up of the QEMU harness: initialise .data/.bss, run, exit; report faults. */
#include "harness.h"

/* Sections of the other memories (mps3-an547.ld: the module's placement sections).
 * Weak: a linker script without them (mps2-an386.ld) leaves both tables empty. */
extern const ta_copy_entry_t __ta_copy_table[] __attribute__((weak));
extern const ta_copy_entry_t __ta_copy_table_end[] __attribute__((weak));
extern const ta_zero_entry_t __ta_zero_table[] __attribute__((weak));
extern const ta_zero_entry_t __ta_zero_table_end[] __attribute__((weak));

void ta_start(void) __attribute__((noreturn));
void ta_fault(uint32_t exception) __attribute__((noreturn));

/* Copies every initialised placement section from its image and zeroes every
 * zero-initialised one (sizes are multiples of 4, addresses 4-aligned). */
static void init_placement_sections(void) {
  const ta_copy_entry_t *c;
  const ta_zero_entry_t *z;
  for (c = __ta_copy_table; c < __ta_copy_table_end; c++) {
    const uint32_t *from = c->load;
    uint32_t *to = c->start, *end = c->start + c->bytes / 4u;
    while (to < end) *to++ = *from++;
  }
  for (z = __ta_zero_table; z < __ta_zero_table_end; z++) {
    uint32_t *to = z->start, *end = z->start + z->bytes / 4u;
    while (to < end) *to++ = 0;
  }
}

void ta_start(void) {
  const uint32_t *from = __data_load;
  uint32_t *to = __data_start;
  while (to < __data_end) *to++ = *from++;
  for (to = __bss_start; to < __bss_end; to++) *to = 0;
  init_placement_sections();
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
