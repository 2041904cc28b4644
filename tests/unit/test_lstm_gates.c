/* The int8 LSTM tiers' arithmetic on the host (runtime/kernels/ta_lstm_gates.h,
 * ta_lstm_dsp.c, ta_lstm_mve.c; docs/kernels.md, "int8 LSTM"):
 * - ta_lstm_gate_requantize (one 64-bit multiply-add) equals ta_requantize for every
 *   multiplier >= 0, over random and tie-heavy (multiplier 2^30) values, INT32_MIN, the
 *   multiplier extremes and every shift -31..30;
 * - ta_lstm_gate_requantize_small (SMMULR of 2a and a short rounding shift) too, where
 *   the compiler allows it (|x << shift| < 2^30);
 * - the MVE tier's lane steps, modelled as the instructions define them (VQRDMULH:
 *   saturate((2am + 2^31) >> 32); VQADD; VRSHL by -e: (x + 2^(e-1)) >> e unbounded),
 *   give the same values;
 * - the tiers' host builds (their plain-C loops: the DSP tier on its reordered weights,
 *   the MVE tier on the portable layout) equal the portable ta_lstm_s8 over random
 *   shapes, weights, states and quantisation, time- and batch-major walks.
 * The instructions themselves run on QEMU (tests/suites/lstm_tiers.sh). */
#include <stdlib.h>
#include <string.h>

#include "../../runtime/kernels/ta_lstm.c"
#include "../../runtime/kernels/ta_lstm_dsp.c"
#include "../../runtime/kernels/ta_lstm_mve.c"
#include "ops/fixed_point.h"
#include "unit.h"

typedef struct LgRng {
  uint64_t s;
} LgRng;

static uint32_t lg_next(LgRng *r) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(r->s >> 32);
}
static int32_t lg_range(LgRng *r, int32_t lo, int32_t hi) {
  return lo + (int32_t)(lg_next(r) % (uint32_t)((int64_t)hi - lo + 1));
}

/* A random (x, multiplier >= 0, shift) triple; one in 4 a tie-heavy multiplier of 2^30. */
static void lg_triple(LgRng *r, int32_t *x, int32_t *m, int32_t *shift) {
  const uint32_t kind = lg_next(r) % 8u;
  *x = (int32_t)lg_next(r);
  if (kind == 1) *x = lg_range(r, -70000, 70000);
  if (kind == 2) *x = INT32_MIN;
  *m = (int32_t)(lg_next(r) & 0x7FFFFFFFu);
  if (kind == 3 || kind == 4) *m = 1 << 30;
  if (kind == 5) *m = kind == 5 && (lg_next(r) & 1u) ? 0x7FFFFFFF : 0;
  *shift = lg_range(r, -31, 30);
}

static void test_requantize(UnitState *u) {
  LgRng r = {32};
  int bad = 0;
  for (int i = 0; i < 2000000; i++) {
    int32_t x, m, s;
    lg_triple(&r, &x, &m, &s);
    bad += ta_lstm_gate_requantize(x, m, s) != ta_requantize(x, m, s);
  }
  CHECK(u, bad == 0);
}

/* The MVE tier's requantisation of one lane, instruction by instruction. */
static int32_t lg_vqrdmulh(int32_t a, int32_t b) {
  const int64_t v = (2 * (int64_t)a * b + ((int64_t)1 << 31)) >> 32;
  return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}
static int32_t lg_mve_requantize(int32_t x, int32_t m, int32_t shift) {
  int32_t high = lg_vqrdmulh(shift > 0 ? (int32_t)((uint32_t)x << shift) : x, m);
  if (shift < 0) {
    const int64_t fixed = (int64_t)high + (high < 0 ? -1 : 0); /* VQADD with VSHR #31 */
    const int32_t sat = fixed < INT32_MIN ? INT32_MIN : (int32_t)fixed;
    high = (int32_t)(((int64_t)sat + ((int64_t)1 << (-shift - 1))) >> -shift); /* VRSHL */
  }
  return high;
}

/* The short form, where the compiler allows it: |x << shift| < 2^30, shifts <= 0 too. */
static void test_requantize_small(UnitState *u) {
  LgRng r = {30};
  int bad = 0, n = 0;
  for (int i = 0; i < 2000000; i++) {
    int32_t x, m, s;
    lg_triple(&r, &x, &m, &s);
    const int left = s > 0 ? s : 0;
    x = (int32_t)(x % ((int32_t)1 << (30 - left))); /* |x << left| < 2^30 */
    n++;
    bad += ta_lstm_gate_requantize_small(x, m, s) != ta_requantize(x, m, s);
  }
  CHECK(u, n > 0 && bad == 0);
}

static void test_mve_requantize_steps(UnitState *u) {
  LgRng r = {55};
  int bad = 0;
  for (int i = 0; i < 2000000; i++) {
    int32_t x, m, s;
    lg_triple(&r, &x, &m, &s);
    bad += lg_mve_requantize(x, m, s) != ta_requantize(x, m, s);
  }
  CHECK(u, bad == 0);
}

/* The DSP tier's weight order (ta_lstm_dsp.h) from the portable layout. */
static void lg_reorder_dsp(const int8_t *w, int8_t *out, int32_t in_size, int32_t units) {
  size_t o = 0;
  for (int32_t j = 0; j < units; j++) {
    const int8_t *unit = w + (size_t)j * 4u * (size_t)(in_size + units);
    for (int side = 0; side < 2; side++) {
      const int32_t n = side ? units : in_size;
      const int8_t *base = side ? unit + 4 * in_size : unit;
      for (int32_t c = 0; c < n / 4; c++)
        for (int g = 0; g < 4; g++)
          for (int k = 0; k < 4; k++) out[o++] = base[g * n + c * 4 + k];
      for (int g = 0; g < 4; g++)
        for (int32_t k = n / 4 * 4; k < n; k++) out[o++] = base[g * n + k];
    }
  }
}

static void test_tiers_match_portable(UnitState *u) {
  LgRng r = {7};
  static int16_t table[256];
  fx_sigmoid_nodes_i16(table);
  int bad = 0, small_runs = 0;
  for (int it = 0; it < 300; it++) {
    ta_lstm_s8_params_t p;
    memset(&p, 0, sizeof p);
    const int32_t batches = lg_range(&r, 1, 3);
    p.time_steps = lg_range(&r, 1, 4), p.input_size = lg_range(&r, 1, 37), p.state_size = lg_range(&r, 1, 21);
    const int time_major = (int)(lg_next(&r) & 1u);
    p.sequences = time_major ? 1 : batches, p.rows = time_major ? batches : 1;
    const size_t nw = (size_t)p.state_size * 4u * (size_t)(p.input_size + p.state_size);
    const size_t nx = (size_t)batches * (size_t)p.time_steps * (size_t)p.input_size;
    const size_t ns = (size_t)batches * (size_t)p.state_size, ny = ns * (size_t)p.time_steps;
    int8_t *w = malloc(nw), *wd = malloc(nw), *x = malloc(nx), *h[3], *y[3];
    int32_t *b = malloc((size_t)p.state_size * 8u * sizeof *b);
    int16_t *c[3];
    for (size_t i = 0; i < nw; i++) w[i] = (int8_t)lg_range(&r, -127, 127);
    for (size_t i = 0; i < nx; i++) x[i] = (int8_t)lg_range(&r, -128, 127);
    const int32_t blim = it % 3 == 0 ? 1 << 29 : 200000; /* large: the general DSP form */
    for (int32_t i = 0; i < p.state_size * 8; i++) b[i] = lg_range(&r, -blim, blim);
    lg_reorder_dsp(w, wd, p.input_size, p.state_size);
    for (int g = 0; g < 4; g++) {
      p.in_multiplier[g] = lg_range(&r, 1 << 30, INT32_MAX), p.in_shift[g] = lg_range(&r, -12, 2);
      p.rec_multiplier[g] = lg_range(&r, 1 << 30, INT32_MAX), p.rec_shift[g] = lg_range(&r, -12, 2);
    }
    p.forget_multiplier = 1 << 30, p.forget_shift = -14;
    p.update_multiplier = lg_range(&r, 1 << 30, INT32_MAX), p.update_shift = lg_range(&r, -20, -14);
    p.hidden_multiplier = lg_range(&r, 1 << 30, INT32_MAX), p.hidden_shift = lg_range(&r, -24, -20);
    p.hidden_zero_point = lg_range(&r, -128, 127);
    p.cell_tanh_multiplier = 3, p.cell_tanh_shift = lg_range(&r, 0, 4);
    p.clip_cell = (int32_t)(lg_next(&r) & 1u), p.cell_clip = lg_range(&r, 100, 32767);
    p.weights = w, p.bias = b, p.sigmoid_table = table;
    ta_lstm_s8_tier_params_t q;
    memset(&q, 0, sizeof q);
    q.sequences = p.sequences, q.rows = p.rows, q.time_steps = p.time_steps, q.input_size = p.input_size;
    q.state_size = p.state_size, q.bias = b, q.sigmoid_table = table;
    memcpy(q.in_multiplier, p.in_multiplier, sizeof q.in_multiplier), memcpy(q.in_shift, p.in_shift, sizeof q.in_shift);
    memcpy(q.rec_multiplier, p.rec_multiplier, sizeof q.rec_multiplier);
    memcpy(q.rec_shift, p.rec_shift, sizeof q.rec_shift);
    q.forget_multiplier = p.forget_multiplier, q.forget_shift = p.forget_shift;
    q.update_multiplier = p.update_multiplier, q.update_shift = p.update_shift;
    q.hidden_multiplier = p.hidden_multiplier, q.hidden_shift = p.hidden_shift;
    q.hidden_zero_point = p.hidden_zero_point;
    q.cell_tanh_multiplier = p.cell_tanh_multiplier, q.cell_tanh_shift = p.cell_tanh_shift;
    q.clip_cell = p.clip_cell, q.cell_clip = p.cell_clip;
    /* the compiler's bound (lstm_small_sums): |bias| + 128 sum |w|, shifted, below 2^30 */
    q.small_sums = p.forget_shift <= 0 && p.update_shift <= 0 && p.hidden_shift <= 0;
    for (int32_t j = 0; j < p.state_size; j++)
      for (int g = 0; g < 8; g++) {
        const int32_t n = g < 4 ? p.input_size : p.state_size;
        const int32_t sh = g < 4 ? p.in_shift[g] : p.rec_shift[g - 4];
        const int8_t *row = w + (size_t)j * 4u * (size_t)(p.input_size + p.state_size) +
                            (g < 4 ? (size_t)(g * p.input_size) : (size_t)(4 * p.input_size + (g - 4) * p.state_size));
        int64_t bound = llabs((long long)b[j * 8 + g]);
        for (int32_t k = 0; k < n; k++) bound += 128 * llabs((long long)row[k]);
        if (sh > 0) bound <<= sh;
        if (bound >= ((int64_t)1 << 30)) q.small_sums = 0;
      }
    small_runs += q.small_sums;
    for (int k = 0; k < 3; k++) {
      h[k] = malloc(ns), c[k] = malloc(ns * sizeof(int16_t)), y[k] = malloc(ny);
      for (size_t i = 0; i < ns; i++) h[k][i] = (int8_t)((it * 31 + (int)i) % 256 - 128);
      for (size_t i = 0; i < ns; i++) c[k][i] = (int16_t)((it * 977 + (int)i * 131) % 65536 - 32768);
    }
    ta_lstm_s8(&p, x, h[0], c[0], y[0]);
    q.weights = wd;
    ta_lstm_s8_dsp(&q, x, h[1], c[1], y[1]);
    q.weights = w;
    ta_lstm_s8_mve(&q, x, h[2], c[2], y[2]);
    for (int k = 1; k < 3; k++)
      bad += memcmp(y[0], y[k], ny) != 0 || memcmp(h[0], h[k], ns) != 0 || memcmp(c[0], c[k], ns * 2) != 0;
    for (int k = 0; k < 3; k++) free(h[k]), free(c[k]), free(y[k]);
    free(w), free(wd), free(x), free(b);
  }
  CHECK(u, bad == 0);
  CHECK(u, small_runs > 30 && small_runs < 270); /* both DSP forms ran */
}

const UnitTest lstm_gates_tests[] = {
    {"lstm_gate_requantize", test_requantize},
    {"lstm_gate_requantize_small", test_requantize_small},
    {"lstm_mve_requantize_steps", test_mve_requantize_steps},
    {"lstm_tiers_match_portable", test_tiers_match_portable},
    {NULL, NULL},
};
