/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 depthwise convolution with DSP-extension (SIMD32) intrinsics.
 *
 * Loop structure: per output pixel, the taps of its window that read inside the image
 * (padded taps are skipped: the int16 zero point is 0), per group of 4 channels: two input
 * words (channels c..c+3 of one pixel), two weight words (the same channels of one tap,
 * adjacent in the re-laid filter), four 16x16 multiply-accumulates, no unpacking. A
 * 3-tap-wide window row (3x3 filters) is unrolled with the weight offsets as constants;
 * in optimised GCC/clang builds a complete 3x3 window and a one-tap-wide filter column
 * are one assembly block each with their requantisation. The requantisation is
 * ta_gemm_s16_dsp.h's. */
#include "ta_depthwise_conv_s16_dsp.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* acc + low halves' product, acc + high halves' product. */
static inline int32_t dw16_mac_lo(int32_t acc, int32_t x, int32_t w) { return __smlabb(x, w, acc); }
static inline int32_t dw16_mac_hi(int32_t acc, int32_t x, int32_t w) { return __smlatt(x, w, acc); }
#else
static inline int32_t dw16_lo(int32_t v) { return (int32_t)(int16_t)(uint16_t)((uint32_t)v & 0xFFFFu); }
static inline int32_t dw16_hi(int32_t v) { return (int32_t)(int16_t)(uint16_t)((uint32_t)v >> 16); }
static inline int32_t dw16_mac_lo(int32_t acc, int32_t x, int32_t w) { return acc + dw16_lo(x) * dw16_lo(w); }
static inline int32_t dw16_mac_hi(int32_t acc, int32_t x, int32_t w) { return acc + dw16_hi(x) * dw16_hi(w); }
#endif

#if defined(__GNUC__)
#define DW16_ALWAYS_INLINE inline __attribute__((always_inline))
#define DW16_NOINLINE __attribute__((noinline)) /* each variant keeps its own registers */
/* A word of an int16 tensor read as int32 (the pair x[c] | x[c+1] << 16); two adjacent
 * ones load with one LDRD when the tensor is word aligned. */
typedef int32_t dw16_word_t __attribute__((may_alias, aligned(4)));
#else
#define DW16_ALWAYS_INLINE inline
#define DW16_NOINLINE
#endif

/* Word i (channels 2i, 2i+1 from x) of one pixel: `al` 1 when x is word aligned. */
static DW16_ALWAYS_INLINE int32_t dw16_load(const int16_t *x, int32_t i, int al) {
#if defined(__GNUC__)
  if (al) return ((const dw16_word_t *)(const void *)x)[i];
#else
  (void)al;
#endif
  int32_t v;
  memcpy(&v, x + 2 * i, sizeof v);
  return v;
}

/* Taps [lo, hi) of one axis whose coordinate origin + dil * k lies in [0, size). */
static void dw16_taps(int32_t origin, int32_t dil, int32_t k, int32_t size, int32_t *lo, int32_t *hi) {
  int32_t a = 0, b = k;
  while (a < b && origin + dil * a < 0) a++;
  while (b > a && origin + dil * (b - 1) >= size) b--;
  *lo = a, *hi = b;
}

/* Layer constants of the pixel loops. */
typedef struct dw16_layer_t {
  int32_t channels, x_col, x_row; /* input elements between taps across and down */
  int32_t w_row;                  /* weight words between filter rows in a group of 4 (2 k_w) */
  int32_t group_words;            /* 2 * taps: one group of 4 channels' filter */
} dw16_layer_t;

/* Optimised GCC/clang builds run a window row of a 4-channel group in inline assembly
 * (LDRD of both input words and of both weight words of a tap, the weight offsets as
 * constants): C leaves the compiler too many live values and it spills. */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define DW16_ASM 1
#else
#define DW16_ASM 0
#endif

#if DW16_ASM
#define DW16_ASM_MAC4                          \
  "smlabb %[a0], %[x0], %[w0], %[a0]\n\t"      \
  "smlatt %[a1], %[x0], %[w0], %[a1]\n\t"      \
  "smlabb %[a2], %[x1], %[w1], %[a2]\n\t"      \
  "smlatt %[a3], %[x1], %[w1], %[a3]\n\t"
#define DW16_ASM_OUTPUTS                                                                           \
  : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x0] "=&r"(x0_), [x1] "=&r"(x1_),  \
    [w0] "=&r"(w0_), [w1] "=&r"(w1_)
/* Three taps x, x + x_col, x + 2 x_col against weight words wp[0..5]. */
#define DW16_ROW3(xp, wp)                                                                          \
  do {                                                                                             \
    int32_t x0_, x1_, w0_, w1_;                                                                    \
    const int16_t *t_;                                                                             \
    __asm__("ldrd %[x0], %[x1], [%[x]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w]]\n\t"                                                        \
            "add %[t], %[x], %[xc]\n\t" DW16_ASM_MAC4                                               \
            "ldrd %[x0], %[x1], [%[t]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w], #8]\n\t"                                                    \
            "add %[t], %[t], %[xc]\n\t" DW16_ASM_MAC4                                               \
            "ldrd %[x0], %[x1], [%[t]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w], #16]\n\t" DW16_ASM_MAC4 DW16_ASM_OUTPUTS, [t] "=&r"(t_)       \
            : [x] "r"(xp), [xc] "r"(x_col2), [w] "r"(wp));                 \
  } while (0)
/* Two taps x, x + x_col against weight words wp[0..3]. */
#define DW16_ROW2(xp, wp)                                                                          \
  do {                                                                                             \
    int32_t x0_, x1_, w0_, w1_;                                                                    \
    const int16_t *t_;                                                                             \
    __asm__("ldrd %[x0], %[x1], [%[x]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w]]\n\t"                                                        \
            "add %[t], %[x], %[xc]\n\t" DW16_ASM_MAC4                                               \
            "ldrd %[x0], %[x1], [%[t]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w], #8]\n\t" DW16_ASM_MAC4 DW16_ASM_OUTPUTS, [t] "=&r"(t_)        \
            : [x] "r"(xp), [xc] "r"(x_col2), [w] "r"(wp));                                         \
  } while (0)
/* One tap: x against weight words wp[0..1]. */
#define DW16_TAP4_AL(xp, wp)                                                                       \
  do {                                                                                             \
    int32_t x0_, x1_, w0_, w1_;                                                                    \
    __asm__("ldrd %[x0], %[x1], [%[x]]\n\t"                                                        \
            "ldrd %[w0], %[w1], [%[w]]\n\t" DW16_ASM_MAC4 DW16_ASM_OUTPUTS                         \
            : [x] "r"(xp), [w] "r"(wp));                                                           \
  } while (0)
#endif

/* One tap for 4 channels: two input words, two weight words, four products. */
#define DW16_TAP4_C(xp, wp)                                                                      \
  do {                                                                                           \
    const int32_t x0_ = dw16_load(xp, 0, al), x1_ = dw16_load(xp, 1, al);                         \
    const int32_t w0_ = (wp)[0], w1_ = (wp)[1];                                                  \
    a0 = dw16_mac_lo(a0, x0_, w0_), a1 = dw16_mac_hi(a1, x0_, w0_);                              \
    a2 = dw16_mac_lo(a2, x1_, w1_), a3 = dw16_mac_hi(a3, x1_, w1_);                              \
  } while (0)
#if DW16_ASM
#define DW16_TAP4(xp, wp)         \
  do {                            \
    if (al)                       \
      DW16_TAP4_AL(xp, wp);       \
    else                          \
      DW16_TAP4_C(xp, wp);        \
  } while (0)
#else
#define DW16_TAP4(xp, wp) DW16_TAP4_C(xp, wp)
#endif

/* Requantises and stores 4 channels from c. */
#if TA_S16_DSP_RQ_ASM
#define DW16_STORE4(out, c)                                                                                     \
  do {                                                                                                          \
    if (hi) {                                                                                                   \
      TA_S16_DSP_RQ4(q->rq + 4 * (c), hi, sat, a0, a1, a2, a3);                                                 \
      if (sat == 0) {                                                                                           \
        a0 = ta_clamp(a0, q->act_min, q->act_max), a1 = ta_clamp(a1, q->act_min, q->act_max);                   \
        a2 = ta_clamp(a2, q->act_min, q->act_max), a3 = ta_clamp(a3, q->act_min, q->act_max);                   \
      }                                                                                                         \
      (out)[(c)] = (int16_t)a0, (out)[(c) + 1] = (int16_t)a1;                                                   \
      (out)[(c) + 2] = (int16_t)a2, (out)[(c) + 3] = (int16_t)a3;                                               \
    } else {                                                                                                    \
      DW16_STORE4_C(out, c);                                                                                    \
    }                                                                                                           \
  } while (0)
#else
#define DW16_STORE4(out, c) DW16_STORE4_C(out, c)
#endif
#define DW16_STORE4_C(out, c)                                                                                   \
  do {                                                                                                          \
    (out)[(c)] = ta_s16_dsp_output_mode(q, hi, sat, (c), a0);                                                   \
    (out)[(c) + 1] = ta_s16_dsp_output_mode(q, hi, sat, (c) + 1, a1);                                           \
    (out)[(c) + 2] = ta_s16_dsp_output_mode(q, hi, sat, (c) + 2, a2);                                           \
    (out)[(c) + 3] = ta_s16_dsp_output_mode(q, hi, sat, (c) + 3, a3);                                           \
  } while (0)

/* The last two channels (channels % 4 == 2) of one pixel: one weight word per tap. */
static DW16_ALWAYS_INLINE void dw16_tail_pair(const dw16_layer_t *l, const ta_s16_dsp_requant_t *q, const int16_t *x,
                                              const int32_t *weights, int32_t tap, int32_t rows, int32_t cols,
                                              int16_t *out, int hi, int sat, int al) {
  const int32_t full = l->channels & ~3, x_col = l->x_col, x_row = l->x_row, w_row = l->w_row;
  const int32_t *wt = weights + (full >> 1) * (l->group_words >> 1) + tap;
  int32_t a0 = 0, a1 = 0;
  const int16_t *xr = x + full;
  for (int32_t ky = 0; ky < rows; ky++, xr += x_row, wt += w_row >> 1) {
    const int16_t *xp = xr;
    for (int32_t kx = 0; kx < cols; kx++, xp += x_col) {
      const int32_t x0 = dw16_load(xp, 0, al), w0 = wt[kx];
      a0 = dw16_mac_lo(a0, x0, w0), a1 = dw16_mac_hi(a1, x0, w0);
    }
  }
  out[full] = ta_s16_dsp_output_mode(q, hi, sat, full, a0);
  out[full + 1] = ta_s16_dsp_output_mode(q, hi, sat, full + 1, a1);
}

#if DW16_ASM && TA_S16_DSP_RQ_ASM
/* A complete 3x3 window of 4 channels and its high-word requantisation in one block:
 * the accumulators start with the first tap's products (SMULBB/SMULTT), the input walks
 * a window row by x_col and jumps to the next by the "m" operand xr2; the four temporaries
 * then hold each channel's requantisation words. */
#define DW16_F_MUL4                      \
  "smulbb %[a0], %[lo], %[m]\n\t"        \
  "smultt %[a1], %[lo], %[m]\n\t"        \
  "smulbb %[a2], %[hh], %[s]\n\t"        \
  "smultt %[a3], %[hh], %[s]\n\t"
#define DW16_F_MAC4                           \
  "smlabb %[a0], %[lo], %[m], %[a0]\n\t"      \
  "smlatt %[a1], %[lo], %[m], %[a1]\n\t"      \
  "smlabb %[a2], %[hh], %[s], %[a2]\n\t"      \
  "smlatt %[a3], %[hh], %[s], %[a3]\n\t"
#define DW16_F_LD(woff) "ldrd %[lo], %[hh], [%[x]]\n\tldrd %[m], %[s], [%[w], #" #woff "]\n\t"
#define DW16_F_NEXT "add %[x], %[x], %[xc]\n\t"
#define DW16_F_ROW(w0, w1, w2, first) \
  DW16_F_LD(w0) DW16_F_NEXT first DW16_F_LD(w1) DW16_F_NEXT DW16_F_MAC4 DW16_F_LD(w2) DW16_F_MAC4
#define DW16_F_DOWN "ldr %[lo], %[xr2]\n\tadd %[x], %[x], %[lo]\n\t"
/* A channel's requantisation: one LDM of its 4 words (the fixed ascending r8..r11), SMLAL,
 * (form 1: the shift,) the saturation or move. */
#define DW16_RQ_LDM(acc, fin)                              \
  "ldmia %[rq]!, {%[lo], %[hh], %[m], %[s]}\n\t"          \
  "smlal %[lo], %[hh], %[" #acc "], %[m]\n\t" fin(acc)
#define DW16_FIN_SH0(acc) "asr %[" #acc "], %[hh], %[s]\n\t"
#define DW16_FIN_SH1(acc) DW16_FIN_SH0(acc) TA_S16_DSP_SAT1(acc)
#define DW16_FIN_SH2(acc) DW16_FIN_SH0(acc) TA_S16_DSP_SAT2(acc)
#define DW16_F_GROUP(fin)                                                                                       \
  __asm__(DW16_F_ROW(0, 8, 16, DW16_F_MUL4) DW16_F_DOWN DW16_F_ROW(24, 32, 40, DW16_F_MAC4) DW16_F_DOWN           \
          DW16_F_ROW(48, 56, 64, DW16_F_MAC4)                                                                   \
          DW16_RQ_LDM(a0, fin) DW16_RQ_LDM(a1, fin) DW16_RQ_LDM(a2, fin) DW16_RQ_LDM(a3, fin)                   \
          : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [lo] "=&r"(lo_), [hh] "=&r"(hh_),   \
            [m] "=&r"(m_), [s] "=&r"(s_), [x] "+r"(xp), [rq] "+r"(rqp)                                          \
          : [xc] "r"(x_col2), [w] "r"(wg), [xr2] "m"(xr2))

/* Every group of a pixel in one asm statement (GCC; clang finds no registers for it): the
 * group start, the output pointer and the groups' end in memory operands, so no C runs
 * between groups; `fin` the saturating finish of the form. */
#define DW16_F_BODY \
  DW16_F_ROW(0, 8, 16, DW16_F_MUL4) DW16_F_DOWN DW16_F_ROW(24, 32, 40, DW16_F_MAC4) DW16_F_DOWN \
  DW16_F_ROW(48, 56, 64, DW16_F_MAC4)
#define DW16_P_PIXEL(body, fin)                                                                                 \
  __asm__ volatile("0:\n\t"                                                                                  \
                   "ldr %[x], %[xgm]\n\t" body                                                              \
                   DW16_RQ_LDM(a0, fin) DW16_RQ_LDM(a1, fin) DW16_RQ_LDM(a2, fin) DW16_RQ_LDM(a3, fin)          \
                   "ldr %[x], %[om]\n\t"                                                                     \
                   "strh %[a0], [%[x]], #2\n\t"                                                              \
                   "strh %[a1], [%[x]], #2\n\t"                                                              \
                   "strh %[a2], [%[x]], #2\n\t"                                                              \
                   "strh %[a3], [%[x]], #2\n\t"                                                              \
                   "str %[x], %[om]\n\t"                                                                     \
                   "add %[w], %[w], #72\n\t"                                                                 \
                   "ldr %[x], %[xgm]\n\t"                                                                    \
                   "add %[x], %[x], #8\n\t"                                                                  \
                   "str %[x], %[xgm]\n\t"                                                                    \
                   "ldr %[lo], %[endm]\n\t"                                                                  \
                   "cmp %[x], %[lo]\n\t"                                                                     \
                   "bne 0b\n\t"                                                                              \
                   : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [lo] "=&r"(lo_),          \
                     [hh] "=&r"(hh_), [m] "=&r"(m_), [s] "=&r"(s_), [x] "=&r"(xp), [w] "+&r"(wg),              \
                     [rq] "+&r"(rqp), [xgm] "+m"(xg), [om] "+m"(o)                                             \
                   : [xc] "r"(x_col2), [xr2] "m"(xr2), [endm] "m"(xend)                                        \
                   : "cc", "memory")
#define DW16_F_PIXEL(fin) DW16_P_PIXEL(DW16_F_BODY, fin)
#if defined(__clang__)
#define DW16_HAS_F_PIXEL 0
#else
#define DW16_HAS_F_PIXEL 1
#endif

/* Every group of 4 channels of a pixel whose 3x3 window is complete (word-aligned input,
 * the high-word form), then the last pair. */
static DW16_ALWAYS_INLINE void dw16_pixel_full3(const dw16_layer_t *l, const ta_s16_dsp_requant_t *q,
                                                const int16_t *x, const int32_t *weights, int16_t *out, int hi,
                                                int sat) {
  const int32_t full = l->channels & ~3, x_col2 = 2 * l->x_col, xr2 = 2 * l->x_row - 2 * x_col2;
  const int32_t *wg = weights, *rq = q->rq;
#if DW16_HAS_F_PIXEL
  if (sat && full) {
    const int16_t *xg = x, *xend = x + full, *xp;
    const int32_t *rqp = rq;
    int16_t *o = out;
    int32_t a0, a1, a2, a3;
    register int32_t lo_ __asm__("r8"), hh_ __asm__("r9"), m_ __asm__("r10"), s_ __asm__("r11");
    if (hi == 2 && sat == 1) DW16_F_PIXEL(TA_S16_DSP_FIN1);
    else if (hi == 2) DW16_F_PIXEL(TA_S16_DSP_FIN2);
    else if (sat == 1) DW16_F_PIXEL(DW16_FIN_SH1);
    else DW16_F_PIXEL(DW16_FIN_SH2);
    (void)lo_, (void)hh_, (void)m_, (void)s_, (void)xp, (void)a0, (void)a1, (void)a2, (void)a3;
    (void)xg, (void)o, (void)rqp;
    if (full < l->channels) dw16_tail_pair(l, q, x, weights, 0, 3, 3, out, hi, sat, 1);
    return;
  }
#endif
  for (int32_t c = 0; c < full; c += 4, wg += 18, rq += 16) {
    const int16_t *xp = x + c;
    const int32_t *rqp = rq;
    int32_t a0, a1, a2, a3;
    register int32_t lo_ __asm__("r8"), hh_ __asm__("r9"), m_ __asm__("r10"), s_ __asm__("r11");
    if (hi == 2 && sat == 1) DW16_F_GROUP(TA_S16_DSP_FIN1);
    else if (hi == 2 && sat == 2) DW16_F_GROUP(TA_S16_DSP_FIN2);
    else if (sat == 1) DW16_F_GROUP(DW16_FIN_SH1);
    else if (sat == 2) DW16_F_GROUP(DW16_FIN_SH2);
    else {
      if (hi == 2) DW16_F_GROUP(TA_S16_DSP_FIN0);
      else DW16_F_GROUP(DW16_FIN_SH0);
      a0 = ta_clamp(a0, q->act_min, q->act_max), a1 = ta_clamp(a1, q->act_min, q->act_max);
      a2 = ta_clamp(a2, q->act_min, q->act_max), a3 = ta_clamp(a3, q->act_min, q->act_max);
    }
    (void)lo_, (void)hh_, (void)m_, (void)s_, (void)rqp;
    out[c] = (int16_t)a0, out[c + 1] = (int16_t)a1, out[c + 2] = (int16_t)a2, out[c + 3] = (int16_t)a3;
  }
  if (full < l->channels) dw16_tail_pair(l, q, x, weights, 0, 3, 3, out, hi, sat, 1);
}

/* A filter column (k_w 1) of `rows` inside taps for 4 channels and its requantisation in
 * one block: the first tap's products start the sums, the loop runs the other taps (the
 * weights post-incremented, the input down by x_row), then the register that walked the
 * input holds the requantisation table's address (read from the "m" operand rqm). */
#define DW16_T_TAP(mul4)                                                                                      \
  "ldrd %[lo], %[hh], [%[rq]]\n\tldrd %[m], %[s], [%[w]], #8\n\tadd %[rq], %[rq], %[xr]\n\t" mul4
#define DW16_T_GROUP(one, sat_ins)                                                                              \
  __asm__(DW16_T_TAP(DW16_F_MUL4) "subs %[n], %[n], #1\n\tbeq 2f\n\t"                                          \
          "1:\n\t" DW16_T_TAP(DW16_F_MAC4) "subs %[n], %[n], #1\n\tbne 1b\n\t"                               \
          "2:\n\tldr %[rq], %[rqm]\n\t"                                                                        \
          one(a0, 0, 8, sat_ins) one(a1, 16, 24, sat_ins) one(a2, 32, 40, sat_ins) one(a3, 48, 56, sat_ins)     \
          : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [lo] "=&r"(lo_), [hh] "=&r"(hh_),   \
            [m] "=&r"(m_), [s] "=&r"(s_), [rq] "+&r"(xp), [w] "+&r"(wp), [n] "+&r"(n)                          \
          : [xr] "r"(x_row2), [rqm] "m"(rq)                                                                     \
          : "cc")

/* Every group of 4 channels of a pixel of a one-tap-wide filter (word-aligned input, the
 * high-word form), rows >= 1 inside taps from filter row `tap`, then the last pair. */
static DW16_ALWAYS_INLINE void dw16_pixel_tall(const dw16_layer_t *l, const ta_s16_dsp_requant_t *q,
                                               const int16_t *x, const int32_t *weights, int32_t tap, int32_t rows,
                                               int16_t *out, int hi, int sat) {
  const int32_t full = l->channels & ~3, x_row2 = 2 * l->x_row;
  const int32_t *wg = weights + 2 * tap, *rq = q->rq;
  for (int32_t c = 0; c < full; c += 4, wg += l->group_words, rq += 16) {
    const int16_t *xp = x + c;
    const int32_t *wp = wg;
    int32_t n = rows, a0, a1, a2, a3, lo_, hh_, m_, s_;
    if (hi == 2 && sat == 1) DW16_T_GROUP(TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN1);
    else if (hi == 2 && sat == 2) DW16_T_GROUP(TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN2);
    else if (sat == 1) DW16_T_GROUP(TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT1);
    else if (sat == 2) DW16_T_GROUP(TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT2);
    else {
      if (hi == 2) DW16_T_GROUP(TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN0);
      else DW16_T_GROUP(TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT0);
      a0 = ta_clamp(a0, q->act_min, q->act_max), a1 = ta_clamp(a1, q->act_min, q->act_max);
      a2 = ta_clamp(a2, q->act_min, q->act_max), a3 = ta_clamp(a3, q->act_min, q->act_max);
    }
    (void)lo_, (void)hh_, (void)m_, (void)s_;
    out[c] = (int16_t)a0, out[c + 1] = (int16_t)a1, out[c + 2] = (int16_t)a2, out[c + 3] = (int16_t)a3;
  }
  if (full < l->channels) dw16_tail_pair(l, q, x, weights, tap, rows, 1, out, hi, sat, 1);
}
#define DW16_FULL3 1

/* A run of `count` output pixels `step` input elements apart whose 3x3 windows are
 * complete: one function per form, so the block is compiled once per form the module
 * uses and the run costs one call. */
/* The depthwise loops of form (hi, sat) are bit 12 + 3 * hi + sat of TA_S16_DSP_VARIANTS,
 * named by the compiler for depthwise layers only (the matrix kernel's are bits 0..8). */
#define DW16_VHAS(form) (((TA_S16_DSP_VARIANTS) >> (TA_S16_DSP_DW_BASE + (form))) & 1u)
#define DW16_RUN_DEF(hi, sat)                                                                                   \
  static DW16_NOINLINE void dw16_run3_##hi##sat(const dw16_layer_t *l, const ta_s16_dsp_requant_t *q,          \
                                                const int16_t *x, int32_t step, const int32_t *weights,         \
                                                int16_t *out, int32_t count) {                                  \
    for (; count > 0; count--, x += step, out += l->channels) dw16_pixel_full3(l, q, x, weights, out, hi, sat); \
  }
#if DW16_VHAS(TA_S16_DSP_FORM(1, 0))
DW16_RUN_DEF(1, 0)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(1, 1))
DW16_RUN_DEF(1, 1)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(1, 2))
DW16_RUN_DEF(1, 2)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(2, 0))
DW16_RUN_DEF(2, 0)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(2, 1))
DW16_RUN_DEF(2, 1)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(2, 2))
DW16_RUN_DEF(2, 2)
#endif
/* hi and sat are constants in each caller (dw16_layer's variants); only compiled forms
 * are called (the layer functions exist for those only). */
#define DW16_RUN3_IF(h, s)                                                                        \
  else if (hi == h && sat == s) dw16_run3_##h##s(l, q, x, step, weights, out, count)
static DW16_ALWAYS_INLINE void dw16_run3(const dw16_layer_t *l, const ta_s16_dsp_requant_t *q, const int16_t *x,
                                         int32_t step, const int32_t *weights, int16_t *out, int32_t count, int hi,
                                         int sat) {
  if (0) {
  }
#if DW16_VHAS(TA_S16_DSP_FORM(1, 0))
  DW16_RUN3_IF(1, 0);
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(1, 1))
  DW16_RUN3_IF(1, 1);
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(1, 2))
  DW16_RUN3_IF(1, 2);
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(2, 0))
  DW16_RUN3_IF(2, 0);
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(2, 1))
  DW16_RUN3_IF(2, 1);
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(2, 2))
  DW16_RUN3_IF(2, 2);
#endif
  else {
    for (; count > 0; count--, x += step, out += l->channels) dw16_pixel_full3(l, q, x, weights, out, hi, sat);
  }
}

#if DW16_HAS_F_PIXEL && TA_S16_DSP_HAS(TA_S16_DSP_BIT_DW_EDGE)
/* The border windows of a padded 3x3 filter that lose one column (3 rows of 2 taps: the
 * left and right image columns), one row (2 rows of 3 taps: the top and bottom image
 * rows) or both (the corners), every group of 4 channels of the pixel in one asm statement as for the complete
 * window (bit 11 of TA_S16_DSP_VARIANTS, named for padded 3x3 layers): the general
 * per-group path costs about 1.8x. `w` is the first inside tap's weights of group 0. */
#define DW16_E_ROW2(w0, w1, first) DW16_F_LD(w0) DW16_F_NEXT first DW16_F_LD(w1) DW16_F_MAC4
#define DW16_E_BODY32                                                                            \
  DW16_E_ROW2(0, 8, DW16_F_MUL4) DW16_F_DOWN DW16_E_ROW2(24, 32, DW16_F_MAC4) DW16_F_DOWN        \
  DW16_E_ROW2(48, 56, DW16_F_MAC4)
#define DW16_E_BODY23 DW16_F_ROW(0, 8, 16, DW16_F_MUL4) DW16_F_DOWN DW16_F_ROW(24, 32, 40, DW16_F_MAC4)
#define DW16_E_BODY22 DW16_E_ROW2(0, 8, DW16_F_MUL4) DW16_F_DOWN DW16_E_ROW2(24, 32, DW16_F_MAC4)
#define DW16_EDGE_DEF(hi, sat, fin)                                                                             \
  static DW16_NOINLINE void dw16_edge_##hi##sat(const dw16_layer_t *l, const int32_t *rq, const int16_t *x,     \
                                                const int32_t *w, int16_t *out, int32_t rows, int32_t cols) {   \
    const int32_t x_col2 = 2 * l->x_col, xr2 = 2 * l->x_row - (cols - 1) * x_col2;                             \
    const int16_t *xg = x, *xend = x + (l->channels & ~3), *xp;                                                 \
    const int32_t *wg = w, *rqp = rq;                                                                           \
    int16_t *o = out;                                                                                           \
    int32_t a0, a1, a2, a3;                                                                                     \
    register int32_t lo_ __asm__("r8"), hh_ __asm__("r9"), m_ __asm__("r10"), s_ __asm__("r11");              \
    if (rows == 3) DW16_P_PIXEL(DW16_E_BODY32, fin);                                                            \
    else if (cols == 3) DW16_P_PIXEL(DW16_E_BODY23, fin);                                                       \
    else DW16_P_PIXEL(DW16_E_BODY22, fin);                                                                      \
    (void)lo_, (void)hh_, (void)m_, (void)s_, (void)xp, (void)a0, (void)a1, (void)a2, (void)a3;                 \
    (void)xg, (void)o, (void)rqp, (void)wg;                                                                     \
  }
#if DW16_VHAS(TA_S16_DSP_FORM(2, 1))
DW16_EDGE_DEF(2, 1, TA_S16_DSP_FIN1)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(2, 2))
DW16_EDGE_DEF(2, 2, TA_S16_DSP_FIN2)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(1, 1))
DW16_EDGE_DEF(1, 1, DW16_FIN_SH1)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(1, 2))
DW16_EDGE_DEF(1, 2, DW16_FIN_SH2)
#endif
#define DW16_EDGE_IF(h, s) \
  if (hi == h && sat == s) { dw16_edge_##h##s(l, q->rq, x, w, out, rows, cols); return 1; }
/* Runs a border window (3 x 2, 2 x 3 or 2 x 2 inside taps, 4 channels or more) where
 * the form's function is compiled; 0 when it is not (then the general path). */
static DW16_ALWAYS_INLINE int dw16_edge(const dw16_layer_t *l, const ta_s16_dsp_requant_t *q, const int16_t *x,
                                        const int32_t *w, int16_t *out, int32_t rows, int32_t cols, int hi, int sat) {
#if DW16_VHAS(TA_S16_DSP_FORM(2, 1))
  DW16_EDGE_IF(2, 1)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(2, 2))
  DW16_EDGE_IF(2, 2)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(1, 1))
  DW16_EDGE_IF(1, 1)
#endif
#if DW16_VHAS(TA_S16_DSP_FORM(1, 2))
  DW16_EDGE_IF(1, 2)
#endif
  (void)l, (void)q, (void)x, (void)w, (void)out, (void)rows, (void)cols, (void)hi, (void)sat;
  return 0;
}
#define DW16_EDGE 1
#endif
#else
#define DW16_FULL3 0
#endif
#ifndef DW16_EDGE
#define DW16_EDGE 0
#endif

/* One output pixel: every group of 4 channels over the window's rows x cols inside taps,
 * then the last pair of channels (channels % 4 == 2). `x` points at the first inside tap,
 * channel 0; `tap` is that tap's index ky * k_w + kx. `wide3`: the filter is 3 taps wide
 * (the layer's constant), so a complete window row is unrolled. */
static DW16_ALWAYS_INLINE void dw16_pixel(const dw16_layer_t *l, const ta_s16_dsp_requant_t *q, const int16_t *x,
                                          const int32_t *weights, int32_t tap, int32_t rows, int32_t cols,
                                          int16_t *out, int hi, int sat, int al, int wide3) {
  const int32_t full = l->channels & ~3, x_col = l->x_col, x_row = l->x_row, w_row = l->w_row;
  const int32_t *wg = weights + 2 * tap;
  for (int32_t c = 0; c < full; c += 4, wg += l->group_words) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const int16_t *xr = x + c;
    const int32_t *wr = wg;
    int32_t left = rows;
    if (wide3 && cols == 3) {
#if DW16_ASM
      if (al && rows == 3) { /* the complete 3x3 window */
        const int32_t x_col2 = 2 * x_col; /* bytes */
        DW16_ROW3(xr, wr);
        DW16_ROW3(xr + x_row, wr + 6);
        DW16_ROW3(xr + 2 * x_row, wr + 12);
        left = 0;
      }
#endif
      for (int32_t ky = 0; ky < left; ky++, xr += x_row, wr += 6) {
#if DW16_ASM
        if (al) {
          const int16_t *xp = xr;
          const int32_t *wp = wr;
          const int32_t x_col2 = 2 * x_col; /* bytes */
          DW16_ROW3(xp, wp);
          continue;
        }
#endif
        DW16_TAP4(xr, wr);
        DW16_TAP4(xr + x_col, wr + 2);
        DW16_TAP4(xr + 2 * x_col, wr + 4);
      }
    } else {
#if DW16_ASM
      if (al && cols == 2) {
        const int32_t x_col2 = 2 * x_col; /* bytes */
        for (int32_t ky = 0; ky < rows; ky++, xr += x_row, wr += w_row) DW16_ROW2(xr, wr);
        left = 0;
      }
#endif
      for (int32_t ky = 0; ky < left; ky++, xr += x_row, wr += w_row) {
        const int16_t *xp = xr;
        const int32_t *wp = wr;
        for (int32_t kx = 0; kx < cols; kx++, xp += x_col, wp += 2) DW16_TAP4(xp, wp);
      }
    }
    DW16_STORE4(out, c);
  }
  if (full < l->channels) dw16_tail_pair(l, q, x, weights, tap, rows, cols, out, hi, sat, al);
}

/* The whole layer for one requantisation form (hi, sat), alignment and filter width. */
static DW16_ALWAYS_INLINE void dw16_layer(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input,
                                          const int32_t *weights, int16_t *output, int hi, int sat, int al,
                                          int wide3) {
  const ta_s16_dsp_requant_t q = p->q; /* a local: the output stores cannot change it */
  const int32_t image = p->in_h * p->in_w * p->channels;
  dw16_layer_t l;
  l.channels = p->channels;
  l.x_col = p->dil_w * p->channels;
  l.x_row = p->dil_h * p->in_w * p->channels;
  l.w_row = 2 * p->k_w;
  l.group_words = 2 * p->k_h * p->k_w;
  for (int32_t b = 0; b < p->batches; b++) {
    const int16_t *in = input + b * image;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t ky_lo, ky_hi;
      dw16_taps(iy0, p->dil_h, p->k_h, p->in_h, &ky_lo, &ky_hi);
#if DW16_FULL3
      /* the columns whose 3x3 window is complete (the assembly block): [ox_a, ox_b) */
      int32_t ox_a = 0, ox_b = 0;
      if (hi && al && wide3 && p->k_h == 3 && ky_hi - ky_lo == 3) {
        const int32_t last = p->in_w - 1 - 2 * p->dil_w + p->pad_w; /* ox * stride_w at most this */
        ox_a = (p->pad_w + p->stride_w - 1) / p->stride_w;
        ox_b = last < 0 ? 0 : last / p->stride_w + 1;
        if (ox_b > p->out_w) ox_b = p->out_w;
      }
#endif
      for (int32_t ox = 0; ox < p->out_w; ox++, output += p->channels) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
#if DW16_FULL3
        if (ox == ox_a && ox < ox_b) {
          const int32_t count = ox_b - ox_a;
          dw16_run3(&l, &q, in + (iy0 * p->in_w + ix0) * p->channels, p->stride_w * p->channels, weights, output,
                    count, hi, sat);
          ox += count - 1, output += (count - 1) * p->channels; /* the loop steps past the run */
          continue;
        }
#endif
        int32_t kx_lo, kx_hi;
        dw16_taps(ix0, p->dil_w, p->k_w, p->in_w, &kx_lo, &kx_hi);
        const int16_t *x = in + ((iy0 + p->dil_h * ky_lo) * p->in_w + ix0 + p->dil_w * kx_lo) * p->channels;
#if DW16_FULL3
        if (hi && al && p->k_w == 1 && kx_hi - kx_lo == 1 && ky_hi > ky_lo) {
          dw16_pixel_tall(&l, &q, x, weights, ky_lo, ky_hi - ky_lo, output, hi, sat);
          continue;
        }
#endif
#if DW16_EDGE
        if (hi && sat && al && wide3 && p->k_h == 3 && l.channels >= 4 &&
            ky_hi - ky_lo >= 2 && kx_hi - kx_lo >= 2 && ky_hi - ky_lo + kx_hi - kx_lo <= 5 &&
            dw16_edge(&l, &q, x, weights + 2 * (ky_lo * 3 + kx_lo), output, ky_hi - ky_lo, kx_hi - kx_lo, hi, sat)) {
          if (l.channels & 3)
            dw16_tail_pair(&l, &q, x, weights, ky_lo * 3 + kx_lo, ky_hi - ky_lo, kx_hi - kx_lo, output, hi, sat, 1);
          continue;
        }
#endif
        dw16_pixel(&l, &q, x, weights, ky_lo * p->k_w + kx_lo, ky_hi - ky_lo, kx_hi - kx_lo, output, hi, sat, al,
                   wide3);
      }
    }
  }
}

/* Input not word aligned (an aliased view at an odd element offset), or a form whose
 * loops the module did not compile: unaligned word loads, the form read at run time,
 * the generic clamp. Exact for every layer. */
static DW16_NOINLINE void dw16_layer_any(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input,
                                         const int32_t *weights, int16_t *output) {
  dw16_layer(p, input, weights, output, p->q.hi, 0, 0, p->k_w == 3);
}

/* Word-aligned input (the planner aligns every arena tensor): one function per
 * requantisation form the module uses (exactly the compiler's mask, no forced fallback),
 * each for filters 3 taps wide (the unrolled rows) and the others. */
#define DW16_HAS(form) (((TA_S16_DSP_VARIANTS) >> (TA_S16_DSP_DW_BASE + (form))) & 1u) /* as DW16_VHAS */
#define DW16_LAYER_DEF(hi, sat)                                                                                 \
  static DW16_NOINLINE void dw16_layer_##hi##sat(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input,  \
                                                 const int32_t *weights, int16_t *output) {                    \
    if (p->k_w == 3)                                                                                            \
      dw16_layer(p, input, weights, output, hi, sat, 1, 1);                                                     \
    else                                                                                                        \
      dw16_layer(p, input, weights, output, hi, sat, 1, 0);                                                     \
  }
#if DW16_HAS(TA_S16_DSP_FORM(0, 0))
DW16_LAYER_DEF(0, 0)
#else
#define dw16_layer_00 dw16_layer_any /* not compiled */
#endif
#if DW16_HAS(TA_S16_DSP_FORM(0, 1))
DW16_LAYER_DEF(0, 1)
#else
#define dw16_layer_01 dw16_layer_any /* not compiled */
#endif
#if DW16_HAS(TA_S16_DSP_FORM(0, 2))
DW16_LAYER_DEF(0, 2)
#else
#define dw16_layer_02 dw16_layer_any /* not compiled */
#endif
#if DW16_HAS(TA_S16_DSP_FORM(1, 0))
DW16_LAYER_DEF(1, 0)
#else
#define dw16_layer_10 dw16_layer_any /* not compiled */
#endif
#if DW16_HAS(TA_S16_DSP_FORM(1, 1))
DW16_LAYER_DEF(1, 1)
#else
#define dw16_layer_11 dw16_layer_any /* not compiled */
#endif
#if DW16_HAS(TA_S16_DSP_FORM(1, 2))
DW16_LAYER_DEF(1, 2)
#else
#define dw16_layer_12 dw16_layer_any /* not compiled */
#endif
#if DW16_HAS(TA_S16_DSP_FORM(2, 0))
DW16_LAYER_DEF(2, 0)
#else
#define dw16_layer_20 dw16_layer_any /* not compiled */
#endif
#if DW16_HAS(TA_S16_DSP_FORM(2, 1))
DW16_LAYER_DEF(2, 1)
#else
#define dw16_layer_21 dw16_layer_any /* not compiled */
#endif
#if DW16_HAS(TA_S16_DSP_FORM(2, 2))
DW16_LAYER_DEF(2, 2)
#else
#define dw16_layer_22 dw16_layer_any /* not compiled */
#endif

#define DW16_LAYER_CALL(hi, sat) dw16_layer_##hi##sat(p, input, weights, output)
void ta_depthwise_conv_s16_dsp(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input, const int32_t *weights,
                               int16_t *output) {
  if (((uintptr_t)(const void *)input & 3u) != 0) {
    dw16_layer_any(p, input, weights, output);
    return;
  }
  switch (3 * p->q.hi + p->q.sat) { /* forms not compiled are dw16_layer_any */
  case 0: DW16_LAYER_CALL(0, 0); break;
  case 1: DW16_LAYER_CALL(0, 1); break;
  case 2: DW16_LAYER_CALL(0, 2); break;
  case 3: DW16_LAYER_CALL(1, 0); break;
  case 4: DW16_LAYER_CALL(1, 1); break;
  case 5: DW16_LAYER_CALL(1, 2); break;
  case 6: DW16_LAYER_CALL(2, 0); break;
  case 7: DW16_LAYER_CALL(2, 1); break;
  default: DW16_LAYER_CALL(2, 2); break;
  }
}
