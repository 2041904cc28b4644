/* Checks the decoder and the cycle rules of timing.h on hand-written instruction sequences.
 * Encodings from arm-none-eabi-as (-march=armv8.1-m.main+mve.fp+fp.dp); each expected count
 * is derived by hand from the rule it exercises (docs/cycles.md), not taken from a run:
 *   M4:  Cortex-M4 TRM cycle counts (the model's parameters: P = 1, +1 when the branch
 *        target is a 32-bit instruction at a halfword address; SDIV/UDIV 7).
 *   M55: the model's rules with the default (fitted) parameters: load result after 2
 *        cycles, multiply 1, reduction 3, vector multiply 1, refill 1, dual issue level 2,
 *        gathers 2 elements per cycle. */
#include <stdio.h>

#include "timing.h"

typedef struct Op {
  uint32_t pc; /* 0: the next address after the previous one */
  uint16_t hw1, hw2;
} Op;

static int failures;

/* Steps ops in order (the given PCs tell taken branches); returns the cycles until the
 * sentinel (a further independent ALU instruction, add.w r12, r12, #1) can issue. */
static uint64_t run(bool m55, const Op *ops, size_t n, tm_state *s) {
  tm_init(s, m55 ? tm_m55_defaults() : tm_m4_defaults());
  uint32_t pc = 0x1000;
  for (size_t i = 0; i <= n; i++) {
    Op o = i < n ? ops[i] : (Op){0, 0xF10C, 0x0C01};
    if (o.pc) pc = o.pc;
    tm_insn d = tm_decode(pc, o.hw1, o.hw2);
    uint64_t t = m55 ? tm_m55_step(s, &d) : tm_m4_step(s, &d);
    if (i == n) return t;
    pc += d.size;
  }
  return 0;
}

static void expect(const char *core, const char *what, uint64_t got, uint64_t want) {
  if (got != want) {
    printf("FAIL %s %s: %llu cycles, expected %llu\n", core, what, (unsigned long long)got, (unsigned long long)want);
    failures++;
  }
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define M4(what, want, ...)                                         \
  do {                                                              \
    const Op seq[] = {__VA_ARGS__};                                 \
    tm_state st;                                                    \
    expect("m4", what, run(false, seq, N(seq), &st), want);         \
  } while (0)
#define M55(what, want, ...)                                        \
  do {                                                              \
    const Op seq[] = {__VA_ARGS__};                                 \
    tm_state st;                                                    \
    expect("m55", what, run(true, seq, N(seq), &st), want);         \
  } while (0)

static const Op ADDS0 = {0, 0x3001, 0}, ADDS1 = {0, 0x3101, 0};       /* adds r0,#1 / adds r1,#1 */
static const Op ADDW0 = {0, 0xF100, 0x0001};                          /* add.w r0, r0, #1 */
static const Op ADDW2_3 = {0, 0xF103, 0x0201}, ADDW2_0 = {0, 0xF100, 0x0201}; /* add.w r2,r3/r0,#1 */
static const Op LDR_R0_R1 = {0, 0x6808, 0}, LDR_R2_R3 = {0, 0x681A, 0}, LDR_R2_R0 = {0, 0x6802, 0};
static const Op LDRW_R0_R1 = {0, 0xF8D1, 0x0000};
static const Op PUSH5 = {0, 0xB5F0, 0}, LDM3 = {0, 0xC80E, 0};
static const Op MULS = {0, 0x4348, 0}, SMLAL = {0, 0xFBC2, 0x0103}, SDIV = {0, 0xFB91, 0xF0F2};
static const Op ITEQ = {0, 0xBF08, 0}, MOVEQ = {0, 0x4611, 0};
static const Op VADDF = {0, 0xEE30, 0x0A81}, VMLAF = {0, 0xEE00, 0x0A81}, VDIVF = {0, 0xEE80, 0x0A81};
static const Op VLDRS = {0, 0xED91, 0x0A00};
static const Op VLDRB = {0, 0xED91, 0x1E00};  /* vldrb.u8 q0, [r1] */
static const Op VMLAVA = {0, 0xEEF2, 0x0F24}; /* vmlava.s8 r0, q1, q2 */
static const Op VMLAV = {0, 0xEEF2, 0x0F04};  /* vmlav.s8 r0, q1, q2 */
static const Op VMUL = {0, 0xEF22, 0x0954};   /* vmul.i32 q0, q1, q2 */
static const Op VADDQ = {0, 0xEF20, 0x6848};  /* vadd.i32 q3, q0, q4 */
static const Op GATHER = {0, 0xFC91, 0x0E04}; /* vldrb.u8 q0, [r1, q2] */
static const Op ADDSW_R1_R0 = {0, 0xF110, 0x0101};

static void decoder(void) {
  static const struct {
    uint16_t hw1, hw2;
    enum tm_class cls;
    const char *text;
  } cases[] = {
      {0x6808, 0, TC_LOAD, "ldr r0, [r1]"},         {0xF8D1, 0x0000, TC_LOAD, "ldr.w r0, [r1]"},
      {0xE9DD, 0xBA49, TC_LOADD, "ldrd fp, sl, [sp, #292]"}, {0xB5F0, 0, TC_STM, "push {r4-r7, lr}"},
      {0xE92D, 0x4FF0, TC_STM, "stmdb sp!, {r4-fp, lr}"},   {0xBDF0, 0, TC_LDM, "pop {r4-r7, pc}"},
      {0x4348, 0, TC_MUL, "muls r0, r1"},            {0xFBC2, 0x0103, TC_MUL, "smlal r0, r1, r2, r3"},
      {0xFB91, 0xF0F2, TC_DIV, "sdiv r0, r1, r2"},   {0xE7FE, 0, TC_BRANCH, "b.n"},
      {0xD0FE, 0, TC_BRANCH, "beq.n"},               {0x4770, 0, TC_BRANCH, "bx lr"},
      {0xF000, 0xF800, TC_BRANCH, "bl"},             {0xBF08, 0, TC_IT, "it eq"},
      {0xEE30, 0x0A81, TC_VFP, "vadd.f32"},          {0xEE00, 0x0A81, TC_VFP_MAC, "vmla.f32"},
      {0xEE80, 0x0A81, TC_VFP_DIV, "vdiv.f32"},      {0xEEA0, 0x0A81, TC_VFP_MAC, "vfma.f32"},
      {0xEEB1, 0x0AE0, TC_VFP_DIV, "vsqrt.f32"},     {0xFE05, 0x6B06, TC_VFP, "vseleq.f64"},
      {0xFF20, 0x0B48, TC_MVE_MUL, "vqrdmulh.s32 q, q, q"}, {0xEA5F, 0xB4C0, TC_ALU, "csneg"},
      {0xEA5F, 0x7BDB, TC_ALU, "movs.w fp, fp, lsr #31"},      {0xED91, 0x0A00, TC_VFP_LOAD, "vldr s0, [r1]"},
      {0xED2D, 0x8B10, TC_VFP_STM, "vpush {d8-d15}"}, {0xED91, 0x1E00, TC_MVE_LOAD, "vldrb.u8 q0, [r1]"},
      {0xECA1, 0x1F04, TC_MVE_STORE, "vstrw.32 q0, [r1], #16"}, {0xFC91, 0x0E04, TC_MVE_LOAD, "vldrb.u8 gather"},
      {0xEEF2, 0x0F24, TC_MVE_RED, "vmlava.s8"},     {0xEE82, 0x0E04, TC_MVE_RED, "vmlalv.s16"},
      {0xEEF1, 0x0F02, TC_MVE_RED, "vaddv.s8"},      {0xEF22, 0x0954, TC_MVE_MUL, "vmul.i32"},
      {0xFE23, 0x0E62, TC_MVE_MUL, "vqrdmulh.s32 q, q, r"}, {0xEE03, 0x0E42, TC_MVE_MUL, "vmla.s8 q, q, r"},
      {0xEF20, 0x6848, TC_MVE_INT, "vadd.i32"},      {0xEE39, 0x1E62, TC_MVE_INT, "vshl.s32 q, r"},
      {0xEEA4, 0x0B10, TC_MVE_INT, "vdup.32"},       {0xEFA1, 0x6056, TC_MVE_INT, "vshr.s32"},
      {0xFE71, 0x0F4D, TC_MVE_PRED, "vpst"},         {0xF012, 0xE801, TC_MVE_PRED, "vctp.16"},
      {0xF043, 0xE001, TC_LOB_START, "dls lr, r3"},  {0xF00A, 0xC023, TC_LOB_START, "wlstp.8"},
      {0xF00F, 0xC00B, TC_LOB_END, "le lr"},         {0xF01F, 0xC005, TC_LOB_END, "letp lr"},
      {0xEA50, 0x01EF, TC_ALU, "asrl r0, r1, #3"},   {0xFA2F, 0xF989, TC_ALU, "sxtb16"},
  };
  for (size_t i = 0; i < N(cases); i++) {
    tm_insn d = tm_decode(0x1000, cases[i].hw1, cases[i].hw2);
    if (d.cls != cases[i].cls) {
      printf("FAIL decode %s: class %u, expected %u\n", cases[i].text, d.cls, cases[i].cls);
      failures++;
    }
  }
  tm_insn d = tm_decode(0x1000, 0xB5F0, 0);
  if (d.nregs != 5) printf("FAIL decode push: %u registers\n", d.nregs), failures++;
  d = tm_decode(0x1000, 0xFC91, 0x0E04);
  if (d.nregs != 16 || !(d.flags & TF_GATHER)) printf("FAIL decode gather: %u elements\n", d.nregs), failures++;
}

static void m4(void) {
  M4("4 ALU", 4, ADDS0, ADDS1, ADDS0, ADDS1);                 /* 1 each */
  M4("load, independent load", 3, LDR_R0_R1, LDR_R2_R3);      /* 2 + 1 (pipelined) */
  M4("load, dependent load", 4, LDR_R0_R1, LDR_R2_R0);        /* 2 + 2: address from the first */
  M4("push 5", 6, PUSH5);                                      /* 1 + N */
  M4("ldm 3", 4, LDM3);                                        /* 1 + N */
  M4("mul, smlal", 2, MULS, SMLAL);                            /* single-cycle MAC */
  M4("sdiv", 7, SDIV);                                         /* stated constant */
  M4("IT folded after 16-bit", 2, ADDS0, ITEQ, MOVEQ);         /* 1 + 0 + 1 */
  M4("IT after 32-bit", 3, ADDW0, ITEQ, MOVEQ);                /* 1 + 1 + 1 */
  M4("taken b to 16-bit", 4, ADDS0, {0, 0xE7FE, 0}, {0x2000, 0x3001, 0}); /* 1 + (1 + 1) + 1 */
  M4("taken b to unaligned 32-bit", 4, {0, 0xE7FE, 0}, {0x2002, 0xF100, 0x0001}); /* (1 + 2) + 1 */
  M4("beq not taken", 2, {0, 0xD0FE, 0}, ADDS0);               /* 1 + 1 */
  M4("vfp", 1 + 3 + 14 + 2, VADDF, VMLAF, VDIVF, VLDRS);       /* 1, 3, 14, 2 */
  M4("tbb", 4, {0x2000, 0xE8DF, 0xF009}, {0x2010, 0x3001, 0});  /* 2 + P 1, then 1 */
  /* 3 waits on the load's access: 2 + 3 */
  tm_state s;
  tm_init(&s, tm_m4_defaults());
  tm_insn d = tm_decode(0x1000, 0x6808, 0);
  tm_m4_step(&s, &d);
  tm_mem_stall(&s, false, 3);
  expect("m4", "load with 3 waits", s.cycle, 5);
}

static void m55(void) {
  M55("4 ALU (32-bit)", 4, ADDW0, ADDW2_3, ADDW0, ADDW2_3);    /* one per cycle */
  M55("16-bit pair dual-issues", 1, ADDS0, ADDS1);             /* both at 0 */
  M55("dependent 16-bit pair", 2, ADDS0, ADDS0);               /* r0 read: 0, 1 */
  M55("IT folds", 3, {0, 0xF100, 0x0001}, ADDS0, ITEQ, MOVEQ); /* add.w 0, adds + it 1, moveq 2 */
  M55("load-use", 3, LDRW_R0_R1, ADDW2_0);                     /* ldr 0, add 2 */
  M55("load, independent", 2, LDRW_R0_R1, ADDW2_3);            /* 0, 1 */
  M55("mul-use", 2, {0, 0xFB00, 0xF001}, ADDW0);               /* single-cycle multiplier: 0, 1 */
  M55("tbb waits for its load", 4, {0x2000, 0xE8DF, 0xF009}, {0x2010, 0xF100, 0x0001}); /* 0, 2 + refill 1 */
  /* vector load and MAC overlap: VLDR 0-1 (LSU), VMLAVA 1-2 (MAC), VLDR 2-3, VMLAVA 3-4 */
  M55("vldr/vmlava overlap", 4, VLDRB, VMLAVA, VLDRB, VMLAVA);
  M55("3 vldr back to back", 5, VLDRB, VLDRB, VLDRB);          /* LSU busy 2 each: 0, 2, 4; then 5 */
  M55("vmul then dependent vadd", 2, VMUL, VADDQ);             /* 0, 1 (vector multiply latency 1) */
  M55("gather then vldr", 9, GATHER, VLDRB);                   /* 16 elements / 2: vldr at 8, then 9 */
  M55("reduction to scalar", 4, VMLAV, ADDSW_R1_R0);           /* 0, 3 (reduction latency), then 4 */
  M55("taken b", 4, ADDW0, {0, 0xE7FE, 0}, {0x2000, 0xF100, 0x0001}); /* 0, 1, refill: 3, then 4 */
  /* low-overhead loop, 3 iterations of one add.w: dls 0, add 1, le 2 (first: a branch, refill 1),
   * add 4, le from the loop cache (no slot), add 5, le, exit: nop 6, then 7 */
  M55("dls/le loop", 7, {0x3000, 0xF043, 0xE001}, {0x3004, 0xF100, 0x0001}, {0x3008, 0xF00F, 0xC003},
      {0x3004, 0xF100, 0x0001}, {0x3008, 0xF00F, 0xC003}, {0x3004, 0xF100, 0x0001}, {0x3008, 0xF00F, 0xC003},
      {0x300C, 0xBF00, 0});
  /* the same loop with a B back: add 0, b 1 + refill, add 3, b 4, add 6, beq 7 not taken, nop 8, then 9 */
  M55("b loop", 9, {0x3004, 0xF100, 0x0001}, {0x3008, 0xE7FC, 0}, {0x3004, 0xF100, 0x0001}, {0x3008, 0xE7FC, 0},
      {0x3004, 0xF100, 0x0001}, {0x3008, 0xD0FC, 0}, {0x300A, 0xBF00, 0});
}

static void cache(void) {
  tm_cache c;
  if (!tm_cache_init(&c, 65536, 4, 32)) {
    printf("FAIL cache: 64 KiB 4-way 32-byte lines rejected\n");
    failures++;
    return;
  }
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t a = 0; a < 65536; a += 4) tm_cache_access(&c, a);
  expect("cache", "64 KiB twice: misses", c.misses, 2048); /* first pass only */
  tm_cache_init(&c, 65536, 4, 32);
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t a = 0; a < 65536 + 32 * 512; a += 32) tm_cache_access(&c, a);
  expect("cache", "80 KiB streamed twice: misses", c.misses, 2 * 2560); /* LRU: every line again */
  if (tm_cache_init(&c, 65536, 3, 32)) printf("FAIL cache: 3 ways accepted\n"), failures++;
}

int main(void) {
  decoder();
  m4();
  m55();
  cache();
  if (failures) return 1;
  printf("timing: all checks passed\n");
  return 0;
}
