/* quant_multiplier and activation ranges follow TFLite's definitions; the shift-range
 * check refuses exactly the factors a kernel cannot apply. */
#include <math.h>
#include <string.h>

#include "ops/op.h"
#include "ir/quant.h"
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

static QuantFit fit(double m, QuantRange r) {
  int32_t q, shift;
  return quant_multiplier_fit(m, r, &q, &shift);
}

/* Each range's edges: 2^(k-1) has shift k. */
static void shift_ranges_edges(UnitState *u) {
  CHECK(u, fit(ldexp(1.0, 29), QUANT_RANGE_INT32) == QUANT_FITS);           /* shift 30 */
  CHECK(u, fit(ldexp(1.0, 30), QUANT_RANGE_INT32) == QUANT_SHIFT_TOO_HIGH); /* shift 31 */
  CHECK(u, fit(ldexp(1.0, -32), QUANT_RANGE_INT32) == QUANT_FITS);          /* shift -31 */
  CHECK(u, fit(ldexp(1.0, 13), QUANT_RANGE_INT64) == QUANT_FITS);           /* shift 14 */
  CHECK(u, fit(ldexp(1.0, 14), QUANT_RANGE_INT64) == QUANT_SHIFT_TOO_HIGH); /* 15 - shift would be 0 */
  CHECK(u, fit(0.75, QUANT_RANGE_BELOW_ONE) == QUANT_FITS);
  CHECK(u, fit(1.0 - ldexp(1.0, -33), QUANT_RANGE_BELOW_ONE) == QUANT_SHIFT_TOO_HIGH); /* rounds up to 1 */
  const QuantRange left_only = {0, 31, "left shift"};
  CHECK(u, fit(0.25, left_only) == QUANT_SHIFT_TOO_LOW);
  CHECK(u, fit(3.0, left_only) == QUANT_FITS);
}

/* Factors below 2^-31 become 0 (valid in every range, as in TFLite); overflowed scale
 * arithmetic (inf, NaN) never fits; the multiplier is computed either way. */
static void shift_ranges_zero_and_non_finite(UnitState *u) {
  int32_t q = -1, shift = -1;
  CHECK(u, quant_multiplier_fit(ldexp(1.0, -40), QUANT_RANGE_INT64, &q, &shift) == QUANT_FITS && q == 0 && shift == 0);
  CHECK(u, quant_multiplier_fit(0.0, QUANT_RANGE_BELOW_ONE, &q, &shift) == QUANT_FITS && q == 0);
  CHECK(u, fit(INFINITY, QUANT_RANGE_INT32) == QUANT_NOT_FINITE);
  CHECK(u, fit(NAN, QUANT_RANGE_INT32) == QUANT_NOT_FINITE);
  CHECK(u, quant_multiplier_fit(3e38 * 0.003 / 0.1, QUANT_RANGE_INT32, &q, &shift) == QUANT_SHIFT_TOO_HIGH &&
               shift == 123 && q >= (1 << 30));
}

/* op_quant_multiplier reports one line: operator, factor, what it is, shift, range. */
static void shift_range_message(UnitState *u) {
  Arena arena;
  arena_init(&arena);
  Diag diag;
  diag_init(&diag, "m.tflite");
  Model model;
  memset(&model, 0, sizeof model);
  model.arena = &arena;
  Node node;
  memset(&node, 0, sizeof node);
  node.index = 2;
  node.opname = "FULLY_CONNECTED";
  PrepareCtx pc = {.model = &model, .arena = &arena, .diag = &diag, .platform = NULL};
  int32_t q, shift;
  CHECK(u, op_quant_multiplier(&pc, &node, 0.5, QUANT_RANGE_INT32, &q, &shift, "never %s", "formatted"));
  CHECK(u, diag.count == 0 && q == 1 << 30 && shift == 0);
  CHECK(u, !op_quant_multiplier(&pc, &node, ldexp(1.0, 20), QUANT_RANGE_INT64, &q, &shift, "x / y of %d", 7));
  CHECK(u, diag.count == 1 && strchr(diag.msg, '\n') == NULL);
  CHECK(u, strstr(diag.msg, "operator 2 (FULLY_CONNECTED): rescale factor 1.04858e+06 (x / y of 7) needs a shift of "
                            "21; the int64 requantisation takes shifts -31..14") != NULL);
  arena_free(&arena);
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
    {"quant/shift_ranges_edges", shift_ranges_edges},
    {"quant/shift_ranges_zero_and_non_finite", shift_ranges_zero_and_non_finite},
    {"quant/shift_range_message", shift_range_message},
    {"quant/activation_ranges", activation_ranges},
    {NULL, NULL},
};
