/* Differential check of the int8 SVDF tiers (ta_svdf_s8_dsp on Cortex-M4, or ta_svdf_s8_mve
 * with -DSVDF_CHECK_MVE on Cortex-M55) against the portable ta_svdf_s8 (TFLite Micro's integer
 * SVDF, exact against the reference runner), run bare metal on QEMU by
 * tests/suites/svdf_tiers.sh. Each round draws a shape (batches 1-3, rank 1-3, input sizes
 * 1-40, units 1-12, memory 1-20), random weights, parameters and a random starting state
 * with the int16 extremes (so sums wrap modulo 2^32), then invokes both kernels 4 times on
 * their own copies of the state with fresh inputs: the outputs and the states must be the
 * same after every step (the one-step goldens of the corpus cannot see the state shift).
 * Prints checked= and mismatches=, exits 0 only without a mismatch. */
#include "harness.h"
#include "ta_svdf.h"
#ifdef SVDF_CHECK_MVE
#include "ta_svdf_mve.h"
#define SVDF_TIER ta_svdf_s8_mve
#else
#include "ta_svdf_dsp.h"
#define SVDF_TIER ta_svdf_s8_dsp
#endif

enum { MAX_B = 3, MAX_R = 3, MAX_I = 40, MAX_U = 12, MAX_M = 20, ROUNDS = 300, STEPS = 4 };
enum { MAX_F = MAX_U * MAX_R, MAX_STATE = MAX_B * MAX_F * MAX_M };

static uint32_t rng_state = 0x2468ace1u;
static uint32_t rng(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
  return rng_state;
}
static int32_t rng_range(int32_t lo, int32_t hi) { return lo + (int32_t)(rng() % (uint32_t)(hi - lo + 1)); }

static int16_t rng_i16(void) {
  switch (rng() % 6u) {
  case 0: return -32768;
  case 1: return 32767;
  case 2: return (int16_t)rng_range(-8, 8);
  default: return (int16_t)rng();
  }
}

uint32_t ta_bench_sp_at_call; /* startup.S writes it (unused here) */

int ta_harness_main(void) {
  static int8_t x[MAX_B * MAX_I], wf[MAX_F * MAX_I], want[MAX_B * MAX_U + 1], got[MAX_B * MAX_U + 1];
  static int16_t wt[MAX_F * MAX_M], s_want[MAX_STATE + 1], s_got[MAX_STATE + 1];
  static int32_t offset[MAX_F], bias[MAX_U];
  uint32_t checked = 0, mismatches = 0;
  for (int32_t round = 0; round < ROUNDS; round++) {
    ta_svdf_s8_params_t p;
    p.batches = rng_range(1, MAX_B), p.rank = rng_range(1, MAX_R), p.input_size = rng_range(1, MAX_I);
    p.units = rng_range(1, MAX_U), p.memory = rng_range(1, MAX_M), p.filters = p.units * p.rank;
    p.feature_offset = offset, p.unit_bias = bias;
    p.feature_multiplier = rng_range(1 << 30, 0x7fffffff), p.feature_shift = rng_range(-14, 2);
    p.output_multiplier = rng_range(1 << 30, 0x7fffffff), p.output_shift = rng_range(-31, -8);
    p.state_zero_point = rng_range(-64, 64), p.output_zero_point = rng_range(-128, 127);
    const int32_t total = p.batches * p.filters * p.memory;
    for (int32_t i = 0; i < p.filters * p.input_size; i++) wf[i] = (int8_t)rng();
    for (int32_t i = 0; i < p.filters * p.memory; i++) wt[i] = rng_i16();
    for (int32_t i = 0; i < p.filters; i++) offset[i] = (int32_t)rng() >> rng_range(0, 16);
    for (int32_t i = 0; i < p.units; i++) bias[i] = (int32_t)rng() >> rng_range(0, 16);
    for (int32_t i = 0; i < total; i++) s_want[i] = s_got[i] = rng_i16();
    s_want[total] = s_got[total] = 0x5a5a; /* the element past the state must stay */
    for (int32_t step = 0; step < STEPS; step++) {
      const int32_t n_out = p.batches * p.units;
      for (int32_t i = 0; i < p.batches * p.input_size; i++) x[i] = (int8_t)rng();
      got[n_out] = want[n_out] = 0x5a;
      ta_svdf_s8(&p, x, wf, wt, s_want, want);
      SVDF_TIER(&p, x, wf, wt, s_got, got);
      for (int32_t i = 0; i <= n_out; i++, checked++) mismatches += got[i] != want[i];
      for (int32_t i = 0; i <= total; i++, checked++) mismatches += s_got[i] != s_want[i];
    }
  }
  ta_print_u32("checked", checked);
  ta_print_u32("mismatches", mismatches);
  return mismatches != 0;
}
