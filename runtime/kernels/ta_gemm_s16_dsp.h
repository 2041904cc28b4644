/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 matrix-vector kernels for Cortex-M4/M7/M33 (DSP extension).
 *
 * One int16 input vector of `depth` values against `rows` int8 weight rows gives `rows`
 * int16 outputs (FULLY_CONNECTED per batch row, CONV_2D per output pixel). The input is
 * never widened: each aligned or unaligned word of it holds two int16 values (x0 | x1 << 16)
 * and feeds one SMLAD directly. The compiler widens the weights to the same pairs
 * (w0 | w1 << 16): rows in blocks of 4 (then single rows), per block and per pair of depth
 * values the 4 rows' words, the depth zero padded to a multiple of 2.
 *
 * Exactness against TFLite's 16x8 kernels (int64 bias, int64 accumulator, the 16-bit
 * "reduced" multiplier, int64 rounding): TFLite computes
 *   (int32)(((bias + dot) * reduced + 2^(t-1)) >> t),  t = 15 - shift,
 * with every term exact in int64 (the compiler refuses accumulators beyond 2^47). We
 * compute the same integer as (k + dot * reduced) >> t with k = bias * reduced + 2^(t-1)
 * precomputed per row, so only dot is summed at run time. dot is summed in int32 when
 * the compiler proved 32768 * sum|w| < 2^31 for every row (then no partial sum can wrap),
 * else in int64 (SMLALD): `acc64`. Zero points are 0 in TFLite's 16x8 scheme.
 * Only compiled when the target has the DSP extension. */
#ifndef TA_GEMM_S16_DSP_H
#define TA_GEMM_S16_DSP_H
#include "ta_common.h"
#include "ta_s16_dsp_contract.h"
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

/* Loops specialised per requantisation form: bit 3 * hi + sat (ta_s16_dsp_requant_t). The
 * generic clamp (sat 0) of forms 0 and 1 is always compiled and exact for every layer; a
 * layer of form 2 whose loop is not compiled runs form 1's (the same integers). Bit 9: the
 * depth-8 stream of the matrix kernel (ta_gemm_s16_dsp_params_t.stream); bit 10: CONV_2D
 * windows read in place (window rows of whole 8-value passes; else they are gathered).
 * Bit 11: depthwise 3x3 border windows as whole-pixel blocks; bits 12 + 3 * hi + sat: the
 * depthwise kernel's loops of that form (ta_depthwise_conv_s16_dsp.c); bit 21: the block
 * loops at 16 values per iteration (depths, window rows, multiples of 16); bit 22: with
 * bit 21, the 8-value ones still (a depth or window row not a multiple of 16). */
#ifndef TA_S16_DSP_VARIANTS
#define TA_S16_DSP_VARIANTS 0x7fffffu
#endif
#define TA_S16_DSP_HAS(bit) ((((TA_S16_DSP_VARIANTS) | TA_S16_DSP_ALWAYS) >> (bit)) & 1u)

/* Requantisation of one output from its dot product (see above): v = k + dot * mult;
 * with `hi` the compiler scaled k and mult by 2^(32 - t) where t < 32 (proving v stays
 * inside int64) so that the result is v's high word shifted right by shift = max(t - 32, 0)
 * (one SMLAL, no 64-bit shift); else it is v >> shift with shift = t. */
typedef struct ta_s16_dsp_requant_t {
  const int32_t *rq;     /* per channel 4 words: k low, k high (k = bias * reduced + 2^(t-1),
                            scaled with hi), mult (reduced, scaled with hi), shift */
  int32_t hi;            /* 0: 64-bit shift; 1: high word, then >> shift; 2: high word, every
                            shift 0 (the compiler checked) */
  int32_t act_min, act_max;
  int32_t sat;           /* 1: [act_min, act_max] is int16's whole range (SSAT 16); 2: it is
                            [0, 32767] (USAT 15); 0: any other clamp */
} ta_s16_dsp_requant_t;

/* The high word of k + dot * m (one SMLAL). */
static inline int32_t ta_s16_dsp_high(uint32_t k_lo, int32_t k_hi, int32_t dot, int32_t m) {
#if defined(__GNUC__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  __asm__("smlal %0, %1, %2, %3" : "+r"(k_lo), "+r"(k_hi) : "r"(dot), "r"(m));
  return k_hi;
#else
  const int64_t k = (int64_t)(((uint64_t)(uint32_t)k_hi << 32) | k_lo);
  return (int32_t)((k + (int64_t)dot * m) >> 32);
#endif
}

/* `hi` and `sat` are q->hi and q->sat (or sat 0) passed as constants by callers that
 * specialise their loops on them. */
static inline int16_t ta_s16_dsp_output_mode(const ta_s16_dsp_requant_t *q, int hi, int sat, int32_t r,
                                             int32_t dot) {
  const int32_t *c = q->rq + 4 * r;
  int32_t y;
  if (hi) {
    y = ta_s16_dsp_high((uint32_t)c[0], c[1], dot, c[2]) >> c[3];
  } else {
    const int64_t k = (int64_t)(((uint64_t)(uint32_t)c[1] << 32) | (uint32_t)c[0]);
    y = (int32_t)((k + (int64_t)dot * c[2]) >> c[3]);
  }
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  if (sat == 1) return (int16_t)__ssat(y, 16);
  if (sat == 2) return (int16_t)__usat(y, 15);
#else
  (void)sat;
#endif
  return (int16_t)ta_clamp(y, q->act_min, q->act_max);
}

/* The high-word form for 4 consecutive channels (rq at the first one's 4 words) in
 * assembly where it is available: per channel two LDRD, SMLAL, the shift and, for sat 1
 * or 2, the saturation; a0..a3 (lvalues, the dot products) become the outputs. The C
 * form of ta_s16_dsp_output_mode otherwise; sat 0 leaves the clamp to the caller. */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define TA_S16_DSP_RQ_ASM 1
#define TA_S16_DSP_RQ_ONE(acc, off_k, off_m, sat_ins) \
  "ldrd %[lo], %[hh], [%[rq], #" #off_k "]\n\t"      \
  "ldrd %[m], %[s], [%[rq], #" #off_m "]\n\t"        \
  "smlal %[lo], %[hh], %[" #acc "], %[m]\n\t"        \
  "asr %[" #acc "], %[hh], %[s]\n\t" sat_ins(acc)
/* Form 2 (every shift 0): the result is the high word itself, moved or saturated. */
#define TA_S16_DSP_RQ_NS(acc, off_k, off_m, fin) \
  "ldrd %[lo], %[hh], [%[rq], #" #off_k "]\n\t"  \
  "ldr %[m], [%[rq], #" #off_m "]\n\t"           \
  "smlal %[lo], %[hh], %[" #acc "], %[m]\n\t" fin(acc)
#define TA_S16_DSP_FIN0(acc) "mov %[" #acc "], %[hh]\n\t"
#define TA_S16_DSP_FIN1(acc) "ssat %[" #acc "], #16, %[hh]\n\t"
#define TA_S16_DSP_FIN2(acc) "usat %[" #acc "], #15, %[hh]\n\t"
#define TA_S16_DSP_SAT0(acc) ""
#define TA_S16_DSP_SAT1(acc) "ssat %[" #acc "], #16, %[" #acc "]\n\t"
#define TA_S16_DSP_SAT2(acc) "usat %[" #acc "], #15, %[" #acc "]\n\t"
#define TA_S16_DSP_RQ4_SAT(rqp, one, sat_ins, a0, a1, a2, a3)                                               \
  do {                                                                                                      \
    int32_t lo_, hh_, m_, s_;                                                                               \
    __asm__(one(x0, 0, 8, sat_ins) one(x1, 16, 24, sat_ins)                                                 \
            one(x2, 32, 40, sat_ins) one(x3, 48, 56, sat_ins)                                               \
            : [x0] "+r"(a0), [x1] "+r"(a1), [x2] "+r"(a2), [x3] "+r"(a3), [lo] "=&r"(lo_), [hh] "=&r"(hh_), \
              [m] "=&r"(m_), [s] "=&r"(s_)                                                                  \
            : [rq] "r"(rqp), "m"(*(const ta_s16_dsp_rq4_t *)(const void *)(rqp)));                           \
  } while (0)
typedef struct ta_s16_dsp_rq4_t {
  int32_t w[16];
} ta_s16_dsp_rq4_t;
/* hi (1 or 2) and sat are constants in the callers' loop variants. */
#define TA_S16_DSP_RQ4(rqp, hi, sat, a0, a1, a2, a3)                                                        \
  do {                                                                                                      \
    if ((hi) == 2 && (sat) == 1) TA_S16_DSP_RQ4_SAT(rqp, TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN1, a0, a1, a2, a3); \
    else if ((hi) == 2 && (sat) == 2) TA_S16_DSP_RQ4_SAT(rqp, TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN2, a0, a1, a2, a3); \
    else if ((hi) == 2) TA_S16_DSP_RQ4_SAT(rqp, TA_S16_DSP_RQ_NS, TA_S16_DSP_FIN0, a0, a1, a2, a3);         \
    else if ((sat) == 1) TA_S16_DSP_RQ4_SAT(rqp, TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT1, a0, a1, a2, a3);       \
    else if ((sat) == 2) TA_S16_DSP_RQ4_SAT(rqp, TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT2, a0, a1, a2, a3);       \
    else TA_S16_DSP_RQ4_SAT(rqp, TA_S16_DSP_RQ_ONE, TA_S16_DSP_SAT0, a0, a1, a2, a3);                      \
  } while (0)
#else
#define TA_S16_DSP_RQ_ASM 0
#endif

/* Calls call(hi, sat) with the layer's form as constants, among the compiled variants. */
#define TA_S16_DSP_MODES(q, call)                                                                    \
  do {                                                                                               \
    if ((q)->hi == 2 && (q)->sat == 1 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 1))) call(2, 1);      \
    else if ((q)->hi == 2 && (q)->sat == 2 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 2))) call(2, 2); \
    else if ((q)->hi == 2 && (q)->sat == 0 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(2, 0))) call(2, 0); \
    else if ((q)->hi) {                                                                              \
      if ((q)->sat == 1 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 1))) call(1, 1);                    \
      else if ((q)->sat == 2 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(1, 2))) call(1, 2);               \
      else call(1, 0);                                                                               \
    } else {                                                                                         \
      if ((q)->sat == 1 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(0, 1))) call(0, 1);                    \
      else if ((q)->sat == 2 && TA_S16_DSP_HAS(TA_S16_DSP_BIT_GEMM(0, 2))) call(0, 2);               \
      else call(0, 0);                                                                               \
    }                                                                                                \
  } while (0)

/* The same from an int64 dot product (never with hi). */
static inline int16_t ta_s16_dsp_output64(const ta_s16_dsp_requant_t *q, int32_t r, int64_t dot) {
  const int32_t *c = q->rq + 4 * r;
  const int64_t k = (int64_t)(((uint64_t)(uint32_t)c[1] << 32) | (uint32_t)c[0]);
  return (int16_t)ta_clamp((int32_t)((k + dot * c[2]) >> c[3]), q->act_min, q->act_max);
}

typedef struct ta_gemm_s16_dsp_params_t {
  int32_t rows;          /* output values per input vector */
  int32_t depth;         /* dot-product length */
  ta_s16_dsp_requant_t q;
  int32_t acc64;         /* 1: dot products summed in int64 */
  const int32_t *stream; /* depth 8 in the high-word form with a one-instruction clamp (sat 1
                            or 2), else NULL: per row its 4 weight words (as in the blocks)
                            then its 4 requantisation words, read in one pass with the 8
                            input values held in 4 registers (bit 9 of TA_S16_DSP_VARIANTS;
                            without it the blocks run) */
} ta_gemm_s16_dsp_params_t;

/* CONV_2D window geometry (NHWC input, zero padding: int16 zero point is 0). */
typedef struct ta_conv_s16_dsp_geom_t {
  int32_t batches, in_h, in_w, in_c, out_h, out_w;
  int32_t k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
  int32_t direct;        /* 1x1 window, no padding: the input pixel is the vector */
} ta_conv_s16_dsp_geom_t;

/* `count` input vectors, `depth` apart, each giving `rows` outputs, `rows` apart. */
void ta_gemm_s16_dsp(const ta_gemm_s16_dsp_params_t *p, int32_t count, const int16_t *input,
                     const int32_t *weights, int16_t *output);

/* CONV_2D: per output pixel, the window (gathered into `scratch`, depth rounded up to
 * even values, unless direct). */
void ta_conv_s16_dsp(const ta_gemm_s16_dsp_params_t *p, const ta_conv_s16_dsp_geom_t *g, const int16_t *input,
                     const int32_t *weights, void *scratch, int16_t *output);

#endif
