/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int8 DEPTHWISE_CONV_2D for the Cortex-M DSP extension (plain C elsewhere).
 *
 * Requantisation, TFLite's MultiplyByQuantizedMultiplier done with two roundings:
 *   x' = acc << left; t = round_half_up(x' * M / 2^31); out = round_half_away(t / 2^right)
 * The compiler scaled bias and weights by 2^(left + 1), so the accumulator is 2 * x'
 * (known to fit in int32), and the first rounding is exactly the rounding high multiply
 * SMMLAR of it and M, whose accumulator operand adds 2^(right-1) + zero_point * 2^right:
 * an arithmetic shift right by `right` then gives out + zero_point, rounded half up.
 * Negative ties must round away from zero, which subtracting 1 from negative values does
 * when right > 0 (the mask is -1 then; the compiler leaves it 0 when every negative result
 * is clamped to the zero point anyway).
 *
 * Loop structure: two vertically adjacent output pixels whose windows are complete in
 * height are computed together, 4 channels at a time; when stride and dilation are equal
 * (the usual case) each input row is loaded and unpacked once for both pixels. */
#include "ta_depthwise_conv_dsp.h"

/* The channel-group bodies must inline into their callers: otherwise the accumulators
 * have their address taken and live in memory. */
#if defined(__GNUC__)
#define DSP_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define DSP_ALWAYS_INLINE inline
#endif

#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>

/* Ra + ((a * b + 2^31) >> 32) on the high word of the 64-bit sum. */
static inline int32_t dsp_mul_high_round_acc(int32_t a, int32_t b, int32_t ra) {
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(ra));
  return r;
}

static inline int32_t dsp_sat8(int32_t x) { return __ssat(x, 8); }

#else

static inline int32_t dsp_load4(const int8_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
static inline int32_t dsp_mul_high_round_acc(int32_t a, int32_t b, int32_t ra) {
  const int64_t sum = (int64_t)ra * 4294967296LL + (int64_t)a * (int64_t)b + 2147483648LL;
  return (int32_t)(sum >> 32);
}
static inline int32_t dsp_pair16(int32_t lo, int32_t hi) {
  return (int32_t)(((uint32_t)(uint16_t)(int16_t)lo) | ((uint32_t)(uint16_t)(int16_t)hi << 16));
}
static inline int32_t dsp_even16(int32_t x) { return dsp_pair16((int8_t)(x & 0xFF), (int8_t)((x >> 16) & 0xFF)); }
static inline int32_t dsp_odd16(int32_t x) { return dsp_pair16((int8_t)((x >> 8) & 0xFF), (int8_t)((x >> 24) & 0xFF)); }
static inline int32_t dsp_sat8(int32_t x) { return ta_clamp(x, -128, 127); }
static inline int32_t dsp_lo16(int32_t x) { return (int16_t)(x & 0xFFFF); }
static inline int32_t dsp_hi16(int32_t x) { return (int16_t)((x >> 16) & 0xFFFF); }
/* Wrapping int32 sums, as the DSP instructions compute them. */
#define DSP_MAC_LO(x, w, acc) ((int32_t)((uint32_t)(acc) + (uint32_t)(dsp_lo16(x) * dsp_lo16(w))))
#define DSP_MAC_HI(x, w, acc) ((int32_t)((uint32_t)(acc) + (uint32_t)(dsp_hi16(x) * dsp_hi16(w))))

#endif

/* q = {multiplier, rounding addend, right shift, negative mask, left shift + 1}; acc is
 * already scaled by 2^(left + 1). */
static DSP_ALWAYS_INLINE int32_t dsp_requant(int32_t acc, const int32_t *q, int mode, int32_t act_min,
                                             int32_t act_max) {
  int32_t addend = q[1];
  if (mode == TA_DW_DSP_NEGFIX) addend += acc >> 31; /* every mask is -1 */
  if (mode == TA_DW_DSP_CLAMP) addend += (acc >> 31) & q[3];
  int32_t v = dsp_sat8(dsp_mul_high_round_acc(acc, q[0], addend) >> q[2]);
  if (mode == TA_DW_DSP_CLAMP) {
    v = v < act_min ? act_min : v;
    v = v > act_max ? act_max : v;
  }
  return v;
}

/* Accumulators of 4 consecutive channels. */
typedef struct dsp_acc4_t {
  int32_t a0, a1, a2, a3;
} dsp_acc4_t;

#if defined(__ARM_FEATURE_DSP)
/* The loads and multiplies of the column bodies are volatile asm, kept in program order:
 * GCC 12's scheduler otherwise hoists every load of a body to its start and spills the 8
 * accumulators of a pixel pair to the stack. */
typedef struct dsp_word_t {
  int8_t b[4];
} dsp_word_t;

/* One input pixel's 4 channels as even and odd int16 pairs. */
static DSP_ALWAYS_INLINE void dsp_unpack(const int8_t *x, int32_t *even, int32_t *odd) {
  int32_t e, o;
  __asm__ volatile("ldr %1, %2\n\tsxtb16 %0, %1\n\tsxtb16 %1, %1, ror #8"
                   : "=r"(e), "=r"(o)
                   : "m"(*(const dsp_word_t *)x));
  *even = e;
  *odd = o;
}

/* acc += unpacked pixel * the tap's weight pairs at byte offset `off` (a literal) from w. */
#define DSP_TAP(acc, e, o, w, off)                                                               \
  do {                                                                                           \
    int32_t dsp_we_, dsp_wo_;                                                                    \
    __asm__ volatile("ldrd %[we], %[wo], [%[w], #" #off "]\n\t"                                  \
                     "smlabb %[a0], %[ev], %[we], %[a0]\n\t"                                     \
                     "smlatt %[a2], %[ev], %[we], %[a2]\n\t"                                     \
                     "smlabb %[a1], %[od], %[wo], %[a1]\n\t"                                     \
                     "smlatt %[a3], %[od], %[wo], %[a3]"                                         \
                     : [a0] "+r"((acc)->a0), [a1] "+r"((acc)->a1), [a2] "+r"((acc)->a2),         \
                       [a3] "+r"((acc)->a3), [we] "=&r"(dsp_we_), [wo] "=&r"(dsp_wo_)            \
                     : [ev] "r"(e), [od] "r"(o), [w] "r"(w));                                    \
  } while (0)

#else

static DSP_ALWAYS_INLINE void dsp_unpack(const int8_t *x, int32_t *even, int32_t *odd) {
  const int32_t v = dsp_load4(x);
  *even = dsp_even16(v);
  *odd = dsp_odd16(v);
}

static DSP_ALWAYS_INLINE void dsp_mac4(dsp_acc4_t *a, int32_t even, int32_t odd, int32_t w_even, int32_t w_odd) {
  a->a0 = DSP_MAC_LO(even, w_even, a->a0);
  a->a2 = DSP_MAC_HI(even, w_even, a->a2);
  a->a1 = DSP_MAC_LO(odd, w_odd, a->a1);
  a->a3 = DSP_MAC_HI(odd, w_odd, a->a3);
}
#define DSP_TAP(acc, e, o, w, off) dsp_mac4((acc), (e), (o), (w)[(off) / 4], (w)[(off) / 4 + 1])

#endif

/* One filter column (n taps, `rs` bytes apart in the input) for one pixel. */
static DSP_ALWAYS_INLINE void dsp_col1(const int8_t *x, int32_t rs, const int32_t *w, int32_t n, dsp_acc4_t *a) {
  for (int32_t i = 0; i < n; i++, x += rs, w += 2) {
    int32_t e, o;
    dsp_unpack(x, &e, &o);
    DSP_TAP(a, e, o, w, 0);
  }
}

/* One filter column for two pixels whose inputs are one tap apart (stride == dilation):
 * n + 1 input rows, each unpacked once; tap i - 1 of pixel b and tap i of pixel a. */
static DSP_ALWAYS_INLINE void dsp_col2_shared(const int8_t *x, int32_t rs, const int32_t *w, int32_t n,
                                              dsp_acc4_t *a, dsp_acc4_t *b) {
  int32_t e, o;
  dsp_unpack(x, &e, &o);
  DSP_TAP(a, e, o, w, 0);
  for (int32_t i = 1; i < n; i++, w += 2) {
    x += rs;
    dsp_unpack(x, &e, &o);
    DSP_TAP(b, e, o, w, 0);
    DSP_TAP(a, e, o, w, 8);
  }
  dsp_unpack(x + rs, &e, &o);
  DSP_TAP(b, e, o, w, 0);
}

/* dsp_col2_shared for 3 taps, unrolled. */
static DSP_ALWAYS_INLINE void dsp_col2_shared3(const int8_t *x, int32_t rs, const int32_t *w, dsp_acc4_t *a,
                                               dsp_acc4_t *b) {
  int32_t e, o;
  dsp_unpack(x, &e, &o);
  DSP_TAP(a, e, o, w, 0);
  dsp_unpack(x + rs, &e, &o);
  DSP_TAP(b, e, o, w, 0);
  DSP_TAP(a, e, o, w, 8);
  x += 2 * rs;
  dsp_unpack(x, &e, &o);
  DSP_TAP(b, e, o, w, 8);
  DSP_TAP(a, e, o, w, 16);
  dsp_unpack(x + rs, &e, &o);
  DSP_TAP(b, e, o, w, 16);
}

/* dsp_col1 for 3 taps, unrolled. */
static DSP_ALWAYS_INLINE void dsp_col1_3(const int8_t *x, int32_t rs, const int32_t *w, dsp_acc4_t *a) {
  int32_t e, o;
  dsp_unpack(x, &e, &o);
  DSP_TAP(a, e, o, w, 0);
  dsp_unpack(x + rs, &e, &o);
  DSP_TAP(a, e, o, w, 8);
  dsp_unpack(x + 2 * rs, &e, &o);
  DSP_TAP(a, e, o, w, 16);
}

/* One filter column for two pixels `d` bytes apart in the input. */
static DSP_ALWAYS_INLINE void dsp_col2_apart(const int8_t *x, int32_t d, int32_t rs, const int32_t *w, int32_t n,
                                             dsp_acc4_t *a, dsp_acc4_t *b) {
  for (int32_t i = 0; i < n; i++, x += rs, w += 2) {
    int32_t e, o;
    dsp_unpack(x, &e, &o);
    DSP_TAP(a, e, o, w, 0);
    dsp_unpack(x + d, &e, &o);
    DSP_TAP(b, e, o, w, 0);
  }
}

/* The window of one pixel (or of the upper pixel of a pair). */
typedef struct dsp_window_t {
  const int8_t *x;      /* input at the first inside tap, channel 0 */
  const int32_t *bias;  /* the border class's folded bias, channel 0 */
  int32_t w_off;        /* words from a group's weights to its first inside tap */
  int32_t first_tap;    /* ky * k_w + kx of the first inside tap (model filter) */
  int32_t n_ky, n_kx;
} dsp_window_t;

/* Layer constants the pixel bodies need. */
typedef struct dsp_layer_t {
  const int32_t *weights, *quant;
  int32_t full;         /* channels in groups of 4 */
  int32_t group_words;  /* k_h * k_w * 2 */
  int32_t col_words;    /* k_h * 2 */
  int32_t k_h;
  int32_t rs, cs;       /* input bytes between taps down and across */
  int32_t pair_step;    /* input bytes between the two pixels of a pair */
  int32_t act_min, act_max;
} dsp_layer_t;

enum { DSP_SINGLE3, DSP_SINGLE, DSP_PAIR_SHARED3, DSP_PAIR_SHARED, DSP_PAIR_APART, DSP_PAIR_3X3 };
/* Pair rows with an asm body (see dsp_asm_run). */
enum { DSP_ASM_NONE, DSP_ASM_SHARED3, DSP_ASM_STRIDE2, DSP_ASM_TALL };

static DSP_ALWAYS_INLINE void dsp_store4(int8_t *out, const dsp_acc4_t *a, const int32_t *q, int mode,
                                         const dsp_layer_t *l) {
  const int32_t r0 = dsp_requant(a->a0, q, mode, l->act_min, l->act_max);
  const int32_t r1 = dsp_requant(a->a1, q + 5, mode, l->act_min, l->act_max);
  const int32_t r2 = dsp_requant(a->a2, q + 10, mode, l->act_min, l->act_max);
  const int32_t r3 = dsp_requant(a->a3, q + 15, mode, l->act_min, l->act_max);
  out[0] = (int8_t)r0;
  out[1] = (int8_t)r1;
  out[2] = (int8_t)r2;
  out[3] = (int8_t)r3;
}

/* Both pixels of a pair; every store after every load of the constants (int8 stores may alias them). */
static DSP_ALWAYS_INLINE void dsp_store8(int8_t *out0, int8_t *out1, const dsp_acc4_t *a, const dsp_acc4_t *b,
                                         const int32_t *q, int mode, const dsp_layer_t *l) {
  const int32_t a0 = dsp_requant(a->a0, q, mode, l->act_min, l->act_max);
  const int32_t b0 = dsp_requant(b->a0, q, mode, l->act_min, l->act_max);
  const int32_t a1 = dsp_requant(a->a1, q + 5, mode, l->act_min, l->act_max);
  const int32_t b1 = dsp_requant(b->a1, q + 5, mode, l->act_min, l->act_max);
  const int32_t a2 = dsp_requant(a->a2, q + 10, mode, l->act_min, l->act_max);
  const int32_t b2 = dsp_requant(b->a2, q + 10, mode, l->act_min, l->act_max);
  const int32_t a3 = dsp_requant(a->a3, q + 15, mode, l->act_min, l->act_max);
  const int32_t b3 = dsp_requant(b->a3, q + 15, mode, l->act_min, l->act_max);
  out0[0] = (int8_t)a0;
  out0[1] = (int8_t)a1;
  out0[2] = (int8_t)a2;
  out0[3] = (int8_t)a3;
  out1[0] = (int8_t)b0;
  out1[1] = (int8_t)b1;
  out1[2] = (int8_t)b2;
  out1[3] = (int8_t)b3;
}

/* Every group of 4 channels of one pixel (kind SINGLE*) or of a pair (PAIR*). */
static DSP_ALWAYS_INLINE void dsp_groups(const dsp_layer_t *l, const dsp_window_t *win, int8_t *out0, int8_t *out1,
                                         int mode, int kind) {
  const int three = kind == DSP_SINGLE3 || kind == DSP_PAIR_SHARED3 || kind == DSP_PAIR_3X3;
  const int32_t full = l->full, n_kx = win->n_kx, rs = l->rs, cs = l->cs;
  /* SINGLE3 may be a clipped window of a taller filter: only PAIR_SHARED3 knows k_h == 3. */
  const int32_t col_words = kind == DSP_PAIR_SHARED3 || kind == DSP_PAIR_3X3 ? 6 : l->col_words;
  const int32_t n_ky = three ? 3 : win->n_ky;
  const int32_t *w_group = l->weights + win->w_off;
  const int32_t *q = l->quant;
  for (int32_t c = 0; c < full; c += 4, w_group += l->group_words, q += 20) {
    const int8_t *x = win->x + c;
    const int32_t *w = w_group;
    const int32_t *bias = win->bias + c;
    dsp_acc4_t a = {bias[0], bias[1], bias[2], bias[3]};
    const int32_t *w_end = w + n_kx * col_words;
    if (kind == DSP_SINGLE3 || kind == DSP_SINGLE) {
      for (; w != w_end; x += cs, w += col_words) {
        if (kind == DSP_SINGLE3)
          dsp_col1_3(x, rs, w, &a);
        else
          dsp_col1(x, rs, w, n_ky, &a);
      }
      dsp_store4(out0 + c, &a, q, mode, l);
    } else {
      dsp_acc4_t b = a;
      if (kind == DSP_PAIR_3X3) { /* the complete 3x3 window, unrolled */
        dsp_col2_shared3(x, rs, w, &a, &b);
        dsp_col2_shared3(x + cs, rs, w + 6, &a, &b);
        dsp_col2_shared3(x + 2 * cs, rs, w + 12, &a, &b);
      }
      for (; kind != DSP_PAIR_3X3 && w != w_end; x += cs, w += col_words) {
        if (kind == DSP_PAIR_APART)
          dsp_col2_apart(x, l->pair_step, rs, w, n_ky, &a, &b);
        else if (kind == DSP_PAIR_SHARED3 || kind == DSP_PAIR_3X3)
          dsp_col2_shared3(x, rs, w, &a, &b);
        else
          dsp_col2_shared(x, rs, w, n_ky, &a, &b);
      }
      dsp_store8(out0 + c, out1 + c, &a, &b, q, mode, l);
    }
  }
}

#define DSP_HAS(mode) ((TA_DEPTHWISE_CONV_DSP_VARIANTS >> (mode)) & 1u)

/* One instantiation per requantisation mode; `kind` picks the loop body. */
#define DSP_PIXELS(name, mode)                                                                                \
  static void name(const dsp_layer_t *l, const dsp_window_t *win, int8_t *out0, int8_t *out1, int kind) {     \
    switch (kind) {                                                                                           \
      case DSP_SINGLE3: dsp_groups(l, win, out0, out1, mode, DSP_SINGLE3); break;                             \
      case DSP_SINGLE: dsp_groups(l, win, out0, out1, mode, DSP_SINGLE); break;                               \
      case DSP_PAIR_SHARED3: dsp_groups(l, win, out0, out1, mode, DSP_PAIR_SHARED3); break;                   \
      case DSP_PAIR_SHARED: dsp_groups(l, win, out0, out1, mode, DSP_PAIR_SHARED); break;                     \
      case DSP_PAIR_APART: dsp_groups(l, win, out0, out1, mode, DSP_PAIR_APART); break;                       \
      default: dsp_groups(l, win, out0, out1, mode, DSP_PAIR_3X3); break;                                     \
    }                                                                                                         \
  }
DSP_PIXELS(dsp_pixels_simple, TA_DW_DSP_SIMPLE)
DSP_PIXELS(dsp_pixels_negfix, TA_DW_DSP_NEGFIX)
DSP_PIXELS(dsp_pixels_clamp, TA_DW_DSP_CLAMP)

/* The asm pair body needs 14 free registers: GCC gives them when optimising without a
 * frame pointer (r7; see TA_NO_WIDE_ASM in ta_common.h; clang 14 fails to allocate them):
 * elsewhere the C bodies run. */
#if defined(__ARM_FEATURE_DSP) && defined(__OPTIMIZE__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(TA_NO_WIDE_ASM)
#define DSP_PAIR3_IN_ASM 1
#else
#define DSP_PAIR3_IN_ASM 0
#endif

#if DSP_PAIR3_IN_ASM
/* Pairs of a 3-tap-high filter (stride == dilation), modes SIMPLE and NEGFIX: the whole
 * group of 4 channels is one asm block, because its 8 accumulators, 4 temporaries and 2
 * pointers take all 14 allocatable registers (GCC spills here). Per filter column: rows
 * 0..3 of the column loaded and unpacked once; row r feeds tap r of the upper pixel (a)
 * and tap r - 1 of the lower one (b). The input row step and the step to the next
 * column come from memory operands. Requantisation reuses the pointer and temporary
 * registers: x = quant, e / o = the two output pointers, we = multiplier, wo = addend,
 * w = mask or right shift. */
/* Operand numbers (positional: named operands make strings longer than C99's 4095). */
#define DSP_A0 "%0"
#define DSP_A1 "%1"
#define DSP_A2 "%2"
#define DSP_A3 "%3"
#define DSP_B0 "%4"
#define DSP_B1 "%5"
#define DSP_B2 "%6"
#define DSP_B3 "%7"
#define DSP_E "%8"
#define DSP_O "%9"
#define DSP_WE "%10"
#define DSP_WO "%11"
#define DSP_X "%12"
#define DSP_WP "%13"
#define DSP_RS "%14"
#define DSP_CSTEP "%15"
#define DSP_BIAS "%16"
#define DSP_Q "%17"
#define DSP_OUT0 "%18"
#define DSP_OUT1 "%19"
#define DSP_MAC4(a0, a1, a2, a3)                                                                        \
  "smlabb " a0 "," DSP_E "," DSP_WE "," a0 "\nsmlatt " a2 "," DSP_E "," DSP_WE "," a2 "\n"              \
  "smlabb " a1 "," DSP_O "," DSP_WO "," a1 "\nsmlatt " a3 "," DSP_O "," DSP_WO "," a3 "\n"
#define DSP_A_MAC DSP_MAC4(DSP_A0, DSP_A1, DSP_A2, DSP_A3)
#define DSP_B_MAC DSP_MAC4(DSP_B0, DSP_B1, DSP_B2, DSP_B3)
#define DSP_UNPACK_O "sxtb16 " DSP_E "," DSP_O "\nsxtb16 " DSP_O "," DSP_O ",ror #8\n"
#define DSP_W(off) "ldrd " DSP_WE "," DSP_WO ",[" DSP_WP ",#" #off "]\n"
#define DSP_ROW0 "ldr " DSP_O ",[" DSP_X "]\n"
#define DSP_ROW_NEXT "ldr " DSP_WE "," DSP_RS "\nldr " DSP_O ",[" DSP_X "," DSP_WE "]\n"
#define DSP_COLUMN(w0, w1, w2)                                                                          \
  DSP_ROW0 DSP_UNPACK_O DSP_W(w0) DSP_A_MAC                                                             \
  DSP_ROW_NEXT "add " DSP_X "," DSP_X "," DSP_WE ",lsl #1\n" DSP_UNPACK_O DSP_W(w0) DSP_B_MAC DSP_W(w1) \
  DSP_A_MAC DSP_ROW0 DSP_UNPACK_O DSP_W(w1) DSP_B_MAC DSP_W(w2) DSP_A_MAC                               \
  DSP_ROW_NEXT DSP_UNPACK_O DSP_W(w2) DSP_B_MAC
#define DSP_NEXT_COLUMN "ldr " DSP_WE "," DSP_CSTEP "\nadd " DSP_X "," DSP_X "," DSP_WE "\n"
#define DSP_BIAS_INIT                                                                                   \
  "ldr " DSP_WE "," DSP_BIAS "\nldrd " DSP_A0 "," DSP_A1 ",[" DSP_WE "]\nldrd " DSP_A2 "," DSP_A3 ",["  \
  DSP_WE ",#8]\nldrd " DSP_B0 "," DSP_B1 ",[" DSP_WE "]\nldrd " DSP_B2 "," DSP_B3 ",[" DSP_WE ",#8]\n"
/* %19 holds the second pixel's output offset from the first's. */
#define DSP_RQ_LOAD                                                                                     \
  "ldr " DSP_X "," DSP_Q "\nldr " DSP_E "," DSP_OUT0 "\nldr " DSP_O "," DSP_OUT1 "\nadd " DSP_O "," DSP_O "," DSP_E "\n"
#define DSP_RQ_TAIL(a, b, i, right)                                                                     \
  "ldr " DSP_WP ",[" DSP_X ",#" #right "]\nasr " a "," a "," DSP_WP "\nasr " b "," b "," DSP_WP "\n"    \
  "ssat " a ",#8," a "\nssat " b ",#8," b "\nstrb " a ",[" DSP_E ",#" #i "]\nstrb " b ",[" DSP_O ",#" #i "]\n"
#define DSP_RQ_SIMPLE(a, b, i, mult, right)                                                             \
  "ldrd " DSP_WE "," DSP_WO ",[" DSP_X ",#" #mult "]\nsmmlar " a "," a "," DSP_WE "," DSP_WO "\n"       \
  "smmlar " b "," b "," DSP_WE "," DSP_WO "\n" DSP_RQ_TAIL(a, b, i, right)
/* NEGFIX: every channel's mask is -1 (the compiler's mode choice), so the addend is
 * addend + (acc >> 31). */
#define DSP_RQ_FIX(acc)                                                                                 \
  "add " DSP_WP "," DSP_WO "," acc ",asr #31\nsmmlar " acc "," acc "," DSP_WE "," DSP_WP "\n"
#define DSP_RQ_NEGFIX(a, b, i, mult, right)                                                             \
  "ldrd " DSP_WE "," DSP_WO ",[" DSP_X ",#" #mult "]\n" DSP_RQ_FIX(a) DSP_RQ_FIX(b)                     \
  DSP_RQ_TAIL(a, b, i, right)
#define DSP_REQUANT_SIMPLE                                                                              \
  DSP_RQ_LOAD DSP_RQ_SIMPLE(DSP_A0, DSP_B0, 0, 0, 8) DSP_RQ_SIMPLE(DSP_A1, DSP_B1, 1, 20, 28)           \
  DSP_RQ_SIMPLE(DSP_A2, DSP_B2, 2, 40, 48) DSP_RQ_SIMPLE(DSP_A3, DSP_B3, 3, 60, 68)
#define DSP_REQUANT_NEGFIX                                                                              \
  DSP_RQ_LOAD DSP_RQ_NEGFIX(DSP_A0, DSP_B0, 0, 0, 8) DSP_RQ_NEGFIX(DSP_A1, DSP_B1, 1, 20, 28)           \
  DSP_RQ_NEGFIX(DSP_A2, DSP_B2, 2, 40, 48) DSP_RQ_NEGFIX(DSP_A3, DSP_B3, 3, 60, 68)
#define DSP_COLUMNS_1 DSP_COLUMN(0, 8, 16)
#define DSP_COLUMNS_2 DSP_COLUMN(0, 8, 16) DSP_NEXT_COLUMN DSP_COLUMN(24, 32, 40)
#define DSP_COLUMNS_3 DSP_COLUMNS_2 DSP_NEXT_COLUMN DSP_COLUMN(48, 56, 64)

/* A filter column of any height n >= 2 (one column: k_w == 1): rows 1 .. n-1 two per
 * loop pass (one end test per two rows), which ends when w reaches the last tap's weights
 * (%15 holds that address); an odd n - 1 enters at the second row of the pass, with x one
 * row and w one tap back. */
#define DSP_TALL_COLUMN                                                                                 \
  DSP_ROW0 DSP_UNPACK_O DSP_W(0) DSP_A_MAC                                                              \
  "ldr " DSP_WE "," DSP_CSTEP "\nsub " DSP_WE "," DSP_WE "," DSP_WP "\ntst " DSP_WE ",#8\nbeq 1f\n"     \
  "ldr " DSP_WE "," DSP_RS "\nsub " DSP_X "," DSP_X "," DSP_WE "\nsub " DSP_WP "," DSP_WP ",#8\nb 2f\n"  \
  "1:\n" DSP_ROW_NEXT DSP_UNPACK_O DSP_W(0) DSP_B_MAC DSP_W(8) DSP_A_MAC                                \
  "2:\nldr " DSP_WE "," DSP_RS "\nadd " DSP_X "," DSP_X "," DSP_WE ",lsl #1\nldr " DSP_O ",[" DSP_X "]\n" \
  DSP_UNPACK_O DSP_W(8) DSP_B_MAC "ldrd " DSP_WE "," DSP_WO ",[" DSP_WP ",#16]!\n" DSP_A_MAC             \
  "ldr " DSP_WE "," DSP_CSTEP "\ncmp " DSP_WP "," DSP_WE "\nbne 1b\n"                                   \
  DSP_ROW_NEXT DSP_UNPACK_O DSP_W(0) DSP_B_MAC

#define DSP_PAIR3_ASM(text, op15)                                                                       \
  __asm__ volatile(text                                                                                 \
                   : "=&r"(a0), "=&r"(a1), "=&r"(a2), "=&r"(a3), "=&r"(b0), "=&r"(b1), "=&r"(b2),       \
                     "=&r"(b3), "=&r"(e), "=&r"(o), "=&r"(we), "=&r"(wo), "+r"(x), "+r"(w)              \
                   : "m"(rs), "m"(op15), "m"(bias), "m"(q), "m"(o0), "m"(o_gap)                         \
                   : "memory", "cc")

/* Every group of 4 channels of a pair whose filter is 3 taps high, n_kx (1..3) columns. */
/* Stride 2 (dilation 1): rows 0..4 of the column; row 2 is tap 2 of a and tap 0 of b. */
#define DSP_COLUMN_S2(w0, w1, w2)                                                                       \
  DSP_ROW0 DSP_UNPACK_O DSP_W(w0) DSP_A_MAC                                                             \
  DSP_ROW_NEXT "add " DSP_X "," DSP_X "," DSP_WE ",lsl #1\n" DSP_UNPACK_O DSP_W(w1) DSP_A_MAC            \
  DSP_ROW0 DSP_UNPACK_O DSP_W(w2) DSP_A_MAC DSP_W(w0) DSP_B_MAC                                         \
  DSP_ROW_NEXT "add " DSP_X "," DSP_X "," DSP_WE ",lsl #1\n" DSP_UNPACK_O DSP_W(w1) DSP_B_MAC            \
  DSP_ROW0 DSP_UNPACK_O DSP_W(w2) DSP_B_MAC
#define DSP_COLUMNS_S2_1 DSP_COLUMN_S2(0, 8, 16)
#define DSP_COLUMNS_S2_2 DSP_COLUMN_S2(0, 8, 16) DSP_NEXT_COLUMN DSP_COLUMN_S2(24, 32, 40)
#define DSP_COLUMNS_S2_3 DSP_COLUMNS_S2_2 DSP_NEXT_COLUMN DSP_COLUMN_S2(48, 56, 64)

/* A run of `count` pixel pairs of one column class, `x_step` input and `out_step` output
 * bytes apart: per group of 4 channels (weights, bias and quant fixed), every pair of the
 * run. `asm_kind`: DSP_ASM_SHARED3 (3 taps high, stride == dilation, 1..3 columns),
 * DSP_ASM_STRIDE2 (3 taps high, stride 2, dilation 1, SIMPLE) or DSP_ASM_TALL (k_w == 1). */
#define DSP_RUN_LOOP(text, op15)                                                                        \
  for (int32_t c = 0; c < full; c += 4, w_group += group_words) {                                      \
    const int32_t *bias = win->bias + c;                                                                \
    const int32_t *q = l->quant + 5 * c;                                                                \
    const int8_t *xp = win->x + c;                                                                      \
    const int8_t *const x_end = xp + count * x_step;                                                    \
    int8_t *o0 = out0 + c;                                                                              \
    w_end = w_group + last;                                                                             \
    for (; xp != x_end; xp += x_step, o0 += out_step) { /* the end pointer: no count kept */            \
      const int8_t *x = xp;                                                                             \
      const int32_t *w = w_group;                                                                       \
      int32_t a0, a1, a2, a3, b0, b1, b2, b3, e, o, we, wo;                                             \
      DSP_PAIR3_ASM(text, op15);                                                                        \
      (void)a0, (void)a1, (void)a2, (void)a3, (void)b0, (void)b1, (void)b2, (void)b3;                   \
      (void)e, (void)o, (void)we, (void)wo;                                                             \
    }                                                                                                   \
  }

/* Not inlined: its loops then keep their own state in registers. */
static __attribute__((noinline)) void dsp_asm_run(const dsp_layer_t *l, const dsp_window_t *win, int32_t count, int32_t x_step,
                        int32_t out_step, int8_t *out0, int8_t *out1, int mode, int asm_kind) {
  const int32_t rs = l->rs, cstep = l->cs - (asm_kind == DSP_ASM_STRIDE2 ? 4 : 2) * l->rs, full = l->full;
  const int32_t group_words = l->group_words, last = (l->k_h - 1) * 2;
  const int32_t *w_group = l->weights + win->w_off;
  const int32_t *w_end;
  const int32_t o_gap = (int32_t)(out1 - out0);
  const int negfix = mode == TA_DW_DSP_NEGFIX;
  const int variant = asm_kind == DSP_ASM_TALL ? 9 + negfix
                                               : (asm_kind == DSP_ASM_STRIDE2 ? 6 : 3 * negfix) + win->n_kx - 1;
  switch (variant) {
    case 0: if (DSP_HAS(TA_DW_DSP_SIMPLE)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_1 DSP_REQUANT_SIMPLE, cstep); break;
    case 1: if (DSP_HAS(TA_DW_DSP_SIMPLE)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_2 DSP_REQUANT_SIMPLE, cstep); break;
    case 2: if (DSP_HAS(TA_DW_DSP_SIMPLE)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_3 DSP_REQUANT_SIMPLE, cstep); break;
    case 3: if (DSP_HAS(TA_DW_DSP_NEGFIX)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_1 DSP_REQUANT_NEGFIX, cstep); break;
    case 4: if (DSP_HAS(TA_DW_DSP_NEGFIX)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_2 DSP_REQUANT_NEGFIX, cstep); break;
    case 5: if (DSP_HAS(TA_DW_DSP_NEGFIX)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_3 DSP_REQUANT_NEGFIX, cstep); break;
    case 6: if (DSP_HAS(TA_DW_DSP_SIMPLE)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_S2_1 DSP_REQUANT_SIMPLE, cstep); break;
    case 7: if (DSP_HAS(TA_DW_DSP_SIMPLE)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_S2_2 DSP_REQUANT_SIMPLE, cstep); break;
    case 8: if (DSP_HAS(TA_DW_DSP_SIMPLE)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_COLUMNS_S2_3 DSP_REQUANT_SIMPLE, cstep); break;
    case 9: if (DSP_HAS(TA_DW_DSP_SIMPLE)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_TALL_COLUMN DSP_REQUANT_SIMPLE, w_end); break;
    default: if (DSP_HAS(TA_DW_DSP_NEGFIX)) DSP_RUN_LOOP(DSP_BIAS_INIT DSP_TALL_COLUMN DSP_REQUANT_NEGFIX, w_end); break;
  }
}
#endif

/* One channel past the last group of 4, from the model's filter [k_h][k_w][channels]. */
static void dsp_single(const ta_depthwise_conv_dsp_params_t *p, const dsp_layer_t *l, const dsp_window_t *win,
                       const int8_t *filter, int32_t c, int8_t *out) {
  int32_t sum = 0;
  const int8_t *x = win->x + c;
  const int8_t *w = filter + win->first_tap * p->channels + c;
  for (int32_t i = 0; i < win->n_ky; i++)
    for (int32_t j = 0; j < win->n_kx; j++)
      sum += (int32_t)x[i * l->rs + j * l->cs] * (int32_t)w[(i * p->k_w + j) * p->channels];
  const int32_t *q = p->quant + c * 5;
  const int32_t acc = (int32_t)((uint32_t)win->bias[c] + ((uint32_t)sum << q[4]));
  out[c] = (int8_t)dsp_requant(acc, q, TA_DW_DSP_CLAMP, p->act_min, p->act_max);
}

/* The window of output pixel (oy, ox) whose row has taps `row` (lo, hi, class). */
static void dsp_window(const ta_depthwise_conv_dsp_params_t *p, const int8_t *image, const int16_t *row, int32_t oy,
                       int32_t ox, dsp_window_t *win) {
  const int32_t ch = p->channels;
  const int16_t *col = p->cols + 3 * ox;
  const int32_t iy = oy * p->stride_h - p->pad_h + row[0] * p->dil_h;
  const int32_t ix = ox * p->stride_w - p->pad_w + col[0] * p->dil_w;
  win->x = image + (iy * p->in_w + ix) * ch;
  win->bias = p->bias + (row[2] * p->col_classes + col[2]) * ch;
  win->first_tap = row[0] * p->k_w + col[0];
  win->w_off = (col[0] * p->k_h + row[0]) * 2;
  win->n_ky = row[1] - row[0];
  win->n_kx = col[1] - col[0];
}

/* Channels past the last group of 4 of one pixel (and of the pixel below it, `pair`). */
static void dsp_tails(const ta_depthwise_conv_dsp_params_t *p, const dsp_layer_t *l, const dsp_window_t *win,
                      const int8_t *filter, int8_t *out, int8_t *out_below, int pair) {
  dsp_window_t below = *win;
  below.x += l->pair_step;
  for (int32_t c = l->full; c < p->channels; c++) {
    dsp_single(p, l, win, filter, c, out);
    if (pair) dsp_single(p, l, &below, filter, c, out_below);
  }
}

/* ---- Row-pair form (p->form == TA_DW_DSP_ROWPAIR): 3x3, stride 1 and dilation 1 both
 * ways, channels a multiple of 4. Per group of 4 channels, two input rows at a time are
 * widened once into scratch as int16 pairs (row r, row r + 1) per channel and column, the
 * padding as the input zero point: a padded tap then adds zp * w, which the one bias per
 * channel (bias - zp * the sum of all 9 taps) cancels, so every pixel has the same bias and
 * a row is one run of columns. Output rows 2j and 2j + 1 read rows t .. t + 3
 * (t = 2j - pad): the pairs A = (t, t+1) and B = (t+2, t+3), in two scratch slots used in
 * turn. Per channel and filter column, with the weights re-laid as WA = (w0, w1) and
 * WB = (w1, w2):
 *   upper += A . WA (SMLAD) + B.lo * WB.hi (SMLABT)
 *   lower += A.hi * WA.lo (SMLATB) + B . WB (SMLAD)
 * i.e. 6 multiplies in 4 instructions and two LDRDs. */
#define RP_COL_WORDS 8 /* one scratch column: 4 channels x 2 slots */

#if defined(__ARM_FEATURE_DSP)
/* Rows r (v0) and r + 1 (v1) of 4 channels into slot words s[0], s[2], s[4], s[6]. */
static DSP_ALWAYS_INLINE void rp_widen(int32_t v0, int32_t v1, int32_t *s) {
  int32_t lo, hi, c0, c1, c2, c3;
  __asm__("pkhbt %0, %2, %3, lsl #16\n\tpkhtb %1, %3, %2, asr #16" : "=&r"(lo), "=&r"(hi) : "r"(v0), "r"(v1));
  __asm__("sxtb16 %0, %1" : "=r"(c0) : "r"(lo));
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(c1) : "r"(lo));
  __asm__("sxtb16 %0, %1" : "=r"(c2) : "r"(hi));
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(c3) : "r"(hi));
  s[0] = c0;
  s[2] = c1;
  s[4] = c2;
  s[6] = c3;
}

/* One channel, one filter column: scratch words at byte `off` from s (slot 0, slot 1),
 * weights WA, WB at the same offset from w. `odd`: A is slot 1. */
#define RP_TAP_TEXT(load, off)                                                   \
  load ", [%[s], #" #off "]\n\t"                                                 \
  "ldrd %[wa], %[wb], [%[w], #" #off "]\n\t"                                     \
  "smlad %[a], %[xa], %[wa], %[a]\n\t"                                           \
  "smlabt %[a], %[xb], %[wb], %[a]\n\t"                                          \
  "smlatb %[b], %[xa], %[wa], %[b]\n\t"                                          \
  "smlad %[b], %[xb], %[wb], %[b]"
#define RP_TAP(acc_a, acc_b, s, w, off, odd)                                                                         \
  do {                                                                                                       \
    int32_t rp_xa_, rp_xb_, rp_wa_, rp_wb_;                                                                  \
    if (odd)                                                                                                 \
      __asm__ volatile(RP_TAP_TEXT("ldrd %[xb], %[xa]", off)                                                 \
                       : [a] "+r"(acc_a), [b] "+r"(acc_b), [xa] "=&r"(rp_xa_), [xb] "=&r"(rp_xb_), [wa] "=&r"(rp_wa_), \
                         [wb] "=&r"(rp_wb_)                                                                  \
                       : [s] "r"(s), [w] "r"(w));                                                            \
    else                                                                                                     \
      __asm__ volatile(RP_TAP_TEXT("ldrd %[xa], %[xb]", off)                                                 \
                       : [a] "+r"(acc_a), [b] "+r"(acc_b), [xa] "=&r"(rp_xa_), [xb] "=&r"(rp_xb_), [wa] "=&r"(rp_wa_), \
                         [wb] "=&r"(rp_wb_)                                                                  \
                       : [s] "r"(s), [w] "r"(w));                                                            \
  } while (0)
/* The taps read the scratch the widening wrote: keep every access in program order. */
#define RP_BARRIER() __asm__ volatile("" ::: "memory")

#else

static DSP_ALWAYS_INLINE void rp_widen(int32_t v0, int32_t v1, int32_t *s) {
  for (int c = 0; c < 4; c++) s[2 * c] = dsp_pair16((int8_t)((v0 >> (8 * c)) & 0xFF), (int8_t)((v1 >> (8 * c)) & 0xFF));
}

static DSP_ALWAYS_INLINE void rp_tap(int32_t *a, int32_t *b, const int32_t *s, const int32_t *w, int odd) {
  const int32_t xa = s[odd], xb = s[1 - odd], wa = w[0], wb = w[1];
  *a = DSP_MAC_LO(xa, wa, *a);
  *a = DSP_MAC_HI(xa, wa, *a);
  *a = (int32_t)((uint32_t)*a + (uint32_t)(dsp_lo16(xb) * dsp_hi16(wb)));
  *b = (int32_t)((uint32_t)*b + (uint32_t)(dsp_hi16(xa) * dsp_lo16(wa)));
  *b = DSP_MAC_LO(xb, wb, *b);
  *b = DSP_MAC_HI(xb, wb, *b);
}
#define RP_TAP(a, b, s, w, off, odd) rp_tap(&(a), &(b), (s) + (off) / 4, (w) + (off) / 4, (odd))
#define RP_BARRIER() ((void)0)

#endif

#if defined(__ARM_FEATURE_DSP)
/* Rows r (x0) and r + 1 (x0 + dx) of 4 channels, both inside the image, into the slot
 * words from s to end (a multiple of RP_COL_WORDS apart): one asm loop, row r + 1 at a
 * register offset from row r, the first store post-incremented: 15 instructions a
 * column (GCC's loop: 17). */
static DSP_ALWAYS_INLINE void rp_widen_inside(const int8_t *x0, int32_t dx, int32_t ch, int32_t *s, const int32_t *end) {
  int32_t v0, v1, lo16, hi16;
  __asm__ volatile("1:\n\tldr %[v1], [%[x0], %[dx]]\n\tldr %[v0], [%[x0]]\n\tadd %[x0], %[x0], %[ch]\n\t"
                   "pkhbt %[lo], %[v0], %[v1], lsl #16\n\tpkhtb %[hi], %[v1], %[v0], asr #16\n\t"
                   "sxtb16 %[v0], %[lo]\n\tsxtb16 %[lo], %[lo], ror #8\n\t"
                   "sxtb16 %[v1], %[hi]\n\tsxtb16 %[hi], %[hi], ror #8\n\t"
                   "str %[v0], [%[s]], #32\n\tstr %[lo], [%[s], #-24]\n\tstr %[v1], [%[s], #-16]\n\t"
                   "str %[hi], [%[s], #-8]\n\tcmp %[s], %[end]\n\tbne 1b"
                   : [v0] "=&r"(v0), [v1] "=&r"(v1), [lo] "=&r"(lo16), [hi] "=&r"(hi16), [x0] "+r"(x0), [s] "+r"(s)
                   : [ch] "r"(ch), [dx] "r"(dx), [end] "r"(end)
                   : "memory", "cc");
}
#endif

/* The input zero point in each byte: a row outside the image. */
static inline int32_t rp_pad4(const ta_depthwise_conv_dsp_params_t *p) {
  return (int32_t)((uint32_t)(uint8_t)p->zero_point * 0x01010101u);
}

/* Rows r and r + 1 of channels c0 .. c0 + 3 into `slot` of the inside columns [lo, hi)
 * (rows outside the image as the zero point; the columns outside it were set once by
 * rp_pad). */
static DSP_ALWAYS_INLINE void rp_widen_rows(const ta_depthwise_conv_dsp_params_t *p, const int8_t *image, int32_t r,
                                            int32_t lo, int32_t hi, int32_t slot, int32_t *s) {
  const int32_t ch = p->channels, in_w = p->in_w, pad4 = rp_pad4(p);
  const int in0 = r >= 0 && r < p->in_h, in1 = r + 1 >= 0 && r + 1 < p->in_h;
  if (lo >= hi) return;
  const int8_t *x0 = image + ((in0 ? r : 0) * in_w + lo - p->pad_w) * ch;
  const int8_t *x1 = image + ((in1 ? r + 1 : 0) * in_w + lo - p->pad_w) * ch;
  int32_t *end = s + hi * RP_COL_WORDS + slot;
  s += lo * RP_COL_WORDS + slot;
  if (in0 && in1) {
#if defined(__ARM_FEATURE_DSP)
    rp_widen_inside(x0, x1 - x0, ch, s, end);
#else
    for (; s != end; s += RP_COL_WORDS, x0 += ch, x1 += ch) {
      int32_t v0, v1;
      memcpy(&v0, x0, sizeof v0);
      memcpy(&v1, x1, sizeof v1);
      rp_widen(v0, v1, s);
    }
#endif
  } else {
    for (; s != end; s += RP_COL_WORDS, x0 += ch, x1 += ch) {
      int32_t v0 = pad4, v1 = pad4;
      if (in0) memcpy(&v0, x0, sizeof v0);
      if (in1) memcpy(&v1, x1, sizeof v1);
      rp_widen(v0, v1, s);
    }
  }
  RP_BARRIER();
}

/* Both slots of the columns outside the image: (zp, zp) pairs for the whole layer. */
static void rp_pad(const ta_depthwise_conv_dsp_params_t *p, int32_t *s, int32_t lo, int32_t hi, int32_t sw) {
  const int32_t pair = (int32_t)((uint32_t)(uint16_t)(int16_t)p->zero_point * 0x00010001u);
  for (int32_t ix = 0; ix < sw; ix++)
    if (ix < lo || ix >= hi)
      for (int32_t k = 0; k < RP_COL_WORDS; k++) s[ix * RP_COL_WORDS + k] = pair;
  RP_BARRIER();
}

/* Output rows 2j (out_a) and 2j + 1 (out_b, NULL past the last row) of one group. */
static DSP_ALWAYS_INLINE void rp_rows(const ta_depthwise_conv_dsp_params_t *p, const int32_t *scratch,
                                      const int32_t *w_group, const int32_t *bias, const int32_t *q, int8_t *out_a,
                                      int8_t *out_b, int odd, int mode) {
  const int32_t ch = p->channels, k_w = p->k_w, s_step = p->stride_w * RP_COL_WORDS;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t *s_col = scratch;
  for (int32_t ox = 0; ox < p->out_w; ox++, s_col += s_step, out_a += ch, out_b += out_b ? ch : 0) {
    for (int32_t h = 0; h < 4; h += 2) {
      const int32_t *s = s_col + 2 * h, *w = w_group + 2 * h;
      int32_t a0 = bias[h], a1 = bias[h + 1];
      int32_t b0 = a0, b1 = a1;
      if (k_w == 3) {
        RP_TAP(a0, b0, s, w, 0, odd);
        RP_TAP(a1, b1, s, w, 8, odd);
        RP_TAP(a0, b0, s, w, 32, odd);
        RP_TAP(a1, b1, s, w, 40, odd);
        RP_TAP(a0, b0, s, w, 64, odd);
        RP_TAP(a1, b1, s, w, 72, odd);
      } else {
        for (int32_t kx = 0; kx < k_w; kx++, s += RP_COL_WORDS, w += RP_COL_WORDS) {
          RP_TAP(a0, b0, s, w, 0, odd);
          RP_TAP(a1, b1, s, w, 8, odd);
        }
      }
      const int32_t ra0 = dsp_requant(a0, q + 5 * h, mode, act_min, act_max);
      const int32_t ra1 = dsp_requant(a1, q + 5 * h + 5, mode, act_min, act_max);
      const int32_t rb0 = dsp_requant(b0, q + 5 * h, mode, act_min, act_max);
      const int32_t rb1 = dsp_requant(b1, q + 5 * h + 5, mode, act_min, act_max);
      out_a[h] = (int8_t)ra0;
      out_a[h + 1] = (int8_t)ra1;
      if (out_b) {
        out_b[h] = (int8_t)rb0;
        out_b[h + 1] = (int8_t)rb1;
      }
    }
  }
}

#if DSP_PAIR3_IN_ASM
/* The row-pair body of a 3-column filter as one asm block per pixel pair and group of 4
 * channels (8 accumulators, 4 temporaries, 2 pointers: all 14 registers), the
 * requantisation of the classic pair body after it. E / O = the A / B scratch words,
 * WE / WO = the weights WA / WB. %14 = the lower pixel's bias (%16 the upper's). */
#define RP_LOAD_EVEN "ldrd " DSP_E "," DSP_O
#define RP_LOAD_ODD "ldrd " DSP_O "," DSP_E
#define RP_ATAP(load, a, b, off)                                                                        \
  load ",[" DSP_X ",#" off "]\nldrd " DSP_WE "," DSP_WO ",[" DSP_WP ",#" off "]\n"                      \
  "smlad " a "," DSP_E "," DSP_WE "," a "\nsmlabt " a "," DSP_O "," DSP_WO "," a "\n"                   \
  "smlatb " b "," DSP_E "," DSP_WE "," b "\nsmlad " b "," DSP_O "," DSP_WO "," b "\n"
#define RP_ACOLUMN(load, o0, o1, o2, o3)                                                                \
  RP_ATAP(load, DSP_A0, DSP_B0, o0) RP_ATAP(load, DSP_A1, DSP_B1, o1) RP_ATAP(load, DSP_A2, DSP_B2, o2) \
  RP_ATAP(load, DSP_A3, DSP_B3, o3)
#define RP_AWINDOW(load)                                                                                \
  RP_ACOLUMN(load, "0", "8", "16", "24") RP_ACOLUMN(load, "32", "40", "48", "56")                       \
  RP_ACOLUMN(load, "64", "72", "80", "88")
/* A row of pixel pairs inside one asm loop: the scratch pointer X stays in its register
 * for the row; the output pointer, its step and end, the weights, bias and quant pointers
 * live in `f` (memory operands), the other 13 registers hold the pair's sums and temporaries. */
typedef struct rp_frame_t {
  const int32_t *x, *w, *bias, *q;
  int8_t *o0, *o_end;
  int32_t o_step, o1_off;
} rp_frame_t;
/* The frame's operands in RP_ASM. */
#define RP_F_O0 "%14"
#define RP_F_X "%15"
#define RP_F_W "%16"
#define RP_F_BIAS "%17"
#define RP_F_Q "%18"
#define RP_F_OSTEP "%19"
#define RP_F_O1 "%20"
#define RP_F_OEND "%21"
/* Requantisation with WP = the quant records: WO takes the addend, then the right shift;
 * NEGFIX's corrected addend goes to E (free after the window, before the stores). */
#define RP_RQ_TAIL(a, b, right)                                                                         \
  "ldr " DSP_WO ",[" DSP_WP ",#" #right "]\nasr " a "," a "," DSP_WO "\nasr " b "," b "," DSP_WO "\n"   \
  "ssat " a ",#8," a "\nssat " b ",#8," b "\n"
#define RP_RQ_SIMPLE(a, b, mult, right)                                                                 \
  "ldrd " DSP_WE "," DSP_WO ",[" DSP_WP ",#" #mult "]\nsmmlar " a "," a "," DSP_WE "," DSP_WO "\n"      \
  "smmlar " b "," b "," DSP_WE "," DSP_WO "\n" RP_RQ_TAIL(a, b, right)
#define RP_RQ_FIX(acc)                                                                                  \
  "add " DSP_E "," DSP_WO "," acc ",asr #31\nsmmlar " acc "," acc "," DSP_WE "," DSP_E "\n"
#define RP_RQ_NEGFIX(a, b, mult, right)                                                                 \
  "ldrd " DSP_WE "," DSP_WO ",[" DSP_WP ",#" #mult "]\n" RP_RQ_FIX(a) RP_RQ_FIX(b) RP_RQ_TAIL(a, b, right)
/* E = the upper pixel, O = E + o1_off the lower one (o1_off 0 for a last lone row: each
 * lower byte is stored first, then overwritten by the upper one). */
#define RP_STORE2(a, b, i) "strb " b ",[" DSP_O ",#" #i "]\nstrb " a ",[" DSP_E ",#" #i "]\n"
#define RP_STORES                                                                                       \
  "ldr " DSP_E "," RP_F_O0 "\nldr " DSP_O "," RP_F_O1 "\nadd " DSP_O "," DSP_O "," DSP_E "\n"           \
  RP_STORE2(DSP_A0, DSP_B0, 0) RP_STORE2(DSP_A1, DSP_B1, 1) RP_STORE2(DSP_A2, DSP_B2, 2)                \
  RP_STORE2(DSP_A3, DSP_B3, 3)
#define RP_REQUANT_SIMPLE                                                                               \
  "ldr " DSP_WP "," RP_F_Q "\n" RP_RQ_SIMPLE(DSP_A0, DSP_B0, 0, 8) RP_RQ_SIMPLE(DSP_A1, DSP_B1, 20, 28) \
  RP_RQ_SIMPLE(DSP_A2, DSP_B2, 40, 48) RP_RQ_SIMPLE(DSP_A3, DSP_B3, 60, 68) RP_STORES
#define RP_REQUANT_NEGFIX                                                                               \
  "ldr " DSP_WP "," RP_F_Q "\n" RP_RQ_NEGFIX(DSP_A0, DSP_B0, 0, 8) RP_RQ_NEGFIX(DSP_A1, DSP_B1, 20, 28) \
  RP_RQ_NEGFIX(DSP_A2, DSP_B2, 40, 48) RP_RQ_NEGFIX(DSP_A3, DSP_B3, 60, 68) RP_STORES
/* Both pixels start from the channels' one bias; WP = the weights. */
#define RP_BIAS                                                                                         \
  "ldr " DSP_WE "," RP_F_BIAS "\nldrd " DSP_A0 "," DSP_A1 ",[" DSP_WE "]\nldrd " DSP_A2 "," DSP_A3      \
  ",[" DSP_WE ",#8]\nldrd " DSP_B0 "," DSP_B1 ",[" DSP_WE "]\nldrd " DSP_B2 "," DSP_B3 ",[" DSP_WE      \
  ",#8]\nldr " DSP_WP "," RP_F_W "\n"
/* After the stores (E = the upper output): the output pointer and the scratch column (one
 * column: stride 1) advance, until the output pointer reaches the row's end. */
#define RP_NEXT                                                                                         \
  "ldr " DSP_WE "," RP_F_OSTEP "\nadd " DSP_E "," DSP_E "," DSP_WE "\nstr " DSP_E "," RP_F_O0 "\n"      \
  "add " DSP_X "," DSP_X ",#32\nldr " DSP_WE "," RP_F_OEND "\ncmp " DSP_E "," DSP_WE "\nbne 1b\n"
#define RP_ASM(text)                                                                                    \
  __asm__ volatile("ldr " DSP_X "," RP_F_X "\n1:\n" text RP_NEXT                                        \
                   : "=&r"(a0), "=&r"(a1), "=&r"(a2), "=&r"(a3), "=&r"(b0), "=&r"(b1), "=&r"(b2),       \
                     "=&r"(b3), "=&r"(e), "=&r"(o), "=&r"(we), "=&r"(wo), "=&r"(x), "=&r"(w), "+m"(f.o0) \
                   : "m"(f.x), "m"(f.w), "m"(f.bias), "m"(f.q), "m"(f.o_step), "m"(f.o1_off),           \
                     "m"(f.o_end)                                                                       \
                   : "memory", "cc")
/* A lone last row (bit TA_DW_DSP_LONE_BIT): the upper pixel alone, A . WA + B.lo * WB.hi,
 * 4 accumulators, one requantisation and 4 stores a column. */
#define RP_LTAP(load, a, off)                                                                           \
  load ",[" DSP_X ",#" off "]\nldrd " DSP_WE "," DSP_WO ",[" DSP_WP ",#" off "]\n"                      \
  "smlad " a "," DSP_E "," DSP_WE "," a "\nsmlabt " a "," DSP_O "," DSP_WO "," a "\n"
#define RP_LCOLUMN(load, o0, o1, o2, o3)                                                                \
  RP_LTAP(load, DSP_A0, o0) RP_LTAP(load, DSP_A1, o1) RP_LTAP(load, DSP_A2, o2) RP_LTAP(load, DSP_A3, o3)
#define RP_LWINDOW(load)                                                                                \
  "ldr " DSP_WE "," RP_F_BIAS "\nldrd " DSP_A0 "," DSP_A1 ",[" DSP_WE "]\nldrd " DSP_A2 "," DSP_A3      \
  ",[" DSP_WE ",#8]\nldr " DSP_WP "," RP_F_W "\n"                                                       \
  RP_LCOLUMN(load, "0", "8", "16", "24") RP_LCOLUMN(load, "32", "40", "48", "56")                       \
  RP_LCOLUMN(load, "64", "72", "80", "88")
#define RP_LRQ_TAIL(a, right)                                                                           \
  "ldr " DSP_WO ",[" DSP_WP ",#" #right "]\nasr " a "," a "," DSP_WO "\nssat " a ",#8," a "\n"
#define RP_LRQ_SIMPLE(a, mult, right)                                                                   \
  "ldrd " DSP_WE "," DSP_WO ",[" DSP_WP ",#" #mult "]\nsmmlar " a "," a "," DSP_WE "," DSP_WO "\n"      \
  RP_LRQ_TAIL(a, right)
#define RP_LRQ_NEGFIX(a, mult, right)                                                                   \
  "ldrd " DSP_WE "," DSP_WO ",[" DSP_WP ",#" #mult "]\n" RP_RQ_FIX(a) RP_LRQ_TAIL(a, right)
#define RP_LSTORES                                                                                      \
  "ldr " DSP_E "," RP_F_O0 "\nstrb " DSP_A0 ",[" DSP_E ",#0]\nstrb " DSP_A1 ",[" DSP_E ",#1]\n"         \
  "strb " DSP_A2 ",[" DSP_E ",#2]\nstrb " DSP_A3 ",[" DSP_E ",#3]\n"
#define RP_LREQUANT(rq)                                                                                 \
  "ldr " DSP_WP "," RP_F_Q "\n" rq(DSP_A0, 0, 8) rq(DSP_A1, 20, 28) rq(DSP_A2, 40, 48) rq(DSP_A3, 60, 68) \
  RP_LSTORES

/* Every row pair of one group (channels c .. c + 3: image, bias, out at channel c), k_w == 3,
 * stride 1, modes SIMPLE and NEGFIX: the widening of the next input row pair, then one asm
 * loop over the row's columns; one call per group keeps the set-up out of the rows. */
static __attribute__((noinline)) void rp_group_asm(const ta_depthwise_conv_dsp_params_t *p, const int8_t *image,
                                                   int32_t *scratch, const int32_t *w_group, const int32_t *bias,
                                                   const int32_t *q, int8_t *out, int mode, int32_t lo, int32_t hi) {
  const int32_t ch = p->channels, row_bytes = p->out_w * ch;
  const int negfix = mode == TA_DW_DSP_NEGFIX;
  rp_frame_t f;
  f.x = scratch;
  f.w = w_group;
  f.bias = bias;
  f.q = q;
  f.o_step = ch;
  /* Bit TA_DW_DSP_NARROW_BIT: the inside row pairs' widening set up once per group, not
   * per row pair (kws's 5-wide layers: -1.7 k instructions each, +104 bytes of code). */
  const int32_t row_step = p->in_w * ch, r_end = p->in_h - 1 + p->pad_h;
  const int8_t *x_lo = image + (lo - p->pad_w) * ch;
  int32_t *s_lo = scratch + lo * RP_COL_WORDS, *s_hi = scratch + hi * RP_COL_WORDS;
  rp_widen_rows(p, image, -p->pad_h, lo, hi, 0, scratch);
  for (int32_t oy = 0; oy < p->out_h; oy += 2) {
    const int odd = (oy >> 1) & 1;
    /* rows oy + 2 - pad_h and the next: both inside unless at the image's edges */
    if (DSP_HAS(TA_DW_DSP_NARROW_BIT) && oy + 2 >= p->pad_h && oy + 2 < r_end && lo < hi)
      rp_widen_inside(x_lo + (oy + 2 - p->pad_h) * row_step, row_step, ch, s_lo + 1 - odd, s_hi + 1 - odd);
    else
      rp_widen_rows(p, image, oy + 2 - p->pad_h, lo, hi, 1 - odd, scratch);
    const int last = oy + 1 >= p->out_h;
    f.o0 = out + oy * row_bytes;
    f.o_end = f.o0 + row_bytes;
    f.o1_off = last ? 0 : row_bytes;
    int32_t a0, a1, a2, a3, b0, b1, b2, b3, e, o, we, wo;
    const int32_t *x, *w;
    switch ((DSP_HAS(TA_DW_DSP_LONE_BIT) && last ? 4 : 0) + 2 * negfix + odd) {
      case 0: if (DSP_HAS(TA_DW_DSP_SIMPLE)) RP_ASM(RP_BIAS RP_AWINDOW(RP_LOAD_EVEN) RP_REQUANT_SIMPLE); break;
      case 1: if (DSP_HAS(TA_DW_DSP_SIMPLE)) RP_ASM(RP_BIAS RP_AWINDOW(RP_LOAD_ODD) RP_REQUANT_SIMPLE); break;
      case 2: if (DSP_HAS(TA_DW_DSP_NEGFIX)) RP_ASM(RP_BIAS RP_AWINDOW(RP_LOAD_EVEN) RP_REQUANT_NEGFIX); break;
      case 3: if (DSP_HAS(TA_DW_DSP_NEGFIX)) RP_ASM(RP_BIAS RP_AWINDOW(RP_LOAD_ODD) RP_REQUANT_NEGFIX); break;
#if DSP_HAS(TA_DW_DSP_LONE_BIT)
      case 4:
        if (DSP_HAS(TA_DW_DSP_SIMPLE)) RP_ASM(RP_LWINDOW(RP_LOAD_EVEN) RP_LREQUANT(RP_LRQ_SIMPLE));
        break;
      case 5:
        if (DSP_HAS(TA_DW_DSP_SIMPLE)) RP_ASM(RP_LWINDOW(RP_LOAD_ODD) RP_LREQUANT(RP_LRQ_SIMPLE));
        break;
      case 6:
        if (DSP_HAS(TA_DW_DSP_NEGFIX)) RP_ASM(RP_LWINDOW(RP_LOAD_EVEN) RP_LREQUANT(RP_LRQ_NEGFIX));
        break;
      default:
        if (DSP_HAS(TA_DW_DSP_NEGFIX)) RP_ASM(RP_LWINDOW(RP_LOAD_ODD) RP_LREQUANT(RP_LRQ_NEGFIX));
        break;
#endif
    }
    (void)a0, (void)a1, (void)a2, (void)a3, (void)b0, (void)b1, (void)b2, (void)b3;
    (void)e, (void)o, (void)we, (void)wo, (void)x, (void)w;
  }
}
#endif

/* Every group and row pair of one image; `mode` a constant after inlining. */
static DSP_ALWAYS_INLINE void rp_image(const ta_depthwise_conv_dsp_params_t *p, const int8_t *image,
                                       int32_t *scratch, int8_t *out_image, int mode) {
  const int32_t ch = p->channels, row_bytes = p->out_w * ch;
  const int32_t sw = (p->out_w - 1) * p->stride_w + p->k_w;
  const int32_t group_words = p->k_w * RP_COL_WORDS;
  const int32_t lo = ta_clamp(p->pad_w, 0, sw), hi = ta_clamp(p->pad_w + p->in_w, lo, sw);
  rp_pad(p, scratch, lo, hi, sw);
  for (int32_t c = 0; c < ch; c += 4) {
    const int32_t *w_group = p->weights + (c / 4) * group_words;
    const int32_t *bias = p->bias + c, *q = p->quant + 5 * c;
#if DSP_PAIR3_IN_ASM
    if (mode != TA_DW_DSP_CLAMP) { /* k_w == 3, stride 1: the compiler's condition for the form */
      rp_group_asm(p, image + c, scratch, w_group, bias, q, out_image + c, mode, lo, hi);
      continue;
    }
#endif
    rp_widen_rows(p, image + c, -p->pad_h, lo, hi, 0, scratch);
    for (int32_t oy = 0; oy < p->out_h; oy += 2) {
      const int odd = (oy >> 1) & 1;
      rp_widen_rows(p, image + c, oy + 2 - p->pad_h, lo, hi, 1 - odd, scratch);
      int8_t *out_a = out_image + oy * row_bytes + c;
      int8_t *out_b = oy + 1 >= p->out_h ? NULL : out_a + row_bytes;
      if (odd)
        rp_rows(p, scratch, w_group, bias, q, out_a, out_b, 1, mode);
      else
        rp_rows(p, scratch, w_group, bias, q, out_a, out_b, 0, mode);
    }
  }
}

#define RP_IMAGE(name, mode)                                                                                   \
  static void name(const ta_depthwise_conv_dsp_params_t *p, const int8_t *image, int32_t *scratch,            \
                   int8_t *out_image) {                                                                        \
    rp_image(p, image, scratch, out_image, mode);                                                              \
  }
RP_IMAGE(rp_image_simple, TA_DW_DSP_SIMPLE)
RP_IMAGE(rp_image_negfix, TA_DW_DSP_NEGFIX)
RP_IMAGE(rp_image_clamp, TA_DW_DSP_CLAMP)

static void rp_run(const ta_depthwise_conv_dsp_params_t *p, const int8_t *input, int32_t *scratch, int8_t *output) {
  const int mode = DSP_HAS(p->mode) ? p->mode : TA_DW_DSP_CLAMP;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *image = input + b * p->in_h * p->in_w * p->channels;
    int8_t *out_image = output + b * p->out_h * p->out_w * p->channels;
    if (DSP_HAS(TA_DW_DSP_SIMPLE) && mode == TA_DW_DSP_SIMPLE)
      rp_image_simple(p, image, scratch, out_image);
    else if (DSP_HAS(TA_DW_DSP_NEGFIX) && mode == TA_DW_DSP_NEGFIX)
      rp_image_negfix(p, image, scratch, out_image);
    else if (DSP_HAS(TA_DW_DSP_CLAMP))
      rp_image_clamp(p, image, scratch, out_image);
  }
}

/* The classic form; a band of row pairs runs column by column, at most max_pairs deep. */
static void dsp_classic(const ta_depthwise_conv_dsp_params_t *p, const int8_t *input, const int8_t *filter,
                        int8_t *output, int32_t max_pairs) {
  const int32_t ch = p->channels;
  const int32_t row_bytes = p->out_w * ch;
  dsp_layer_t l;
  l.weights = p->weights;
  l.quant = p->quant;
  l.full = ch & ~3;
  l.k_h = p->k_h;
  l.col_words = p->k_h * 2;
  l.group_words = p->k_h * p->k_w * 2;
  l.rs = p->dil_h * p->in_w * ch;
  l.cs = p->dil_w * ch;
  l.pair_step = p->stride_h * p->in_w * ch;
  l.act_min = p->act_min;
  l.act_max = p->act_max;
  /* The layer's mode if the module compiled its loops, else CLAMP; the constant mask
   * folds the references to the loops left out. */
  const int mode = DSP_HAS(p->mode) ? p->mode : TA_DW_DSP_CLAMP;
  void (*pixels)(const dsp_layer_t *, const dsp_window_t *, int8_t *, int8_t *, int) =
      DSP_HAS(TA_DW_DSP_SIMPLE) && mode == TA_DW_DSP_SIMPLE   ? dsp_pixels_simple
      : DSP_HAS(TA_DW_DSP_NEGFIX) && mode == TA_DW_DSP_NEGFIX ? dsp_pixels_negfix
      : DSP_HAS(TA_DW_DSP_CLAMP)                              ? dsp_pixels_clamp
                                                              : 0;
  if (!pixels) return; /* unreachable: the compiler names every mode its layers use */
  const int pair_kind = p->stride_h != p->dil_h ? DSP_PAIR_APART : (p->k_h == 3 ? DSP_PAIR_SHARED3 : DSP_PAIR_SHARED);
  int asm_kind = DSP_ASM_NONE;
#if DSP_PAIR3_IN_ASM
  if (pair_kind == DSP_PAIR_SHARED3 && mode != TA_DW_DSP_CLAMP) asm_kind = DSP_ASM_SHARED3;
  if (pair_kind == DSP_PAIR_APART && p->k_h == 3 && p->stride_h == 2 && p->dil_h == 1 && mode == TA_DW_DSP_SIMPLE)
    asm_kind = DSP_ASM_STRIDE2;
  if (pair_kind == DSP_PAIR_SHARED && p->k_w == 1 && p->k_h >= 2 && mode != TA_DW_DSP_CLAMP)
    asm_kind = DSP_ASM_TALL;
#endif
  const int32_t max_kx = asm_kind == DSP_ASM_TALL ? 1 : 3;
  dsp_window_t win;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *image = input + b * p->in_h * p->in_w * ch;
    int8_t *out_image = output + b * p->out_h * row_bytes;
    for (int32_t oy = 0; oy < p->out_h;) {
      const int16_t *row = p->rows + 3 * oy;
      int8_t *out = out_image + oy * row_bytes;
      /* Rows oy and oy + 1 complete in height: the same row class, one pass for both. */
      const int32_t n_ky = row[1] - row[0];
      const int pair = oy + 1 < p->out_h && n_ky == p->k_h && row[4] - row[3] == p->k_h;
      if (pair && asm_kind != DSP_ASM_NONE) {
        /* A band of such pairs, column by column: the asm runs down the band. */
        int32_t pairs = 1;
        while (pairs < max_pairs && oy + 2 * pairs + 1 < p->out_h && row[6 * pairs + 1] - row[6 * pairs] == p->k_h &&
               row[6 * pairs + 4] - row[6 * pairs + 3] == p->k_h)
          pairs++;
        for (int32_t ox = 0; ox < p->out_w; ox++) {
          int8_t *o = out + ox * ch;
          dsp_window(p, image, row, oy, ox, &win);
          if (win.n_kx >= 1 && win.n_kx <= max_kx) {
#if DSP_PAIR3_IN_ASM
            dsp_asm_run(&l, &win, pairs, 2 * l.pair_step, 2 * row_bytes, o, o + row_bytes, mode, asm_kind);
#endif
          } else {
            dsp_window_t w = win;
            for (int32_t k = 0; k < pairs; k++, w.x += 2 * l.pair_step)
              pixels(&l, &w, o + k * 2 * row_bytes, o + k * 2 * row_bytes + row_bytes, pair_kind);
          }
          for (int32_t k = 0; k < pairs && l.full < ch; k++) {
            dsp_window_t w = win;
            w.x += k * 2 * l.pair_step;
            dsp_tails(p, &l, &w, filter, o + k * 2 * row_bytes, o + k * 2 * row_bytes + row_bytes, 1);
          }
        }
        oy += 2 * pairs;
        continue;
      }
      const int row_kind = pair ? pair_kind : (n_ky == 3 ? DSP_SINGLE3 : DSP_SINGLE);
      for (int32_t ox = 0; ox < p->out_w; ox++) {
        int8_t *o = out + ox * ch;
        dsp_window(p, image, row, oy, ox, &win);
        const int kind = row_kind == DSP_PAIR_SHARED3 && win.n_kx == 3 ? DSP_PAIR_3X3 : row_kind;
        pixels(&l, &win, o, o + row_bytes, kind);
        if (l.full < ch) dsp_tails(p, &l, &win, filter, o, o + row_bytes, pair);
      }
      oy += pair ? 2 : 1;
    }
  }
}

void ta_depthwise_conv_dsp_s8(const ta_depthwise_conv_dsp_params_t *p, const int8_t *input, const int8_t *filter,
                              int8_t *scratch, int8_t *output) {
  if (p->form == TA_DW_DSP_ROWPAIR) { /* the compiler sets the variant bit with the form */
    if (!DSP_HAS(TA_DW_DSP_ROWPAIR_BIT)) return;
    if (scratch) {
      rp_run(p, input, (int32_t *)(void *)scratch, output); /* word aligned */
    } else { /* a narrow layer: its rows fit on the stack (the compiler checked the width) */
      int32_t local[TA_DW_DSP_STACK_BYTES / 4];
      rp_run(p, input, local, output);
    }
    return;
  }
  if (DSP_HAS(TA_DW_DSP_CLASSIC_BIT)) dsp_classic(p, input, filter, output, INT32_MAX); /* set with the form */
}

void ta_depthwise_conv_dsp_s8_inplace(const ta_depthwise_conv_dsp_params_t *p, const int8_t *input,
                                      const int8_t *filter, int8_t *temp, int8_t *output, int32_t bytes) {
  if (DSP_HAS(TA_DW_DSP_CLASSIC_BIT)) dsp_classic(p, input, filter, temp, 1); /* set with every in-place call */
  ta_move_output(output, temp, bytes);
}
