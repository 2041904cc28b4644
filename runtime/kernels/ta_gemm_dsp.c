/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 matrix-vector kernels with DSP-extension (SIMD32) intrinsics. */
#include "ta_gemm_dsp.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>

/* The dot-product bodies must inline: otherwise their accumulators live in memory. */
#if defined(__GNUC__)
#define GEMM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define GEMM_ALWAYS_INLINE inline
#endif

/* Optimised GCC/clang builds run the inner loops in inline assembly: LDM fetches 4
 * weight words per instruction, which C cannot express (GCC pairs them into LDRD at
 * best). Unoptimised builds keep the C loops below (the assembly needs 13 registers). */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && defined(__thumb2__)
#define GEMM_ASM 1
#else
#define GEMM_ASM 0
#endif

#define GEMM_DSP_HAS(v) ((TA_GEMM_DSP_VARIANTS >> (v)) & 1u)

static inline int32_t gemm_load32(const void *p) {
  int32_t v;
  memcpy(&v, p, sizeof v); /* unaligned-safe; a single LDR on these cores */
  return v;
}

/* SXTB16 of the word rotated right by 8: bytes 1 and 3 sign-extended to halves
 * (one instruction; GCC 12's arm_acle.h has no __ror to fold). */
static inline int32_t gemm_sxtb16_ror8(int32_t v) {
  int32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}


static inline int32_t gemm_sxtb16(int32_t v) { return (int32_t)__sxtb16((uint32_t)v); }

/* The last 1..3 depth values as one word, zero filled (their weights are zero too,
 * and the bytes past the row may lie outside the buffer). */
static inline int32_t gemm_tail_word(const int8_t *x, int32_t n) {
  uint32_t v = (uint8_t)x[0];
  if (n > 1) v |= (uint32_t)(uint8_t)x[1] << 8;
  if (n > 2) v |= (uint32_t)(uint8_t)x[2] << 16;
  return (int32_t)v;
}

/* Two consecutive weight words in one LDRD (GCC splits a memcpy of 8 bytes into two
 * loads); the weight tables are const int32_t arrays, so word aligned. Volatile to keep
 * the loads in program order: GCC hoists them otherwise and spills. */
#define GEMM_LOAD_PAIR(w, off, even, odd) \
  __asm__ volatile("ldrd %0, %1, [%2, %3]" : "=r"(even), "=r"(odd) : "r"(w), "I"((off) * 4), "m"(*(const int32_t(*)[2])((w) + (off))))

/* Adds one group of 4 depth values (unpacked input e = x0,x2 and o = x1,x3) times
 * 4 rows' weights (8 words) to the accumulators. */
#define GEMM_GROUP4(e, o, w, off)                                                                 \
  do {                                                                                            \
    int32_t w_e, w_o;                                                                             \
    GEMM_LOAD_PAIR(w, (off), w_e, w_o); a0 = __smlad((e), w_e, a0); a0 = __smlad((o), w_o, a0);     \
    GEMM_LOAD_PAIR(w, (off) + 2, w_e, w_o); a1 = __smlad((e), w_e, a1); a1 = __smlad((o), w_o, a1); \
    GEMM_LOAD_PAIR(w, (off) + 4, w_e, w_o); a2 = __smlad((e), w_e, a2); a2 = __smlad((o), w_o, a2); \
    GEMM_LOAD_PAIR(w, (off) + 6, w_e, w_o); a3 = __smlad((e), w_e, a3); a3 = __smlad((o), w_o, a3); \
  } while (0)

#if GEMM_ASM
/* One group of 4 depth values against 4 rows: the input word (post-incremented, may be
 * unaligned), unpacked into e = x0,x2 and o = x1,x3, then two LDMs of 2 rows' words. */
#define GEMM_ASM_GROUP4                           \
  "ldr %[e], [%[x]], #4\n\t"                      \
  "sxtb16 %[o], %[e], ror #8\n\t"                 \
  "sxtb16 %[e], %[e]\n\t"                         \
  "ldmia %[w]!, {%[w0], %[w1], %[w2], %[w3]}\n\t" \
  "smlad %[a0], %[e], %[w0], %[a0]\n\t"           \
  "smlad %[a0], %[o], %[w1], %[a0]\n\t"           \
  "smlad %[a1], %[e], %[w2], %[a1]\n\t"           \
  "smlad %[a1], %[o], %[w3], %[a1]\n\t"           \
  "ldmia %[w]!, {%[w0], %[w1], %[w2], %[w3]}\n\t" \
  "smlad %[a2], %[e], %[w0], %[a2]\n\t"           \
  "smlad %[a2], %[o], %[w1], %[a2]\n\t"           \
  "smlad %[a3], %[e], %[w2], %[a3]\n\t"           \
  "smlad %[a3], %[o], %[w3], %[a3]\n\t"

/* Loops GEMM_ASM_GROUP4 `body` times per pass until x reaches `end` (x != end on entry).
 * The LDM registers are fixed (ascending, r8..r11: not the frame pointer r7). */
#define GEMM_ASM_LOOP(body)                                                                        \
  do {                                                                                             \
    register int32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");     \
    int32_t e, o;                                                                                  \
    __asm__ volatile("1:\n\t" body "cmp %[x], %[end]\n\t"                                          \
                     "bne 1b\n\t"                                                                  \
                     : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x),    \
                       [w] "+r"(w), [e] "=&r"(e), [o] "=&r"(o), [w0] "=&r"(w0), [w1] "=&r"(w1),    \
                       [w2] "=&r"(w2), [w3] "=&r"(w3)                                              \
                     : [end] "r"(end)                                                              \
                     : "cc", "memory");                                                            \
  } while (0)
#endif

/* Dot products of one input row with 4 weight rows (pre-widened pairs, 8 words per
 * group of 4 depth values), added to acc[0..3]; four groups per iteration. */
static GEMM_ALWAYS_INLINE void gemm_dot4(const int8_t *x, const int32_t *w, int32_t depth, int32_t acc[4]) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
#if GEMM_ASM
  const int8_t *end = x + (depth & ~15);
  if (x != end) GEMM_ASM_LOOP(GEMM_ASM_GROUP4 GEMM_ASM_GROUP4 GEMM_ASM_GROUP4 GEMM_ASM_GROUP4);
  end = x + (depth & 12);
  if (x != end) GEMM_ASM_LOOP(GEMM_ASM_GROUP4);
#else
  for (int32_t n = depth >> 4; n > 0; n--, x += 16, w += 32) { /* 16 values: less loop overhead */
    int32_t xw = gemm_load32(x), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 0);
    xw = gemm_load32(x + 4), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 8);
    xw = gemm_load32(x + 8), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 16);
    xw = gemm_load32(x + 12), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 24);
  }
  if (depth & 8) {
    const int32_t xa = gemm_load32(x), xb = gemm_load32(x + 4);
    const int32_t ea = gemm_sxtb16(xa), oa = gemm_sxtb16_ror8(xa);
    GEMM_GROUP4(ea, oa, w, 0);
    const int32_t eb = gemm_sxtb16(xb), ob = gemm_sxtb16_ror8(xb);
    GEMM_GROUP4(eb, ob, w, 8);
    x += 8, w += 16;
  }
  if (depth & 4) {
    const int32_t xw = gemm_load32(x);
    const int32_t e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 0);
    x += 4, w += 8;
  }
#endif
  if (depth & 3) {
    const int32_t xw = gemm_tail_word(x, depth & 3);
    const int32_t e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
    GEMM_GROUP4(e, o, w, 0);
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

static GEMM_ALWAYS_INLINE int32_t gemm_dot1(const int8_t *x, const int32_t *w, int32_t depth, int32_t acc) {
  const int8_t *end = x + (depth & ~3);
  for (; x != end; x += 4, w += 2) {
    const int32_t xw = gemm_load32(x);
    acc = __smlad(gemm_sxtb16(xw), w[0], acc);
    acc = __smlad(gemm_sxtb16_ror8(xw), w[1], acc);
  }
  if (depth & 3) {
    const int32_t xw = gemm_tail_word(x, depth & 3);
    acc = __smlad(gemm_sxtb16(xw), w[0], acc);
    acc = __smlad(gemm_sxtb16_ror8(xw), w[1], acc);
  }
  return acc;
}

/* TFLite's MultiplyByQuantizedMultiplier in one rounding: with a = acc << left,
 * s = SaturatingRoundingDoublingHighMul(a, m) = floor((a*m + 2^30) / 2^31) for m >= 0,
 * and RoundingDivideByPOT(s, r) = floor((s + 2^(r-1) - [s < 0]) / 2^r). As
 * floor((floor(y) + k) / n) = floor((y + k) / n) for integers k, n, both fold into
 * floor((a*m + 2^30 + 2^31 * c) / 2^(31+r)) with c = 2^(r-1) - [a < 0]; [a < 0] may
 * replace [s < 0] because they differ only when s = 0, where the correction changes
 * nothing. 2^31 * c is added as (-c) * INT32_MIN (two multiply-accumulates), and
 * the division by 2^(31+r), r >= 1, is the high word shifted by r - 1. */
static inline int32_t gemm_requantize(int32_t acc, int32_t mult, int32_t shift) {
  if (shift >= 0) {
    const int32_t a = (int32_t)((uint32_t)acc << shift); /* wraps like TFLite's int32 multiply */
    return (int32_t)(((int64_t)a * mult + ((int64_t)1 << 30)) >> 31);
  }
  const int32_t right = -shift;
  const int32_t c = (int32_t)(1u << (right - 1)) + (acc >> 31);
  int64_t t = (int64_t)acc * mult + ((int64_t)1 << 30);
  t += (int64_t)(-c) * INT32_MIN;
  return (int32_t)(t >> 32) >> (right - 1);
}

static inline int8_t gemm_out(const ta_gemm_dsp_params_t *p, int32_t c, int32_t acc) {
  const int32_t i = p->per_channel ? c : 0;
  const int32_t v = gemm_requantize(acc, p->mult[i], p->shift[i]) + p->output_offset;
  return (int8_t)ta_clamp(v, p->act_min, p->act_max);
}

/* gemm_requantize for a right shift r >= 1 with the constants folded at compile time:
 * q = {m, low and high words of K = 2^30 + 2^(30+r) + zero_point * 2^(31+r), r - 1}.
 * floor((acc*m + K - 2^31*[acc < 0]) / 2^(31+r)) is the rounded value plus the output
 * zero point (adding a multiple of the divisor commutes with the floor). For r > 23 the
 * zero point term could overflow: K leaves it out and the caller adds it. neg_fix is
 * INT32_MIN for the [acc < 0] term, or 0 when the activation floor is at or above the
 * zero point: a negative acc then gives at most the zero point either way, clamped. */
static inline int32_t gemm_out_fast(const int32_t *q, int32_t acc, int32_t neg_fix) {
  int32_t lo = q[1], hi = q[2];
  /* signed 32x32 -> 64 multiply-accumulates (GCC would widen the second one) */
  __asm__("smlal %0, %1, %2, %3" : "+r"(lo), "+r"(hi) : "r"(acc), "r"(q[0]));
  if (neg_fix) { /* a constant 0 in the relu_sat kernels */
    const int32_t negative = (int32_t)((uint32_t)acc >> 31);
    __asm__("smlal %0, %1, %2, %3" : "+r"(lo), "+r"(hi) : "r"(negative), "r"(neg_fix));
  }
  return hi >> q[3];
}

/* The clamp, one saturation when the range is int8's. */
static inline int8_t gemm_clamp_fast(int32_t v, int32_t sat8, int32_t lo, int32_t hi) {
  if (sat8) return (int8_t)__ssat(v, 8);
  return (int8_t)ta_clamp(v, lo, hi);
}

/* The generic requantisation (left shifts, or right shifts beyond rq's range). */
static void gemm_vector(const ta_gemm_dsp_params_t *p, const int8_t *x, const int32_t *w, int8_t *out) {
  const int32_t rows = p->rows, depth = p->depth;
  const int32_t words = ((depth + 3) >> 2) * 2; /* per row */
  int32_t acc[4];
  int32_t c = 0;
  for (; c + 4 <= rows; c += 4, w += 4 * words) {
    acc[0] = p->bias[c], acc[1] = p->bias[c + 1], acc[2] = p->bias[c + 2], acc[3] = p->bias[c + 3];
    gemm_dot4(x, w, depth, acc);
    out[c] = gemm_out(p, c, acc[0]), out[c + 1] = gemm_out(p, c + 1, acc[1]);
    out[c + 2] = gemm_out(p, c + 2, acc[2]), out[c + 3] = gemm_out(p, c + 3, acc[3]);
  }
  for (; c < rows; c++, w += words) out[c] = gemm_out(p, c, gemm_dot1(x, w, depth, p->bias[c]));
}

#if GEMM_ASM
/* The block loop of gemm_blocks_asm in fixed registers: accumulators r0-r3 (LDM from the
 * bias), input words r4 (e) / r5 (o), input pointer r6, weights r12, loop end lr, LDM
 * r8-r11 (weights, then each row's rq words m, lo, hi, shift); r7 (the frame pointer of
 * unoptimised Thumb code) stays untouched. The asm copies its state (gemm_asm_state_t, at
 * r4) onto the stack and reads it at these offsets from sp. */
#define GEMM_ST_W "[sp, #0]"
#define GEMM_ST_X0 "[sp, #4]"
#define GEMM_ST_END16 "[sp, #8]"
#define GEMM_ST_END4 "[sp, #12]"
#define GEMM_ST_TAIL "[sp, #16]"
#define GEMM_ST_BIAS "[sp, #20]"
#define GEMM_ST_Q "[sp, #24]"
#define GEMM_ST_OUT "[sp, #28]"
#define GEMM_ST_OUT_END "[sp, #32]"
#define GEMM_ST_NEG_FIX "[sp, #36]"
#define GEMM_ST_ZP "[sp, #40]"
typedef struct gemm_asm_state_t {
  const int32_t *w;               /* the first block's weights */
  const void *x0, *end16, *end4;  /* input, end of the 16-value passes, of the 4-value groups */
  int32_t tail;                   /* bytes input: depth & 3 */
  const int32_t *bias, *q;        /* the first block's */
  int8_t *out, *out_end;          /* the first block's outputs, the end of the last block's */
  int32_t neg_fix, zp;             /* p->neg_fix, p->rq_zp (not both non-zero) */
} gemm_asm_state_t;

/* One block per pass: `group` is one group of 4 values (GEMM_ASM_GROUP4_R / _U),
 * `skip16` skips the 16-value loop when there is no such pass, `tails` adds the values
 * after the last multiple of 16, `requant_row(a)` requantises accumulator a into the byte
 * at [r5] with the rq words at [r4]. */
#define GEMM_ASM_BLOCKS(group, skip16, tails, requant_setup, requant_row) \
  GEMM_ASM_BLOCKS_BODY(skip16, group group group group, tails, requant_setup, requant_row)
/* The same with the 16-value loop's `entry` and `body` given whole. */
#define GEMM_ASM_BLOCKS_BODY(skip16, body, tails, requant_setup, requant_row)      \
  "ldmia r4, {r0, r1, r2, r3, r5, r6, r8, r9, r10, r11, r12}\n\t"                 \
  "push {r0, r1, r2, r3, r5, r6, r8, r9, r10, r11, r12}\n\t"                      \
  "ldr r12, " GEMM_ST_W "\n\t"                                                     \
  "1:\n\t"                                                                         \
  "ldr r4, " GEMM_ST_BIAS "\n\t"                                                   \
  "ldmia r4!, {r0, r1, r2, r3}\n\t"                                                \
  "str r4, " GEMM_ST_BIAS "\n\t"                                                   \
  "ldr r6, " GEMM_ST_X0 "\n\t"                                                     \
  "ldr lr, " GEMM_ST_END16 "\n\t" skip16                                           \
  "2:\n\t" body                                                                    \
  "cmp r6, lr\n\t"                                                                 \
  "bne 2b\n\t"                                                                     \
  "3:\n\t" tails                                                                   \
  "7:\n\t"                                                                         \
  "ldr r4, " GEMM_ST_Q "\n\t"                                                      \
  "ldr r5, " GEMM_ST_OUT "\n\t" requant_setup requant_row("r0") requant_row("r1")  \
  requant_row("r2") requant_row("r3")                                              \
  "str r4, " GEMM_ST_Q "\n\t"                                                      \
  "str r5, " GEMM_ST_OUT "\n\t"                                                    \
  "ldr lr, " GEMM_ST_OUT_END "\n\t"                                                \
  "cmp r5, lr\n\t"                                                                 \
  "bne 1b\n\t"                                                                     \
  "add sp, sp, #44\n\t"

/* Unpacked input in whole 16-value passes (at least one): 32 values per iteration, an odd
 * pass count entering at the second half (Duff's device), which halves the loop's compare
 * and branch. r4 is free here (the bias pointer is stored). */
#define GEMM_ASM_ENTRY32 \
  "sub r4, lr, r6\n\t" \
  "tst r4, #32\n\t"    \
  "bne 8f\n\t"
#define GEMM_ASM_BODY32_U \
  GEMM_ASM_GROUP4_U GEMM_ASM_GROUP4_U GEMM_ASM_GROUP4_U GEMM_ASM_GROUP4_U "8:\n\t" GEMM_ASM_GROUP4_U \
  GEMM_ASM_GROUP4_U GEMM_ASM_GROUP4_U GEMM_ASM_GROUP4_U

/* Without a 16-value pass, the 16-value loop is skipped. */
#define GEMM_ASM_SKIP16 \
  "cmp r6, lr\n\t"     \
  "beq 3f\n\t"

/* The unpacked input's groups after the last multiple of 4 groups. */
#define GEMM_ASM_TAILS_UNPACKED           \
  "ldr lr, " GEMM_ST_END4 "\n\t"          \
  "cmp r6, lr\n\t"                        \
  "beq 7f\n\t"                            \
  "4:\n\t" GEMM_ASM_GROUP4_U              \
  "cmp r6, lr\n\t"                        \
  "bne 4b\n\t"

/* The input bytes after the last multiple of 16: groups of 4, then the 1..3 last ones,
 * zero filled like gemm_tail_word. */
#define GEMM_ASM_TAILS_BYTES             \
  "ldr lr, " GEMM_ST_END4 "\n\t"         \
  "cmp r6, lr\n\t"                       \
  "beq 5f\n\t"                           \
  "4:\n\t" GEMM_ASM_GROUP4_R             \
  "cmp r6, lr\n\t"                       \
  "bne 4b\n\t"                           \
  "5:\n\t"                               \
  "ldr r4, " GEMM_ST_TAIL "\n\t"         \
  "cbz r4, 7f\n\t"                       \
  "ldrb r5, [r6]\n\t"                    \
  "cmp r4, #2\n\t"                       \
  "blt 6f\n\t"                           \
  "ldrb lr, [r6, #1]\n\t"                \
  "orr r5, r5, lr, lsl #8\n\t"           \
  "beq 6f\n\t"                           \
  "ldrb lr, [r6, #2]\n\t"                \
  "orr r5, r5, lr, lsl #16\n\t"          \
  "6:\n\t"                               \
  "sxtb16 r4, r5\n\t"                    \
  "sxtb16 r5, r5, ror #8\n\t" GEMM_ASM_MACS_R

/* GEMM_ASM_GROUP4 in the fixed registers, from the input bytes... */
#define GEMM_ASM_MACS_R                \
  "ldmia r12!, {r8, r9, r10, r11}\n\t" \
  "smlad r0, r4, r8, r0\n\t"           \
  "smlad r0, r5, r9, r0\n\t"           \
  "smlad r1, r4, r10, r1\n\t"          \
  "smlad r1, r5, r11, r1\n\t"          \
  "ldmia r12!, {r8, r9, r10, r11}\n\t" \
  "smlad r2, r4, r8, r2\n\t"           \
  "smlad r2, r5, r9, r2\n\t"           \
  "smlad r3, r4, r10, r3\n\t"          \
  "smlad r3, r5, r11, r3\n\t"
#define GEMM_ASM_GROUP4_R     \
  "ldr r4, [r6], #4\n\t"      \
  "sxtb16 r5, r4, ror #8\n\t" \
  "sxtb16 r4, r4\n\t" GEMM_ASM_MACS_R
/* ... and from the unpacked input (gemm_unpack): both words in one LDM. */
#define GEMM_ASM_GROUP4_U "ldmia r6!, {r4, r5}\n\t" GEMM_ASM_MACS_R

/* gemm_out_fast + gemm_clamp_fast (int8 range, zero point folded), without and with the
 * [acc < 0] correction (neg_fix in r6). */
#define GEMM_ASM_RQ_ROW(a)            \
  "ldmia r4!, {r8, r9, r10, r11}\n\t" \
  "smlal r9, r10, " a ", r8\n\t"      \
  "asr r10, r10, r11\n\t"             \
  "ssat r10, #8, r10\n\t"             \
  "strb r10, [r5], #1\n\t"
#define GEMM_ASM_RQ_ROW_NEG(a)        \
  "ldmia r4!, {r8, r9, r10, r11}\n\t" \
  "smlal r9, r10, " a ", r8\n\t"      \
  "lsr lr, " a ", #31\n\t"            \
  "smlal r9, r10, lr, r6\n\t"         \
  "asr r10, r10, r11\n\t"             \
  "ssat r10, #8, r10\n\t"             \
  "strb r10, [r5], #1\n\t"
#define GEMM_ASM_NEG_SETUP "ldr r6, " GEMM_ST_NEG_FIX "\n\t"
/* ... and with the zero point added after the shift (zp in r6). */
#define GEMM_ASM_RQ_ROW_ZP(a)         \
  "ldmia r4!, {r8, r9, r10, r11}\n\t" \
  "smlal r9, r10, " a ", r8\n\t"      \
  "asr r10, r10, r11\n\t"             \
  "add r10, r10, r6\n\t"              \
  "ssat r10, #8, r10\n\t"             \
  "strb r10, [r5], #1\n\t"
#define GEMM_ASM_ZP_SETUP "ldr r6, " GEMM_ST_ZP "\n\t"

/* The state pointer goes in r4 (an in-out operand: the asm overwrites it); every other
 * register but r7 is clobbered. */
#define GEMM_ASM_BLOCKS_OPERANDS                                                              \
  : "+r"(state)                                                                                \
  :                                                                                            \
  : "r0", "r1", "r2", "r3", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "lr", "cc", "memory"

/* Unpacking the input once for all blocks saves two of the three instructions per group
 * of 4 values in every block (GEMM_ASM_GROUP4_U); up to this many groups, on the stack. */
#define GEMM_UNPACK_MAX_GROUPS TA_GEMM_DSP_UNPACK_MAX_GROUPS

/* Two input words (unaligned, post-incremented) unpacked into 4 words at [u]!. */
#define GEMM_ASM_UNPACK8                \
  "ldr %[o0], [%[x]], #4\n\t"           \
  "ldr %[o1], [%[x]], #4\n\t"           \
  "sxtb16 %[e0], %[o0]\n\t"             \
  "sxtb16 %[o0], %[o0], ror #8\n\t"     \
  "sxtb16 %[e1], %[o1]\n\t"             \
  "sxtb16 %[o1], %[o1], ror #8\n\t"     \
  "stmia %[u]!, {%[e0], %[o0], %[e1], %[o1]}\n\t"

/* x as SXTB16 unpacks it: per group of 4 values the words (x0,x2) and (x1,x3), the last
 * group zero filled. */
static void gemm_unpack(const int8_t *x, int32_t depth, int32_t *u) {
  const int8_t *end = x + (depth & ~7);
  if (x != end) {
    register int32_t e0 __asm__("r8"), o0 __asm__("r9"), e1 __asm__("r10"), o1 __asm__("r11");
    if (depth & 8) __asm__ volatile(GEMM_ASM_UNPACK8 : [x] "+r"(x), [u] "+r"(u), [e0] "=&r"(e0), [o0] "=&r"(o0),
                                    [e1] "=&r"(e1), [o1] "=&r"(o1) : : "memory");
    if (x != end)
      __asm__ volatile("1:\n\t" GEMM_ASM_UNPACK8 GEMM_ASM_UNPACK8 "cmp %[x], %[end]\n\t"
                       "bne 1b\n\t"
                       : [x] "+r"(x), [u] "+r"(u), [e0] "=&r"(e0), [o0] "=&r"(o0), [e1] "=&r"(e1), [o1] "=&r"(o1)
                       : [end] "r"(end)
                       : "cc", "memory");
  }
  if (depth & 4) {
    const int32_t xw = gemm_load32(x);
    u[0] = gemm_sxtb16(xw), u[1] = gemm_sxtb16_ror8(xw);
    x += 4, u += 2;
  }
  if (depth & 3) {
    const int32_t xw = gemm_tail_word(x, depth & 3);
    u[0] = gemm_sxtb16(xw), u[1] = gemm_sxtb16_ror8(xw);
  }
}

/* The block loop variants: from the input bytes, or unpacked with or without groups
 * past the last multiple of 4; each with one of the three requantisations. */
enum {
  GEMM_BYTES = TA_GEMM_DSP_BIT_BYTES,
  GEMM_UNPACKED = TA_GEMM_DSP_BIT_UNPACKED,
  GEMM_UNPACKED16 = TA_GEMM_DSP_BIT_UNPACKED16,
  GEMM_RQ_NEG = TA_GEMM_DSP_RQ_NEG,
  GEMM_RQ_ZP = TA_GEMM_DSP_RQ_ZP
};


static GEMM_ALWAYS_INLINE void gemm_blocks_run(gemm_asm_state_t *st, int variant) {
  register gemm_asm_state_t *state __asm__("r4") = st;
  (void)state; /* every loop may be masked out */
  switch (variant) {
  case GEMM_BYTES:
    if (GEMM_DSP_HAS(GEMM_BYTES))
      __asm__ volatile(GEMM_ASM_BLOCKS(GEMM_ASM_GROUP4_R, GEMM_ASM_SKIP16, GEMM_ASM_TAILS_BYTES, "", GEMM_ASM_RQ_ROW)
                         GEMM_ASM_BLOCKS_OPERANDS);
    break;
  case GEMM_BYTES + GEMM_RQ_NEG:
    if (GEMM_DSP_HAS(GEMM_BYTES + GEMM_RQ_NEG))
      __asm__ volatile(GEMM_ASM_BLOCKS(GEMM_ASM_GROUP4_R, GEMM_ASM_SKIP16, GEMM_ASM_TAILS_BYTES, GEMM_ASM_NEG_SETUP,
                                     GEMM_ASM_RQ_ROW_NEG) GEMM_ASM_BLOCKS_OPERANDS);
    break;
  case GEMM_BYTES + GEMM_RQ_ZP:
    if (GEMM_DSP_HAS(GEMM_BYTES + GEMM_RQ_ZP))
      __asm__ volatile(GEMM_ASM_BLOCKS(GEMM_ASM_GROUP4_R, GEMM_ASM_SKIP16, GEMM_ASM_TAILS_BYTES, GEMM_ASM_ZP_SETUP,
                                     GEMM_ASM_RQ_ROW_ZP) GEMM_ASM_BLOCKS_OPERANDS);
    break;
  case GEMM_UNPACKED:
    if (GEMM_DSP_HAS(GEMM_UNPACKED))
      __asm__ volatile(GEMM_ASM_BLOCKS(GEMM_ASM_GROUP4_U, GEMM_ASM_SKIP16, GEMM_ASM_TAILS_UNPACKED, "", GEMM_ASM_RQ_ROW)
                         GEMM_ASM_BLOCKS_OPERANDS);
    break;
  case GEMM_UNPACKED + GEMM_RQ_NEG:
    if (GEMM_DSP_HAS(GEMM_UNPACKED + GEMM_RQ_NEG))
      __asm__ volatile(GEMM_ASM_BLOCKS(GEMM_ASM_GROUP4_U, GEMM_ASM_SKIP16, GEMM_ASM_TAILS_UNPACKED, GEMM_ASM_NEG_SETUP,
                                     GEMM_ASM_RQ_ROW_NEG) GEMM_ASM_BLOCKS_OPERANDS);
    break;
  case GEMM_UNPACKED + GEMM_RQ_ZP:
    if (GEMM_DSP_HAS(GEMM_UNPACKED + GEMM_RQ_ZP))
      __asm__ volatile(GEMM_ASM_BLOCKS(GEMM_ASM_GROUP4_U, GEMM_ASM_SKIP16, GEMM_ASM_TAILS_UNPACKED, GEMM_ASM_ZP_SETUP,
                                     GEMM_ASM_RQ_ROW_ZP) GEMM_ASM_BLOCKS_OPERANDS);
    break;
  case GEMM_UNPACKED16: /* whole 16-value passes only: no skip, no tail */
    if (GEMM_DSP_HAS(GEMM_UNPACKED16))
      __asm__ volatile(GEMM_ASM_BLOCKS_BODY(GEMM_ASM_ENTRY32, GEMM_ASM_BODY32_U, "", "", GEMM_ASM_RQ_ROW)
                         GEMM_ASM_BLOCKS_OPERANDS);
    break;
  case GEMM_UNPACKED16 + GEMM_RQ_NEG:
    if (GEMM_DSP_HAS(GEMM_UNPACKED16 + GEMM_RQ_NEG))
      __asm__ volatile(GEMM_ASM_BLOCKS_BODY(GEMM_ASM_ENTRY32, GEMM_ASM_BODY32_U, "", GEMM_ASM_NEG_SETUP,
                                          GEMM_ASM_RQ_ROW_NEG) GEMM_ASM_BLOCKS_OPERANDS);
    break;
  default:
    if (GEMM_DSP_HAS(GEMM_UNPACKED16 + GEMM_RQ_ZP))
      __asm__ volatile(GEMM_ASM_BLOCKS_BODY(GEMM_ASM_ENTRY32, GEMM_ASM_BODY32_U, "", GEMM_ASM_ZP_SETUP,
                                          GEMM_ASM_RQ_ROW_ZP) GEMM_ASM_BLOCKS_OPERANDS);
    break;
  }
}

static void gemm_rows_any(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                          const int32_t *weights, int8_t *out);

/* One copy of the block-loop variants for every caller (each inlined copy is 9 asm loops). */
static __attribute__((noinline)) void gemm_blocks(gemm_asm_state_t *st, int variant) { gemm_blocks_run(st, variant); }

/* The block-loop variant (unpacked input) for rq's requantisation mode. */
static int gemm_unpacked_variant(const ta_gemm_dsp_params_t *p, int32_t groups) {
  return ((groups & 3) == 0 ? GEMM_UNPACKED16 : GEMM_UNPACKED) + (p->neg_fix ? GEMM_RQ_NEG : p->rq_zp ? GEMM_RQ_ZP : 0);
}

/* gemm_rows with rq's requantisation when the clamp is int8's range and neg_fix or rq_zp
 * is 0: per input vector the whole block loop in assembly (the per-block work around
 * gemm_dot4 in C costs as much as a 16-value pass), from the input unpacked once when 3
 * blocks or more share the unpacking; the rows & 3 last rows in C. */
static void gemm_rows_asm(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                          const int32_t *weights, int8_t *out) {
  const int32_t rows = p->rows, depth = p->depth, groups = (depth + 3) >> 2, blocks = rows >> 2;
  const int32_t fix = p->neg_fix, zp = p->rq_zp;
  const int32_t *w1 = weights + blocks * groups * 8, *q1 = p->rq + 16 * blocks, *bias1 = p->bias + 4 * blocks;
  const int unpack = groups > 0 && groups <= GEMM_UNPACK_MAX_GROUPS && blocks >= 3;
  const int variant = (unpack ? ((groups & 3) == 0 ? GEMM_UNPACKED16 : GEMM_UNPACKED) : GEMM_BYTES) +
                      (fix ? GEMM_RQ_NEG : zp ? GEMM_RQ_ZP : 0);
  if (blocks > 0 && !GEMM_DSP_HAS(variant)) { /* not compiled: the C loops */
    gemm_rows_any(p, count, x, x_step, weights, out);
    return;
  }
  int32_t u[2 * GEMM_UNPACK_MAX_GROUPS];
  gemm_asm_state_t st;
  st.w = weights, st.bias = p->bias, st.q = p->rq, st.neg_fix = fix, st.zp = zp, st.tail = depth & 3;
  st.x0 = u, st.end16 = u + 2 * (groups & ~3), st.end4 = u + 2 * groups;
  for (; count > 0; count--, x += x_step, out += rows) {
    if (blocks > 0) {
      st.out = out, st.out_end = out + 4 * blocks;
      if (unpack)
        gemm_unpack(x, depth, u);
      else
        st.x0 = x, st.end16 = x + (depth & ~15), st.end4 = x + (depth & ~3);
      gemm_blocks(&st, variant);
    }
    const int32_t *w = w1, *q = q1, *bias = bias1;
    for (int8_t *o = out + 4 * blocks; o != out + rows; o++, w += groups * 2, q += 4, bias++)
      *o = gemm_clamp_fast(gemm_out_fast(q, gemm_dot1(x, w, depth, bias[0]), fix) + zp, 1, 0, 0);
  }
}
#endif

/* `count` input rows, `x_step` bytes apart, with rq's requantisation; `relu_sat`
 * (a compile-time constant in each caller): neg_fix and rq_zp are 0 and the clamp int8's range. */
static GEMM_ALWAYS_INLINE void gemm_rows_fast(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x,
                                              int32_t x_step, const int32_t *weights, int8_t *out,
                                              const int relu_sat) {
  const int32_t rows = p->rows, depth = p->depth;
  const int32_t block_words = ((depth + 3) >> 2) * 8; /* 4 rows' weights */
  const int32_t fix = relu_sat ? 0 : p->neg_fix, sat8 = relu_sat ? 1 : p->sat8;
  const int32_t lo = p->act_min, hi = p->act_max, zp = relu_sat ? 0 : p->rq_zp;
  for (; count > 0; count--, x += x_step, out += rows) {
    const int32_t *w = weights, *q = p->rq, *bias = p->bias;
    int8_t *o = out;
    for (int32_t blocks = rows >> 2; blocks > 0; blocks--, w += block_words, q += 16, bias += 4, o += 4) {
      int32_t acc[4] = {bias[0], bias[1], bias[2], bias[3]};
      gemm_dot4(x, w, depth, acc);
      o[0] = gemm_clamp_fast(gemm_out_fast(q, acc[0], fix) + zp, sat8, lo, hi);
      o[1] = gemm_clamp_fast(gemm_out_fast(q + 4, acc[1], fix) + zp, sat8, lo, hi);
      o[2] = gemm_clamp_fast(gemm_out_fast(q + 8, acc[2], fix) + zp, sat8, lo, hi);
      o[3] = gemm_clamp_fast(gemm_out_fast(q + 12, acc[3], fix) + zp, sat8, lo, hi);
    }
    for (int32_t r = rows & 3; r > 0; r--, w += block_words >> 2, q += 4, bias++, o++)
      o[0] = gemm_clamp_fast(gemm_out_fast(q, gemm_dot1(x, w, depth, bias[0]), fix) + zp, sat8, lo, hi);
  }
}

static void gemm_rows_relu_sat(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                               const int32_t *weights, int8_t *out) {
  gemm_rows_fast(p, count, x, x_step, weights, out, 1);
}

static void gemm_rows_any(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                          const int32_t *weights, int8_t *out) {
  gemm_rows_fast(p, count, x, x_step, weights, out, 0);
}

#if GEMM_ASM
/* Two rows of a depth-8 layer from p->k8 (the input's 4 unpacked words in r0-r3): per row
 * the bias and weights in one LDM, 4 SMLADs, the rq words in a second LDM, the rounding. */
#define GEMM_ASM_K8_ROW                   \
  "ldmia %[s]!, {r4, r5, r6, r8, r9}\n\t" \
  "smlad r4, r0, r5, r4\n\t"             \
  "smlad r4, r1, r6, r4\n\t"             \
  "smlad r4, r2, r8, r4\n\t"             \
  "smlad r4, r3, r9, r4\n\t"             \
  "ldmia %[s]!, {r5, r6, r8, r9}\n\t"     \
  "smlal r6, r8, r4, r5\n\t"             \
  "asr r8, r8, r9\n\t"                   \
  "ssat r8, #8, r8\n\t"                  \
  "strb r8, [%[o]], #1\n\t"

/* Depth 8 (vww's first pointwise convolution, ad's 8-wide layer): the 8 input values stay in
 * registers for all rows, which the block loop reloads per block with its bookkeeping.
 * One input vector per call: nothing else is live around the assembly (12 registers). */
static __attribute__((noinline)) void gemm_k8_vector(const int32_t *s, const int8_t *x, int8_t *o,
                                                     const int8_t *end) {
  const int32_t xa = gemm_load32(x), xb = gemm_load32(x + 4);
  register int32_t e0 __asm__("r0") = gemm_sxtb16(xa);
  register int32_t o0 __asm__("r1") = gemm_sxtb16_ror8(xa);
  register int32_t e1 __asm__("r2") = gemm_sxtb16(xb);
  register int32_t o1 __asm__("r3") = gemm_sxtb16_ror8(xb);
  __asm__ volatile("1:\n\t" GEMM_ASM_K8_ROW GEMM_ASM_K8_ROW "cmp %[o], %[end]\n\t"
                   "bne 1b\n\t"
                   : [s] "+r"(s), [o] "+r"(o)
                   : "r"(e0), "r"(o0), "r"(e1), "r"(o1), [end] "r"(end)
                   : "r4", "r5", "r6", "r8", "r9", "cc", "memory");
}

static void gemm_rows_k8(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                         int8_t *out) {
  for (; count > 0; count--, x += x_step, out += p->rows) gemm_k8_vector(p->k8, x, out, out + p->rows);
}
#endif

/* ---- Pairs: two input vectors against two rows at a time (p->pairs) ---- */

/* The pair loops' TA_GEMM_DSP_VARIANTS bits (depth a multiple of 16, of 64; each also with rq_zp), and the deepest
 * pair they unpack on the stack (the compiler keeps the pair stream to depth <= 4 *
 * GEMM_PAIR_MAX_GROUPS). */
#define GEMM_PAIRS TA_GEMM_DSP_BIT_PAIRS
#define GEMM_PAIRS64 TA_GEMM_DSP_BIT_PAIRS64
#define GEMM_PAIRS_ZP TA_GEMM_DSP_PAIRS_ZP /* + either: the zero point added after the shift */
#define GEMM_PAIRS_NEG TA_GEMM_DSP_PAIRS_NEG /* + either: the negative-rounding fix (bits 17, 18) */
#define GEMM_PAIRS48 TA_GEMM_DSP_BIT_PAIRS48 /* depth a multiple of 48 (not of 64), rq_zp 0; + 1 with the fix */
#define GEMM_PAIR_MAX_GROUPS TA_GEMM_DSP_PAIR_MAX_GROUPS

#if GEMM_ASM
/* One group of gemm_unpack_pair: both input words (unaligned, post-incremented), unpacked,
 * stored in one STM. */
#define GEMM_ASM_UNPACK_PAIR               \
  "ldr %[ea], [%[a]], #4\n\t"             \
  "ldr %[eb], [%[b]], #4\n\t"             \
  "sxtb16 %[oa], %[ea], ror #8\n\t"       \
  "sxtb16 %[ea], %[ea]\n\t"               \
  "sxtb16 %[ob], %[eb], ror #8\n\t"       \
  "sxtb16 %[eb], %[eb]\n\t"               \
  "stmia %[u]!, {%[ea], %[oa], %[eb], %[ob]}\n\t"
#endif

/* Per group of 4 values the words SXTB16 makes of input a (x0,x2 and x1,x3), then b's:
 * one LDM then fetches a group of both vectors. depth is a multiple of 8 (of 16 here). */
static void gemm_unpack_pair(const int8_t *a, const int8_t *b, int32_t depth, int32_t *u) {
#if GEMM_ASM
  const int8_t *end = a + depth;
  register int32_t ea __asm__("r8"), oa __asm__("r9"), eb __asm__("r10"), ob __asm__("r11");
  __asm__ volatile("1:\n\t" GEMM_ASM_UNPACK_PAIR GEMM_ASM_UNPACK_PAIR "cmp %[a], %[end]\n\t"
                   "bne 1b\n\t"
                   : [a] "+r"(a), [b] "+r"(b), [u] "+r"(u), [ea] "=&r"(ea), [oa] "=&r"(oa), [eb] "=&r"(eb),
                     [ob] "=&r"(ob)
                   : [end] "r"(end)
                   : "cc", "memory");
#else
  for (const int8_t *end = a + depth; a != end; a += 4, b += 4, u += 4) {
    const int32_t xa = gemm_load32(a), xb = gemm_load32(b);
    u[0] = gemm_sxtb16(xa), u[1] = gemm_sxtb16_ror8(xa);
    u[2] = gemm_sxtb16(xb), u[3] = gemm_sxtb16_ror8(xb);
  }
#endif
}

/* The pair loop in C (unoptimised builds, or the assembly not compiled): every row pair of
 * the stream s against the unpacked pair u; a's outputs at oa, b's at ob. */
static GEMM_ALWAYS_INLINE void gemm_pairs_c(const ta_gemm_dsp_params_t *p, const int32_t *u, const int32_t *s,
                                            int8_t *oa, int8_t *ob, const int32_t fix) {
  const int32_t groups = p->depth >> 2, zp = p->rq_zp;
  for (int32_t r = 0; r < p->rows; r += 2) {
    int32_t a0 = s[0], a1 = s[1], b0 = s[2], b1 = s[3];
    s += 4;
    for (int32_t g = 0; g < groups; g++, s += 4) {
      const int32_t *x = u + 4 * g;
      a0 = __smlad(x[0], s[0], a0), a0 = __smlad(x[1], s[1], a0);
      a1 = __smlad(x[0], s[2], a1), a1 = __smlad(x[1], s[3], a1);
      b0 = __smlad(x[2], s[0], b0), b0 = __smlad(x[3], s[1], b0);
      b1 = __smlad(x[2], s[2], b1), b1 = __smlad(x[3], s[3], b1);
    }
    oa[r] = gemm_clamp_fast(gemm_out_fast(s, a0, fix) + zp, 1, 0, 0);
    ob[r] = gemm_clamp_fast(gemm_out_fast(s, b0, fix) + zp, 1, 0, 0);
    oa[r + 1] = gemm_clamp_fast(gemm_out_fast(s + 4, a1, fix) + zp, 1, 0, 0);
    ob[r + 1] = gemm_clamp_fast(gemm_out_fast(s + 4, b1, fix) + zp, 1, 0, 0);
    s += 8;
  }
}

/* gemm_pairs_c without the fix, one copy for every caller outside the column form (the C
 * form runs only where no assembly loop is compiled: size matters there, not speed). */
static __attribute__((noinline)) void gemm_pairs_c0(const ta_gemm_dsp_params_t *p, const int32_t *u, const int32_t *s,
                                                    int8_t *oa, int8_t *ob) {
  gemm_pairs_c(p, u, s, oa, ob, 0);
}

#if GEMM_ASM
/* One group of both vectors (r4, r5 = a; r6, r8 = b) against both rows (r9, r10 = row 0;
 * r11, r12 = row 1): 8 SMLADs for 2 LDMs, accumulators a0 r0, a1 r1, b0 r2, b1 r3. */
#define GEMM_ASM_PAIR_GROUP            \
  "ldmia lr!, {r4, r5, r6, r8}\n\t"    \
  "ldmia r7!, {r9, r10, r11, r12}\n\t" \
  "smlad r0, r4, r9, r0\n\t"           \
  "smlad r0, r5, r10, r0\n\t"          \
  "smlad r1, r4, r11, r1\n\t"          \
  "smlad r1, r5, r12, r1\n\t"          \
  "smlad r2, r6, r9, r2\n\t"           \
  "smlad r2, r8, r10, r2\n\t"          \
  "smlad r3, r6, r11, r3\n\t"          \
  "smlad r3, r8, r12, r3\n\t"
#define GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUP GEMM_ASM_PAIR_GROUP GEMM_ASM_PAIR_GROUP GEMM_ASM_PAIR_GROUP
/* gemm_out_fast + the int8 saturation of accumulator `acc` into `dst`, the row's rq words
 * at r7 (`wb` "!" steps past them: the row's second output, a's, which steps r5 too);
 * `zp` adds the zero point (r4) after the shift, or is empty. */
#define GEMM_ASM_PAIR_RQ(acc, dst, wb, fix, zp) \
  "ldmia r7" wb ", {r8, r9, r10, r11}\n\t"      \
  "smlal r9, r10, " acc ", r8\n\t" fix(acc)     \
  "asr r10, r10, r11\n\t" zp                    \
  "ssat r10, #8, r10\n\t"                       \
  "strb r10, " dst "\n\t"
/* `fix`: nothing, or the [acc < 0] correction (INT32_MIN in r4, GEMM_ASM_PAIRS_NEG_SETUP). */
#define GEMM_ASM_PAIR_NOFIX(acc) ""
#define GEMM_ASM_PAIR_NEG(acc)  \
  "lsr r12, " acc ", #31\n\t" \
  "smlal r9, r10, r12, r4\n\t"
#define GEMM_ASM_PAIRS_NEG_SETUP "mov r4, #0x80000000\n\t"

/* What the pair loop reads, copied onto the stack (offsets from sp in the assembly). */
typedef struct gemm_pair_state_t {
  const int32_t *s;          /* [sp, #0]: the stream */
  const int32_t *u, *u_end;  /* [sp, #4], [sp, #8]: the unpacked pair and its end */
  int32_t odd;               /* [sp, #12]: depth / 16 odd: the first pass enters at its second half */
  int8_t *out;               /* [sp, #16]: a's outputs */
  int32_t b_off;             /* [sp, #20]: b's outputs from a's (0 when b is a) */
  int8_t *out_end;           /* [sp, #24]: the end of a's outputs */
  int32_t zp;                /* [sp, #28]: p->rq_zp */
  /* a run of pixel pairs (GEMM_ASM_WINDOWS) only: */
  const void *a;             /* [sp, #32]: the first pair's window a (b follows at step) */
  int32_t step;              /* [sp, #36]: bytes from window a to window b */
  int8_t *strip_end;         /* [sp, #40]: the end of the strip's outputs */
} gemm_pair_state_t;

/* Every row pair of the stream in one loop, `body` a pass over the depth entered by `entry`.
 * It needs 14 registers: r7 too, which it saves and restores itself (it may be the frame
 * pointer; nothing here addresses through it). */
#define GEMM_ASM_PAIRS(entry, body, more, zp_setup, fix, zp)        \
  "push {r7}\n\t"                                        \
  "ldmia r4, {r0, r1, r2, r3, r5, r6, r8, r9}\n\t"       \
  "push {r0, r1, r2, r3, r5, r6, r8, r9}\n\t"            \
  "mov r7, r0\n\t" GEMM_ASM_PAIRS_LOOP(entry, body, more, zp_setup, fix, zp) \
  "add sp, sp, #32\n\t"                                  \
  "pop {r7}\n\t"
/* The row-pair loop itself, the stream at r7, the state at sp; `more` the test for another
 * pass over the depth (GEMM_ASM_PAIRS_MORE), or empty when every depth it runs is one pass. */
#define GEMM_ASM_PAIRS_LOOP(entry, body, more, zp_setup, fix, zp)                                     \
  "1:\n\t"                                                                                          \
  "ldmia r7!, {r0, r1, r2, r3}\n\t"                                                                 \
  "ldr lr, [sp, #4]\n\t" entry "2:\n\t" body more                                                   \
  "ldrd r5, r6, [sp, #16]\n\t" zp_setup GEMM_ASM_PAIR_RQ("r2", "[r5, r6]", "", fix, zp)             \
  GEMM_ASM_PAIR_RQ("r0", "[r5], #1", "!", fix, zp) GEMM_ASM_PAIR_RQ("r3", "[r5, r6]", "", fix, zp)    \
  GEMM_ASM_PAIR_RQ("r1", "[r5], #1", "!", fix, zp)                                                  \
  "str r5, [sp, #16]\n\t"                                                                           \
  "ldr lr, [sp, #24]\n\t"                                                                           \
  "cmp r5, lr\n\t"                                                                                  \
  "bne 1b\n\t"
/* A run of pixel pairs (gemm_pair_state_t's a, step, strip_end too): per pair, `fill` puts
 * its two windows (a, a + step bytes) into u as the pair loop reads them (the column form's
 * strip: interleaves the widened columns; the 1x1 layers: widens the pixels), then the
 * row-pair loop; the next pair's outputs b_off after a's end, its windows 2 * step further,
 * until strip_end. */
#define GEMM_ASM_WINDOWS(fill, entry, body, more, zp_setup, fix, zp)  \
  "push {r7}\n\t"                                                    \
  "add r5, r4, #32\n\t"                                              \
  "ldmia r5, {r0, r1, r2}\n\t"                                       \
  "push {r0, r1, r2}\n\t"                                            \
  "ldmia r4, {r0, r1, r2, r3, r5, r6, r8, r9}\n\t"                   \
  "push {r0, r1, r2, r3, r5, r6, r8, r9}\n\t"                        \
  "0:\n\t"                                                           \
  "ldrd r4, r5, [sp, #32]\n\t"                                       \
  "add r5, r4, r5\n\t"                                               \
  "ldrd r6, lr, [sp, #4]\n\t"                                        \
  "3:\n\t" fill                                                      \
  "cmp r6, lr\n\t"                                                   \
  "bne 3b\n\t"                                                       \
  "ldr r7, [sp, #0]\n\t" GEMM_ASM_PAIRS_LOOP(entry, body, more, zp_setup, fix, zp) \
  "ldr r9, [sp, #20]\n\t"                                            \
  "add r5, r5, r9\n\t"                                               \
  "add lr, r5, r9\n\t"                                               \
  "str r5, [sp, #16]\n\t"                                            \
  "str lr, [sp, #24]\n\t"                                            \
  "ldrd r4, r6, [sp, #32]\n\t"                                       \
  "add r4, r4, r6, lsl #1\n\t"                                       \
  "str r4, [sp, #32]\n\t"                                            \
  "ldr r6, [sp, #40]\n\t"                                            \
  "cmp r5, r6\n\t"                                                   \
  "bne 0b\n\t"                                                       \
  "add sp, sp, #44\n\t"                                              \
  "pop {r7}\n\t"
#define GEMM_ASM_STRIP(entry, body, more, zp_setup, fix, zp)                                         \
  GEMM_ASM_WINDOWS(GEMM_ASM_STRIP_INTERLEAVE GEMM_ASM_STRIP_INTERLEAVE GEMM_ASM_STRIP_INTERLEAVE          \
                   GEMM_ASM_STRIP_INTERLEAVE, entry, body, more, zp_setup, fix, zp)
#define GEMM_ASM_STRIP_INTERLEAVE      \
  "ldmia r4!, {r8, r9}\n\t"            \
  "ldmia r5!, {r10, r11}\n\t"          \
  "stmia r6!, {r8, r9, r10, r11}\n\t"
#define GEMM_ASM_PAIRS_OPERANDS \
  : "+r"(state) : : "r0", "r1", "r2", "r3", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "lr", "cc", "memory"

/* 32 values per pass, an odd count of 16-value passes entering at the second half (Duff's
 * device), or 64 values per pass for a depth of whole 64-value passes (no entry test; kws's
 * 1x1 layers: one pass); each without and with the zero point added after the shift. */
#define GEMM_ASM_PAIRS_ENTRY32 \
  "ldr r9, [sp, #12]\n\t"      \
  "cmp r9, #0\n\t"             \
  "bne 8f\n\t"
#define GEMM_ASM_PAIRS_BODY32 GEMM_ASM_PAIR_GROUPS4 "8:\n\t" GEMM_ASM_PAIR_GROUPS4
#define GEMM_ASM_PAIRS_BODY48 GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUPS4
#define GEMM_ASM_PAIRS_BODY64 GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUPS4
#define GEMM_ASM_PAIRS_MORE \
  "ldr r9, [sp, #8]\n\t"   \
  "cmp lr, r9\n\t"         \
  "bne 2b\n\t"
/* The 64-value passes: one per row pair unless some layer of the module has a depth of
 * several (bit GEMM_PAIRS64_MULTI; kws's 1x1 layers, all of depth 64, save the test). */
#define GEMM_PAIRS64_MULTI TA_GEMM_DSP_BIT_PAIRS64_MULTI
#if (TA_GEMM_DSP_VARIANTS >> GEMM_PAIRS64_MULTI) & 1u
#define GEMM_ASM_PAIRS64_MORE GEMM_ASM_PAIRS_MORE
#else
#define GEMM_ASM_PAIRS64_MORE ""
#endif
#define GEMM_ASM_PAIRS_ZP_SETUP "ldr r4, [sp, #28]\n\t"
#define GEMM_ASM_PAIRS_ZP_ADD "add r10, r10, r4\n\t"

static __attribute__((noinline)) void gemm_pairs_asm(gemm_pair_state_t *st) {
  register gemm_pair_state_t *state __asm__("r4") = st;
  __asm__ volatile(GEMM_ASM_PAIRS(GEMM_ASM_PAIRS_ENTRY32, GEMM_ASM_PAIRS_BODY32, GEMM_ASM_PAIRS_MORE, "", GEMM_ASM_PAIR_NOFIX, "") GEMM_ASM_PAIRS_OPERANDS);
}

static __attribute__((noinline)) void gemm_pairs64_asm(gemm_pair_state_t *st) {
  register gemm_pair_state_t *state __asm__("r4") = st;
  __asm__ volatile(GEMM_ASM_PAIRS("", GEMM_ASM_PAIRS_BODY64, GEMM_ASM_PAIRS64_MORE, "", GEMM_ASM_PAIR_NOFIX, "") GEMM_ASM_PAIRS_OPERANDS);
}

static __attribute__((noinline)) void gemm_pairs_zp_asm(gemm_pair_state_t *st) {
  register gemm_pair_state_t *state __asm__("r4") = st;
  __asm__ volatile(GEMM_ASM_PAIRS(GEMM_ASM_PAIRS_ENTRY32, GEMM_ASM_PAIRS_BODY32, GEMM_ASM_PAIRS_MORE, GEMM_ASM_PAIRS_ZP_SETUP,
                                  GEMM_ASM_PAIR_NOFIX, GEMM_ASM_PAIRS_ZP_ADD) GEMM_ASM_PAIRS_OPERANDS);
}

static __attribute__((noinline)) void gemm_pairs64_zp_asm(gemm_pair_state_t *st) {
  register gemm_pair_state_t *state __asm__("r4") = st;
  __asm__ volatile(GEMM_ASM_PAIRS("", GEMM_ASM_PAIRS_BODY64, GEMM_ASM_PAIRS64_MORE, GEMM_ASM_PAIRS_ZP_SETUP, GEMM_ASM_PAIR_NOFIX,
                                  GEMM_ASM_PAIRS_ZP_ADD)
                     GEMM_ASM_PAIRS_OPERANDS);
}

/* The 1x1 layers' pixel pairs in one loop (gemm_rows_pairs): each pair widened into u by the
 * loop itself, 8 values of both pixels per pass (unaligned loads), then the pair loop; the
 * same variants as the pair loops above, which a module then no longer links. */
#define GEMM_ASM_PIXELS_GROUP       \
  "ldr r8, [r4], #4\n\t"           \
  "ldr r10, [r5], #4\n\t"          \
  "sxtb16 r9, r8, ror #8\n\t"      \
  "sxtb16 r8, r8\n\t"              \
  "sxtb16 r11, r10, ror #8\n\t"    \
  "sxtb16 r10, r10\n\t"            \
  "stmia r6!, {r8, r9, r10, r11}\n\t"
#define GEMM_ASM_PIXELS_FILL GEMM_ASM_PIXELS_GROUP GEMM_ASM_PIXELS_GROUP
#define GEMM_PIXELS_FN(name, entry, body, more, zp_setup, zp)                                              \
  static __attribute__((noinline)) void name(gemm_pair_state_t *st) {                                    \
    register gemm_pair_state_t *state __asm__("r4") = st;                                                \
    __asm__ volatile(GEMM_ASM_WINDOWS(GEMM_ASM_PIXELS_FILL, entry, body, more, zp_setup, GEMM_ASM_PAIR_NOFIX, \
                                      zp) GEMM_ASM_PAIRS_OPERANDS);                                      \
  }
GEMM_PIXELS_FN(gemm_pixels_asm, GEMM_ASM_PAIRS_ENTRY32, GEMM_ASM_PAIRS_BODY32, GEMM_ASM_PAIRS_MORE, "", "")
GEMM_PIXELS_FN(gemm_pixels64_asm, "", GEMM_ASM_PAIRS_BODY64, GEMM_ASM_PAIRS64_MORE, "", "")
GEMM_PIXELS_FN(gemm_pixels_zp_asm, GEMM_ASM_PAIRS_ENTRY32, GEMM_ASM_PAIRS_BODY32, GEMM_ASM_PAIRS_MORE,
               GEMM_ASM_PAIRS_ZP_SETUP, GEMM_ASM_PAIRS_ZP_ADD)
GEMM_PIXELS_FN(gemm_pixels64_zp_asm, "", GEMM_ASM_PAIRS_BODY64, GEMM_ASM_PAIRS64_MORE, GEMM_ASM_PAIRS_ZP_SETUP,
               GEMM_ASM_PAIRS_ZP_ADD)

/* The pixel-pair loop for this variant bit, or 0 when it is not compiled. */
static GEMM_ALWAYS_INLINE int gemm_pixels_run(int variant, gemm_pair_state_t *st) {
  switch (variant) {
  case GEMM_PAIRS:
    if (!GEMM_DSP_HAS(GEMM_PAIRS)) return 0;
    gemm_pixels_asm(st);
    return 1;
  case GEMM_PAIRS64:
    if (!GEMM_DSP_HAS(GEMM_PAIRS64)) return 0;
    gemm_pixels64_asm(st);
    return 1;
  case GEMM_PAIRS + GEMM_PAIRS_ZP:
    if (!GEMM_DSP_HAS(GEMM_PAIRS + GEMM_PAIRS_ZP)) return 0;
    gemm_pixels_zp_asm(st);
    return 1;
  default:
    if (!GEMM_DSP_HAS(GEMM_PAIRS64 + GEMM_PAIRS_ZP)) return 0;
    gemm_pixels64_zp_asm(st);
    return 1;
  }
}

/* The strip loops of the column form: the same variants (bits 9, 10, 17-20; its layers have
 * rq_zp 0). */
#define GEMM_STRIP_FN(name, entry, body, more, setup, fix)                    \
  static __attribute__((noinline)) void name(gemm_pair_state_t *st) {    \
    register gemm_pair_state_t *state __asm__("r4") = st;                \
    __asm__ volatile(GEMM_ASM_STRIP(entry, body, more, setup, fix, "") GEMM_ASM_PAIRS_OPERANDS); \
  }
GEMM_STRIP_FN(gemm_strip_asm, GEMM_ASM_PAIRS_ENTRY32, GEMM_ASM_PAIRS_BODY32, GEMM_ASM_PAIRS_MORE, "", GEMM_ASM_PAIR_NOFIX)
GEMM_STRIP_FN(gemm_strip64_asm, "", GEMM_ASM_PAIRS_BODY64, GEMM_ASM_PAIRS64_MORE, "", GEMM_ASM_PAIR_NOFIX)
GEMM_STRIP_FN(gemm_strip48_asm, "", GEMM_ASM_PAIRS_BODY48, GEMM_ASM_PAIRS_MORE, "", GEMM_ASM_PAIR_NOFIX)
GEMM_STRIP_FN(gemm_strip_neg_asm, GEMM_ASM_PAIRS_ENTRY32, GEMM_ASM_PAIRS_BODY32, GEMM_ASM_PAIRS_MORE, GEMM_ASM_PAIRS_NEG_SETUP,
              GEMM_ASM_PAIR_NEG)
GEMM_STRIP_FN(gemm_strip64_neg_asm, "", GEMM_ASM_PAIRS_BODY64, GEMM_ASM_PAIRS64_MORE, GEMM_ASM_PAIRS_NEG_SETUP, GEMM_ASM_PAIR_NEG)
GEMM_STRIP_FN(gemm_strip48_neg_asm, "", GEMM_ASM_PAIRS_BODY48, GEMM_ASM_PAIRS_MORE, GEMM_ASM_PAIRS_NEG_SETUP, GEMM_ASM_PAIR_NEG)

static int gemm_strip_run(int variant, gemm_pair_state_t *st) {
  switch (variant) {
  case GEMM_PAIRS:
    if (!GEMM_DSP_HAS(GEMM_PAIRS)) return 0;
    gemm_strip_asm(st);
    return 1;
  case GEMM_PAIRS64:
    if (!GEMM_DSP_HAS(GEMM_PAIRS64)) return 0;
    gemm_strip64_asm(st);
    return 1;
  case GEMM_PAIRS48:
    if (!GEMM_DSP_HAS(GEMM_PAIRS48)) return 0;
    gemm_strip48_asm(st);
    return 1;
  case GEMM_PAIRS + GEMM_PAIRS_NEG:
    if (!GEMM_DSP_HAS(GEMM_PAIRS + GEMM_PAIRS_NEG)) return 0;
    gemm_strip_neg_asm(st);
    return 1;
  case GEMM_PAIRS64 + GEMM_PAIRS_NEG:
    if (!GEMM_DSP_HAS(GEMM_PAIRS64 + GEMM_PAIRS_NEG)) return 0;
    gemm_strip64_neg_asm(st);
    return 1;
  case GEMM_PAIRS48 + 1:
    if (!GEMM_DSP_HAS(GEMM_PAIRS48 + TA_GEMM_DSP_PAIRS48_NEG)) return 0;
    gemm_strip48_neg_asm(st);
    return 1;
  default:
    return 0;
  }
}

/* The first convolutions' depth 28 (3x3 windows of 3 channels, 27 values): one pass of 7 groups
 * (TA_GEMM_DSP_VARIANTS bit 16), where the 16-value loops would run an 8th group of zeros. */
#define GEMM_PAIRS28 TA_GEMM_DSP_BIT_PAIRS28
static __attribute__((noinline)) void gemm_pairs28_asm(gemm_pair_state_t *st) {
  register gemm_pair_state_t *state __asm__("r4") = st;
  __asm__ volatile(GEMM_ASM_PAIRS("", GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUP GEMM_ASM_PAIR_GROUP GEMM_ASM_PAIR_GROUP, "",
                                  "", GEMM_ASM_PAIR_NOFIX, "") GEMM_ASM_PAIRS_OPERANDS);
}

/* Depth 40 in one pass of 10 groups (bit 14, with ta_conv_s8_dsp_first's reader of window rows
 * of 4 values: kws's first layer; strww's 1x1 layer of 40 channels), rq_zp 0. */
#define GEMM_FIRST_ROWS TA_GEMM_DSP_BIT_FIRST_ROWS
static __attribute__((noinline)) void gemm_pairs40_asm(gemm_pair_state_t *st) {
  register gemm_pair_state_t *state __asm__("r4") = st;
  __asm__ volatile(GEMM_ASM_PAIRS("", GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUPS4 GEMM_ASM_PAIR_GROUP GEMM_ASM_PAIR_GROUP, "",
                                  "", GEMM_ASM_PAIR_NOFIX, "") GEMM_ASM_PAIRS_OPERANDS);
}

/* The pair loop for this variant bit, or 0 when it is not compiled (every call a constant
 * after inlining, so that the loops not named are dropped). */
static GEMM_ALWAYS_INLINE int gemm_pairs_run(int variant, gemm_pair_state_t *st) {
  switch (variant) {
  case GEMM_PAIRS:
    if (!GEMM_DSP_HAS(GEMM_PAIRS)) return 0;
    gemm_pairs_asm(st);
    return 1;
  case GEMM_PAIRS64:
    if (!GEMM_DSP_HAS(GEMM_PAIRS64)) return 0;
    gemm_pairs64_asm(st);
    return 1;
  case GEMM_PAIRS + GEMM_PAIRS_ZP:
    if (!GEMM_DSP_HAS(GEMM_PAIRS + GEMM_PAIRS_ZP)) return 0;
    gemm_pairs_zp_asm(st);
    return 1;
  default:
    if (!GEMM_DSP_HAS(GEMM_PAIRS64 + GEMM_PAIRS_ZP)) return 0;
    gemm_pairs64_zp_asm(st);
    return 1;
  }
}

/* The pair loop of depth 28 or 40 (their own, rq_zp 0), or 0 when it is not compiled or the
 * depth is another. */
static GEMM_ALWAYS_INLINE int exact_pairs(const ta_gemm_dsp_params_t *p, gemm_pair_state_t *st) {
  if (p->depth == 28) { /* the compiler keeps that depth to rq_zp 0 */
    if (!GEMM_DSP_HAS(GEMM_PAIRS28)) return 0;
    gemm_pairs28_asm(st);
    return 1;
  }
  if (p->depth == 40) { /* likewise */
    if (!GEMM_DSP_HAS(GEMM_FIRST_ROWS)) return 0;
    gemm_pairs40_asm(st);
    return 1;
  }
  return 0;
}

/* The variant of a pair stream of a depth a multiple of 16. */
static inline int pairs_variant(const ta_gemm_dsp_params_t *p) {
  return (p->depth % 64 == 0 ? GEMM_PAIRS64 : GEMM_PAIRS) + (p->rq_zp ? GEMM_PAIRS_ZP : 0);
}

/* A first layer's pair loop (ta_conv_s8_dsp_first), or 0 when it is not compiled: depths
 * other than 28 and 40 only with bit GEMM_FIRST_ANY (which a module whose first layers
 * have those depths leaves out, so that it links only the pixel-pair loops). */
#define GEMM_FIRST_ANY TA_GEMM_DSP_BIT_FIRST_ANY
static GEMM_ALWAYS_INLINE int first_pairs(const ta_gemm_dsp_params_t *p, gemm_pair_state_t *st) {
  if (p->depth == 28 || p->depth == 40) return exact_pairs(p, st);
  if (!GEMM_DSP_HAS(GEMM_FIRST_ANY)) return 0;
  return gemm_pairs_run(pairs_variant(p), st);
}
#endif

#if GEMM_ASM
/* The column form's strip loop for this depth and requantisation (rq_zp 0). */
static int gemm_strip_variant(const ta_gemm_dsp_params_t *p) {
  const int32_t depth = p->depth;
  if (depth % 64 != 0 && depth % 48 == 0) return GEMM_PAIRS48 + (p->neg_fix ? 1 : 0);
  return (depth % 64 == 0 ? GEMM_PAIRS64 : GEMM_PAIRS) + (p->neg_fix ? GEMM_PAIRS_NEG : 0);
}
#endif

/* `count` input vectors `x_step` bytes apart, in pairs (an odd last one paired with itself,
 * its outputs written twice with the same values); both unpacked before any output of the
 * pair is written, which the in-place contract relies on. */
static void gemm_rows_pairs(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                            const int32_t *stream, int8_t *out) {
  const int32_t rows = p->rows, depth = p->depth;
  int32_t u[4 * GEMM_PAIR_MAX_GROUPS];
#if GEMM_ASM
  if (depth % 16 == 0 && count > 0) { /* the pixel-pair loop: the full pairs, then a last lone pixel */
    gemm_pair_state_t st;
    const int32_t pairs = count / 2;
    st.s = stream, st.u = u, st.u_end = u + depth, st.odd = (depth >> 4) & 1, st.zp = p->rq_zp;
    st.a = x, st.step = x_step, st.out = out, st.b_off = rows, st.out_end = out + rows;
    st.strip_end = out + 2 * pairs * rows;
    if (pairs > 0 && !gemm_pixels_run(pairs_variant(p), &st)) goto c_loops;
    if (count & 1) { /* paired with itself: its outputs written twice */
      st.a = x + 2 * pairs * x_step, st.step = 0, st.b_off = 0;
      st.out = out + 2 * pairs * rows, st.out_end = st.strip_end = st.out + rows;
      if (!gemm_pixels_run(pairs_variant(p), &st)) goto c_loops;
    }
    return;
  }
c_loops:
#endif
  for (; count > 0; count -= 2) {
    const int single = count == 1;
    int8_t *ob = single ? out : out + rows;
    gemm_unpack_pair(x, single ? x : x + x_step, depth, u);
#if GEMM_ASM
    gemm_pair_state_t st;
    st.s = stream, st.u = u, st.u_end = u + depth, st.odd = (depth >> 4) & 1;
    st.out = out, st.out_end = out + rows, st.b_off = (int32_t)(ob - out), st.zp = p->rq_zp;
    /* the compiler names the loop this depth and requantisation take */
    if (!exact_pairs(p, &st))
#endif
      gemm_pairs_c0(p, u, stream, out, ob);
    if (single) break;
    x += 2 * x_step, out += 2 * rows;
  }
}

/* `count` input rows `x_step` bytes apart, each giving `rows` outputs. */
static void gemm_rows(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                      const int32_t *weights, int8_t *out) {
  if (!p->rq) {
    for (; count > 0; count--, x += x_step, out += p->rows) gemm_vector(p, x, weights, out);
#if GEMM_ASM
  } else if (p->k8 && p->depth == 8 && p->sat8 && p->neg_fix == 0 && p->rq_zp == 0 && p->rows % 2 == 0) {
    gemm_rows_k8(p, count, x, x_step, out);
  } else if (p->sat8 && (p->neg_fix == 0 || p->rq_zp == 0)) {
    gemm_rows_asm(p, count, x, x_step, weights, out);
#endif
  } else if (p->neg_fix == 0 && p->sat8 && p->rq_zp == 0) {
    gemm_rows_relu_sat(p, count, x, x_step, weights, out);
  } else {
    gemm_rows_any(p, count, x, x_step, weights, out);
  }
}

void ta_gemm_s8_dsp(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *input, const int32_t *weights,
                    int8_t *output) {
  gemm_rows(p, count, input, p->depth, weights, output);
}

typedef void gemm_rows_fn(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *x, int32_t x_step,
                          const int32_t *weights, int8_t *out);

/* TA_GEMM_DSP_VARIANTS bit of the window gather of conv_run (ta_im2col_pixels_s8), which
 * the compiler names for every layer of ta_conv_s8_dsp or _pairs that is not direct; without
 * it such a layer gathers by gemm_gather_window (exact, slower). */
#define GEMM_GATHER TA_GEMM_DSP_BIT_GATHER

/* The window whose top-left tap is (iy0, ix0) byte by byte into dst, the zero point outside
 * the image: a few instructions of code, where ta_im2col_pixels_s8 takes 1.8 KB (vww and ic
 * gather only the border windows of their first layer, through this). */
static void gemm_gather_window(const ta_im2col_geom_t *g, const int8_t *in, int32_t iy0, int32_t ix0, int8_t *dst) {
  const size_t row = (size_t)g->in_w * (size_t)g->in_c;
  const int32_t c_n = g->in_c, run = g->k_w * c_n, n = g->k_h * run;
  const uint32_t pad = (uint32_t)(uint8_t)g->pad_value * 0x01010101u;
  for (int32_t i = 0; i < n; i += 4) memcpy(dst + i, &pad, 4); /* the window's whole words: within its stride */
  for (int32_t ky = 0; ky < g->k_h; ky++, dst += run) {
    const int32_t iy = iy0 + ky * g->dil_h;
    if (iy < 0 || iy >= g->in_h) continue;
    for (int32_t kx = 0; kx < g->k_w; kx++) {
      const int32_t ix = ix0 + kx * g->dil_w;
      if (ix < 0 || ix >= g->in_w) continue;
      const int8_t *src = in + (size_t)iy * row + (size_t)ix * (size_t)c_n;
      for (int32_t c = 0; c < c_n; c++) dst[kx * c_n + c] = src[c];
    }
  }
}

/* Per output pixel, the window (gathered into `scratch` unless direct) through `rows`
 * (gemm_rows or gemm_rows_pairs: a module links only the one its layers call). */
static void conv_run(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                     const int32_t *weights, int8_t *scratch, int8_t *output, gemm_rows_fn *gemm_rows) {
  const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int8_t *in = input + (size_t)b * image;
    if (g->direct && g->stride_w == 1 && g->stride_h == 1) { /* 1x1, stride 1: one matrix product */
      const int32_t pixels = g->out_h * g->out_w;
      gemm_rows(p, pixels, in, g->in_c, weights, out);
      out += (size_t)pixels * (size_t)p->rows;
      continue;
    }
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      if (g->direct) { /* 1x1 strided: one row of pixels stride_w * in_c bytes apart (no padding) */
        gemm_rows(p, g->out_w, in + (size_t)oy * (size_t)g->stride_h * (size_t)g->in_w * (size_t)g->in_c,
                  g->stride_w * g->in_c, weights, out);
        out += (size_t)g->out_w * (size_t)p->rows;
        continue;
      }
      /* chunk windows per gather, p->depth (= g->window) apart: one gemm_rows call (and
       * its set-up) for all of them */
      for (int32_t ox = 0, n; ox < g->out_w; ox += n, out += (size_t)n * (size_t)p->rows) {
        n = TA_MAX(TA_MIN(g->chunk, g->out_w - ox), 1);
        if (GEMM_DSP_HAS(GEMM_GATHER))
          ta_im2col_pixels_s8(g, in, oy, ox, n, scratch);
        else
          for (int32_t k = 0; k < n; k++)
            gemm_gather_window(g, in, oy * g->stride_h - g->pad_h, (ox + k) * g->stride_w - g->pad_w,
                               scratch + (size_t)k * (size_t)p->depth);
        gemm_rows(p, n, scratch, p->depth, weights, out);
      }
    }
  }
}

void ta_conv_s8_dsp(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                    const int32_t *weights, int8_t *scratch, int8_t *output) {
  conv_run(p, g, input, weights, scratch, output, gemm_rows);
}

void ta_conv_s8_dsp_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                            const int32_t *weights, int8_t *scratch, int8_t *temp, int8_t *output, int32_t bytes) {
  ta_conv_s8_dsp(p, g, input, weights, scratch, temp);
  ta_move_output(output, temp, bytes);
}

void ta_conv_s8_dsp_pairs(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                          const int32_t *stream, int8_t *scratch, int8_t *output) {
  conv_run(p, g, input, stream, scratch, output, gemm_rows_pairs);
}

void ta_conv_s8_dsp_pairs_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                                  const int32_t *stream, int8_t *scratch, int8_t *temp, int8_t *output,
                                  int32_t bytes) {
  ta_conv_s8_dsp_pairs(p, g, input, stream, scratch, temp);
  ta_move_output(output, temp, bytes);
}

/* ---- First convolutions: few input channels, windows unpacked from the image ---- */

/* The TA_GEMM_DSP_VARIANTS bit of ta_conv_s8_dsp_first's image reader: a 3x3 window of 3 channels. */
#define GEMM_FIRST_333 TA_GEMM_DSP_BIT_FIRST_333
#ifndef GEMM_FIRST_ROWS
#define GEMM_FIRST_ROWS TA_GEMM_DSP_BIT_FIRST_ROWS /* windows rows of 4 values (with the depth-40 pair loop) */
#endif

/* One group of 4 values (a word) as SXTB16 unpacks it, into a pair slot (u[0], u[1]). */
static inline void first_put(int32_t *u, int32_t v) {
  u[0] = gemm_sxtb16(v);
  u[1] = gemm_sxtb16_ror8(v);
}

/* A window inside the image whose rows are 4 values (kws: 10 rows of 4). */
static void first_unpack_rows4(const int8_t *x, size_t row, int32_t k_h, int32_t *u) {
  for (; k_h > 0; k_h--, x += row, u += 4) first_put(u, gemm_load32(x));
}

/* A window of rows of 4 values that reaches past the image (the image's rows at least 4
 * bytes, so that at most one side is past): a row outside the image is the zero point's
 * word; one past a side is the word at the side read from inside the image and shifted,
 * the zero point's bytes shifted in. kws's 66 border windows: ~100 instructions each,
 * where the byte gather took ~1,100. */
static void first_unpack_rows4_edge(const ta_im2col_geom_t *g, const int8_t *in, int32_t iy0, int32_t ix0,
                                    int32_t *u) {
  const int32_t row = g->in_w * g->in_c, b0 = ix0 * g->in_c; /* the window row's first byte */
  const uint32_t pad = (uint32_t)(uint8_t)g->pad_value * 0x01010101u;
  const int cols_in = b0 > -4 && b0 < row; /* else every row of the window is padding */
  uint32_t up = 0, down = 0, fill = 0;
  int32_t at = b0;
  if (!cols_in) {
  } else if (b0 < 0) { /* the left side: bytes 0 .. 3 + b0 of the row, after -b0 padding bytes */
    at = 0, up = (uint32_t)(-8 * b0), fill = pad >> (32 - up);
  } else if (b0 + 4 > row) { /* the right side: the row's last 4 bytes, shifted down */
    at = row - 4, down = (uint32_t)(8 * (b0 + 4 - row)), fill = pad << (32 - down);
  }
  for (int32_t ky = 0; ky < g->k_h; ky++, u += 4) {
    const int32_t iy = iy0 + ky;
    uint32_t v = pad;
    if (cols_in && iy >= 0 && iy < g->in_h)
      v = ((uint32_t)gemm_load32(in + (size_t)iy * (size_t)row + (size_t)at) << up >> down) | fill;
    first_put(u, (int32_t)v);
  }
}

/* A 3x3 window of 3 channels inside the image (x its first byte, rows `row` bytes apart):
 * its 27 values in 7 groups, pair slots 4 words apart; the groups across two window rows
 * are assembled from both (no load reaches past the window's bytes). */
static void first_unpack_333(const int8_t *x, size_t row, int32_t *u) {
  const int8_t *y = x + row, *z = y + row;
  uint16_t h;
  memcpy(&h, y + 7, sizeof h);
  first_put(u, gemm_load32(x));
  first_put(u + 4, gemm_load32(x + 4));
  first_put(u + 8, (int32_t)((uint32_t)(uint8_t)x[8] | (uint32_t)gemm_load32(y) << 8));
  first_put(u + 12, gemm_load32(y + 3));
  first_put(u + 16, (int32_t)((uint32_t)h | (uint32_t)gemm_load32(z) << 16));
  first_put(u + 20, gemm_load32(z + 2));
  first_put(u + 24, (int32_t)((uint32_t)gemm_load32(z + 5) >> 8)); /* the 28th value 0 */
}

#if GEMM_ASM
/* One group of 4 values of both pixels (a's word in r4, b's in r5) unpacked and stored as a
 * pair slot (ea, oa, eb, ob) by one STM. */
#define FIRST_ASM_PUT                  \
  "sxtb16 r9, r4, ror #8\n\t"          \
  "sxtb16 r8, r4\n\t"                  \
  "sxtb16 r11, r5, ror #8\n\t"         \
  "sxtb16 r10, r5\n\t"                 \
  "stmia %[u]!, {r8, r9, r10, r11}\n\t"
/* Both pixels' 3x3x3 windows inside the image (a and b their first bytes) unpacked as the pair
 * loop reads them (first_unpack_333 twice, in one asm: 59 instructions). */
static __attribute__((noinline)) void first_unpack_333_pair(const int8_t *a, const int8_t *b, size_t row, int32_t *u) {
  __asm__ volatile(
      "ldr r4, [%[a]]\n\t"
      "ldr r5, [%[b]]\n\t" FIRST_ASM_PUT
      "ldr r4, [%[a], #4]\n\t"
      "ldr r5, [%[b], #4]\n\t" FIRST_ASM_PUT
      "ldrb r4, [%[a], #8]\n\t"
      "add %[a], %[a], %[row]\n\t"
      "ldr r6, [%[a]]\n\t"
      "orr r4, r4, r6, lsl #8\n\t"
      "ldrb r5, [%[b], #8]\n\t"
      "add %[b], %[b], %[row]\n\t"
      "ldr r6, [%[b]]\n\t"
      "orr r5, r5, r6, lsl #8\n\t" FIRST_ASM_PUT
      "ldr r4, [%[a], #3]\n\t"
      "ldr r5, [%[b], #3]\n\t" FIRST_ASM_PUT
      "ldrh r4, [%[a], #7]\n\t"
      "add %[a], %[a], %[row]\n\t"
      "ldr r6, [%[a]]\n\t"
      "orr r4, r4, r6, lsl #16\n\t"
      "ldrh r5, [%[b], #7]\n\t"
      "add %[b], %[b], %[row]\n\t"
      "ldr r6, [%[b]]\n\t"
      "orr r5, r5, r6, lsl #16\n\t" FIRST_ASM_PUT
      "ldr r4, [%[a], #2]\n\t"
      "ldr r5, [%[b], #2]\n\t" FIRST_ASM_PUT
      "ldr r4, [%[a], #5]\n\t"
      "ldr r5, [%[b], #5]\n\t"
      "lsr r4, r4, #8\n\t"
      "lsr r5, r5, #8\n\t" FIRST_ASM_PUT
      : [a] "+r"(a), [b] "+r"(b), [u] "+r"(u)
      : [row] "r"(row)
      : "r4", "r5", "r6", "r8", "r9", "r10", "r11", "memory");
}
#endif

/* The window at (iy0, ix0) of image `in` into the pair slot u: from the image where the reader
 * fits (form 1), else gathered into scratch (the padding the zero point; the bytes after the window
 * meet zero weights) and unpacked from there. */
static void first_window(const ta_im2col_geom_t *g, const int8_t *in, int32_t iy0, int32_t ix0, int form,
                         int8_t *scratch, int32_t *u) {
  const size_t row = (size_t)g->in_w * (size_t)g->in_c;
  if (form && iy0 >= 0 && iy0 + g->k_h <= g->in_h && ix0 >= 0 && ix0 + g->k_w <= g->in_w) {
    const int8_t *x = in + (size_t)iy0 * row + (size_t)ix0 * (size_t)g->in_c;
    if (form == 1 && GEMM_DSP_HAS(GEMM_FIRST_333)) {
      first_unpack_333(x, row, u);
      return;
    }
    if (form == 2 && GEMM_DSP_HAS(GEMM_FIRST_ROWS)) {
      first_unpack_rows4(x, row, g->k_h, u);
      return;
    }
  }
  if (form == 2 && GEMM_DSP_HAS(GEMM_FIRST_ROWS) && row >= 4) {
    first_unpack_rows4_edge(g, in, iy0, ix0, u);
    return;
  }
  gemm_gather_window(g, in, iy0, ix0, scratch); /* then unpacked */
  for (int32_t n = g->k_h * g->k_w * g->in_c; n > 0; n -= 4, scratch += 4, u += 4) first_put(u, gemm_load32(scratch));
}


/* A pixel's place: its image, the top-left tap of its window (iy0, ix0), its output column. */
typedef struct first_pos_t {
  const int8_t *in;
  int32_t iy0, ix0, ox;
} first_pos_t;

static inline void first_next(const ta_im2col_geom_t *g, size_t image, first_pos_t *q) {
  q->ix0 += g->stride_w;
  if (++q->ox < g->out_w) return;
  q->ox = 0, q->ix0 = -g->pad_w, q->iy0 += g->stride_h;
  if (q->iy0 + g->pad_h < g->out_h * g->stride_h) return;
  q->iy0 = -g->pad_h, q->in += image;
}

void ta_conv_s8_dsp_first(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                          const int32_t *stream, int8_t *scratch, int8_t *output) {
  const int32_t rows = p->rows, depth = g->k_h * g->k_w * g->in_c, n = g->batches * g->out_h * g->out_w;
  const int32_t run = g->k_w * g->in_c;
  /* the 3x3x3 reader (1), rows of 4 values (2) */
  const int form = g->dil_h != 1 || g->dil_w != 1 ? 0 : g->k_h == 3 && run == 9 ? 1 : run == 4 ? 2 : 0;
  const size_t row = (size_t)g->in_w * (size_t)g->in_c, image = (size_t)g->in_h * row;
  int32_t u[4 * GEMM_PAIR_MAX_GROUPS];
  for (int32_t i = 4 * ((depth + 3) >> 2); i < p->depth; i++) u[i] = 0; /* the groups of zero weights */
#if GEMM_ASM
  gemm_pair_state_t st;
  st.s = stream, st.u = u, st.u_end = u + p->depth, st.odd = (p->depth >> 4) & 1, st.zp = p->rq_zp;
  if (form == 1 && g->out_w % 2 == 0 && GEMM_DSP_HAS(GEMM_FIRST_333)) {
    /* an even row width (vww 48, ic 32): the pairs are (ox, ox + 1) of one row, b's window
     * stride_w pixels after a's */
    const size_t step = (size_t)g->stride_w * 3;
    st.b_off = rows;
    for (int32_t b = 0; b < g->batches; b++, input += image) {
      for (int32_t oy = 0, iy0 = -g->pad_h; oy < g->out_h; oy++, iy0 += g->stride_h) {
        const int rows_in = iy0 >= 0 && iy0 + 3 <= g->in_h;
        for (int32_t ox = 0, ix0 = -g->pad_w; ox < g->out_w; ox += 2, ix0 += 2 * g->stride_w, output += 2 * rows) {
          if (rows_in && ix0 >= 0 && ix0 + g->stride_w + 3 <= g->in_w) {
            const int8_t *xa = input + (size_t)iy0 * row + (size_t)ix0 * 3;
            first_unpack_333_pair(xa, xa + step, row, u);
          } else {
            first_window(g, input, iy0, ix0, form, scratch, u);
            first_window(g, input, iy0, ix0 + g->stride_w, form, scratch, u + 2);
          }
          st.out = output, st.out_end = output + rows;
          if (!first_pairs(p, &st)) gemm_pairs_c0(p, u, stream, output, output + rows);
        }
      }
    }
    return;
  }
#endif
  first_pos_t qa = {input, -g->pad_h, -g->pad_w, 0}, qb;
  for (int32_t i = 0; i < n; i += 2, output += 2 * rows) {
    const int single = i + 1 == n; /* paired with itself: both slots the same window */
    qb = qa;
    if (!single) first_next(g, image, &qb);
#if GEMM_ASM
    /* both 3x3x3 windows inside the image: one reader for the pair */
    if (form == 1 && GEMM_DSP_HAS(GEMM_FIRST_333) && qa.iy0 >= 0 && qb.iy0 >= 0 && qa.iy0 + 3 <= g->in_h &&
        qb.iy0 + 3 <= g->in_h && qa.ix0 >= 0 && qb.ix0 >= 0 && qa.ix0 + 3 <= g->in_w && qb.ix0 + 3 <= g->in_w)
      first_unpack_333_pair(qa.in + (size_t)qa.iy0 * row + (size_t)qa.ix0 * 3,
                            qb.in + (size_t)qb.iy0 * row + (size_t)qb.ix0 * 3, row, u);
    else
#endif
    {
      first_window(g, qa.in, qa.iy0, qa.ix0, form, scratch, u);
      first_window(g, qb.in, qb.iy0, qb.ix0, form, scratch, u + 2);
    }
    qa = qb;
    first_next(g, image, &qa);
    int done = 0;
#if GEMM_ASM
    st.out = output, st.out_end = output + rows, st.b_off = single ? 0 : rows;
    done = first_pairs(p, &st);
#endif
    if (!done) gemm_pairs_c0(p, u, stream, output, single ? output : output + rows);
  }
}

void ta_conv_s8_dsp_first_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                                  const int32_t *stream, int8_t *scratch, int8_t *temp, int8_t *output,
                                  int32_t bytes) {
  ta_conv_s8_dsp_first(p, g, input, stream, scratch, temp);
  ta_move_output(output, temp, bytes);
}

/* ---- Column form: windows already widened (ta_im2col_cols_s8) ---- */

/* One input vector already unpacked (2 words per group of 4 values) against 4 rows. */
static void gemm_dot4_unpacked(const int32_t *u, const int32_t *w, int32_t groups, int32_t acc[4]) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  for (; groups > 0; groups--, u += 2, w += 8) {
    const int32_t e = u[0], o = u[1];
    a0 = __smlad(e, w[0], a0), a0 = __smlad(o, w[1], a0);
    a1 = __smlad(e, w[2], a1), a1 = __smlad(o, w[3], a1);
    a2 = __smlad(e, w[4], a2), a2 = __smlad(o, w[5], a2);
    a3 = __smlad(e, w[6], a3), a3 = __smlad(o, w[7], a3);
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

static int32_t gemm_dot1_unpacked(const int32_t *u, const int32_t *w, int32_t groups, int32_t acc) {
  for (; groups > 0; groups--, u += 2, w += 2) acc = __smlad(u[0], w[0], __smlad(u[1], w[1], acc));
  return acc;
}

/* Output c of accumulator acc, with rq's constants when the layer has them. */
static inline int8_t gemm_out_any(const ta_gemm_dsp_params_t *p, int32_t c, int32_t acc) {
  if (!p->rq) return gemm_out(p, c, acc);
  return gemm_clamp_fast(gemm_out_fast(p->rq + 4 * c, acc, p->neg_fix) + p->rq_zp, p->sat8, p->act_min, p->act_max);
}

/* `count` unpacked input vectors, `u_step` words apart (depth a multiple of 4). The
 * blocks of 4 rows run the assembly block loop where rq's fast requantisation applies;
 * else, and for the rows & 3 last rows, C. */
static void gemm_rows_unpacked(const ta_gemm_dsp_params_t *p, int32_t count, const int32_t *u, int32_t u_step,
                               const int32_t *weights, int8_t *out) {
  const int32_t rows = p->rows, groups = p->depth >> 2, blocks = rows >> 2;
  const int32_t *w1 = weights + blocks * groups * 8;
#if GEMM_ASM
  const int variant = gemm_unpacked_variant(p, groups);
  const int fast = p->rq && p->sat8 && (p->neg_fix == 0 || p->rq_zp == 0) && groups > 0 && blocks > 0 &&
                   (uintptr_t)u % 4 == 0 && GEMM_DSP_HAS(variant);
  gemm_asm_state_t st;
  st.w = weights, st.bias = p->bias, st.q = p->rq, st.neg_fix = p->neg_fix, st.zp = p->rq_zp, st.tail = 0;
#endif
  for (; count > 0; count--, u += u_step, out += rows) {
    int32_t c = 0;
#if GEMM_ASM
    if (fast) {
      st.x0 = u, st.end16 = u + 2 * (groups & ~3), st.end4 = u + 2 * groups;
      st.out = out, st.out_end = out + 4 * blocks;
      gemm_blocks(&st, variant);
      c = 4 * blocks;
    }
#endif
    for (const int32_t *w = weights + c * groups * 2; c + 4 <= rows; c += 4, w += 8 * groups) {
      int32_t acc[4] = {p->bias[c], p->bias[c + 1], p->bias[c + 2], p->bias[c + 3]};
      gemm_dot4_unpacked(u, w, groups, acc);
      for (int32_t k = 0; k < 4; k++) out[c + k] = gemm_out_any(p, c + k, acc[k]);
    }
    for (const int32_t *w = w1; c < rows; c++, w += 2 * groups)
      out[c] = gemm_out_any(p, c, gemm_dot1_unpacked(u, w, groups, p->bias[c]));
  }
}

void ta_conv_s8_dsp_cols(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                         const int32_t *weights, int8_t *scratch, int8_t *output) {
  const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  const int32_t col_words = g->window >> 1, step = g->stride_w * col_words;
  int32_t *buf = (int32_t *)(void *)scratch; /* the planner aligns scratch buffers */
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int8_t *in = input + (size_t)b * image;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      for (int32_t ox = 0, n; ox < g->out_w; ox += n, out += (size_t)n * (size_t)p->rows) {
        n = TA_MAX(TA_MIN(g->chunk, g->out_w - ox), 1);
        ta_im2col_cols_s8(g, in, oy, ox * g->stride_w, (n - 1) * g->stride_w + g->k_w, buf);
        gemm_rows_unpacked(p, n, buf, step, weights, out);
      }
    }
  }
}

void ta_conv_s8_dsp_cols_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                                 const int32_t *weights, int8_t *scratch, int8_t *temp, int8_t *output,
                                 int32_t bytes) {
  ta_conv_s8_dsp_cols(p, g, input, weights, scratch, temp);
  ta_move_output(output, temp, bytes);
}

/* ---- FULLY_CONNECTED stream (p->fcs): one input vector, 4 rows at a time ---- */

/* The stream loop's TA_GEMM_DSP_VARIANTS bit (depth a multiple of 128, rq_zp 0, sat8). It
 * always applies the negative-rounding fix: where neg_fix is 0 with sat8, the zero point is
 * -128 and a negative accumulator saturates to it either way. */
#define GEMM_FCS TA_GEMM_DSP_BIT_FCS

#if GEMM_ASM
/* One group (input words e, o) against the block's 4 rows: 2 LDMs of 2 rows' words. */
#define GEMM_ASM_FCS_GROUP(e, o)        \
  "ldmia lr!, {r8, r9, r10, r11}\n\t"   \
  "smlad r0, " e ", r8, r0\n\t"         \
  "smlad r0, " o ", r9, r0\n\t"         \
  "smlad r1, " e ", r10, r1\n\t"        \
  "smlad r1, " o ", r11, r1\n\t"        \
  "ldmia lr!, {r8, r9, r10, r11}\n\t"   \
  "smlad r2, " e ", r8, r2\n\t"         \
  "smlad r2, " o ", r9, r2\n\t"         \
  "smlad r3, " e ", r10, r3\n\t"        \
  "smlad r3, " o ", r11, r3\n\t"
/* Two groups: 4 unpacked input words in one LDM (no register is left for a loop end: it
 * is read from the stack once per pass of 128 values), 16 SMLADs for 5 loads. */
#define GEMM_ASM_FCS_GROUPS2 "ldmia r12!, {r4, r5, r6, r7}\n\t" GEMM_ASM_FCS_GROUP("r4", "r5") GEMM_ASM_FCS_GROUP("r6", "r7")
#define GEMM_ASM_FCS_GROUPS8 GEMM_ASM_FCS_GROUPS2 GEMM_ASM_FCS_GROUPS2 GEMM_ASM_FCS_GROUPS2 GEMM_ASM_FCS_GROUPS2
#define GEMM_ASM_FCS_PASS GEMM_ASM_FCS_GROUPS8 GEMM_ASM_FCS_GROUPS8 GEMM_ASM_FCS_GROUPS8 GEMM_ASM_FCS_GROUPS8

/* The stream's requantisation of 2 rows (accumulators a, b; both rows' 3 words in one LDM),
 * the bytes at [r12]!: its accumulators are doubled (weights and biases), so that the high
 * word of a * m + 2K, SMMLAR's (2K's low word is 2^31, its rounding), is
 * floor((acc * m + K) / 2^31); the [acc < 0] correction (of 2^31, see gemm_out_fcs) then
 * subtracts 1 from it, without a register for INT32_MIN. */
#define GEMM_ASM_FCS_RQ2(a, b)                \
  "ldmia lr!, {r4, r5, r6, r7, r8, r9}\n\t"   \
  "smmlar r5, " a ", r4, r5\n\t"              \
  "add r5, r5, " a ", asr #31\n\t"            \
  "asr r5, r5, r6\n\t"                        \
  "ssat r5, #8, r5\n\t"                       \
  "strb r5, [r12], #1\n\t"                    \
  "smmlar r8, " b ", r7, r8\n\t"              \
  "add r8, r8, " b ", asr #31\n\t"            \
  "asr r8, r8, r9\n\t"                        \
  "ssat r8, #8, r8\n\t"                       \
  "strb r8, [r12], #1\n\t"
#define GEMM_ASM_FCS_RQ GEMM_ASM_FCS_RQ2("r0", "r1") GEMM_ASM_FCS_RQ2("r2", "r3")

/* What the stream loop reads: the stream (taken into lr), then copied onto the stack. */
typedef struct gemm_fcs_state_t {
  const int32_t *s;          /* the stream */
  const int32_t *u, *u_end;  /* [sp, #0], [sp, #4]: the unpacked input and its end */
  int8_t *out, *out_end;     /* [sp, #8], [sp, #12] */
} gemm_fcs_state_t;

/* Every block of the stream: its 4 biases in one LDM, passes of 128 values, its 4 outputs.
 * It needs 14 registers: r7 too, which it saves and restores itself (as the pair loop). */
#define GEMM_ASM_FCS(rq)             \
  "push {r7}\n\t"                    \
  "ldmia r4, {r0, r1, r2, r3, r5}\n\t" \
  "push {r1, r2, r3, r5}\n\t"        \
  "mov lr, r0\n\t"                   \
  "1:\n\t"                           \
  "ldmia lr!, {r0, r1, r2, r3}\n\t"  \
  "ldr r12, [sp, #0]\n\t"            \
  "2:\n\t" GEMM_ASM_FCS_PASS         \
  "ldr r4, [sp, #4]\n\t"             \
  "cmp r12, r4\n\t"                  \
  "bne 2b\n\t"                       \
  "ldrd r12, r11, [sp, #8]\n\t" rq   \
  "str r12, [sp, #8]\n\t"            \
  "cmp r12, r11\n\t"                 \
  "bne 1b\n\t"                       \
  "add sp, sp, #16\n\t"              \
  "pop {r7}\n\t"
#define GEMM_ASM_FCS_OPERANDS \
  : "+r"(state) : : "r0", "r1", "r2", "r3", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "lr", "cc", "memory"

static __attribute__((noinline)) void gemm_fcs_asm(gemm_fcs_state_t *st) {
  register gemm_fcs_state_t *state __asm__("r4") = st;
  __asm__ volatile(GEMM_ASM_FCS(GEMM_ASM_FCS_RQ) GEMM_ASM_FCS_OPERANDS);
}
#endif

/* The stream's requantisation of the doubled accumulator a = 2 acc with q = {m, high word
 * of 2K, r} (K as in gemm_out_fast, r the right shift; 2K's low word is 2^31): SMMLAR gives
 * the high word of a * m + 2K, H = floor((acc * m + K) / 2^31), and floor((acc * m + K -
 * 2^31 [acc < 0]) / 2^(31 + r)) = (H - [acc < 0]) >> r (H's floor and the integer correction
 * commute). */
static inline int32_t gemm_out_fcs(const int32_t *q, int32_t a, int32_t neg_fix) {
  int32_t hi;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(hi) : "r"(a), "r"(q[0]), "r"(q[1]));
  if (neg_fix) hi += a >> 31;
  return hi >> q[2];
}

/* The stream in C (unoptimised builds, or the loop not compiled), from the input bytes. */
static void gemm_fcs_c(const ta_gemm_dsp_params_t *p, const int8_t *x, const int32_t *s, int8_t *out) {
  const int32_t groups = p->depth >> 2;
  for (int32_t r = 0; r < p->rows; r += 4, out += 4) {
    int32_t a[4] = {s[0], s[1], s[2], s[3]};
    s += 4;
    for (int32_t g = 0; g < groups; g++, s += 8) {
      const int32_t xw = gemm_load32(x + 4 * g), e = gemm_sxtb16(xw), o = gemm_sxtb16_ror8(xw);
      for (int32_t k = 0; k < 4; k++) a[k] = __smlad(e, s[2 * k], __smlad(o, s[2 * k + 1], a[k]));
    }
    for (int32_t k = 0; k < 4; k++, s += 3)
      out[k] = gemm_clamp_fast(gemm_out_fcs(s, a[k], p->neg_fix) + p->rq_zp, p->sat8, p->act_min, p->act_max);
  }
}

void ta_gemm_s8_dsp_fcs(const ta_gemm_dsp_params_t *p, int32_t count, const int8_t *input, const int32_t *stream,
                        int8_t *output) {
  for (; count > 0; count--, input += p->depth, output += p->rows) {
#if GEMM_ASM
    int32_t u[2 * GEMM_UNPACK_MAX_GROUPS];
    gemm_fcs_state_t st;
    if (p->depth % 128 == 0 && p->depth <= 4 * GEMM_UNPACK_MAX_GROUPS && p->rq_zp == 0 && p->sat8 &&
        GEMM_DSP_HAS(GEMM_FCS)) {
      gemm_unpack(input, p->depth, u);
      st.s = stream, st.u = u, st.u_end = u + p->depth / 2, st.out = output, st.out_end = output + p->rows;
      gemm_fcs_asm(&st);
      continue;
    }
#endif
    gemm_fcs_c(p, input, stream, output);
  }
}

/* ---- Column form in pairs: two windows of the strip against the pair stream ---- */

/* gemm_pairs_c with the layer's negative-rounding fix (one copy for both callers below). */
static __attribute__((noinline)) void gemm_cols_pairs_c(const ta_gemm_dsp_params_t *p, const int32_t *u,
                                                        const int32_t *s, int8_t *oa, int8_t *ob) {
  gemm_pairs_c(p, u, s, oa, ob, p->neg_fix);
}

/* Windows a and b (unpacked, 2 words per group of 4 values) side by side as
 * gemm_unpack_pair lays them; groups a multiple of 4. */
static void gemm_interleave_pair(const int32_t *a, const int32_t *b, int32_t groups, int32_t *u) {
#if GEMM_ASM
  const int32_t *end = a + 2 * groups;
  register int32_t a0 __asm__("r8"), a1 __asm__("r9"), b0 __asm__("r10"), b1 __asm__("r11");
#define GEMM_ASM_INTERLEAVE              \
  "ldmia %[a]!, {%[a0], %[a1]}\n\t"      \
  "ldmia %[b]!, {%[b0], %[b1]}\n\t"      \
  "stmia %[u]!, {%[a0], %[a1], %[b0], %[b1]}\n\t"
  __asm__ volatile("1:\n\t" GEMM_ASM_INTERLEAVE GEMM_ASM_INTERLEAVE GEMM_ASM_INTERLEAVE GEMM_ASM_INTERLEAVE
                   "cmp %[a], %[end]\n\t"
                   "bne 1b\n\t"
                   : [a] "+r"(a), [b] "+r"(b), [u] "+r"(u), [a0] "=&r"(a0), [a1] "=&r"(a1), [b0] "=&r"(b0),
                     [b1] "=&r"(b1)
                   : [end] "r"(end)
                   : "cc", "memory");
#undef GEMM_ASM_INTERLEAVE
#else
  for (; groups > 0; groups--, a += 2, b += 2, u += 4) u[0] = a[0], u[1] = a[1], u[2] = b[0], u[3] = b[1];
#endif
}

void ta_conv_s8_dsp_cols_pairs(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g, const int8_t *input,
                               const int32_t *stream, int8_t *scratch, int8_t *output) {
  const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  const int32_t rows = p->rows, groups = p->depth >> 2;
  const int32_t col_words = g->window >> 1, step = g->stride_w * col_words;
  int32_t *buf = (int32_t *)(void *)scratch; /* the planner aligns scratch buffers */
  int32_t *u = buf + ((g->chunk - 1) * g->stride_w + g->k_w) * col_words; /* after the strip's columns */
  int8_t *out = output;
  for (int32_t b = 0; b < g->batches; b++) {
    const int8_t *in = input + (size_t)b * image;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
      for (int32_t ox = 0, n; ox < g->out_w; ox += n) {
        n = TA_MAX(TA_MIN(g->chunk, g->out_w - ox), 1);
        ta_im2col_cols_s8(g, in, oy, ox * g->stride_w, (n - 1) * g->stride_w + g->k_w, buf);
        /* pixels in pairs, an odd last one paired with itself (its outputs written twice) */
#if GEMM_ASM
        if (p->rq_zp == 0) { /* the whole strip in one assembly loop */
          gemm_pair_state_t st;
          const int32_t pairs = n >> 1;
          st.s = stream, st.u = u, st.u_end = u + p->depth, st.odd = (p->depth >> 4) & 1, st.zp = 0;
          st.out = out, st.b_off = rows, st.out_end = out + rows, st.a = buf, st.step = 4 * step;
          st.strip_end = out + 2 * (size_t)rows * (size_t)pairs;
          const int variant = gemm_strip_variant(p);
          if (pairs == 0 || gemm_strip_run(variant, &st)) {
            if (n & 1) {
              st.out = out + 2 * (size_t)rows * (size_t)pairs, st.b_off = 0, st.out_end = st.out + rows;
              st.a = buf + 2 * pairs * step, st.step = 0, st.strip_end = st.out + rows;
              if (!gemm_strip_run(variant, &st)) {
                gemm_interleave_pair(st.a, st.a, groups, u);
                gemm_cols_pairs_c(p, u, stream, st.out, st.out);
              }
            }
            out += (size_t)n * (size_t)rows;
            continue;
          }
        }
#endif
        for (int32_t i = 0; i < n; i += 2, out += 2 * (size_t)rows) {
          const int single = i + 1 == n;
          gemm_interleave_pair(buf + i * step, buf + (single ? i : i + 1) * step, groups, u);
          /* (the C pair loop: the strip loops above are the column form's assembly) */
          gemm_cols_pairs_c(p, u, stream, out, single ? out : out + rows);
          if (single) out -= rows;
        }
      }
    }
  }
}

void ta_conv_s8_dsp_cols_pairs_inplace(const ta_gemm_dsp_params_t *p, const ta_im2col_geom_t *g,
                                       const int8_t *input, const int32_t *stream, int8_t *scratch, int8_t *temp,
                                       int8_t *output, int32_t bytes) {
  ta_conv_s8_dsp_cols_pairs(p, g, input, stream, scratch, temp);
  ta_move_output(output, temp, bytes);
}

#else
typedef int ta_gemm_dsp_unused_t; /* ISO C forbids an empty translation unit */
#endif
