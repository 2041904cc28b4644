/* Differential check of the int8 Cortex-M55 convolution (ta_conv_s8_mve) against a scalar
 * model of the same tables (the window's taps, padded ones at the zero point, times the
 * re-laid weights plus the folded bias, then TFLite's requantisation: ta_requantize),
 * bare metal on QEMU mps3-an547, run by tests/suites/conv_tiers_m55.sh. Random geometries aimed at
 * the pair runs (docs/kernels.md): 3-row windows of 16 / 32 / 48 channels, padding 0-2,
 * stride and dilation 1-2, widths 1-10 (odd runs of pixels, borders left and right),
 * 1x1 layers of a multiple of 64 channels, windows of 33-48 values read through offsets;
 * rows mostly a multiple of 4; all four
 * requantisation modes. Prints checked= and mismatches=, exits 0 only without a mismatch. */
#include <string.h>

#include "harness.h"
#include "ta_gemm_mve.h"

uint32_t ta_bench_sp_at_call; /* startup.S writes it (unused here) */

enum { ROUNDS = 300, MAX_IN = 10 * 10 * 48, MAX_ROWS = 24, MAX_DEPTH = 9 * 48, MAX_OUT = 10 * 10 * MAX_ROWS };

static uint32_t rng_state = 0x2545f491u;
static uint32_t rng(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
  return rng_state;
}
static int32_t rng_range(int32_t lo, int32_t hi) { return lo + (int32_t)(rng() % (uint32_t)(hi - lo + 1)); }

static int8_t input[MAX_IN];
static int8_t weights[(MAX_ROWS + 3) / 4 * 4 * MAX_DEPTH];
static int32_t quant[(MAX_ROWS + 3) / 4 * 12];
static int8_t scratch[MAX_DEPTH], want[MAX_OUT], got[MAX_OUT + 16];
static uint32_t checked, mismatches;

/* Weight (row r, value k) in the re-laid form of ta_gemm_mve.h. */
static int8_t *weight_at(int32_t r, int32_t k, int32_t depth) {
  const int32_t padded = (depth + 15) & ~15;
  return &weights[(r >> 2) * 4 * padded + (k >> 4) * 64 + (r & 3) * 16 + (k & 15)];
}

static void conv_case(void) {
  ta_im2col_geom_t g;
  ta_gemm_mve_params_t p;
  const uint32_t shape = rng() % 6u;
  const int one = shape == 0; /* 1x1, 64 or 128 channels: the 1-segment run */
  memset(&g, 0, sizeof g);
  g.batches = 1;
  if (one) {
    g.k_h = g.k_w = 1, g.in_c = 64 * rng_range(1, 2), g.pad_h = g.pad_w = 0, g.dil_h = g.dil_w = 1;
    g.in_h = rng_range(1, 4), g.in_w = rng_range(1, 5);
  } else if (shape == 1) { /* 33-48 values through offsets (1x1 in place, 3x3 of 5 channels) */
    const int k1 = rng() % 2u == 0;
    g.k_h = g.k_w = k1 ? 1 : 3, g.in_c = k1 ? rng_range(33, 48) : 5;
    g.pad_h = g.pad_w = k1 ? 0 : rng_range(0, 1), g.dil_h = g.dil_w = 1;
    g.in_h = rng_range(1, 6), g.in_w = rng_range(1, 10);
  } else {
    const uint32_t kind = rng() % 4u;
    g.k_h = 3, g.k_w = kind == 3 ? 1 : 3;
    g.in_c = kind == 3 ? 48 : 16 * (int32_t)(kind + 1);
    g.pad_h = rng_range(0, 2), g.pad_w = g.k_w == 1 ? rng_range(0, 1) : rng_range(0, 2);
    g.dil_h = rng() % 4u ? 1 : 2, g.dil_w = rng() % 4u ? 1 : 2;
    g.in_h = rng_range(1, 6), g.in_w = rng_range(1, 10);
    if (g.in_c > 16) g.in_h = rng_range(1, 4), g.in_w = rng_range(1, 6);
  }
  g.stride_h = rng_range(1, 2), g.stride_w = rng_range(1, 2);
  const int32_t eh = (g.k_h - 1) * g.dil_h + 1, ew = (g.k_w - 1) * g.dil_w + 1;
  if (g.in_h + 2 * g.pad_h < eh) g.pad_h = (eh - g.in_h + 1) / 2;
  if (g.in_w + 2 * g.pad_w < ew) g.pad_w = (ew - g.in_w + 1) / 2;
  g.out_h = (g.in_h + 2 * g.pad_h - eh) / g.stride_h + 1, g.out_w = (g.in_w + 2 * g.pad_w - ew) / g.stride_w + 1;
  g.pad_value = rng_range(-128, 127);
  g.direct = g.k_h == 1 && g.k_w == 1 && g.pad_h == 0 && g.pad_w == 0;
  g.chunk = 1, g.window = g.k_h * g.k_w * g.in_c;
  p.rows = rng() % 5u ? 4 * rng_range(1, MAX_ROWS / 4) : rng_range(1, MAX_ROWS);
  p.depth = g.k_h * g.k_w * g.in_c;
  p.output_offset = rng_range(-128, 127);
  const uint32_t mode = rng() % 4u;
  p.left_shift = (int32_t)(mode >> 1);
  p.act_min = -128, p.act_max = 127;
  if (mode & 1u) p.act_min = rng() % 2u ? -128 : rng_range(-128, p.output_offset - 1 < -128 ? -128 : p.output_offset - 1);
  else p.act_min = p.output_offset < 127 ? rng_range(p.output_offset, 127) : 127, p.act_max = 127;
  if (rng() % 3u == 0) p.act_max = rng_range(p.act_min, 127);
  p.negative_fix = p.act_min < p.output_offset;
  memset(weights, 0, sizeof weights);
  memset(quant, 0, sizeof quant);
  for (int32_t r = 0; r < p.rows; r++) {
    for (int32_t k = 0; k < p.depth; k++) *weight_at(r, k, p.depth) = (int8_t)rng_range(-127, 127);
    int32_t *q = quant + (r >> 2) * 12 + (r & 3);
    q[0] = rng_range(-200000, 200000), q[4] = rng_range(1 << 29, (int32_t)0x7fffffff);
    q[8] = p.left_shift && rng() % 2u ? rng_range(1, 2) : -rng_range(6, 14);
  }
  p.quant = quant;
  const int32_t in_n = g.in_h * g.in_w * g.in_c;
  for (int32_t i = 0; i < in_n; i++) input[i] = (int8_t)rng();
  for (int32_t oy = 0; oy < g.out_h; oy++)
    for (int32_t ox = 0; ox < g.out_w; ox++)
      for (int32_t r = 0; r < p.rows; r++) {
        const int32_t *q = quant + (r >> 2) * 12 + (r & 3);
        int32_t acc = q[0];
        for (int32_t ky = 0, k = 0; ky < g.k_h; ky++)
          for (int32_t kx = 0; kx < g.k_w; kx++)
            for (int32_t c = 0; c < g.in_c; c++, k++) {
              const int32_t iy = oy * g.stride_h - g.pad_h + ky * g.dil_h, ix = ox * g.stride_w - g.pad_w + kx * g.dil_w;
              const int32_t v = iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w
                                    ? g.pad_value
                                    : input[(iy * g.in_w + ix) * g.in_c + c];
              acc += v * *weight_at(r, k, p.depth);
            }
        const int32_t v = ta_requantize(acc, q[4], q[8]) + p.output_offset;
        want[(oy * g.out_w + ox) * p.rows + r] = (int8_t)ta_clamp(v, p.act_min, p.act_max);
      }
  const int32_t n = g.out_h * g.out_w * p.rows;
  memset(got, 0x5a, sizeof got);
  ta_conv_s8_mve(&p, &g, input, weights, scratch, got);
  for (int32_t i = 0; i < n; i++, checked++) mismatches += got[i] != want[i];
  for (int32_t i = n; i < n + 16; i++) mismatches += got[i] != 0x5a; /* nothing written past the output */
}

int ta_harness_main(void) {
  for (int32_t round = 0; round < ROUNDS; round++) conv_case();
  ta_print_u32("checked", checked);
  ta_print_u32("mismatches", mismatches);
  return mismatches ? 1 : 0;
}
