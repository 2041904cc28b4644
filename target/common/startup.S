/* Bare-metal start-up for the QEMU Cortex-M machines: vector table, reset
 * (FPU/MVE enable, then C), the semihosting trap, the measured call and the
 * operator markers of the layer run. */
#include "harness.h"

/* Operators the marker table covers (run_case.sh passes the module's
 * <PREFIX>_NUM_OPERATORS); operators beyond it are not marked. */
#ifndef TA_BENCH_OPERATORS
#define TA_BENCH_OPERATORS 0
#endif

  .syntax unified
  .thumb

/* ---- vector table: initial SP, reset, then every fault to one reporter ---- */
  .section .vectors, "a", %progbits
  .balign 4
  .global ta_vectors
ta_vectors:
  .word __stack_top
  .word ta_reset
  .word ta_fault_nmi          /* NMI */
  .word ta_fault_hard         /* HardFault */
  .word ta_fault_mem          /* MemManage */
  .word ta_fault_bus          /* BusFault */
  .word ta_fault_usage        /* UsageFault */
  .word ta_fault_secure       /* SecureFault (v8-M) */
  .word 0, 0, 0
  .word ta_fault_other        /* SVCall */
  .word ta_fault_other        /* DebugMonitor */
  .word 0
  .word ta_fault_other        /* PendSV */
  .word ta_fault_other        /* SysTick */

  .text

/* Reset: grant full access to CP10/CP11 (the FPU, and on the M55 also MVE) in
 * assembly, before any compiled code can use a floating-point or vector register. */
  .global ta_reset
  .type ta_reset, %function
  .thumb_func
ta_reset:
  ldr r0, =0xE000ED88         /* CPACR */
  ldr r1, [r0]
  orr r1, r1, #(0xF << 20)
  str r1, [r0]
  dsb
  isb
  bl ta_start                 /* never returns */
1:
  b 1b
  .size ta_reset, . - ta_reset

/* Each fault entry passes its number to the C reporter. */
  .macro fault_entry name, number
  .global \name
  .type \name, %function
  .thumb_func
\name:
  movs r0, #\number
  b ta_fault
  .size \name, . - \name
  .endm
  fault_entry ta_fault_nmi, 2
  fault_entry ta_fault_hard, 3
  fault_entry ta_fault_mem, 4
  fault_entry ta_fault_bus, 5
  fault_entry ta_fault_usage, 6
  fault_entry ta_fault_secure, 7
  fault_entry ta_fault_other, 15

/* int32_t ta_semihost(int32_t op, void *arg): the Arm semihosting trap. */
  .global ta_semihost
  .type ta_semihost, %function
  .thumb_func
ta_semihost:
  bkpt 0xab
  bx lr
  .size ta_semihost, . - ta_semihost

/* int32_t ta_bench_invoke(void *context, void (*run)(void)):
 * paints the free stack below the current SP, then calls run(context). The
 * instruction counter counts from the first instruction of run up to (not
 * including) ta_bench_returned, so nothing of this glue is counted. */
  .global ta_bench_invoke
  .type ta_bench_invoke, %function
  .thumb_func
ta_bench_invoke:
  push {r4, r5, r6, lr}
  mov r4, r0
  mov r5, r1
  ldr r2, =__stack_limit
  ldr r3, =TA_STACK_PAINT
  mov r12, sp
2:
  cmp r2, r12
  bhs 3f
  str r3, [r2], #4
  b 2b
3:
  ldr r2, =ta_bench_sp_at_call
  str r12, [r2]
  mov r0, r4
  blx r5
  .global ta_bench_returned
ta_bench_returned:
  pop {r4, r5, r6, pc}
  .size ta_bench_invoke, . - ta_bench_invoke

/* void ta_bench_on_operator(int32_t op_id, int32_t state, int32_t status, void *user_data):
 * the module's operator callback in the layer run. It jumps to marker 2 * op_id + state
 * of ta_bench_op_markers, a table of `bx lr` (2 bytes each) that returns straight to
 * the module: the instruction counter learns the operator and whether it starts (state
 * 0) or has finished (1) from the address of the marker executed, with no data. */
  .global ta_bench_on_operator
  .type ta_bench_on_operator, %function
  .thumb_func
ta_bench_on_operator:
  add r0, r1, r0, lsl #1      /* marker index */
  ldr r3, =2 * TA_BENCH_OPERATORS
  cmp r0, r3
  bhs 4f                      /* beyond the table (or negative): not marked */
  ldr r2, =ta_bench_op_markers /* a Thumb function: bit 0 is set */
  add r2, r2, r0, lsl #1
  bx r2
4:
  bx lr
  .size ta_bench_on_operator, . - ta_bench_on_operator

  .global ta_bench_op_markers
  .type ta_bench_op_markers, %function
  .thumb_func
ta_bench_op_markers:
  .rept 2 * TA_BENCH_OPERATORS
  bx lr
  .endr
  .size ta_bench_op_markers, . - ta_bench_op_markers
