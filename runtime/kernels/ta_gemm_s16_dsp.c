/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 matrix-vector kernels with DSP-extension (SIMD32) intrinsics. */
#include "ta_gemm_s16_dsp.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* acc + x.lo * w.lo + x.hi * w.hi: one SMLAD (int32) or SMLALD (int64). */
static inline int32_t g16_mac(int32_t acc, int32_t x, int32_t w) { return __smlad(x, w, acc); }
static inline int64_t g16_mac64(int64_t acc, int32_t x, int32_t w) { return __smlald(x, w, acc); }
#else
/* The same sums in plain C (builds without the DSP extension). */
static inline int32_t g16_lo(int32_t v) { return (int32_t)(int16_t)(uint16_t)((uint32_t)v & 0xFFFFu); }
static inline int32_t g16_hi(int32_t v) { return (int32_t)(int16_t)(uint16_t)((uint32_t)v >> 16); }
static inline int32_t g16_mac(int32_t acc, int32_t x, int32_t w) {
  return (int32_t)((uint32_t)acc + (uint32_t)(g16_lo(x) * g16_lo(w)) + (uint32_t)(g16_hi(x) * g16_hi(w)));
}
static inline int64_t g16_mac64(int64_t acc, int32_t x, int32_t w) {
  return acc + (int64_t)g16_lo(x) * g16_lo(w) + (int64_t)g16_hi(x) * g16_hi(w);
}
#endif

#if defined(__GNUC__)
#define G16_ALWAYS_INLINE inline __attribute__((always_inline))
#define G16_NOINLINE __attribute__((noinline)) /* each variant keeps its own registers */
#else
#define G16_ALWAYS_INLINE inline
#define G16_NOINLINE
#endif

/* Optimised GCC/clang builds run the 4-row loop in inline assembly: LDM fetches the 4
 * rows' weight words of one pair in one instruction, which C cannot express. The LDM
 * registers are fixed (ascending r8..r11, not the frame pointer r7). */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define G16_ASM 1
#else
#define G16_ASM 0
#endif

#if G16_ASM
/* One pair of input values (post-incremented, may be unaligned) against 4 rows. */
#define G16_ASM_PAIR                              \
  "ldr %[xv], [%[x]], #4\n\t"                     \
  "ldmia %[w]!, {%[w0], %[w1], %[w2], %[w3]}\n\t" \
  "smlad %[a0], %[xv], %[w0], %[a0]\n\t"          \
  "smlad %[a1], %[xv], %[w1], %[a1]\n\t"          \
  "smlad %[a2], %[xv], %[w2], %[a2]\n\t"          \
  "smlad %[a3], %[xv], %[w3], %[a3]\n\t"

/* Loops `body` until x reaches `end` (x != end on entry). */
#define G16_ASM_LOOP(body)                                                                         \
  do {                                                                                             \
    register int32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");     \
    int32_t xv;                                                                                    \
    __asm__ volatile("1:\n\t" body "cmp %[x], %[end]\n\t"                                          \
                     "bne 1b\n\t"                                                                  \
                     : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x),    \
                       [w] "+r"(w), [xv] "=&r"(xv), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), \
                       [w3] "=&r"(w3)                                                              \
                     : [end] "r"(end)                                                              \
                     : "cc", "memory");                                                            \
  } while (0)
#endif

#if G16_ASM && TA_S16_DSP_RQ_ASM
/* A block of 4 rows for a depth that is a multiple of 8 (word-aligned input), in the
 * high-word form, as one block: LDRD fetches two input pairs, each against one LDM of the
 * 4 rows' weight words; the first pair's products start the sums (SMUAD), the loop runs 4
 * pairs per iteration, then the requantisation of the 4 rows with the weight registers as
 * its temporaries. One register (named rq) holds the first input pair in the loop, then
 * the requantisation table's address, read from the "m" operand rqm. */
#define G16_ASM_HALF(op, xr)                      \
  "ldmia %[w]!, {%[lo], %[hh], %[m], %[s]}\n\t"   \
  op(a0, xr, lo) op(a1, xr, hh) op(a2, xr, m) op(a3, xr, s)
#define G16_SMUAD(a, xr, wr) "smuad %[" #a "], %[" #xr "], %[" #wr "]\n\t"
#define G16_SMLAD(a, xr, wr) "smlad %[" #a "], %[" #xr "], %[" #wr "], %[" #a "]\n\t"
#if defined(__clang__)
/* clang finds no registers for the second input pair: one LDR per pair there */
#define G16_ASM_FIRST                             \
  "ldr %[rq], [%[x]], #4\n\t" G16_ASM_HALF(G16_SMUAD, rq) \
  "ldr %[rq], [%[x]], #4\n\t" G16_ASM_HALF(G16_SMLAD, rq)
#define G16_ASM_NEXT                              \
  "ldr %[rq], [%[x]], #4\n\t" G16_ASM_HALF(G16_SMLAD, rq) \
  "ldr %[rq], [%[x]], #4\n\t" G16_ASM_HALF(G16_SMLAD, rq)
#define G16_X1_OPERAND
#else
#define G16_ASM_FIRST                             \
  "ldrd %[rq], %[x1], [%[x]], #8\n\t"            \
  G16_ASM_HALF(G16_SMUAD, rq) G16_ASM_HALF(G16_SMLAD, x1)
#define G16_ASM_NEXT                              \
  "ldrd %[rq], %[x1], [%[x]], #8\n\t"            \
  G16_ASM_HALF(G16_SMLAD, rq) G16_ASM_HALF(G16_SMLAD, x1)
#define G16_X1_OPERAND [x1] "=&r"(xv1),
#endif
#define G16_ASM_BLOCK(one, sat_ins)                                                                                  \
  __asm__ volatile(G16_ASM_FIRST G16_ASM_NEXT                                                                  \
                   "cmp %[x], %[end]\n\t"                                                                      \
                   "beq 2f\n\t"                                                                                \
                   "1:\n\t" G16_ASM_NEXT G16_ASM_NEXT                                                           \
                   "cmp %[x], %[end]\n\t"                                                                      \
                   "bne 1b\n\t"                                                                                \
                   "2:\n\t"                                                                                    \
                   "ldr %[rq], %[rqm]\n\t" one(a0, 0, 8, sat_ins) one(a1, 16, 24, sat_ins)                   \
                   one(a2, 32, 40, sat_ins) one(a3, 48, 56, sat_ins)                                            \
                   : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [x] "+&r"(xp), [w] "+&r"(w), \
                     [rq] "=&r"(xv), G16_X1_OPERAND [lo] "=&r"(w0), [hh] "=&r"(w1), [m] "=&r"(w2),            \
                     [s] "=&r"(w3)                                                                              \
                   : [end] "r"(end), [rqm] "m"(rq)                                                              \
                   : "cc", "memory")
/* Every full block of 4 rows of one input vector in one asm statement (sat 1 or 2: the
 * clamp is one instruction): the block above, then the 4 outputs stored and the next block
 * started from the loop state kept in memory operands (input start, table and output
 * pointers, the weights' end), so no C glue runs between blocks. */
/* G16_ASM_ROWS passes 8 values per loop iteration; G16_ASM_ROWS16 (depth a multiple of 16,
 * bit 21) 16, half the loop tests. */
#define G16_PRO8 G16_ASM_FIRST G16_ASM_NEXT
#define G16_LOOP8 G16_ASM_NEXT G16_ASM_NEXT
#define G16_PRO16 G16_ASM_FIRST G16_ASM_NEXT G16_ASM_NEXT G16_ASM_NEXT
#define G16_LOOP16 G16_ASM_NEXT G16_ASM_NEXT G16_ASM_NEXT G16_ASM_NEXT
#define G16_ASM_ROWS(fin) G16_ASM_ROWS_U(fin, G16_PRO8, G16_LOOP8)
#define G16_ASM_ROWS16(fin) G16_ASM_ROWS_U(fin, G16_PRO16, G16_LOOP16)
#define G16_ASM_ROWS_U(fin, pro, loop)                                                                      \
  __asm__ volatile("0:\n\t"                                                                                    \
                   "ldr %[x], %[xm]\n\t" pro                                                                  \
                   "cmp %[x], %[end]\n\t"                                                                      \
                   "beq 2f\n\t"                                                                                \
                   "1:\n\t" loop                                                                              \
                   "cmp %[x], %[end]\n\t"                                                                      \
                   "bne 1b\n\t"                                                                                \
                   "2:\n\t"                                                                                    \
                   "ldr %[rq], %[rqm]\n\t" G16_RQ4_LDM(fin)                                                   \
                   "str %[rq], %[rqm]\n\t"                                                                     \
                   "ldr %[rq], %[om]\n\t"                                                                      \
                   "strh %[a0], [%[rq]], #2\n\t"                                                               \
                   "strh %[a1], [%[rq]], #2\n\t"                                                               \
                   "strh %[a2], [%[rq]], #2\n\t"                                                               \
                   "strh %[a3], [%[rq]], #2\n\t"                                                               \
                   "str %[rq], %[om]\n\t"                                                                      \
                   "ldr %[lo], %[wem]\n\t"                                                                     \
                   "cmp %[w], %[lo]\n\t"                                                                       \
                   "bne 0b\n\t"                                                                                \
                   : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [x] "=&r"(xp), [w] "+&r"(w), \
                     [rq] "=&r"(xv), G16_X1_OPERAND [lo] "=&r"(w0), [hh] "=&r"(w1), [m] "=&r"(w2),              \
                     [s] "=&r"(w3), [rqm] "+m"(rq), [om] "+m"(o)                                                \
                   : [end] "r"(end), [xm] "m"(x0), [wem] "m"(wend)                                              \
                   : "cc", "memory")
/* G16_ASM_ROWS over a window read in place: k_h segments (window rows, each a multiple
 * of 8 values) `st` bytes apart; after each segment the input jumps by `skip` bytes and
 * the segment's end by `st`, until the end reaches the last segment's (finm). */
#define G16_ASM_WIN(fin) G16_ASM_WIN_U(fin, G16_PRO8, G16_LOOP8)
#define G16_ASM_WIN16(fin) G16_ASM_WIN_U(fin, G16_PRO16, G16_LOOP16)
#define G16_ASM_WIN_U(fin, pro, loop)                                                                       \
  __asm__ volatile("0:\n\t"                                                                                    \
                   "ldr %[x], %[xm]\n\t"                                                                       \
                   "ldr %[end], %[e0m]\n\t" pro                                                               \
                   "b 2f\n\t"                                                                                  \
                   "1:\n\t" loop                                                                              \
                   "2:\n\t"                                                                                    \
                   "cmp %[x], %[end]\n\t"                                                                      \
                   "bne 1b\n\t"                                                                                \
                   "ldr %[lo], %[finm]\n\t"                                                                    \
                   "cmp %[end], %[lo]\n\t"                                                                     \
                   "beq 3f\n\t"                                                                                \
                   "ldr %[lo], %[skipm]\n\t"                                                                   \
                   "add %[x], %[x], %[lo]\n\t"                                                                 \
                   "ldr %[lo], %[stm]\n\t"                                                                     \
                   "add %[end], %[end], %[lo]\n\t"                                                             \
                   "b 1b\n\t"                                                                                  \
                   "3:\n\t"                                                                                    \
                   "ldr %[rq], %[rqm]\n\t" G16_RQ4_LDM(fin)                                                   \
                   "str %[rq], %[rqm]\n\t"                                                                     \
                   "ldr %[rq], %[om]\n\t"                                                                      \
                   "strh %[a0], [%[rq]], #2\n\t"                                                               \
                   "strh %[a1], [%[rq]], #2\n\t"                                                               \
                   "strh %[a2], [%[rq]], #2\n\t"                                                               \
                   "strh %[a3], [%[rq]], #2\n\t"                                                               \
                   "str %[rq], %[om]\n\t"                                                                      \
                   "ldr %[lo], %[wem]\n\t"                                                                     \
                   "cmp %[w], %[lo]\n\t"                                                                       \
                   "bne 0b\n\t"                                                                                \
                   : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [x] "=&r"(xp), [w] "+&r"(w), \
                     [rq] "=&r"(xv), G16_X1_OPERAND [lo] "=&r"(w0), [hh] "=&r"(w1), [m] "=&r"(w2),              \
                     [s] "=&r"(w3), [end] "=&r"(end), [rqm] "+m"(rq), [om] "+m"(o)                               \
                   : [xm] "m"(x0), [wem] "m"(wend), [e0m] "m"(e0), [finm] "m"(fin), [skipm] "m"(skip),          \
                     [stm] "m"(st)                                                                              \
                   : "cc", "memory")
/* The requantisation of one row in the block functions: one LDM of the channel's 4 words
 * (k low, k high, mult, shift: the fixed ascending r8..r11) post-incrementing the table
 * pointer, SMLAL, then (form 1) the shift, and the saturation. */
#define G16_RQ_LDM(acc, fin)                              \
  "ldmia %[rq]!, {%[lo], %[hh], %[m], %[s]}\n\t"         \
  "smlal %[lo], %[hh], %[" #acc "], %[m]\n\t" fin(acc)
#define G16_FIN_NS1(acc) "ssat %[" #acc "], #16, %[hh]\n\t"
#define G16_FIN_NS2(acc) "usat %[" #acc "], #15, %[hh]\n\t"
#define G16_FIN_SH1(acc) "asr %[" #acc "], %[hh], %[s]\n\tssat %[" #acc "], #16, %[" #acc "]\n\t"
#define G16_FIN_SH2(acc) "asr %[" #acc "], %[hh], %[s]\n\tusat %[" #acc "], #15, %[" #acc "]\n\t"
#define G16_RQ4_LDM(fin) G16_RQ_LDM(a0, fin) G16_RQ_LDM(a1, fin) G16_RQ_LDM(a2, fin) G16_RQ_LDM(a3, fin)
#define G16_HAS_BLOCK 1
#if defined(__clang__)
#define G16_HAS_ROWS 0 /* clang finds no registers for it: the blocks one by one */
#else
#define G16_HAS_ROWS 1
#endif
#else
#define G16_HAS_BLOCK 0
#define G16_HAS_ROWS 0
#endif

/* Two int16 values as one word; unaligned-safe, a single LDR on these cores. */
static inline int32_t g16_load_pair(const int16_t *x) {
  int32_t v;
  memcpy(&v, x, sizeof v);
  return v;
}

/* The low half of a tail weight word (its high half is the zero padding). */
static inline int32_t g16_tail_weight(int32_t w) { return (int32_t)(int16_t)(uint16_t)((uint32_t)w & 0xFFFFu); }

/* One input vector against a block of 4 rows (4 words per pair of depth values), int32
 * sums: two pairs per iteration, then the last pair and the odd value. */
static G16_ALWAYS_INLINE void g16_dot4(const int16_t *x, const int32_t *w, int32_t depth, int32_t acc[4]) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
#if G16_ASM
  const int16_t *end = x + (depth & ~7);
  if (x != end) G16_ASM_LOOP(G16_ASM_PAIR G16_ASM_PAIR G16_ASM_PAIR G16_ASM_PAIR);
  end = x + (depth & 6);
  if (x != end) G16_ASM_LOOP(G16_ASM_PAIR);
#else
  int32_t n = depth >> 1;
  for (; n >= 2; n -= 2, x += 4, w += 8) {
    const int32_t x0 = g16_load_pair(x), x1 = g16_load_pair(x + 2);
    a0 = g16_mac(a0, x0, w[0]), a1 = g16_mac(a1, x0, w[1]), a2 = g16_mac(a2, x0, w[2]), a3 = g16_mac(a3, x0, w[3]);
    a0 = g16_mac(a0, x1, w[4]), a1 = g16_mac(a1, x1, w[5]), a2 = g16_mac(a2, x1, w[6]), a3 = g16_mac(a3, x1, w[7]);
  }
  if (n) {
    const int32_t x0 = g16_load_pair(x);
    a0 = g16_mac(a0, x0, w[0]), a1 = g16_mac(a1, x0, w[1]), a2 = g16_mac(a2, x0, w[2]), a3 = g16_mac(a3, x0, w[3]);
    x += 2, w += 4;
  }
#endif
  if (depth & 1) {
    const int32_t xl = x[0];
    a0 += xl * g16_tail_weight(w[0]), a1 += xl * g16_tail_weight(w[1]);
    a2 += xl * g16_tail_weight(w[2]), a3 += xl * g16_tail_weight(w[3]);
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

/* One input vector against one row (one word per pair), int32 sums. */
static inline int32_t g16_dot1(const int16_t *x, const int32_t *w, int32_t depth) {
  int32_t a = 0;
  for (int32_t n = depth >> 1; n > 0; n--, x += 2, w++) a = g16_mac(a, g16_load_pair(x), w[0]);
  if (depth & 1) a += (int32_t)x[0] * g16_tail_weight(w[0]);
  return a;
}

/* One input vector against one row's pairs `stride` words apart, int64 sums. */
static int64_t g16_dot64(const int16_t *x, const int32_t *w, int32_t depth, int32_t stride) {
  int64_t a = 0;
  for (int32_t n = depth >> 1; n > 0; n--, x += 2, w += stride) a = g16_mac64(a, g16_load_pair(x), w[0]);
  if (depth & 1) a += (int64_t)x[0] * g16_tail_weight(w[0]);
  return a;
}

/* All rows for one input vector; `hi` and `sat` are constants in each inlined copy. */
static G16_ALWAYS_INLINE void g16_vector_mode(const ta_gemm_s16_dsp_params_t *p, const int16_t *x, const int32_t *w,
                                              int16_t *out, int32_t first, int hi, int sat) {
  const ta_s16_dsp_requant_t q = p->q; /* locals: the output stores cannot change them */
  const int32_t depth = p->depth, rows = p->rows, acc64 = p->acc64; /* locals too */
  const int32_t pairs = (depth + 1) >> 1, full = rows & ~3;
  int32_t r = first; /* w is at row `first`, a multiple of 4 */
  for (; r < full; r += 4, w += 4 * pairs) {
    if (acc64) {
      for (int32_t i = 0; i < 4; i++) out[r + i] = ta_s16_dsp_output64(&q, r + i, g16_dot64(x, w + i, depth, 4));
      continue;
    }
#if G16_HAS_BLOCK
    /* (sat 1 and 2 took g16_rows where it is compiled; unaligned input the C loop) */
    if (hi && (!G16_HAS_ROWS || !sat) && (depth & 7) == 0 && ((uintptr_t)(const void *)x & 3u) == 0) {
      const int16_t *xp = x, *end = x + depth;
      const int32_t *rq = q.rq + 4 * r;
      register int32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");
      int32_t a0, a1, a2, a3;
      const int32_t *xv;
      int32_t xv1;
      if (hi == 2 && sat == 1) G16_ASM_BLOCK(TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN1);
      else if (hi == 2 && sat == 2) G16_ASM_BLOCK(TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN2);
      else if (sat == 1) G16_ASM_BLOCK(TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT1);
      else if (sat == 2) G16_ASM_BLOCK(TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT2);
      else {
        if (hi == 2) G16_ASM_BLOCK(TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN0);
        else G16_ASM_BLOCK(TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT0);
        a0 = ta_clamp(a0, q.act_min, q.act_max), a1 = ta_clamp(a1, q.act_min, q.act_max);
        a2 = ta_clamp(a2, q.act_min, q.act_max), a3 = ta_clamp(a3, q.act_min, q.act_max);
      }
      (void)xv, (void)xv1, (void)w0, (void)w1, (void)w2, (void)w3;
      out[r] = (int16_t)a0, out[r + 1] = (int16_t)a1, out[r + 2] = (int16_t)a2, out[r + 3] = (int16_t)a3;
      w -= 4 * pairs; /* the asm advanced w by the block; the loop steps it again */
      continue;
    }
#endif
    int32_t acc[4];
    g16_dot4(x, w, depth, acc);
#if TA_S16_DSP_RQ_ASM
    if (hi) {
      int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
      TA_S16_DSP_RQ4(q.rq + 4 * r, hi, sat, a0, a1, a2, a3);
      if (sat == 0) {
        a0 = ta_clamp(a0, q.act_min, q.act_max), a1 = ta_clamp(a1, q.act_min, q.act_max);
        a2 = ta_clamp(a2, q.act_min, q.act_max), a3 = ta_clamp(a3, q.act_min, q.act_max);
      }
      out[r] = (int16_t)a0, out[r + 1] = (int16_t)a1, out[r + 2] = (int16_t)a2, out[r + 3] = (int16_t)a3;
      continue;
    }
#endif
    out[r] = ta_s16_dsp_output_mode(&q, hi, sat, r, acc[0]);
    out[r + 1] = ta_s16_dsp_output_mode(&q, hi, sat, r + 1, acc[1]);
    out[r + 2] = ta_s16_dsp_output_mode(&q, hi, sat, r + 2, acc[2]);
    out[r + 3] = ta_s16_dsp_output_mode(&q, hi, sat, r + 3, acc[3]);
  }
  for (; r < rows; r++, w += pairs)
    out[r] = acc64 ? ta_s16_dsp_output64(&q, r, g16_dot64(x, w, depth, 1))
                   : ta_s16_dsp_output_mode(&q, hi, sat, r, g16_dot1(x, w, depth));
}

/* One input vector per call; the variants are separate functions so that each keeps
 * its registers. */
#define G16_VECTOR_DEF(hi, sat)                                                                             \
  static G16_NOINLINE void g16_vector_##hi##sat(const ta_gemm_s16_dsp_params_t *p, const int16_t *x, const int32_t *w, \
                                   int16_t *out, int32_t first) {                                          \
    g16_vector_mode(p, x, w, out, first, hi, sat);                                                          \
  }
G16_VECTOR_DEF(0, 0)
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(0, 1))
G16_VECTOR_DEF(0, 1)
#else
#define g16_vector_01 g16_vector_00 /* not compiled: the generic clamp */
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(0, 2))
G16_VECTOR_DEF(0, 2)
#else
#define g16_vector_02 g16_vector_00 /* not compiled: the generic clamp */
#endif
G16_VECTOR_DEF(1, 0)
/* With g16_rows the one-instruction clamps of the high-word forms need no vector loops of
 * their own: their full blocks run there, the rest (input not word aligned, the last rows
 * of a count not a multiple of 4) in form 1's generic clamp, the same integers. */
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 1)) && !G16_HAS_ROWS
G16_VECTOR_DEF(1, 1)
#else
#define g16_vector_11 g16_vector_10 /* not compiled: the generic clamp */
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 2)) && !G16_HAS_ROWS
G16_VECTOR_DEF(1, 2)
#else
#define g16_vector_12 g16_vector_10 /* not compiled: the generic clamp */
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 0))
G16_VECTOR_DEF(2, 0)
#else
#define g16_vector_20 g16_vector_10 /* not compiled: form 1, the same integers */
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 1)) && !G16_HAS_ROWS
G16_VECTOR_DEF(2, 1)
#else
#define g16_vector_21 g16_vector_11 /* not compiled: form 1, the same integers */
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 2)) && !G16_HAS_ROWS
G16_VECTOR_DEF(2, 2)
#else
#define g16_vector_22 g16_vector_12 /* not compiled: form 1, the same integers */
#endif

#if G16_ASM && TA_S16_DSP_HAS(TA_S16_DSP_BIT_STREAM)
/* Depth 8 (params.stream): the 8 input values stay in 4 registers for every row; per row
 * one LDM of its 4 weight words, SMUAD and 3 SMLAD, one LDM of its requantisation words
 * (k low, k high, mult, shift), SMLAL, the shift (form 1) and the saturation: 11 or 12
 * instructions per output, the same integers as the blocks. */
#define G16_STREAM_FIN21 "ssat %[a], #16, %[k1]\n\t"
#define G16_STREAM_FIN22 "usat %[a], #15, %[k1]\n\t"
#define G16_STREAM_FIN11 "asr %[a], %[k1], %[k3]\n\t" "ssat %[a], #16, %[a]\n\t"
#define G16_STREAM_FIN12 "asr %[a], %[k1], %[k3]\n\t" "usat %[a], #15, %[a]\n\t"
#define G16_STREAM_ASM(fin)                                                                                      \
  __asm__ volatile("1:\n\t"                                                                                      \
                   "ldmia %[w]!, {%[k0], %[k1], %[k2], %[k3]}\n\t"                                               \
                   "smuad %[a], %[x0], %[k0]\n\t"                                                                \
                   "smlad %[a], %[x1], %[k1], %[a]\n\t"                                                          \
                   "smlad %[a], %[x2], %[k2], %[a]\n\t"                                                          \
                   "smlad %[a], %[x3], %[k3], %[a]\n\t"                                                          \
                   "ldmia %[w]!, {%[k0], %[k1], %[k2], %[k3]}\n\t"                                               \
                   "smlal %[k0], %[k1], %[a], %[k2]\n\t" fin                                                     \
                   "strh %[a], [%[o]], #2\n\t"                                                                   \
                   "cmp %[w], %[end]\n\t"                                                                        \
                   "bne 1b\n\t"                                                                                  \
                   : [a] "=&r"(a), [w] "+&r"(w), [o] "+&r"(out), [k0] "=&r"(k0), [k1] "=&r"(k1), [k2] "=&r"(k2), \
                     [k3] "=&r"(k3)                                                                              \
                   : [x0] "r"(x0), [x1] "r"(x1), [x2] "r"(x2), [x3] "r"(x3), [end] "r"(end)                      \
                   : "cc", "memory")
static G16_NOINLINE void g16_stream(const ta_gemm_s16_dsp_params_t *p, const int16_t *x, int16_t *out) {
  const int32_t x0 = g16_load_pair(x), x1 = g16_load_pair(x + 2), x2 = g16_load_pair(x + 4),
                x3 = g16_load_pair(x + 6);
  const int32_t *w = p->stream, *end = w + 8 * p->rows;
  register int32_t k0 __asm__("r8"), k1 __asm__("r9"), k2 __asm__("r10"), k3 __asm__("r11");
  int32_t a;
  if (p->q.hi == 2 && p->q.sat == 1) G16_STREAM_ASM(G16_STREAM_FIN21);
  else if (p->q.hi == 2) G16_STREAM_ASM(G16_STREAM_FIN22);
  else if (p->q.sat == 1) G16_STREAM_ASM(G16_STREAM_FIN11);
  else G16_STREAM_ASM(G16_STREAM_FIN12);
  (void)a, (void)k0, (void)k1, (void)k2, (void)k3;
}
#define G16_HAS_STREAM 1
#else
#define G16_HAS_STREAM 0
#endif

#if G16_HAS_ROWS
/* Bit 21: the same loops with 16 values per iteration for depths (window rows) that are
 * multiples of 16, named by the compiler for such layers. */
#define G16_U16 TA_S16_DSP_HAS(TA_S16_DSP_BIT_U16)
/* The 8-value loops: without bit 21, or with bit 22 (named for layers of depths, window
 * rows, that are not multiples of 16); a layer whose loop is not compiled runs the general
 * one (g16_rows returns 0; such windows are gathered). */
#define G16_U8 (!G16_U16 || TA_S16_DSP_HAS(TA_S16_DSP_BIT_U8))
/* The full blocks of one vector (G16_ASM_ROWS) for form hi (1 or 2) and sat (1 or 2), in
 * a small function of its own: the per-vector set-up of g16_vector_mode is not paid for
 * layers of few rows per vector. */
#define G16_ROWS_DEF(hi, sat, fin) G16_ROWS_DEF_U(hi, sat, fin, , G16_ASM_ROWS)
#define G16_ROWS_DEF_U(hi, sat, fin, u, asm_rows)                                                   \
  static G16_NOINLINE void g16_rows##u##_##hi##sat(const int16_t *x, const int32_t *w, const int32_t *rq,      \
                                              int16_t *o, int32_t depth, int32_t words) {                   \
    const int16_t *x0 = x, *xp, *end = x + depth;                                                           \
    const int32_t *wend = w + words;                                                                        \
    register int32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");            \
    int32_t a0, a1, a2, a3, xv1;                                                                            \
    const int32_t *xv;                                                                                      \
    asm_rows(fin);                                                                                 \
    (void)xp, (void)xv, (void)xv1, (void)w0, (void)w1, (void)w2, (void)w3;                                  \
    (void)a0, (void)a1, (void)a2, (void)a3, (void)rq, (void)o;                                              \
  }
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 1))
#if G16_U8
G16_ROWS_DEF(2, 1, G16_FIN_NS1)
#endif
#if G16_U16
G16_ROWS_DEF_U(2, 1, G16_FIN_NS1, 16, G16_ASM_ROWS16)
#endif
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 2))
#if G16_U8
G16_ROWS_DEF(2, 2, G16_FIN_NS2)
#endif
#if G16_U16
G16_ROWS_DEF_U(2, 2, G16_FIN_NS2, 16, G16_ASM_ROWS16)
#endif
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 1))
#if G16_U8
G16_ROWS_DEF(1, 1, G16_FIN_SH1)
#endif
#if G16_U16
G16_ROWS_DEF_U(1, 1, G16_FIN_SH1, 16, G16_ASM_ROWS16)
#endif
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 2))
#if G16_U8
G16_ROWS_DEF(1, 2, G16_FIN_SH2)
#endif
#if G16_U16
G16_ROWS_DEF_U(1, 2, G16_FIN_SH2, 16, G16_ASM_ROWS16)
#endif
#endif

#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_WINDOW)
/* CONV_2D: every full block of one output pixel whose window lies inside the image, read
 * in place (G16_ASM_WIN): k_h window rows of `seg` values (a multiple of 8), `stride`
 * values apart. The compiler names bit 10 for layers whose window rows allow it. */
#define G16_WIN_DEF(hi, sat, fin) G16_WIN_DEF_U(hi, sat, fin, , G16_ASM_WIN)
#define G16_WIN_DEF_U(hi, sat, fin, u, asm_win)                                                     \
  static G16_NOINLINE void g16_win##u##_##hi##sat(const int16_t *x, const int32_t *w, const int32_t *rq,       \
                                             int16_t *o, int32_t seg, int32_t segs, int32_t stride,        \
                                             int32_t words) {                                              \
    const int16_t *x0 = x, *xp, *e0 = x + seg, *fin = e0 + (segs - 1) * stride, *end;                     \
    const int32_t skip = 2 * (stride - seg), st = 2 * stride;                                               \
    const int32_t *wend = w + words;                                                                        \
    register int32_t w0 __asm__("r8"), w1 __asm__("r9"), w2 __asm__("r10"), w3 __asm__("r11");            \
    int32_t a0, a1, a2, a3, xv1;                                                                            \
    const int32_t *xv;                                                                                      \
    asm_win(fin);                                                                                  \
    (void)xp, (void)xv, (void)xv1, (void)w0, (void)w1, (void)w2, (void)w3, (void)end;                       \
    (void)a0, (void)a1, (void)a2, (void)a3, (void)rq, (void)o;                                              \
  }
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 1))
#if G16_U8
G16_WIN_DEF(2, 1, G16_FIN_NS1)
#endif
#if G16_U16
G16_WIN_DEF_U(2, 1, G16_FIN_NS1, 16, G16_ASM_WIN16)
#endif
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 2))
#if G16_U8
G16_WIN_DEF(2, 2, G16_FIN_NS2)
#endif
#if G16_U16
G16_WIN_DEF_U(2, 2, G16_FIN_NS2, 16, G16_ASM_WIN16)
#endif
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 1))
#if G16_U8
G16_WIN_DEF(1, 1, G16_FIN_SH1)
#endif
#if G16_U16
G16_WIN_DEF_U(1, 1, G16_FIN_SH1, 16, G16_ASM_WIN16)
#endif
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 2))
#if G16_U8
G16_WIN_DEF(1, 2, G16_FIN_SH2)
#endif
#if G16_U16
G16_WIN_DEF_U(1, 2, G16_FIN_SH2, 16, G16_ASM_WIN16)
#endif
#endif
#define G16_HAS_WIN 1
#endif

#define G16_ROWS_CALL(hi, sat) G16_ROWS_CALL_##hi##sat
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 1))
#if G16_U16 && G16_U8
#define G16_ROWS_CALL_21                                                         \
  ((depth & 15) ? g16_rows_21(x, w, p->q.rq, out, depth, words)                 \
                : g16_rows16_21(x, w, p->q.rq, out, depth, words))
#elif G16_U16
#define G16_ROWS_CALL_21 g16_rows16_21(x, w, p->q.rq, out, depth, words)
#else
#define G16_ROWS_CALL_21 g16_rows_21(x, w, p->q.rq, out, depth, words)
#endif
#else
#define G16_ROWS_CALL_21 (void)0
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 2))
#if G16_U16 && G16_U8
#define G16_ROWS_CALL_22                                                         \
  ((depth & 15) ? g16_rows_22(x, w, p->q.rq, out, depth, words)                 \
                : g16_rows16_22(x, w, p->q.rq, out, depth, words))
#elif G16_U16
#define G16_ROWS_CALL_22 g16_rows16_22(x, w, p->q.rq, out, depth, words)
#else
#define G16_ROWS_CALL_22 g16_rows_22(x, w, p->q.rq, out, depth, words)
#endif
#else
#define G16_ROWS_CALL_22 (void)0
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 1))
#if G16_U16 && G16_U8
#define G16_ROWS_CALL_11                                                         \
  ((depth & 15) ? g16_rows_11(x, w, p->q.rq, out, depth, words)                 \
                : g16_rows16_11(x, w, p->q.rq, out, depth, words))
#elif G16_U16
#define G16_ROWS_CALL_11 g16_rows16_11(x, w, p->q.rq, out, depth, words)
#else
#define G16_ROWS_CALL_11 g16_rows_11(x, w, p->q.rq, out, depth, words)
#endif
#else
#define G16_ROWS_CALL_11 (void)0
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 2))
#if G16_U16 && G16_U8
#define G16_ROWS_CALL_12                                                         \
  ((depth & 15) ? g16_rows_12(x, w, p->q.rq, out, depth, words)                 \
                : g16_rows16_12(x, w, p->q.rq, out, depth, words))
#elif G16_U16
#define G16_ROWS_CALL_12 g16_rows16_12(x, w, p->q.rq, out, depth, words)
#else
#define G16_ROWS_CALL_12 g16_rows_12(x, w, p->q.rq, out, depth, words)
#endif
#else
#define G16_ROWS_CALL_12 (void)0
#endif

#if G16_HAS_WIN
#define G16_WIN_CALL(hi, sat) G16_WIN_CALL_##hi##sat
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 1))
#if G16_U16 && G16_U8
#define G16_WIN_CALL_21                                                          \
  ((seg & 15) ? g16_win_21(x, w, p->q.rq, out, seg, g->k_h, stride, words)      \
              : g16_win16_21(x, w, p->q.rq, out, seg, g->k_h, stride, words))
#elif G16_U16
#define G16_WIN_CALL_21 g16_win16_21(x, w, p->q.rq, out, seg, g->k_h, stride, words)
#else
#define G16_WIN_CALL_21 g16_win_21(x, w, p->q.rq, out, seg, g->k_h, stride, words)
#endif
#else
#define G16_WIN_CALL_21 (void)0
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 2))
#if G16_U16 && G16_U8
#define G16_WIN_CALL_22                                                          \
  ((seg & 15) ? g16_win_22(x, w, p->q.rq, out, seg, g->k_h, stride, words)      \
              : g16_win16_22(x, w, p->q.rq, out, seg, g->k_h, stride, words))
#elif G16_U16
#define G16_WIN_CALL_22 g16_win16_22(x, w, p->q.rq, out, seg, g->k_h, stride, words)
#else
#define G16_WIN_CALL_22 g16_win_22(x, w, p->q.rq, out, seg, g->k_h, stride, words)
#endif
#else
#define G16_WIN_CALL_22 (void)0
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 1))
#if G16_U16 && G16_U8
#define G16_WIN_CALL_11                                                          \
  ((seg & 15) ? g16_win_11(x, w, p->q.rq, out, seg, g->k_h, stride, words)      \
              : g16_win16_11(x, w, p->q.rq, out, seg, g->k_h, stride, words))
#elif G16_U16
#define G16_WIN_CALL_11 g16_win16_11(x, w, p->q.rq, out, seg, g->k_h, stride, words)
#else
#define G16_WIN_CALL_11 g16_win_11(x, w, p->q.rq, out, seg, g->k_h, stride, words)
#endif
#else
#define G16_WIN_CALL_11 (void)0
#endif
#if TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 2))
#if G16_U16 && G16_U8
#define G16_WIN_CALL_12                                                          \
  ((seg & 15) ? g16_win_12(x, w, p->q.rq, out, seg, g->k_h, stride, words)      \
              : g16_win16_12(x, w, p->q.rq, out, seg, g->k_h, stride, words))
#elif G16_U16
#define G16_WIN_CALL_12 g16_win16_12(x, w, p->q.rq, out, seg, g->k_h, stride, words)
#else
#define G16_WIN_CALL_12 g16_win_12(x, w, p->q.rq, out, seg, g->k_h, stride, words)
#endif
#else
#define G16_WIN_CALL_12 (void)0
#endif
#endif

/* Runs the full blocks where a compiled rows loop fits the layer (form 2 may run form
 * 1's: the same integers); returns the rows done (0: none). */
static inline int32_t g16_rows(const ta_gemm_s16_dsp_params_t *p, const int16_t *x, const int32_t *w,
                               int16_t *out) {
  const int32_t full = p->rows & ~3, depth = p->depth, hi = p->q.hi, sat = p->q.sat;
  if (!full || !hi || p->acc64 || (depth & (G16_U8 ? 7 : 15)) || ((uintptr_t)(const void *)x & 3u)) return 0;
  const int32_t words = full * (depth >> 1);
  (void)words, (void)w, (void)out; /* unused when no saturating form is compiled */
  if (hi == 2 && sat == 1 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 1))) G16_ROWS_CALL(2, 1);
  else if (hi == 2 && sat == 2 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 2))) G16_ROWS_CALL(2, 2);
  else if (sat == 1 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 1))) G16_ROWS_CALL(1, 1);
  else if (sat == 2 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 2))) G16_ROWS_CALL(1, 2);
  else return 0;
  return full;
}
#endif

#ifndef G16_HAS_WIN
#define G16_HAS_WIN 0
#endif

#if G16_HAS_WIN
/* The window of one output pixel in place where the layer allows it (every row of the
 * vector in whole blocks); returns 0 when it does not (then gather). */
static inline int g16_window(const ta_gemm_s16_dsp_params_t *p, const ta_conv_s16_dsp_geom_t *g, const int16_t *x,
                             const int32_t *w, int16_t *out) {
  const int32_t seg = g->k_w * g->in_c, stride = g->dil_h * g->in_w * g->in_c, hi = p->q.hi, sat = p->q.sat;
  const int32_t words = p->rows * (p->depth >> 1);
  (void)seg, (void)stride, (void)words, (void)w, (void)out, (void)sat;
  if (((uintptr_t)(const void *)x & 3u) || !hi) return 0;
  if (hi == 2 && sat == 1 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 1))) G16_WIN_CALL(2, 1);
  else if (hi == 2 && sat == 2 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 2))) G16_WIN_CALL(2, 2);
  else if (sat == 1 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 1))) G16_WIN_CALL(1, 1);
  else if (sat == 2 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 2))) G16_WIN_CALL(1, 2);
  else return 0;
  return 1;
}
#endif

#define G16_VECTOR_CALL(hi, sat) g16_vector_##hi##sat(p, x, w, out, first)
static void g16_vector(const ta_gemm_s16_dsp_params_t *p, const int16_t *x, const int32_t *w, int16_t *out) {
  int32_t first = 0;
#if G16_HAS_STREAM
  if (p->stream) { /* the compiler sets it only for depth 8, form 1 or 2, sat 1 or 2 */
    g16_stream(p, x, out);
    return;
  }
#endif
#if G16_HAS_ROWS
  first = g16_rows(p, x, w, out);
  if (first == p->rows) return;
  w += first * ((p->depth + 1) >> 1);
#endif
  TA_S16_DSP_MODES(&p->q, G16_VECTOR_CALL);
}

void ta_gemm_s16_dsp(const ta_gemm_s16_dsp_params_t *p, int32_t count, const int16_t *input,
                     const int32_t *weights, int16_t *output) {
  for (int32_t i = 0; i < count; i++) g16_vector(p, input + i * p->depth, weights, output + i * p->rows);
}

/* Short runs (narrow input depths) two values per (unaligned) word: a library call costs
 * more than them. */
static inline void g16_copy_words(int16_t *dst, const int16_t *src, int32_t n) {
  int32_t i = 0;
  for (; i + 2 <= n; i += 2) {
    int32_t v;
    memcpy(&v, src + i, sizeof v);
    memcpy(dst + i, &v, sizeof v);
  }
  if (i < n) dst[i] = src[i];
}

static inline void g16_copy(int16_t *dst, const int16_t *src, int32_t n) {
  if (n <= 8) {
    g16_copy_words(dst, src, n);
    return;
  }
#if G16_ASM
  /* word-aligned runs (the usual window rows): 16 bytes per two LDRD and two STRD, then
   * the rest below */
  if ((((uintptr_t)(const void *)src | (uintptr_t)(void *)dst) & 3u) == 0) {
    const int16_t *end = src + (n & ~7);
    int32_t t0, t1, t2, t3;
    __asm__ volatile("1:\n\t"
                     "ldrd %[t0], %[t1], [%[s]], #8\n\t"
                     "ldrd %[t2], %[t3], [%[s]], #8\n\t"
                     "strd %[t0], %[t1], [%[d]], #8\n\t"
                     "strd %[t2], %[t3], [%[d]], #8\n\t"
                     "cmp %[s], %[e]\n\t"
                     "bne 1b\n\t"
                     : [s] "+&r"(src), [d] "+&r"(dst), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
                       [t3] "=&r"(t3)
                     : [e] "r"(end)
                     : "cc", "memory");
    for (int32_t i = 0; i < (n & 7); i++) dst[i] = src[i];
    return;
  }
#endif
  if (n <= 32) {
    g16_copy_words(dst, src, n);
    return;
  }
  memcpy(dst, src, sizeof(int16_t) * (size_t)n);
}

static inline void g16_zero(int16_t *dst, int32_t n) {
  if (n > 8) {
    memset(dst, 0, sizeof(int16_t) * (size_t)n);
    return;
  }
  for (int32_t i = 0; i < n; i++) dst[i] = 0;
}

/* A window inside the image with dilation 1 across: k_h rows of row_len values, `stride`
 * apart, copied by (unaligned) words: narrow first layers (3 channels: rows of 9 values)
 * pay no per-row bounds or length tests. */
static inline void g16_gather_inside(const int16_t *src, int32_t stride, int32_t row_len, int32_t k_h, int16_t *x) {
  const int32_t words = row_len >> 1;
  for (int32_t ky = 0; ky < k_h; ky++, src += stride, x += row_len) {
    const int16_t *s = src;
    int16_t *d = x;
    for (int32_t i = 0; i < words; i++, s += 2, d += 2) {
      int32_t v;
      memcpy(&v, s, sizeof v);
      memcpy(d, &v, sizeof v);
    }
    if (row_len & 1) *d = *s;
  }
}

/* Copies the window of output pixel (oy, ox) into x, taps outside the image as 0 (the
 * int16 zero point); whole rows of the window at once where they lie inside. */
static void g16_gather(const ta_conv_s16_dsp_geom_t *g, const int16_t *in, int32_t oy, int32_t ox, int16_t *x) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
  const int32_t row_len = g->k_w * g->in_c;
  const int row_inside = ix0 >= 0 && ix0 + g->dil_w * (g->k_w - 1) < g->in_w && g->dil_w == 1;
  for (int32_t ky = 0; ky < g->k_h; ky++, x += row_len) {
    const int32_t iy = iy0 + g->dil_h * ky;
    if (iy < 0 || iy >= g->in_h) {
      g16_zero(x, row_len);
      continue;
    }
    const int16_t *src = in + (iy * g->in_w) * g->in_c;
    if (row_inside) {
      g16_copy(x, src + ix0 * g->in_c, row_len);
      continue;
    }
    for (int32_t kx = 0; kx < g->k_w; kx++) {
      const int32_t ix = ix0 + g->dil_w * kx;
      int16_t *dst = x + kx * g->in_c;
      if (ix < 0 || ix >= g->in_w) g16_zero(dst, g->in_c);
      else g16_copy(dst, src + ix * g->in_c, g->in_c);
    }
  }
}

void ta_conv_s16_dsp(const ta_gemm_s16_dsp_params_t *p, const ta_conv_s16_dsp_geom_t *g, const int16_t *input,
                     const int32_t *weights, void *scratch, int16_t *output) {
  const int32_t image = g->in_h * g->in_w * g->in_c;
  int16_t *window = (int16_t *)scratch;
  /* the compiler may pad the depth (zero weights) to whole 8-value passes: zeros there */
  if (!g->direct)
    for (int32_t i = g->k_h * g->k_w * g->in_c; i < p->depth; i++) window[i] = 0;
#if G16_HAS_WIN
  /* windows read in place: whole blocks only, window rows of whole 8-value passes */
  const int win = !g->direct && g->dil_w == 1 && (p->rows & 3) == 0 && !p->acc64 && p->q.sat &&
                  ((g->k_w * g->in_c) & (G16_U8 ? 7 : 15)) == 0 && p->depth == g->k_h * g->k_w * g->in_c;
#endif
  for (int32_t b = 0; b < g->batches; b++) {
    const int16_t *in = input + b * image;
    for (int32_t oy = 0; oy < g->out_h; oy++) {
#if G16_HAS_WIN
      const int32_t iy0 = oy * g->stride_h - g->pad_h;
      const int rows_in = win && iy0 >= 0 && iy0 + g->dil_h * (g->k_h - 1) < g->in_h;
#endif
      for (int32_t ox = 0; ox < g->out_w; ox++, output += p->rows) {
        const int16_t *x = in + ((oy * g->stride_h) * g->in_w + ox * g->stride_w) * g->in_c;
#if G16_HAS_WIN
        const int32_t ix0 = ox * g->stride_w - g->pad_w;
        if (rows_in && ix0 >= 0 && ix0 + g->k_w <= g->in_w &&
            g16_window(p, g, in + (iy0 * g->in_w + ix0) * g->in_c, weights, output))
          continue;
#endif
        if (!g->direct) {
          const int32_t gy = oy * g->stride_h - g->pad_h, gx = ox * g->stride_w - g->pad_w;
          if (g->dil_w == 1 && g->in_c * g->k_w <= 32 && gy >= 0 && gy + g->dil_h * (g->k_h - 1) < g->in_h &&
              gx >= 0 && gx + g->k_w <= g->in_w)
            g16_gather_inside(in + (gy * g->in_w + gx) * g->in_c, g->dil_h * g->in_w * g->in_c, g->k_w * g->in_c,
                              g->k_h, window);
          else
            g16_gather(g, in, oy, ox, window);
          x = window;
        }
        g16_vector(p, x, weights, output);
      }
    }
  }
}
