/* The int16x8 Cortex-M4 tier's compile-time tables (src/ops/tiers/gemm_s16_dsp.c) and its
 * kernels' arithmetic, built for the host (plain C over the same tables): every output
 * equals TFLite's 16x8 reference (int64 bias + dot, ta_requantize64, clamp), in each
 * requantisation form the planner can pick (high word, 64-bit shift, int64 sums). The
 * DSP instructions themselves run on QEMU (tests/suites/s16_tiers_m4.sh). */
#include <string.h>

#include "../../runtime/kernels/ta_addsub_s16_dsp.c"
#include "../../runtime/kernels/ta_depthwise_conv_s16_dsp.c"
#include "../../runtime/kernels/ta_gemm_s16_dsp.c"
#include "../../src/ops/addsub_s16_dsp.h"
#include "../../src/ops/tiers/gemm_s16_dsp.h"
#include "unit.h"

typedef struct S16Rng {
  uint32_t s;
} S16Rng;

static int32_t s16_rand(S16Rng *r, int32_t lo, int32_t hi) { /* [lo, hi] */
  r->s = r->s * 1664525u + 1013904223u;
  return lo + (int32_t)((r->s >> 8) % (uint32_t)(hi - lo + 1));
}

/* An int64 bias tensor over `bytes` (little-endian). */
static Tensor s16_bias(uint8_t *bytes, const int64_t *v, int32_t n) {
  Tensor t;
  memset(&t, 0, sizeof t);
  for (int32_t i = 0; i < n; i++)
    for (int b = 0; b < 8; b++) bytes[8 * i + b] = (uint8_t)((uint64_t)v[i] >> (8 * b));
  t.type = TT_INT64, t.data = bytes, t.elems = n, t.bytes = (size_t)n * 8;
  return t;
}

static ta_s16_dsp_requant_t s16_kernel_q(const S16Requant *q) {
  ta_s16_dsp_requant_t k = {q->rq, q->hi ? 1 : 0, q->act_min, q->act_max, 0};
  k.sat = q->act_min == -32768 && q->act_max == 32767 ? 1 : q->act_min == 0 && q->act_max == 32767 ? 2 : 0;
  return k;
}

static int16_t s16_reference(int64_t acc, int32_t m, int32_t s, int32_t lo, int32_t hi) {
  return (int16_t)ta_clamp(ta_requantize64(acc, m, s), lo, hi);
}

enum { ROWS = 7, DEPTH = 601 };

/* One matrix layer: rows 7 (a block of 4 and 3 single rows), odd depth, per-row
 * multipliers and shifts; `big` weights force int64 sums. Checks the planner chose
 * `want_hi` / `want_acc64` and every output of 3 input vectors. */
static void s16_gemm_case(UnitState *u, const int32_t *shift, int32_t w_lo, int32_t w_hi, int32_t depth, int want_hi,
                          int want_acc64, int32_t act_min) {
  static int8_t w[ROWS * DEPTH];
  static int16_t x[3 * DEPTH];
  int16_t out[3 * ROWS];
  int64_t bias[ROWS];
  int32_t mult[ROWS];
  uint8_t bias_bytes[8 * ROWS];
  S16Rng r = {12345u + (uint32_t)depth};
  for (int32_t i = 0; i < ROWS * depth; i++) w[i] = (int8_t)s16_rand(&r, w_lo, w_hi);
  for (int32_t i = 0; i < 3 * depth; i++) x[i] = (int16_t)s16_rand(&r, -32768, 32767);
  x[0] = -32768, x[1] = 32767;
  for (int32_t i = 0; i < ROWS; i++) {
    bias[i] = (int64_t)s16_rand(&r, -1000000, 1000000) * (i == 3 ? 100000 : 1);
    mult[i] = s16_rand(&r, 1 << 30, 0x7FFFFFFF);
  }
  const Tensor bt = s16_bias(bias_bytes, bias, ROWS);
  Arena a;
  arena_init(&a);
  GemmS16Plan *g = NULL;
  CHECK(u, gemm_s16_dsp_plan(&a, ROWS, depth, w, &bt, mult, shift, 0, 0, act_min, 32767, &g));
  CHECK(u, g != NULL);
  if (g) {
    CHECK(u, g->q.hi == (want_hi != 0));
    CHECK(u, g->q.acc64 == (want_acc64 != 0));
    const ta_gemm_s16_dsp_params_t p = {ROWS, depth, s16_kernel_q(&g->q), g->q.acc64 ? 1 : 0, NULL};
    ta_gemm_s16_dsp(&p, 3, x, g->w32, out);
    int bad = 0;
    for (int32_t v = 0; v < 3; v++)
      for (int32_t row = 0; row < ROWS; row++) {
        int64_t acc = bias[row];
        for (int32_t k = 0; k < depth; k++) acc += (int64_t)x[v * depth + k] * w[row * depth + k];
        if (out[v * ROWS + row] != s16_reference(acc, mult[row], shift[row], act_min, 32767)) bad++;
      }
    CHECK(u, bad == 0);
  }
  arena_free(&a);
}

static void test_s16_gemm_high_word(UnitState *u) {
  const int32_t shift[ROWS] = {-1, -5, -10, -16, -17, -20, -25}; /* t from 16 to 40 */
  s16_gemm_case(u, shift, -20, 20, 101, 1, 0, -32768);
  s16_gemm_case(u, shift, -20, 20, 101, 1, 0, 0);
}

static void test_s16_gemm_wide_shift(UnitState *u) {
  /* t = 5: the scaled multiplier would leave int32, so TFLite's 64-bit shift */
  const int32_t shift[ROWS] = {-3, 10, -8, -12, -2, -6, -9};
  s16_gemm_case(u, shift, -20, 20, 101, 0, 0, -32768);
}

static void test_s16_gemm_int64_sums(UnitState *u) {
  /* sum |w| up to 601 * 127: 2^15 * sum leaves int32 */
  const int32_t shift[ROWS] = {-20, -21, -22, -23, -24, -25, -26};
  s16_gemm_case(u, shift, 100, 127, DEPTH, 0, 1, -32768);
}

/* Depthwise, 6 channels (a group of 4 and a pair), a KH x KW window, stride 2, padding 1
 * on a 5x7 image: clipped windows on every border. The input at a word-aligned address
 * (the LDRD path) and at an odd element offset (the unaligned loop). */
static void s16_depthwise_case(UnitState *u, int kh, int kw, int misalign) {
  enum { C = 6, H = 5, W = 7, OH = 3, OW = 4, KMAX = 3 };
  int32_t xbuf[(H * W * C) / 2 + 1]; /* word aligned */
  int16_t *x = (int16_t *)(void *)xbuf + misalign, out[OH * OW * C];
  int8_t w[KMAX * KMAX * C];
  int64_t bias[C];
  int32_t mult[C], shift[C];
  uint8_t bias_bytes[8 * C];
  S16Rng r = {777u + (uint32_t)(kh * 3 + kw)};
  for (int i = 0; i < H * W * C; i++) x[i] = (int16_t)s16_rand(&r, -32768, 32767);
  for (int i = 0; i < kh * kw * C; i++) w[i] = (int8_t)s16_rand(&r, -128, 127);
  for (int c = 0; c < C; c++) {
    bias[c] = s16_rand(&r, -100000, 100000);
    mult[c] = s16_rand(&r, 1 << 30, 0x7FFFFFFF);
    shift[c] = -s16_rand(&r, 1, 20);
  }
  const Tensor bt = s16_bias(bias_bytes, bias, C);
  Arena a;
  arena_init(&a);
  DwS16Plan *d = NULL;
  CHECK(u, dw_s16_dsp_plan(&a, C, kh * kw, w, &bt, mult, shift, -32768, 32767, &d));
  CHECK(u, d != NULL);
  if (d) {
    const ta_depthwise_s16_dsp_params_t p = {1, H, W, C, OH, OW, kh, kw, 2, 2, 1, 1, 1, 1, s16_kernel_q(&d->q)};
    ta_depthwise_conv_s16_dsp(&p, x, d->w32, out);
    int bad = 0;
    for (int oy = 0; oy < OH; oy++)
      for (int ox = 0; ox < OW; ox++)
        for (int c = 0; c < C; c++) {
          int64_t acc = bias[c];
          for (int ky = 0; ky < kh; ky++)
            for (int kx = 0; kx < kw; kx++) {
              const int iy = oy * 2 - 1 + ky, ix = ox * 2 - 1 + kx;
              if (iy >= 0 && iy < H && ix >= 0 && ix < W)
                acc += (int64_t)x[(iy * W + ix) * C + c] * w[(ky * kw + kx) * C + c];
            }
          if (out[(oy * OW + ox) * C + c] != s16_reference(acc, mult[c], shift[c], -32768, 32767)) bad++;
        }
    CHECK(u, bad == 0);
  }
  arena_free(&a);
}

static void test_s16_depthwise(UnitState *u) {
  s16_depthwise_case(u, 3, 3, 0);
  s16_depthwise_case(u, 3, 3, 1);
  s16_depthwise_case(u, 3, 2, 0);
  s16_depthwise_case(u, 2, 1, 0);
  int8_t w[9 * 5] = {0};
  int32_t mult[5] = {1 << 30, 1 << 30, 1 << 30, 1 << 30, 1 << 30}, shift[5] = {-1, -1, -1, -1, -1};
  Arena a;
  arena_init(&a);
  /* odd channel counts stay portable */
  DwS16Plan *odd = NULL;
  CHECK(u, dw_s16_dsp_plan(&a, 5, 9, w, NULL, mult, shift, -32768, 32767, &odd));
  CHECK(u, odd == NULL);
  arena_free(&a);
}

/* int16 ADD / SUB (ta_addsub_s16_dsp): for random rescales the compile-time check
 * accepts, every output over the input extremes and random inputs equals TFLite's
 * general-scale arithmetic (ta_requantize of each input << 15, of the sum, clamp). */
static int16_t s16_addsub_reference(const ta_addsub_params_t *p, int32_t a, int32_t b, int subtract) {
  const int32_t sa = ta_requantize(a * (1 << 15), p->in1_multiplier, p->in1_shift);
  const int32_t sb = ta_requantize(b * (1 << 15), p->in2_multiplier, p->in2_shift);
  const int32_t r = ta_requantize(subtract ? sa - sb : sa + sb, p->out_multiplier, p->out_shift) + p->out_offset;
  return (int16_t)ta_clamp(r, p->act_min, p->act_max);
}

static void test_s16_addsub(UnitState *u) {
  enum { N = 41 };
  S16Rng r = {4242u};
  int16_t a[N], b[N], out[N];
  int accepted = 0, bad = 0;
  for (int trial = 0; trial < 400; trial++) {
    EwArith d;
    memset(&d, 0, sizeof d);
    d.left_shift = 15;
    d.in1_multiplier = s16_rand(&r, 1 << 30, 0x7FFFFFFF), d.in1_shift = -s16_rand(&r, 0, 3);
    d.in2_multiplier = s16_rand(&r, 1 << 30, 0x7FFFFFFF), d.in2_shift = -s16_rand(&r, 0, 3);
    d.out_multiplier = s16_rand(&r, 1 << 30, 0x7FFFFFFF), d.out_shift = s16_rand(&r, -18, 2);
    if (trial % 4 >= 2) { /* one input at the larger scale: multiplier 0.5 exactly (the fast loop) */
      int32_t *em = trial % 8 < 4 ? &d.in2_multiplier : &d.in1_multiplier;
      int32_t *es = trial % 8 < 4 ? &d.in2_shift : &d.in1_shift;
      int32_t *os = trial % 8 < 4 ? &d.in1_shift : &d.in2_shift;
      *em = 1 << 30, *es = 0, *os = -s16_rand(&r, 1, 3), d.out_shift = -s16_rand(&r, 1, 18);
    }
    if (trial % 5 == 4) d.out_offset = s16_rand(&r, -32768, 32767); /* refused (issue 29) */
    const int subtract = trial & 1;
    if (!addsub_s16_dsp_fits(&d, subtract != 0)) continue;
    accepted++;
    ta_addsub_params_t p;
    memset(&p, 0, sizeof p);
    p.bc.rank = 1, p.bc.dims[0] = N - (trial & 2) / 2, p.bc.stride1[0] = 1, p.bc.stride2[0] = 1;
    p.in1_multiplier = d.in1_multiplier, p.in1_shift = d.in1_shift;
    p.in2_multiplier = d.in2_multiplier, p.in2_shift = d.in2_shift;
    p.left_shift = 15, p.out_multiplier = d.out_multiplier, p.out_shift = d.out_shift, p.out_offset = d.out_offset;
    p.act_min = trial % 3 == 0 ? 0 : -32768, p.act_max = 32767;
    for (int i = 0; i < N; i++) a[i] = (int16_t)s16_rand(&r, -32768, 32767), b[i] = (int16_t)s16_rand(&r, -32768, 32767);
    a[0] = -32768, b[0] = -32768, a[1] = 32767, b[1] = 32767, a[2] = -32768, b[2] = 32767, a[3] = 0, b[3] = -1;
    if (subtract) ta_sub_s16_dsp(&p, a, b, out);
    else ta_add_s16_dsp(&p, a, b, out);
    for (int i = 0; i < p.bc.dims[0]; i++)
      if (out[i] != s16_addsub_reference(&p, a[i], b[i], subtract)) bad++;
  }
  CHECK(u, accepted > 150);
  CHECK(u, bad == 0);
  /* refused: a left shift other than 15, a non-zero input offset, a non-zero output offset
   * (the kernel adds none: issue 29, int16 ADD/SUB with an output zero point on Cortex-M4) */
  EwArith d;
  memset(&d, 0, sizeof d);
  d.left_shift = 20, d.in1_multiplier = d.in2_multiplier = d.out_multiplier = 1 << 30;
  CHECK(u, !addsub_s16_dsp_fits(&d, false));
  d.left_shift = 15, d.in1_offset = 3;
  CHECK(u, !addsub_s16_dsp_fits(&d, false));
  d.in1_offset = 0, d.out_offset = -5;
  CHECK(u, !addsub_s16_dsp_fits(&d, false));
  CHECK(u, !addsub_s16_dsp_fits(&d, true));
}

/* CONV_2D with a gathered window of depth 27 (3x3, 3 channels, SAME padding): the planner
 * pads the depth to 32 with zero weights (high-word form, SSAT clamp) and ta_conv_s16_dsp
 * zeros the window's tail; every output equals TFLite's. */
static void test_s16_conv_padded_depth(UnitState *u) {
  enum { H = 5, W = 4, C = 3, K = 3, DEP = K * K * C };
  const int32_t shift[ROWS] = {-1, -5, -10, -16, -17, -20, -25};
  static int8_t w[ROWS * DEP];
  static int16_t in[H * W * C], out[H * W * ROWS], scratch[64];
  int64_t bias[ROWS];
  uint8_t bias_bytes[ROWS * 8];
  int32_t mult[ROWS];
  S16Rng r = {4242};
  for (int32_t i = 0; i < ROWS * DEP; i++) w[i] = (int8_t)s16_rand(&r, -127, 127);
  for (int32_t i = 0; i < H * W * C; i++) in[i] = (int16_t)s16_rand(&r, -32768, 32767);
  for (int32_t i = 0; i < ROWS; i++) {
    bias[i] = s16_rand(&r, -1000000, 1000000);
    mult[i] = s16_rand(&r, 1 << 30, 0x7FFFFFFF);
  }
  for (int32_t i = 0; i < 64; i++) scratch[i] = 0x5A5A; /* garbage where the tail goes */
  const Tensor bt = s16_bias(bias_bytes, bias, ROWS);
  Arena a;
  arena_init(&a);
  GemmS16Plan *g = NULL;
  CHECK(u, gemm_s16_dsp_plan(&a, ROWS, DEP, w, &bt, mult, shift, 0, 0, -32768, 32767, &g));
  CHECK(u, g != NULL);
  if (g) {
    CHECK(u, g->q.hi);
    CHECK(u, gemm_s16_dsp_pad_depth(&a, g, w));
    CHECK(u, g->depth == 32);
    ta_s16_dsp_requant_t q = s16_kernel_q(&g->q);
    q.sat = 1;
    const ta_gemm_s16_dsp_params_t p = {ROWS, g->depth, q, 0, NULL};
    const ta_conv_s16_dsp_geom_t geo = {1, H, W, C, H, W, K, K, 1, 1, 1, 1, 1, 1, 0};
    ta_conv_s16_dsp(&p, &geo, in, g->w32, scratch, out);
    int bad = 0;
    for (int32_t oy = 0; oy < H; oy++)
      for (int32_t ox = 0; ox < W; ox++)
        for (int32_t row = 0; row < ROWS; row++) {
          int64_t acc = bias[row];
          for (int32_t ky = 0; ky < K; ky++)
            for (int32_t kx = 0; kx < K; kx++)
              for (int32_t c = 0; c < C; c++) {
                const int32_t iy = oy + ky - 1, ix = ox + kx - 1;
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                acc += (int64_t)in[(iy * W + ix) * C + c] * w[row * DEP + (ky * K + kx) * C + c];
              }
          if (out[(oy * W + ox) * ROWS + row] != s16_reference(acc, mult[row], shift[row], -32768, 32767)) bad++;
        }
    CHECK(u, bad == 0);
  }
  arena_free(&a);
}

const UnitTest s16_dsp_tests[] = {
    {"s16_addsub", test_s16_addsub},
    {"s16_gemm_high_word", test_s16_gemm_high_word},
    {"s16_conv_padded_depth", test_s16_conv_padded_depth},
    {"s16_gemm_wide_shift", test_s16_gemm_wide_shift},
    {"s16_gemm_int64_sums", test_s16_gemm_int64_sums},
    {"s16_depthwise", test_s16_depthwise},
    {NULL, NULL},
};
