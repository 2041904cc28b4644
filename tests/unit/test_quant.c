/* quant_multiplier and activation ranges follow TFLite's definitions. */
#include <math.h>

#include "resolve/quant.h"
#include "unit.h"

static void multiplier_reconstructs_scale(UnitState *u) {
  const double scales[] = {0.5, 0.25, 1.0, 1.5, 3.0e-4, 0.999999999, 7.3e-6, 123.0};
  for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
    int32_t q, shift;
    quant_multiplier(scales[i], &q, &shift);
    CHECK(u, q >= (1 << 30) && q <= INT32_MAX);
    double back = q * ldexp(1.0, shift - 31);
    CHECK(u, fabs(back - scales[i]) <= scales[i] * ldexp(1.0, -30));
  }
}

static void multiplier_edge_cases(UnitState *u) {
  int32_t q, shift;
  quant_multiplier(0.0, &q, &shift);
  CHECK(u, q == 0 && shift == 0);
  quant_multiplier(ldexp(1.0, -40), &q, &shift); /* below 2^-31 flushes to zero */
  CHECK(u, q == 0 && shift == 0);
  quant_multiplier(1.0 - ldexp(1.0, -33), &q, &shift); /* rounds up to exactly 1.0 */
  CHECK(u, q == (1 << 30) && shift == 1);
}

static void activation_ranges(UnitState *u) {
  int32_t lo, hi;
  CHECK(u, quant_activation_range(ACT_RELU, TT_INT8, 0.1f, -10, &lo, &hi) && lo == -10 && hi == 127);
  CHECK(u, quant_activation_range(ACT_RELU6, TT_INT8, 0.1f, -128, &lo, &hi) && lo == -128 && hi == -68);
  CHECK(u, quant_activation_range(ACT_NONE, TT_INT16, 1.0f, 0, &lo, &hi) && lo == -32768 && hi == 32767);
  CHECK(u, !quant_activation_range(ACT_TANH, TT_INT8, 0.1f, 0, &lo, &hi));
}

const UnitTest quant_tests[] = {
    {"quant/multiplier_reconstructs_scale", multiplier_reconstructs_scale},
    {"quant/multiplier_edge_cases", multiplier_edge_cases},
    {"quant/activation_ranges", activation_ranges},
    {NULL, NULL},
};
