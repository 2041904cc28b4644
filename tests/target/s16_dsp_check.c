/* Differential check of the int16x8 Cortex-M4 kernels' specialised loops (ta_conv_s16_dsp,
 * ta_gemm_s16_dsp, ta_depthwise_conv_s16_dsp built with every TA_S16_DSP_VARIANTS bit)
 * against the same files built with the mask 0 (their general loops, renamed ref_*; the
 * corpus cases prove those exact against TFLite Micro), bare metal on QEMU mps2-an386, run
 * by tests/suites/s16_tiers_m4.sh. Random geometries: depthwise 3x3 with and without padding,
 * strides 1 and 2, 4 to 18 channels (a last pair too), so that every border window shape
 * (3x2, 2x3, 2x2 taps: bit 11) and the complete windows run; matrix layers of depths 8 to
 * 64 (16-value passes: bit 21) and 3x3 convolutions of 8 or 16 channels (windows read in
 * place: bits 10 and 21, gathered at the border); the high-word forms 1 and 2 with the
 * one-instruction clamps (and sometimes the generic one), random requantisation words,
 * inputs with the int16 extremes. Prints checked= and mismatches=, exits 0 only without a
 * mismatch. */
#include <string.h>

#include "harness.h"
#include "ta_depthwise_conv_s16_dsp.h"
#include "ta_gemm_s16_dsp.h"

void ref_conv_s16_dsp(const ta_gemm_s16_dsp_params_t *p, const ta_conv_s16_dsp_geom_t *g, const int16_t *input,
                      const int32_t *weights, void *scratch, int16_t *output);
void ref_gemm_s16_dsp(const ta_gemm_s16_dsp_params_t *p, int32_t count, const int16_t *input,
                      const int32_t *weights, int16_t *output);
void ref_depthwise_conv_s16_dsp(const ta_depthwise_s16_dsp_params_t *p, const int16_t *input, const int32_t *weights,
                                int16_t *output);

uint32_t ta_bench_sp_at_call; /* startup.S writes it (unused here) */

enum { ROUNDS = 300, MAX_IN = 9 * 9 * 18, MAX_ROWS = 40, MAX_WORDS = 40 * 72, MAX_OUT = 9 * 9 * 40 };

static uint32_t rng_state = 0x2545f491u;
static uint32_t rng(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
  return rng_state;
}
static int32_t rng_range(int32_t lo, int32_t hi) { return lo + (int32_t)(rng() % (uint32_t)(hi - lo + 1)); }

static int16_t input[MAX_IN] __attribute__((aligned(8)));
static int32_t weights[MAX_WORDS], rq[4 * MAX_ROWS];
static int16_t scratch[160] __attribute__((aligned(8)));
static int16_t want[MAX_OUT] __attribute__((aligned(8))), got[MAX_OUT] __attribute__((aligned(8)));
static uint32_t checked, mismatches;

static void fill_input(int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    const uint32_t k = rng() % 8u;
    input[i] = k == 0 ? -32768 : k == 1 ? 32767 : (int16_t)rng();
  }
}

/* Words of two int8 weights widened to int16 (w0 | w1 << 16). */
static void fill_weights(int32_t n) {
  for (int32_t i = 0; i < n; i++)
    weights[i] = (int32_t)(((uint32_t)rng_range(-128, 127) & 0xFFFFu) | ((uint32_t)rng_range(-128, 127) << 16));
}

/* A high-word form (1: then >> shift, 2: shift 0) with a one-instruction clamp (sat 1 or 2)
 * or, one case in 6, the generic clamp of a narrower range. */
static ta_s16_dsp_requant_t fill_requant(int32_t rows) {
  ta_s16_dsp_requant_t q;
  q.hi = rng_range(1, 2), q.sat = rng_range(1, 2);
  q.act_min = q.sat == 1 ? -32768 : 0, q.act_max = 32767;
  if (rng() % 6u == 0) q.sat = 0, q.act_min = rng_range(-32768, 0), q.act_max = rng_range(0, 32767);
  const int32_t mag = rng_range(12, 28);
  for (int32_t r = 0; r < rows; r++) {
    rq[4 * r] = (int32_t)rng(), rq[4 * r + 1] = rng_range(-30000, 30000);
    rq[4 * r + 2] = rng_range(-(1 << mag), 1 << mag), rq[4 * r + 3] = q.hi == 2 ? 0 : rng_range(0, 8);
  }
  q.rq = rq;
  return q;
}

static void compare(int32_t n) {
  for (int32_t i = 0; i < n; i++, checked++) mismatches += got[i] != want[i];
  if (n < MAX_OUT && got[n] != 0x5a5a) mismatches++;
}

static void depthwise_round(void) {
  ta_depthwise_s16_dsp_params_t p;
  p.batches = 1, p.in_h = rng_range(1, 9), p.in_w = rng_range(1, 9), p.channels = 2 * rng_range(2, 9);
  p.k_h = 3, p.k_w = 3, p.stride_h = rng_range(1, 2), p.stride_w = rng_range(1, 2), p.dil_h = p.dil_w = 1;
  p.pad_h = rng_range(0, 1), p.pad_w = rng_range(0, 1);
  p.out_h = (p.in_h + 2 * p.pad_h - 3) / p.stride_h + 1, p.out_w = (p.in_w + 2 * p.pad_w - 3) / p.stride_w + 1;
  if (p.in_h + 2 * p.pad_h < 3 || p.in_w + 2 * p.pad_w < 3) return;
  p.q = fill_requant(p.channels);
  fill_input(p.in_h * p.in_w * p.channels);
  fill_weights(9 * p.channels / 2);
  const int32_t n = p.out_h * p.out_w * p.channels;
  got[n] = 0x5a5a;
  ref_depthwise_conv_s16_dsp(&p, input, weights, want);
  ta_depthwise_conv_s16_dsp(&p, input, weights, got);
  compare(n);
}

static void gemm_round(void) {
  ta_gemm_s16_dsp_params_t p;
  p.rows = rng_range(1, MAX_ROWS), p.depth = 8 * rng_range(1, 8), p.acc64 = 0, p.stream = NULL;
  const int32_t count = rng_range(1, 3);
  p.q = fill_requant(p.rows);
  fill_input(count * p.depth);
  fill_weights(p.rows * p.depth / 2);
  got[count * p.rows] = 0x5a5a;
  ref_gemm_s16_dsp(&p, count, input, weights, want);
  ta_gemm_s16_dsp(&p, count, input, weights, got);
  compare(count * p.rows);
}

static void conv_round(void) {
  ta_conv_s16_dsp_geom_t g;
  ta_gemm_s16_dsp_params_t p;
  g.batches = 1, g.in_h = rng_range(3, 9), g.in_w = rng_range(3, 9), g.in_c = rng() % 2u ? 16 : 8;
  g.k_h = g.k_w = 3, g.stride_h = g.stride_w = rng_range(1, 2), g.dil_h = g.dil_w = 1;
  g.pad_h = g.pad_w = rng_range(0, 1), g.direct = 0;
  g.out_h = (g.in_h + 2 * g.pad_h - 3) / g.stride_h + 1, g.out_w = (g.in_w + 2 * g.pad_w - 3) / g.stride_w + 1;
  p.rows = 4 * rng_range(1, 4), p.depth = 9 * g.in_c, p.acc64 = 0, p.stream = NULL;
  p.q = fill_requant(p.rows);
  fill_input(g.in_h * g.in_w * g.in_c);
  fill_weights(p.rows * p.depth / 2);
  const int32_t n = g.out_h * g.out_w * p.rows;
  got[n] = 0x5a5a;
  ref_conv_s16_dsp(&p, &g, input, weights, scratch, want);
  ta_conv_s16_dsp(&p, &g, input, weights, scratch, got);
  compare(n);
}

int ta_harness_main(void) {
  for (int32_t round = 0; round < ROUNDS; round++) {
    depthwise_round();
    gemm_round();
    conv_round();
  }
  ta_print_u32("checked", checked);
  ta_print_u32("mismatches", mismatches);
  return mismatches ? 1 : 0;
}
