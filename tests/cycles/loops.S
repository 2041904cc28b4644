/* Bare-metal loops with a cycle count known from the timing rules (docs/cycles.md), for
 * tests/suites/cycles.sh: two builds that differ only in ITERS must differ in modelled
 * cycles by ITERS difference x the loop's per-iteration cost. Runs on mps2-an386 (M4) and
 * mps3-an547 (M55): code at 0, stack in the RAM at 0x20000000. LOOP selects the loop:
 *   1 (both cores)  adds r0,#1; subs r1,#1; bne   M4: 1 + 1 + (1 + P=1) = 4 per iteration
 *                                                 M55: adds/subs dual-issue 1, bne 1 + refill 1 = 3
 *   2 (M55)         dls; adds r0,#1; adds r2,#1; le   pair 1, LE from the loop cache 0 = 1
 *   3 (M55)         dls; vldrw.u32 q0; vmlava.s8 r0, q1, q2; le   dual-beat overlap: 2
 * EXIT is the semihosting exit code; NO_BENCH leaves out bench_begin/bench_end (whole-run window). */
  .syntax unified
  .thumb
  .text
  .word 0x20008000          /* initial SP */
  .word reset + 1           /* reset */
  .thumb_func
reset:
#if LOOP == 3
  ldr r0, =0xE000ED88       /* CPACR: CP10/CP11 full access (FPU and MVE) */
  ldr r2, [r0]
  orr r2, r2, #0x00F00000
  str r2, [r0]
  dsb
  isb
#endif
  ldr r1, =ITERS
  ldr r3, =0x20000000
  movs r0, #0
  movs r2, #0
#ifndef NO_BENCH
  bl bench_begin
#endif
#if LOOP == 1
1:
  adds r0, #1
  subs r1, #1
  bne 1b
#elif LOOP == 2
  dls lr, r1
1:
  adds r0, #1
  adds r2, #1
  le lr, 1b
#else
  dls lr, r1
1:
  vldrw.u32 q0, [r3]
  vmlava.s8 r0, q1, q2
  le lr, 1b
#endif
#ifndef NO_BENCH
  bl bench_end
#endif
  ldr r1, =exit_block
  movs r0, #0x20            /* SYS_EXIT_EXTENDED */
  bkpt 0xab
1:
  b 1b
#ifndef NO_BENCH
  .thumb_func
  .global bench_begin
bench_begin:
  bx lr
  .thumb_func
  .global bench_end
bench_end:
  bx lr
#endif
  .balign 4
exit_block:
  .word 0x20026             /* ADP_Stopped_ApplicationExit */
  .word EXIT
  .ltorg
