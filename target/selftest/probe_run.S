/* probe_model_run with a known instruction count (expected.txt says how many). */
  .syntax unified
  .thumb
  .text
  .global probe_model_run
  .type probe_model_run, %function
  .thumb_func
probe_model_run:
#if defined(__ARM_FEATURE_MVE)
  /* 26 instructions: 11 MVE, 10 loop-end branches */
  push {r4, lr}
  movs r1, #10
  vdup.32 q0, r1
  dls lr, r1
1:
  vadd.i32 q0, q0, q0
  le lr, 1b
  movs r0, #0
  pop {r4, pc}
#else
  /* 203 instructions */
  movs r1, #100
1:
  subs r1, r1, #1
  bne 1b
  movs r0, #0
  bx lr
#endif
  .size probe_model_run, . - probe_model_run
