/* Elementwise operators: the compile-time fixed-point emulation agrees with the
 * real functions and TFLite's rounding rules, and broadcast walks are merged,
 * bounded and validated. */
#include <math.h>
#include <string.h>

#include "ops/elementwise.h"
#include "ops/fixed_point.h"
#include "unit.h"

static void rounding_primitives(UnitState *u) {
  CHECK(u, fx_rdbpot(3, 1) == 2 && fx_rdbpot(-3, 1) == -2); /* ties away from zero */
  CHECK(u, fx_rdbpot(5, 2) == 1 && fx_rdbpot(-5, 2) == -1 && fx_rdbpot(6, 2) == 2);
  CHECK(u, fx_srdhm(INT32_MIN, INT32_MIN) == INT32_MAX);
  CHECK(u, fx_srdhm(1 << 30, 1 << 30) == 1 << 29);
  CHECK(u, fx_mul_pot(1 << 29, 2) == INT32_MAX && fx_mul_pot(-(1 << 29) - 1, 2) == INT32_MIN);
  CHECK(u, fx_mul_pot(1 << 20, 3) == 1 << 23);
  CHECK(u, fx_requantize(100, 1 << 30, 1) == 100); /* multiplier exactly 1 */
  CHECK(u, fx_rdbpot16(5, 1) == 3 && fx_rdbpot16(-5, 1) == -3);
  CHECK(u, fx_rdbpot16(-1, 16) == -1 && fx_rdbpot16(5, 16) == 1); /* int16 mask wraps to -1, as in gemmlowp */
  CHECK(u, fx_wrap16(32768) == -32768 && fx_wrap16(-32769) == 32767);
  CHECK(u, fx_downscale_multiplier16(INT32_MAX) == INT16_MAX && fx_downscale_multiplier16(1 << 30) == 1 << 14);
}

/* gemmlowp's logistic and tanh are accurate to a few units of 2^-31 * 2^8. */
static void logistic_and_tanh_track_libm(UnitState *u) {
  double worst_l = 0, worst_t = 0;
  for (int32_t x = -(15 << 27); x <= (15 << 27); x += 1234567) {
    const double real = ldexp(x, -27);
    worst_l = fmax(worst_l, fabs(ldexp(fx_logistic_q4(x), -31) - 1.0 / (1.0 + exp(-real))));
    worst_t = fmax(worst_t, fabs(ldexp(fx_tanh_q4(x), -31) - tanh(real)));
    CHECK(u, fx_tanh_q4(-x) == -fx_tanh_q4(x));
  }
  CHECK(u, worst_l < 1e-6 && worst_t < 1e-6);
  CHECK(u, fx_logistic_q4(0) == 1 << 30 && fx_tanh_q4(0) == 0);
}

typedef struct Fixture {
  Arena arena;
  Diag diag;
  Model model;
  Node node;
  PrepareCtx pc;
} Fixture;

static void fixture_init(Fixture *f) {
  memset(f, 0, sizeof *f);
  arena_init(&f->arena);
  diag_init(&f->diag, NULL);
  f->model.arena = &f->arena;
  f->node.opname = "ADD";
  f->pc = (PrepareCtx){.model = &f->model, .arena = &f->arena, .diag = &f->diag, .platform = NULL};
}

static Tensor shape(int rank, const int32_t *dims) {
  Tensor t;
  memset(&t, 0, sizeof t);
  t.name = "";
  t.type = TT_INT8;
  t.rank = rank;
  t.elems = 1;
  for (int d = 0; d < rank; d++) {
    t.dims[d] = dims[d];
    t.elems *= dims[d];
  }
  return t;
}

static bool plan(int ra, const int32_t *a, int rb, const int32_t *b, int ro, const int32_t *o, EwBcast *bc) {
  Fixture f;
  fixture_init(&f);
  Tensor ta = shape(ra, a), tb = shape(rb, b), to = shape(ro, o);
  bool ok = ew_broadcast(&f.pc, &f.node, &ta, &tb, &to, bc);
  arena_free(&f.arena);
  return ok;
}

static void broadcast_walks(UnitState *u) {
  EwBcast bc;
  const int32_t s1[] = {1, 5, 1, 8}, s2[] = {1, 1, 5, 8}, so[] = {1, 5, 5, 8};
  CHECK(u, plan(4, s1, 4, s2, 4, so, &bc) && bc.rank == 3);
  CHECK(u, bc.dims[0] == 5 && bc.dims[1] == 5 && bc.dims[2] == 8);
  CHECK(u, bc.stride1[0] == 8 && bc.stride1[1] == 0 && bc.stride1[2] == 1);
  CHECK(u, bc.stride2[0] == 0 && bc.stride2[1] == 8 && bc.stride2[2] == 1);

  const int32_t same[] = {2, 3, 4};
  CHECK(u, plan(3, same, 3, same, 3, same, &bc) && bc.rank == 1 && bc.dims[0] == 24);
  CHECK(u, bc.stride1[0] == 1 && bc.stride2[0] == 1);

  const int32_t mat[] = {3, 10};
  CHECK(u, plan(0, NULL, 2, mat, 2, mat, &bc) && bc.rank == 1 && bc.dims[0] == 30);
  CHECK(u, bc.stride1[0] == 0 && bc.stride2[0] == 1);

  const int32_t chan[] = {16}, img[] = {1, 9, 8, 16};
  CHECK(u, plan(4, img, 1, chan, 4, img, &bc) && bc.rank == 2 && bc.dims[0] == 72 && bc.stride2[0] == 0);

  CHECK(u, plan(0, NULL, 0, NULL, 0, NULL, &bc) && bc.rank == 1 && bc.dims[0] == 1);
  const int32_t empty[] = {0, 4};
  CHECK(u, plan(2, empty, 2, empty, 2, empty, &bc) && bc.rank == 0);
}

static void broadcast_rejections(UnitState *u) {
  EwBcast bc;
  const int32_t three[] = {3}, four[] = {4};
  CHECK(u, !plan(1, three, 1, four, 1, four, &bc));
  const int32_t a[] = {2, 3}, wrong[] = {3, 2};
  CHECK(u, !plan(2, a, 2, a, 2, wrong, &bc));
  const int32_t neg[] = {-1, 3};
  CHECK(u, !plan(2, neg, 2, neg, 2, neg, &bc));
  /* alternating broadcast needs 8 loops; the kernel walks at most 6 */
  const int32_t x[] = {2, 1, 2, 1, 2, 1, 2, 1}, y[] = {1, 2, 1, 2, 1, 2, 1, 2}, o[] = {2, 2, 2, 2, 2, 2, 2, 2};
  CHECK(u, !plan(8, x, 8, y, 8, o, &bc));
  const int32_t x6[] = {2, 1, 2, 1, 2, 1}, y6[] = {1, 2, 1, 2, 1, 2}, o6[] = {2, 2, 2, 2, 2, 2};
  CHECK(u, plan(6, x6, 6, y6, 6, o6, &bc) && bc.rank == 6);
}

const UnitTest elementwise_tests[] = {
    {"elementwise/rounding_primitives", rounding_primitives},
    {"elementwise/logistic_and_tanh_track_libm", logistic_and_tanh_track_libm},
    {"elementwise/broadcast_walks", broadcast_walks},
    {"elementwise/broadcast_rejections", broadcast_rejections},
    {NULL, NULL},
};
