/* Differential check of ta_add_s16_mve / ta_sub_s16_mve (runtime/kernels/ta_addsub_s16_mve.c)
 * against the portable ta_add_s16 / ta_sub_s16 (TFLite Micro's int16 ADD / SUB arithmetic,
 * exact against the corpus goldens), run bare metal on QEMU mps3-an547 by
 * tests/suites/s16_tiers_m55.sh: random descriptors (multipliers, both shift directions of the
 * output, activation ranges) and inputs with the int16 extremes, lengths 1..40 (the
 * predicated tail). Prints checked= and mismatches=, exits 0 only without a mismatch. */
#include "harness.h"
#include "ta_addsub_s16_mve.h"
#include "ta_elementwise.h"

enum { MAX_N = 40, ROUNDS = 3000 };

static uint32_t rng_state = 0x12345678u;
static uint32_t rng(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
  return rng_state;
}
static int32_t rng_range(int32_t lo, int32_t hi) { return lo + (int32_t)(rng() % (uint32_t)(hi - lo + 1)); }

static int16_t rng_value(void) {
  switch (rng() % 8u) {
  case 0: return -32768;
  case 1: return 32767;
  case 2: return (int16_t)rng_range(-4, 4);
  default: return (int16_t)rng();
  }
}

static void rng_params(ta_addsub_params_t *p, int32_t n) {
  p->bc.rank = 1, p->bc.dims[0] = n, p->bc.stride1[0] = 1, p->bc.stride2[0] = 1;
  p->in1_offset = 0, p->in2_offset = 0, p->left_shift = 15;
  p->in1_multiplier = rng_range(1 << 30, 0x7fffffff), p->in1_shift = rng_range(-12, 0);
  p->in2_multiplier = rng_range(1 << 30, 0x7fffffff), p->in2_shift = rng_range(-12, 0);
  switch (rng() % 4u) { /* the larger scale, 1/2 (the kernel's shift form; in1 swapped for ADD) */
  case 0: p->in2_multiplier = 1 << 30, p->in2_shift = 0; break;
  case 1: p->in1_multiplier = 1 << 30, p->in1_shift = 0; break;
  default: break;
  }
  p->out_multiplier = rng_range(1 << 30, 0x7fffffff), p->out_shift = rng_range(-20, 3);
  p->out_offset = 0;
  if (rng() % 2u) {
    p->act_min = -32768, p->act_max = 32767;
  } else {
    p->act_min = rng_range(-32768, 0), p->act_max = rng_range(0, 32767);
  }
}

uint32_t ta_bench_sp_at_call; /* startup.S writes it (unused here) */

int ta_harness_main(void) {
  static int16_t a[MAX_N], b[MAX_N], want[MAX_N], got[MAX_N];
  uint32_t checked = 0, mismatches = 0;
  for (int32_t round = 0; round < ROUNDS; round++) {
    ta_addsub_params_t p;
    const int32_t n = 1 + round % MAX_N;
    rng_params(&p, n);
    for (int32_t i = 0; i < n; i++) a[i] = rng_value(), b[i] = rng_value();
    for (int sub = 0; sub < 2; sub++) {
      if (n < MAX_N) got[n] = 0x5a5a; /* the element past the end must stay */
      if (sub) {
        ta_sub_s16(&p, a, b, want);
        ta_sub_s16_mve(&p, a, b, got);
      } else {
        ta_add_s16(&p, a, b, want);
        ta_add_s16_mve(&p, a, b, got);
      }
      for (int32_t i = 0; i < n; i++, checked++) mismatches += got[i] != want[i];
      if (n < MAX_N && got[n] != 0x5a5a) mismatches++;
    }
  }
  ta_print_u32("checked", checked);
  ta_print_u32("mismatches", mismatches);
  return mismatches ? 1 : 0;
}
