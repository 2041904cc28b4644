/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 matrix-vector kernels for Cortex-M55/M85 (MVE, Helium).
 *
 * One int16 input vector of `depth` values against `rows` int8 weight rows gives `rows`
 * int16 outputs (FULLY_CONNECTED per batch row, CONV_2D per output pixel). Eight int16
 * inputs are one vector; each row's 8 int8 weights are widened by the load itself
 * (VLDRB.S16) and VMLADAVA adds the 8 products to the row's sum. The compiler lays the
 * weights out in blocks of 4 rows (the last block completed with zero rows), per block
 * and chunk of 8 depth values the 4 rows' 8 bytes (32 bytes, one pointer and immediate
 * offsets), the depth zero padded to `stride`, a multiple of 8; one input load serves 4
 * rows (8 in the assembly loop of a single vector). Two input vectors (batch rows, output
 * pixels) go through the weights together where the fold form applies, each weight load
 * serving both. The input's last partial vector is loaded tail-predicated (lanes past
 * depth 0).
 *
 * Exactness against TFLite's 16x8 kernels, which compute per output
 *   (int32)(((bias + dot) * reduced + 2^(t-1)) >> t),  t = 15 - shift,
 * in int64 with the 16-bit "reduced" multiplier, then clamp:
 * - `fold` (bias != NULL): the compiler proved, per row, |bias| + 2^15 * sum|w| < 2^31,
 *   1 <= t <= 32 and |reduced| * 2^(32-t) < 2^31. The sum starts at the int32 bias and no
 *   partial sum can leave int32 (every |x| <= 2^15), and with m = reduced * 2^(32-t)
 *     (acc * m + 2^31) >> 32 = ((acc * reduced + 2^(t-1)) * 2^(32-t)) >> 32
 *                            = (acc * reduced + 2^(t-1)) >> t,
 *   the same integer: one rounding high multiply (SMMULR; VRMULH per lane) per output.
 * - otherwise TFLite's form as it stands, (k + dot * reduced) >> t with
 *   k = bias * reduced + 2^(t-1) precomputed per row in int64 (|bias| <= 2^47, depth <=
 *   2^24 and |reduced| < 2^15 keep every term inside int64), the dot product summed in
 *   int32 where 2^15 * sum|w| < 2^31 for every row, else in int64 (VMLALDAVA): `acc64`.
 * A row whose t is above 32 (a tiny scale beside a large
 * bias) starts its sum at 0 instead (`wide`, bias and m 0): with k = kh * 2^32 + kl and
 * the exact int64 product P = acc * reduced, floor((k + P) / 2^t) is
 * (kh + floor(P / 2^32) + carry(kl + (P mod 2^32))) >> (t - 32): VMULH, VMUL, an unsigned
 * add and compare, an arithmetic shift; the compiler proved |kh| + 2^14 + 1 < 2^31 and
 * 2^15 * sum|w| < 2^31. Fold lanes have reduced = k = 0 there (the wide part is 0) and
 * wide lanes m = 0 (VRMULH gives 0), so the two parts add.
 * A layer whose rows mostly take the fold form takes it with the others zeroed
 * (`fix`): each of those is then summed again in int64 (VMLALDAVA) and requantised in
 * TFLite's form, overwriting the fold's output. Zero points are 0 in TFLite's 16x8 scheme. Only compiled when the target has MVE. */
#ifndef TA_GEMM_S16_MVE_H
#define TA_GEMM_S16_MVE_H
#include "ta_common.h"

typedef struct ta_gemm_s16_mve_params_t {
  int32_t rows;          /* output values per input vector */
  int32_t depth;         /* dot-product length */
  int32_t stride;        /* depth rounded up to 8 */
  const int32_t *bias;   /* fold: per row int32 bias (the sums start there; rows rounded
                            up to 4, the extra ones 0), else NULL */
  const int32_t *mult;   /* fold: per row reduced * 2^(32 - t), rows rounded up to 4 */
  int32_t act_min, act_max;
  const int32_t *rq;     /* without fold: per row k low word, k high word, reduced, t */
  int32_t acc64;         /* without fold: 1 when dot products are summed in int64 */
  const int32_t *wide;   /* fold: NULL, or per block of 4 rows 16 words: reduced, k high,
                            k low and 32 - t of each row with t > 32 (0 for the others) */
  int32_t n_fix;         /* fold: rows outside its bounds (their bias and m are 0) */
  const int32_t *fix;    /* fold: per such row its index, k low, k high, reduced, t: the
                            row is summed again in int64 and requantised in TFLite's form */
} ta_gemm_s16_mve_params_t;

/* CONV_2D window geometry (NHWC input, zero padding: the int16 zero point is 0). */
typedef struct ta_conv_s16_mve_geom_t {
  int32_t batches, in_h, in_w, in_c, out_h, out_w;
  int32_t k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
  int32_t direct;        /* 1x1 window, no padding: the input pixel is the vector */
} ta_conv_s16_mve_geom_t;

/* The fold requantisation of one sum: (acc * m + 2^31) >> 32 (SMMULR), clamped. */
static inline int16_t ta_s16_mve_fold(int32_t acc, int32_t m, int32_t act_min, int32_t act_max) {
  const int32_t y = (int32_t)(((int64_t)acc * m + ((int64_t)1 << 31)) >> 32);
  return (int16_t)ta_clamp(y, act_min, act_max);
}

/* The general requantisation of one int64 sum (see above), clamped. */
static inline int16_t ta_s16_mve_general(const int32_t *rq, int64_t dot, int32_t act_min, int32_t act_max) {
  const int64_t k = (int64_t)(((uint64_t)(uint32_t)rq[1] << 32) | (uint32_t)rq[0]);
  return (int16_t)ta_clamp((int32_t)((k + dot * rq[2]) >> rq[3]), act_min, act_max);
}

/* `count` input vectors, `depth` apart, each giving `rows` outputs, `rows` apart. */
void ta_gemm_s16_mve(const ta_gemm_s16_mve_params_t *p, int32_t count, const int16_t *input, const int8_t *weights,
                     int16_t *output);

/* CONV_2D: per output pixel the window (gathered into `scratch` unless direct or read
 * in place; scratch holds two windows of `stride` int16 values) against the weights. */
void ta_conv_s16_mve(const ta_gemm_s16_mve_params_t *p, const ta_conv_s16_mve_geom_t *g, const int16_t *input,
                     const int8_t *weights, void *scratch, int16_t *output);

#endif
