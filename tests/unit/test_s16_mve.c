/* The int16x8 Cortex-M55 tier's compile-time tables (src/ops/tiers/gemm_s16_mve.c) and its
 * kernels' arithmetic, built for the host (plain C over the same tables): every output
 * equals TFLite's 16x8 reference (int64 bias + dot, ta_requantize64, clamp), in each form
 * the planner can pick (fold: int32 sums from the bias and one rounding high multiply;
 * TFLite's int64 form over int32 or int64 sums), and the planner refuses what it cannot
 * do exactly. The MVE instructions themselves run on QEMU (tests/suites/s16_tiers_m55.sh). */
#include <string.h>

#include "../../runtime/kernels/ta_depthwise_conv_s16_mve.c"
#include "../../runtime/kernels/ta_gemm_s16_mve.c"
#include "../../src/ops/tiers/gemm_s16_mve.h"
#include "unit.h"

typedef struct MveRng {
  uint32_t s;
} MveRng;

static int32_t mve_rand(MveRng *r, int32_t lo, int32_t hi) { /* [lo, hi] */
  r->s = r->s * 1664525u + 1013904223u;
  return lo + (int32_t)((r->s >> 8) % (uint32_t)(hi - lo + 1));
}

/* An int64 bias tensor over `bytes` (little-endian). */
static Tensor mve_bias(uint8_t *bytes, const int64_t *v, int32_t n) {
  Tensor t;
  memset(&t, 0, sizeof t);
  for (int32_t i = 0; i < n; i++)
    for (int b = 0; b < 8; b++) bytes[8 * i + b] = (uint8_t)((uint64_t)v[i] >> (8 * b));
  t.type = TT_INT64, t.data = bytes, t.elems = n, t.bytes = (size_t)n * 8;
  return t;
}

static int16_t mve_reference(int64_t acc, int32_t m, int32_t s, int32_t lo, int32_t hi) {
  return (int16_t)ta_clamp(ta_requantize64(acc, m, s), lo, hi);
}

enum { MROWS = 7, MDEPTH = 1201 };

typedef enum { WANT_FOLD, WANT_INT32, WANT_INT64 } MveForm;

/* One matrix layer: 7 rows (a block of 4 and a partial one), per-row multipliers and
 * shifts, biases scaled by bias_scale; checks the form the planner chose and every
 * output of 3 input vectors. */
static void mve_gemm_case(UnitState *u, const int32_t *shift, int32_t w_lim, int32_t depth, int64_t bias_scale,
                          MveForm want, int32_t act_min, int want_wide, int32_t want_fix) {
  static int8_t w[MROWS * MDEPTH];
  static int16_t x[3 * MDEPTH];
  int16_t out[3 * MROWS];
  int64_t bias[MROWS];
  int32_t mult[MROWS];
  uint8_t bias_bytes[8 * MROWS];
  MveRng r = {777u + (uint32_t)depth};
  for (int32_t i = 0; i < MROWS * depth; i++) w[i] = (int8_t)mve_rand(&r, -w_lim, w_lim);
  for (int32_t i = 0; i < 3 * depth; i++) x[i] = (int16_t)mve_rand(&r, -32768, 32767);
  x[0] = -32768, x[1] = 32767;
  for (int32_t i = 0; i < MROWS; i++) {
    bias[i] = (int64_t)mve_rand(&r, -100000, 100000) * bias_scale;
    mult[i] = mve_rand(&r, 1 << 30, 0x7FFFFFFF);
  }
  mult[2] = 0x7FFFFFFF; /* the reduced multiplier's saturation at 0x7FFF */
  const Tensor bt = mve_bias(bias_bytes, bias, MROWS);
  Arena a;
  arena_init(&a);
  GemmS16MvePlan *g = NULL;
  CHECK(u, gemm_s16_mve_plan(&a, MROWS, depth, w, &bt, mult, shift, 0, 0, act_min, 32767, &g));
  CHECK(u, g != NULL);
  if (g) {
    CHECK(u, (g->bias != NULL) == (want == WANT_FOLD));
    CHECK(u, g->acc64 == (want == WANT_INT64));
    CHECK(u, (g->wide != NULL) == (want_wide != 0));
    CHECK(u, g->n_fix == want_fix);
    const ta_gemm_s16_mve_params_t p = {.rows = MROWS, .depth = depth, .stride = g->stride, .bias = g->bias,
                                        .mult = g->mult, .act_min = act_min, .act_max = 32767, .rq = g->rq,
                                        .acc64 = g->acc64 ? 1 : 0, .wide = g->wide, .n_fix = g->n_fix,
                                        .fix = g->fix};
    ta_gemm_s16_mve(&p, 3, x, g->w8, out);
    int bad = 0;
    for (int32_t v = 0; v < 3; v++)
      for (int32_t row = 0; row < MROWS; row++) {
        int64_t acc = bias[row];
        for (int32_t k = 0; k < depth; k++) acc += (int64_t)x[v * depth + k] * w[row * depth + k];
        if (out[v * MROWS + row] != mve_reference(acc, mult[row], shift[row], act_min, 32767)) bad++;
      }
    CHECK(u, bad == 0);
  }
  arena_free(&a);
}

static const int32_t fold_shifts[MROWS] = {-2, -5, -8, -12, -17, -9, -3};   /* t = 17 .. 32 */
static const int32_t wide_shifts[MROWS] = {-1, 0, 3, 14, -20, -30, -40};    /* t outside 17..32 */

static const int32_t mixed_shifts[MROWS] = {-2, -5, -20, -30, -8, -40, -3}; /* t 17..23, and 35, 45, 55 */
static const int32_t fixed_shifts[MROWS] = {-2, -5, 14, -8, -9, -40, -3};   /* one t = 1, one t = 55 */
static const int32_t small_shifts[MROWS] = {-20, -30, -40, -25, -22, -35, -18}; /* every t > 32 */
static const int32_t int64_shifts[MROWS] = {-1, 0, 3, 14, 14, 14, -40}; /* 4 rows fit neither form */

static void test_s16_mve_gemm_fold(UnitState *u) {
  mve_gemm_case(u, fold_shifts, 20, 61, 1, WANT_FOLD, -32768, 0, 0);
  mve_gemm_case(u, fold_shifts, 127, 5, 1000, WANT_FOLD, 0, 0, 0); /* depth below one vector, ReLU */
}
/* Rows with t > 32 in the wide form, the other misfits summed again in int64. */
static void test_s16_mve_gemm_fold_wide_fix(UnitState *u) {
  mve_gemm_case(u, mixed_shifts, 20, 61, 1, WANT_FOLD, -32768, 1, 0);
  mve_gemm_case(u, fixed_shifts, 20, 61, 1, WANT_FOLD, -32768, 1, 1);
  mve_gemm_case(u, small_shifts, 20, 61, 100000, WANT_FOLD, -32768, 1, 0); /* bias beyond int32 */
  mve_gemm_case(u, wide_shifts, 20, 61, 1, WANT_FOLD, -32768, 1, 3);
}
static void test_s16_mve_gemm_int64_form(UnitState *u) {
  mve_gemm_case(u, int64_shifts, 20, 61, 1, WANT_INT32, -32768, 0, 0);
  mve_gemm_case(u, fold_shifts, 20, 61, 100000, WANT_INT32, -32768, 0, 0); /* bias beyond int32 */
}
static void test_s16_mve_gemm_int64_sums(UnitState *u) {
  mve_gemm_case(u, fold_shifts, 127, MDEPTH, 1, WANT_INT64, -32768, 0, 0); /* 2^15 * sum|w| >= 2^31 */
}

/* A 3x3 depthwise layer, padding 1, on a 5x4 image of 11 channels (a block of 8 and a
 * partial one); checks every output against the reference, or that the planner refuses. */
static void mve_dw_case(UnitState *u, int64_t bias_scale, int32_t w_lim, int want_general, int want_refused,
                        int want_wide) {
  enum { H = 5, W = 4, C = 11, K = 3 };
  int8_t f[K * K * C];
  int16_t in[H * W * C], out[H * W * C];
  int64_t bias[C];
  int32_t mult[C], shift[C];
  uint8_t bias_bytes[8 * C];
  MveRng r = {4242u};
  for (int32_t i = 0; i < K * K * C; i++) f[i] = (int8_t)mve_rand(&r, -w_lim, w_lim);
  for (int32_t i = 0; i < H * W * C; i++) in[i] = (int16_t)mve_rand(&r, -32768, 32767);
  for (int32_t c = 0; c < C; c++) {
    bias[c] = (int64_t)mve_rand(&r, -100000, 100000) * bias_scale;
    mult[c] = mve_rand(&r, 1 << 30, 0x7FFFFFFF), shift[c] = -mve_rand(&r, 2, 17);
    if (want_wide && c % 3 == 1) shift[c] = -mve_rand(&r, 18, 30); /* t > 32: the wide form */
  }
  const Tensor bt = mve_bias(bias_bytes, bias, C);
  Arena a;
  arena_init(&a);
  DwS16MvePlan *d = NULL;
  CHECK(u, dw_s16_mve_plan(&a, C, K * K, f, &bt, mult, shift, &d));
  CHECK(u, (d == NULL) == (want_refused != 0));
  if (d) {
    CHECK(u, (d->general != NULL) == (want_general != 0));
    CHECK(u, (d->wide != NULL) == (want_wide != 0));
    const ta_depthwise_s16_mve_params_t p = {1, H, W, C, H, W, K, K, 1, 1, 1, 1, 1, 1, d->rq, -32768, 32767,
                                             d->general, d->wide};
    ta_depthwise_conv_s16_mve(&p, in, d->w8, out);
    int bad = 0;
    for (int32_t oy = 0; oy < H; oy++)
      for (int32_t ox = 0; ox < W; ox++)
        for (int32_t c = 0; c < C; c++) {
          int64_t acc = bias[c];
          for (int32_t ky = 0; ky < K; ky++)
            for (int32_t kx = 0; kx < K; kx++) {
              const int32_t iy = oy - 1 + ky, ix = ox - 1 + kx;
              if (iy >= 0 && iy < H && ix >= 0 && ix < W)
                acc += (int64_t)in[(iy * W + ix) * C + c] * f[(ky * K + kx) * C + c];
            }
          if (out[(oy * W + ox) * C + c] != mve_reference(acc, mult[c], shift[c], -32768, 32767)) bad++;
        }
    CHECK(u, bad == 0);
  }
  arena_free(&a);
}

static void test_s16_mve_depthwise(UnitState *u) {
  mve_dw_case(u, 1, 127, 0, 0, 0);        /* fold */
  mve_dw_case(u, 100000, 127, 1, 0, 0);   /* bias beyond the fold bound: TFLite's int64 form */
  mve_dw_case(u, 1000, 127, 0, 0, 1);     /* some channels with t > 32: fold and wide lanes */
}
static void test_s16_mve_depthwise_refused(UnitState *u) {
  /* 9 taps of |w| <= 127 cannot leave int32 sums; a bias of 2^48 is beyond the int64 form's 2^47 */
  mve_dw_case(u, (int64_t)1 << 40, 127, 0, 1, 0);
}

const UnitTest s16_mve_tests[] = {
    {"s16_mve_gemm_fold", test_s16_mve_gemm_fold},
    {"s16_mve_gemm_fold_wide_fix", test_s16_mve_gemm_fold_wide_fix},
    {"s16_mve_gemm_int64_form", test_s16_mve_gemm_int64_form},
    {"s16_mve_gemm_int64_sums", test_s16_mve_gemm_int64_sums},
    {"s16_mve_depthwise", test_s16_mve_depthwise},
    {"s16_mve_depthwise_refused", test_s16_mve_depthwise_refused},
    {NULL, NULL},
};
