/* Differential check of the int16x8 Cortex-M55 kernels' MVE loops (ta_conv_s16_mve,
 * ta_gemm_s16_mve, ta_depthwise_conv_s16_mve) against the same files built without MVE
 * (their plain-C paths, renamed ref_*; tests/unit/test_s16_mve.c proves those equal to
 * TFLite's 16x8 reference over the planner's tables), bare metal on QEMU mps3-an547, run
 * by tests/suites/s16_tiers_m55.sh. Random geometries (1x1 direct, 3x3 with and without padding
 * and stride, 1 to 16 input channels, 1 to 13 or 30 to 40 rows), random tables in the fold form with
 * some rows in the wide form and some in the int64 fix list (or the whole layer in
 * TFLite's int64 form), random inputs with the int16 extremes. Prints checked= and
 * mismatches=, exits 0 only without a mismatch. */
#include <string.h>

#include "harness.h"
#include "ta_depthwise_conv_s16_mve.h"
#include "ta_gemm_s16_mve.h"

void ref_conv_s16_mve(const ta_gemm_s16_mve_params_t *p, const ta_conv_s16_mve_geom_t *g, const int16_t *input,
                      const int8_t *weights, void *scratch, int16_t *output);
void ref_gemm_s16_mve(const ta_gemm_s16_mve_params_t *p, int32_t count, const int16_t *input, const int8_t *weights,
                      int16_t *output);
void ref_depthwise_conv_s16_mve(const ta_depthwise_s16_mve_params_t *p, const int16_t *input, const int8_t *filter,
                                int16_t *output);

uint32_t ta_bench_sp_at_call; /* startup.S writes it (unused here) */

enum { ROUNDS = 400, MAX_IN = 8 * 8 * 20, MAX_ROWS = 40, MAX_DEPTH = 144, MAX_OUT = 9 * 9 * 40 };

static uint32_t rng_state = 0x9e3779b9u;
static uint32_t rng(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
  return rng_state;
}
static int32_t rng_range(int32_t lo, int32_t hi) { return lo + (int32_t)(rng() % (uint32_t)(hi - lo + 1)); }

static int16_t input[MAX_IN];
static int8_t weights[MAX_ROWS * MAX_DEPTH];
static int32_t bias[MAX_ROWS], mult[MAX_ROWS], wide[4 * MAX_ROWS], fix[5 * MAX_ROWS], rq[4 * MAX_ROWS];
static int16_t scratch[2 * MAX_DEPTH], want[MAX_OUT], got[MAX_OUT];
static uint32_t checked, mismatches;

static void fill_input(int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    const uint32_t k = rng() % 8u;
    input[i] = k == 0 ? -32768 : k == 1 ? 32767 : (int16_t)rng();
  }
}

/* Weights [rows / 4][stride / 8][4][8], zero past depth and past rows. */
static void fill_weights(int32_t rows, int32_t depth, int32_t stride) {
  memset(weights, 0, sizeof weights);
  for (int32_t r = 0; r < rows; r++)
    for (int32_t k = 0; k < depth; k++)
      weights[(r >> 2) * 4 * stride + (k >> 3) * 32 + (r & 3) * 8 + (k & 7)] = (int8_t)rng_range(-20, 20);
}

/* The fold form with some wide and some fix rows, or (one case in 5) TFLite's int64 form. */
static void fill_tables(ta_gemm_s16_mve_params_t *p, int32_t rows) {
  const int general = rng() % 5u == 0;
  memset(wide, 0, sizeof wide);
  p->bias = p->mult = p->rq = p->wide = p->fix = NULL;
  p->n_fix = 0, p->acc64 = 0;
  if (general) {
    for (int32_t r = 0; r < rows; r++) {
      rq[4 * r] = (int32_t)rng(), rq[4 * r + 1] = rng_range(-1000, 1000);
      rq[4 * r + 2] = rng_range(1, 32767), rq[4 * r + 3] = rng_range(16, 40);
    }
    p->rq = rq, p->acc64 = (int32_t)(rng() % 2u);
    return;
  }
  const int with_wide = rng() % 2u == 0;
  for (int32_t r = 0; r < (rows + 3) / 4 * 4; r++) {
    bias[r] = rng_range(-100000, 100000), mult[r] = rng_range(1 << 16, 1 << 30);
    if (r >= rows) continue;
    if (with_wide && rng() % 3u == 0) {
      int32_t *q = wide + 16 * (r >> 2) + (r & 3);
      bias[r] = mult[r] = 0;
      q[0] = rng_range(1, 32767), q[4] = rng_range(-100000, 100000), q[8] = (int32_t)rng();
      q[12] = -rng_range(1, 20);
    } else if (rng() % 6u == 0) {
      int32_t *f = fix + 5 * p->n_fix++;
      f[0] = r, f[1] = (int32_t)rng(), f[2] = rng_range(-1000, 1000), f[3] = rng_range(1, 32767);
      f[4] = rng_range(16, 40);
    }
  }
  p->bias = bias, p->mult = mult, p->wide = with_wide ? wide : NULL, p->fix = p->n_fix ? fix : NULL;
}

static void compare(int32_t n) {
  for (int32_t i = 0; i < n; i++, checked++) mismatches += got[i] != want[i];
}

static void conv_case(void) {
  ta_conv_s16_mve_geom_t g;
  ta_gemm_s16_mve_params_t p;
  const int32_t k = rng() % 2u ? 3 : 1;
  g.batches = 1, g.in_h = rng_range(1, 8), g.in_w = rng_range(1, 8), g.in_c = rng() % 2u ? rng_range(1, 4) : 8 * rng_range(1, 2);
  g.k_h = g.k_w = k, g.dil_h = g.dil_w = 1;
  g.stride_h = rng_range(1, 2), g.stride_w = rng_range(1, 2);
  g.pad_h = g.pad_w = k == 3 ? rng_range(0, 1) : 0;
  if (g.in_h + 2 * g.pad_h < k || g.in_w + 2 * g.pad_w < k) g.pad_h = g.pad_w = 1, g.in_h = g.in_w = TA_MAX(g.in_h, 3);
  g.out_h = (g.in_h + 2 * g.pad_h - k) / g.stride_h + 1, g.out_w = (g.in_w + 2 * g.pad_w - k) / g.stride_w + 1;
  g.direct = k == 1 && g.pad_h == 0;
  p.rows = rng() % 4u ? rng_range(1, 13) : rng_range(30, 40); /* above 32: several pair-loop calls */
  p.depth = k * k * g.in_c, p.stride = (p.depth + 7) & ~7;
  p.act_min = rng() % 2u ? -32768 : rng_range(-32768, 0), p.act_max = rng() % 2u ? 32767 : rng_range(0, 32767);
  fill_tables(&p, p.rows);
  fill_input(g.in_h * g.in_w * g.in_c);
  fill_weights(p.rows, p.depth, p.stride);
  const int32_t n = g.out_h * g.out_w * p.rows;
  memset(scratch, 0x55, sizeof scratch);
  ref_conv_s16_mve(&p, &g, input, weights, scratch, want);
  memset(scratch, 0x55, sizeof scratch);
  ta_conv_s16_mve(&p, &g, input, weights, scratch, got);
  compare(n);
  /* the same matrix as FULLY_CONNECTED over the input's first batch rows */
  const int32_t count = TA_MIN(rng_range(1, 5), (g.in_h * g.in_w * g.in_c) / p.depth);
  if (count > 0) {
    ref_gemm_s16_mve(&p, count, input, weights, want);
    ta_gemm_s16_mve(&p, count, input, weights, got);
    compare(count * p.rows);
  }
}

static void dw_case(void) {
  ta_depthwise_s16_mve_params_t p;
  static int32_t dw_rq[16 * 3], dw_general[4 * 20], dw_wide[32 * 3];
  static int8_t filter[3 * 9 * 8];
  const int32_t k = rng() % 3u ? 3 : 2;
  p.batches = 1, p.in_h = rng_range(2, 8), p.in_w = rng_range(2, 8), p.channels = rng_range(1, 20);
  p.k_h = p.k_w = k;
  if (rng() % 4u == 0) p.k_w = 1, p.k_h = rng_range(2, 5), p.in_h = TA_MAX(p.in_h, 5); /* one-column filters */
  p.dil_h = p.dil_w = 1, p.stride_h = rng_range(1, 2), p.stride_w = rng_range(1, 2);
  p.pad_h = p.pad_w = rng_range(0, 1);
  p.out_h = (p.in_h + 2 * p.pad_h - p.k_h) / p.stride_h + 1, p.out_w = (p.in_w + 2 * p.pad_w - p.k_w) / p.stride_w + 1;
  p.act_min = rng() % 2u ? -32768 : rng_range(-32768, 0), p.act_max = rng() % 2u ? 32767 : rng_range(0, 32767);
  for (int32_t i = 0; i < 16 * 3; i++) dw_rq[i] = i % 16 < 8 ? rng_range(-100000, 100000) : rng_range(1 << 16, 1 << 30);
  p.rq = dw_rq, p.general = NULL, p.wide = NULL;
  if (rng() % 3u == 0) { /* some channels in the wide form (bias and m 0 there) */
    memset(dw_wide, 0, sizeof dw_wide);
    for (int32_t c = 0; c < p.channels; c++) {
      if (rng() % 3u) continue;
      int32_t *lane = dw_wide + (c / 8) * 32 + 4 * (c & 1) + ((c & 7) >> 1);
      int32_t *blk = dw_rq + (c / 8) * 16;
      blk[4 * (c & 1) + ((c & 7) >> 1)] = 0, blk[8 + 4 * (c & 1) + ((c & 7) >> 1)] = 0;
      lane[0] = rng_range(1, 32767), lane[8] = rng_range(-100000, 100000), lane[16] = (int32_t)rng();
      lane[24] = -rng_range(1, 30);
    }
    p.wide = dw_wide;
  } else if (rng() % 4u == 0) {
    for (int32_t c = 0; c < p.channels; c++) {
      dw_general[4 * c] = (int32_t)rng(), dw_general[4 * c + 1] = rng_range(-1000, 1000);
      dw_general[4 * c + 2] = rng_range(1, 32767), dw_general[4 * c + 3] = rng_range(16, 40);
    }
    for (int32_t i = 0; i < 16 * 3; i++) if (i % 16 < 8) dw_rq[i] = 0;
    p.general = dw_general;
  }
  memset(filter, 0, sizeof filter);
  for (int32_t c = 0; c < p.channels; c++)
    for (int32_t t = 0; t < p.k_h * p.k_w; t++)
      filter[((c / 8) * p.k_h * p.k_w + t) * 8 + c % 8] = (int8_t)rng_range(-20, 20);
  fill_input(p.in_h * p.in_w * p.channels);
  ref_depthwise_conv_s16_mve(&p, input, filter, want);
  ta_depthwise_conv_s16_mve(&p, input, filter, got);
  compare(p.out_h * p.out_w * p.channels);
}

int ta_harness_main(void) {
  for (int32_t round = 0; round < ROUNDS; round++) {
    conv_case();
    dw_case();
  }
  ta_print_u32("checked", checked);
  ta_print_u32("mismatches", mismatches);
  return mismatches ? 1 : 0;
}
