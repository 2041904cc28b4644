/* Differential check of the int8 Cortex-M55 depthwise kernel's 16-channel MVE loops
 * (ta_depthwise_conv_mve_s8: the layer form, lanes16 2, and the run loops, lanes16 1)
 * against the same file built without MVE (its plain-C loop over the same tables, renamed
 * ref_depthwise_conv_mve_s8), bare metal on QEMU mps3-an547, run by tests/suites/depthwise_tiers_m55.sh.
 * Random geometries (16 to 70 channels, kernels 1x1 to 5x5 with 3x3 and one column
 * frequent, strides and dilations 1 or 2, padding, one-pixel-wide columns), random
 * tables the compiler could build (border classes as it lists them, weights without
 * -128, per-channel multipliers and shifts) in the simple, sign-only-fix (negative_fix 2)
 * and general requantisations, sometimes a narrower activation range, random inputs with
 * the int8 extremes. Prints checked= and mismatches=, exits 0 only without a mismatch. */
#include <string.h>

#include "harness.h"
#include "ta_depthwise_conv_mve.h"

void ref_depthwise_conv_mve_s8(const ta_depthwise_conv_mve_params_t *p, const int8_t *input, int8_t *output);

uint32_t ta_bench_sp_at_call; /* startup.S writes it (unused here) */

enum { ROUNDS = 300, MAX_HW = 12, MAX_CH = 80, MAX_K = 5, MAX_CLASSES = MAX_K * MAX_K + 1 };

static uint32_t rng_state = 0x2545f491u;
static uint32_t rng(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
  return rng_state;
}
static int32_t rng_range(int32_t lo, int32_t hi) { return lo + (int32_t)(rng() % (uint32_t)(hi - lo + 1)); }

static int8_t input[MAX_HW * MAX_HW * MAX_CH], want[MAX_HW * MAX_HW * MAX_CH], got[MAX_HW * MAX_HW * MAX_CH];
static int8_t weights8[MAX_K * MAX_K * MAX_CH];
static int32_t bias[MAX_CLASSES * MAX_CLASSES * MAX_CH], quant[3 * MAX_CH];
static int16_t rows[3 * MAX_HW], cols[3 * MAX_HW];
static uint32_t checked, mismatches;

/* The compiler's border classes of one axis (dw_axis_classes); returns their count. */
static int32_t axis_classes(int32_t in, int32_t out, int32_t k, int32_t stride, int32_t dil, int32_t pad,
                            int16_t *table) {
  int32_t lo_of[MAX_CLASSES], hi_of[MAX_CLASSES], count = 0;
  for (int32_t o = 0; o < out; o++) {
    const int32_t origin = o * stride - pad;
    int32_t a = 0, b = k, c = 0;
    while (a < b && origin + dil * a < 0) a++;
    while (b > a && origin + dil * (b - 1) >= in) b--;
    while (c < count && (lo_of[c] != a || hi_of[c] != b)) c++;
    if (c == count) lo_of[count] = a, hi_of[count++] = b;
    table[3 * o] = (int16_t)a, table[3 * o + 1] = (int16_t)b, table[3 * o + 2] = (int16_t)c;
  }
  return count;
}

static void one_case(void) {
  ta_depthwise_conv_mve_params_t p;
  memset(&p, 0, sizeof p);
  static const int32_t channel_choice[] = {16, 16, 17, 24, 32, 40, 64, 70};
  const int32_t column = rng() % 4u == 0;
  p.batches = 1;
  p.channels = channel_choice[rng() % 8u];
  p.k_h = rng() % 2u ? 3 : rng_range(1, MAX_K);
  p.k_w = column ? 1 : rng() % 2u ? 3 : rng_range(1, MAX_K);
  p.stride_h = rng_range(1, 2), p.stride_w = rng_range(1, 2);
  p.dil_h = rng() % 4u ? 1 : 2, p.dil_w = rng() % 4u ? 1 : 2;
  p.pad_h = rng_range(0, p.k_h - 1);
  p.pad_w = column ? 0 : rng_range(0, p.k_w - 1);
  p.in_h = rng_range(1, MAX_HW);
  p.in_w = column ? 1 : rng_range(1, MAX_HW);
  const int32_t span_h = p.in_h + 2 * p.pad_h - p.dil_h * (p.k_h - 1), span_w = p.in_w + 2 * p.pad_w - p.dil_w * (p.k_w - 1);
  if (span_h < 1 || span_w < 1) return;
  p.out_h = (span_h - 1) / p.stride_h + 1;
  p.out_w = (span_w - 1) / p.stride_w + 1;
  if (p.out_h > MAX_HW || p.out_w > MAX_HW) return;
  const int32_t row_classes = axis_classes(p.in_h, p.out_h, p.k_h, p.stride_h, p.dil_h, p.pad_h, rows);
  p.col_classes = axis_classes(p.in_w, p.out_w, p.k_w, p.stride_w, p.dil_w, p.pad_w, cols);
  const int32_t groups = (p.channels + 15) / 16, padded = 16 * groups, taps = p.k_h * p.k_w;
  /* requantisation: 0 simple, 1 sign-only fix (every right shift > 0), 2 general */
  const int32_t mode = (int32_t)(rng() % 3u);
  p.negative_fix = mode == 1 ? 2 : mode == 2 ? (int32_t)(rng() % 2u) : 0;
  p.simple = mode == 0;
  p.no_left_shift = mode != 2;
  p.output_zero_point = rng_range(-128, 127);
  p.act_min = -128, p.act_max = 127;
  if (rng() % 6u == 0) p.act_min = rng_range(-128, 0), p.act_max = rng_range(1, 127);
  p.lanes16 = rng() % 4u ? 2 : 1;
  for (int32_t i = 0; i < groups * taps * 16; i++) weights8[i] = (int8_t)rng_range(-127, 127);
  for (int32_t i = 0; i < row_classes * p.col_classes * padded; i++) bias[i] = rng_range(-(1 << 18), 1 << 18);
  for (int32_t g = 0; g < groups; g++)
    for (int32_t j = 0; j < 16; j++) {
      int32_t *q = quant + 48 * g + j;
      q[0] = (int32_t)(0x40000000u + (rng() & 0x3fffffffu));
      q[16] = mode == 2 && rng() % 3u == 0 ? rng_range(1, 3) : 0;
      q[32] = -(mode == 1 ? rng_range(1, 12) : rng_range(0, 12));
    }
  p.rows = rows, p.cols = cols, p.bias = bias, p.quant = quant, p.weights8 = weights8;
  const int32_t n_in = p.in_h * p.in_w * p.channels, n_out = p.out_h * p.out_w * p.channels;
  for (int32_t i = 0; i < n_in; i++) {
    const uint32_t k = rng() % 8u;
    input[i] = k == 0 ? -128 : k == 1 ? 127 : (int8_t)rng();
  }
  memset(want, 0x55, sizeof want);
  memset(got, 0x55, sizeof got);
  ref_depthwise_conv_mve_s8(&p, input, want);
  ta_depthwise_conv_mve_s8(&p, input, got);
  checked += (uint32_t)n_out;
  for (int32_t i = 0; i < n_out + 16 && i < (int32_t)sizeof got; i++)
    if (want[i] != got[i]) mismatches++;
}

int ta_harness_main(void) {
  for (int32_t round = 0; round < ROUNDS; round++) one_case();
  ta_print_u32("checked", checked);
  ta_print_u32("mismatches", mismatches);
  return mismatches ? 1 : 0;
}
