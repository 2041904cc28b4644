/* The Cortex-M4 FULLY_CONNECTED stream (ta_gemm_dsp.h `fcs`, src/ops/tiers/gemm_dsp.c
 * gemm_dsp_use_fcs): its compile-time table walked for the host exactly as the assembly
 * walks it (SMLADs over the unpacked input, doubled accumulators, SMMLAR's high word of
 * a * m + 2K, the negative-rounding fix always applied, >> r, int8 saturation), and as the C
 * form does (the fix only with neg_fix): every output equals TFLite's requantisation of the
 * same dot product, over random weights, inputs at the int8 extremes, per-channel or
 * per-tensor multipliers (0.5 exactly for rounding ties), right shifts 1..23, zero points
 * -128 (neg_fix 0) and others; layers the stream cannot take must keep the block loop.
 * The instructions themselves run on QEMU (tests/suites/conv_tiers_m4.sh, ad). */
#include <stdlib.h>
#include <string.h>

#include "../../runtime/kernels/ta_common.h"
#include "common/arena.h"
#include "ops/tiers/gemm_tier.h"
#include "unit.h"

typedef struct FcsRng {
  uint32_t s;
} FcsRng;

static int32_t fcs_rand(FcsRng *r, int32_t lo, int32_t hi) { /* [lo, hi] */
  r->s = r->s * 1664525u + 1013904223u;
  return lo + (int32_t)((r->s >> 8) % (uint32_t)(hi - lo + 1));
}

/* SMLAD: both signed 16-bit products added to acc (wrapping like the instruction). */
static int32_t fcs_smlad(int32_t x, int32_t w, int32_t acc) {
  const int32_t p = (int32_t)(int16_t)(x & 0xFFFF) * (int16_t)(w & 0xFFFF) +
                    (int32_t)(int16_t)((uint32_t)x >> 16) * (int16_t)((uint32_t)w >> 16);
  return (int32_t)((uint32_t)acc + (uint32_t)p);
}

/* SXTB16 of the word of bytes b[0..3], without and with ROR #8. */
static int32_t fcs_pair(int8_t a, int8_t b) { return (int32_t)(((uint32_t)(uint16_t)a) | ((uint32_t)(uint16_t)b << 16)); }

/* One vector through the stream: `fix` 1 as the assembly (always), 0 as the C form with neg_fix 0. */
static void fcs_walk(const GemmPlan *g, const int8_t *x, int fix, int8_t *out) {
  const int32_t *s = g->fcs, groups = g->depth / 4;
  for (int32_t r = 0; r < g->rows; r += 4) {
    int32_t a[4] = {s[0], s[1], s[2], s[3]};
    s += 4;
    for (int32_t k = 0; k < groups; k++, s += 8) {
      const int8_t *v = x + 4 * k;
      const int32_t e = fcs_pair(v[0], v[2]), o = fcs_pair(v[1], v[3]);
      for (int32_t j = 0; j < 4; j++) a[j] = fcs_smlad(o, s[2 * j + 1], fcs_smlad(e, s[2 * j], a[j]));
    }
    for (int32_t j = 0; j < 4; j++, s += 3) { /* SMMLAR: bits 63..32 of hi * 2^32 + a * m + 2^31 */
      const uint64_t sum = ((uint64_t)(uint32_t)s[1] << 32) + (uint64_t)((int64_t)a[j] * s[0]) + 0x80000000u;
      int32_t hi = (int32_t)(uint32_t)(sum >> 32);
      if (fix) hi += a[j] < 0 ? -1 : 0;
      out[r + j] = (int8_t)ta_clamp(hi >> s[2], -128, 127);
    }
  }
}

/* One random layer: rows x depth, per-channel or not, multipliers (0.5 for ties) and right
 * shifts in [1, max_right], output zero point zp, activation [act_min, 127]; checks the stream
 * (when `want` it must be laid out) against TFLite on `vectors` random inputs. */
static void fcs_case(UnitState *u, FcsRng *r, int32_t rows, int32_t depth, int per_channel, int half, int32_t max_right,
                     int32_t zp, int32_t act_min, int want) {
  enum { MAX_ROWS = 16, MAX_DEPTH = 640 };
  static int8_t w[MAX_ROWS * MAX_DEPTH], x[MAX_DEPTH];
  int32_t bias[MAX_ROWS], mult[MAX_ROWS], shift[MAX_ROWS];
  int8_t got[MAX_ROWS], c_got[MAX_ROWS];
  for (int32_t i = 0; i < rows * depth; i++) w[i] = (int8_t)fcs_rand(r, -128, 127);
  for (int32_t i = 0; i < rows; i++) {
    bias[i] = fcs_rand(r, -40000, 40000);
    mult[i] = half ? 1 << 30 : fcs_rand(r, 1 << 30, 0x7FFFFFFF);
    shift[i] = -fcs_rand(r, 1, max_right);
  }
  if (fcs_rand(r, 0, 3) == 0) mult[0] = 0; /* multiplier 0: the zero point whatever the shift */
  Arena arena;
  arena_init(&arena);
  GemmPlan g;
  CHECK(u, gemm_plan(&arena, GEMM_DSP, rows, depth, w, bias, per_channel ? mult : NULL, per_channel ? shift : NULL,
                     mult[0], shift[0], zp, act_min, 127, &g));
  CHECK(u, gemm_dsp_use_fcs(&arena, &g, w));
  CHECK(u, (g.fcs != NULL) == (want != 0));
  if (g.fcs) {
    CHECK(u, g.n_fcs == (size_t)(rows / 4) * (size_t)(4 + 2 * depth + 12));
    for (int vec = 0; vec < 6; vec++) {
      for (int32_t i = 0; i < depth; i++)
        x[i] = (int8_t)(vec == 0 ? -128 : vec == 1 ? 127 : vec == 2 ? (i & 1 ? 127 : -128) : fcs_rand(r, -128, 127));
      fcs_walk(&g, x, 1, got);
      fcs_walk(&g, x, g.neg_fix != 0, c_got);
      for (int32_t i = 0; i < rows; i++) {
        int32_t acc = bias[i];
        for (int32_t k = 0; k < depth; k++) acc += (int32_t)x[k] * w[(size_t)i * (size_t)depth + (size_t)k];
        const int32_t m = per_channel ? mult[i] : mult[0], s = per_channel ? shift[i] : shift[0];
        const int32_t want_out = ta_clamp(ta_requantize(acc, m, s) + zp, act_min, 127);
        CHECK(u, got[i] == want_out);
        CHECK(u, c_got[i] == want_out);
      }
    }
  }
  arena_free(&arena);
}

static void test_gemm_fcs_exact(UnitState *u) {
  FcsRng r = {1234u};
  const int32_t depths[3] = {128, 256, 640};
  for (int trial = 0; trial < 48; trial++) {
    const int32_t rows = 4 * fcs_rand(&r, 1, 4), depth = depths[trial % 3];
    const int32_t zp = trial % 4 == 0 ? -128 : fcs_rand(&r, -128, 127);
    fcs_case(u, &r, rows, depth, trial % 5 != 0, trial % 3 == 1, trial % 2 ? 23 : 12, zp, -128, 1);
  }
}

/* What the stream cannot take keeps the block loop: rows not a multiple of 4, a depth not
 * a multiple of 128 or over 640 values, a clamp other than int8's, a shift whose zero point
 * term the rq words cannot fold (rq_zp), a left shift (no rq), a bias too large to double. */
static void test_gemm_fcs_limits(UnitState *u) {
  FcsRng r = {99u};
  fcs_case(u, &r, 6, 128, 1, 0, 12, 3, -128, 0);
  fcs_case(u, &r, 8, 64, 1, 0, 12, 3, -128, 0);
  fcs_case(u, &r, 8, 130, 1, 0, 12, 3, -128, 0);
  fcs_case(u, &r, 8, 128, 1, 0, 12, 3, 3, 0);
  int8_t w[8 * 128];
  int32_t bias[8], mult[8], shift[8];
  memset(w, 1, sizeof w);
  for (int i = 0; i < 8; i++) bias[i] = 0, mult[i] = 1 << 30, shift[i] = -2;
  Arena arena;
  arena_init(&arena);
  GemmPlan g;
  shift[3] = -30; /* r - 1 > 22: rq_zp */
  CHECK(u, gemm_plan(&arena, GEMM_DSP, 8, 128, w, bias, mult, shift, 0, 0, 5, -128, 127, &g));
  CHECK(u, gemm_dsp_use_fcs(&arena, &g, w) && g.fcs == NULL && g.rq_zp != 0);
  shift[3] = 1; /* left shift: no rq */
  CHECK(u, gemm_plan(&arena, GEMM_DSP, 8, 128, w, bias, mult, shift, 0, 0, 5, -128, 127, &g));
  CHECK(u, gemm_dsp_use_fcs(&arena, &g, w) && g.fcs == NULL && g.rq == NULL);
  shift[3] = -2, bias[5] = 1 << 30; /* 2 * acc could leave int32 */
  CHECK(u, gemm_plan(&arena, GEMM_DSP, 8, 128, w, bias, mult, shift, 0, 0, 5, -128, 127, &g));
  CHECK(u, gemm_dsp_use_fcs(&arena, &g, w) && g.fcs == NULL);
  bias[5] = (1 << 30) - 1 - 128 * 128 - 1; /* just inside */
  CHECK(u, gemm_plan(&arena, GEMM_DSP, 8, 128, w, bias, mult, shift, 0, 0, 5, -128, 127, &g));
  CHECK(u, gemm_dsp_use_fcs(&arena, &g, w) && g.fcs != NULL);
  arena_free(&arena);
}

/* The CONV_2D pair stream (ta_gemm_dsp.h `pairs`) of a gathered window whose depth
 * conv_2d.c pads after gemm_plan (to whole groups of 4, issue 29: 3x3 x 5 channels, 45 ->
 * 48): the filter rows stay `w_depth` values apart, the padding is zero weights. Walked as
 * the pair loop walks it (per row pair both biases, per group of 4 values both rows' SXTB16
 * words), every dot product must equal the filter's over the unpadded window, per-tensor and
 * per-channel. */
static void test_gemm_pair_stream_row_length(UnitState *u) {
  FcsRng r = {29u};
  static const int32_t depths[][2] = {{45, 48}, {46, 48}, {47, 48}, {13, 16}, {29, 32}, {63, 64}, {48, 48}};
  for (size_t t = 0; t < sizeof depths / sizeof depths[0]; t++) {
    const int32_t w_depth = depths[t][0], padded = depths[t][1], rows = 8;
    int8_t w[8 * 64], x[64];
    int32_t bias[8], mult[8], shift[8];
    for (int32_t i = 0; i < rows * w_depth; i++) w[i] = (int8_t)fcs_rand(&r, -127, 127);
    for (int32_t i = 0; i < rows; i++)
      bias[i] = fcs_rand(&r, -3000, 3000), mult[i] = fcs_rand(&r, 1 << 30, 0x7FFFFFFF), shift[i] = -fcs_rand(&r, 2, 12);
    Arena arena;
    arena_init(&arena);
    GemmPlan g;
    const int per_channel = (int)(t % 2);
    CHECK(u, gemm_plan(&arena, GEMM_DSP, rows, w_depth, w, bias, per_channel ? mult : NULL, per_channel ? shift : NULL,
                       mult[0], shift[0], -128, -128, 127, &g));
    g.depth = padded; /* as conv_prepare_tier after padding the gathered window */
    CHECK(u, gemm_dsp_use_pairs(&arena, &g, w, w_depth) && g.pairs != NULL);
    if (g.pairs) {
      const int32_t groups = padded / 4, per_pair = 4 + 4 * groups + 8;
      for (int vec = 0; vec < 3; vec++) {
        for (int32_t i = 0; i < padded; i++) x[i] = i < w_depth ? (int8_t)fcs_rand(&r, -128, 127) : 0;
        for (int32_t p = 0; p < rows; p += 2) {
          const int32_t *s = g.pairs + (size_t)(p / 2) * (size_t)per_pair;
          for (int32_t k = 0; k < 2; k++) {
            int32_t acc = s[k], want = bias[p + k];
            for (int32_t q = 0; q < groups; q++) {
              const int8_t *v = x + 4 * q;
              acc = fcs_smlad(fcs_pair(v[0], v[2]), s[4 + 4 * q + 2 * k], acc);
              acc = fcs_smlad(fcs_pair(v[1], v[3]), s[5 + 4 * q + 2 * k], acc);
            }
            for (int32_t i = 0; i < w_depth; i++) want += (int32_t)x[i] * w[(size_t)(p + k) * (size_t)w_depth + (size_t)i];
            CHECK(u, acc == want);
          }
        }
      }
    }
    CHECK(u, !gemm_dsp_pair_stream(&arena, &g, w, padded + 1)); /* rows longer than the stream's depth */
    arena_free(&arena);
  }
}

const UnitTest gemm_fcs_tests[] = {
    {"gemm_dsp_fc_stream_exact", test_gemm_fcs_exact},
    {"gemm_dsp_fc_stream_limits", test_gemm_fcs_limits},
    {"gemm_dsp_pair_stream_row_length", test_gemm_pair_stream_row_length},
    {NULL, NULL},
};
