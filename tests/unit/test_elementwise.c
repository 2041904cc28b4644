/* Elementwise operators: the compile-time fixed-point emulation agrees with the
 * real functions and TFLite's rounding rules, and broadcast walks are merged,
 * bounded and validated. */
#include <math.h>
#include <string.h>

#include "ops/addsub_flat.h"
#include "ops/elementwise.h"
#include "ops/fixed_point.h"
#include "ir/quant.h"
#include "unit.h"
/* The flat ADD / SUB kernels themselves (their plain C on the host, the MVE one
 * emulating VQRDMLASH), run over every input pair below. */
#include "../../runtime/kernels/ta_addsub_flat.c"

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

/* ---- flat int8 ADD / SUB: folded constants against the straightforward formula ---- */

/* TFLite's int8 ADD / SUB written out directly: (v - zp) << 20, rounding doubling high
 * multiply (ties up, as gemmlowp's nudge gives), rounding right shift (ties away from
 * zero), the same for the sum, zero point, clamp. */
static int32_t direct_high_mul(int32_t a, int32_t b) {
  const int64_t ab = (int64_t)a * b;
  return (int32_t)((ab + ((int64_t)1 << 30) - (ab < 0 ? 1 : 0) * (((int64_t)1 << 31) - 1)) / ((int64_t)1 << 31));
}

static int32_t direct_shift_right(int32_t x, int n) {
  if (n == 0) return x;
  const int64_t half = (int64_t)1 << (n - 1);
  return (int32_t)(x >= 0 ? (x + half) >> n : -((-(int64_t)x + half) >> n));
}

static int32_t direct_addsub(const EwArith *d, bool subtract, int32_t a, int32_t b) {
  const int32_t sa = direct_shift_right(direct_high_mul((a + d->in1_offset) * (1 << 20), d->in1_multiplier), -d->in1_shift);
  const int32_t sb = direct_shift_right(direct_high_mul((b + d->in2_offset) * (1 << 20), d->in2_multiplier), -d->in2_shift);
  const int32_t raw = subtract ? sa - sb : sa + sb;
  int32_t r = direct_shift_right(direct_high_mul(raw, d->out_multiplier), -d->out_shift) + d->out_offset;
  return r < d->act_min ? d->act_min : r > d->act_max ? d->act_max : r;
}

typedef struct AddSubCase {
  float s1, s2, so;
  int32_t z1, z2, zo;
  bool from_corpus_sub; /* the corpus op is SUB (else ADD) */
} AddSubCase;

/* Quantizations of the corpus's same-shape int8 ADD / SUB operators (ic, resnet8,
 * ops/add_int8_00/01, sub_int8_00, chain_int8_03) and two synthetic ones. */
static const AddSubCase addsub_cases[] = {
    {0.0393935516f, 0.104194961f, 0.0509456731f, -128, 4, -128, false},
    {0.0447614267f, 0.113118842f, 0.0532362163f, -17, 4, -128, false},
    {0.0838583037f, 0.217243642f, 0.127069145f, 38, -2, -128, false},
    {0.0342575312f, 0.166385517f, 0.0710380077f, -128, 40, -128, false},
    {0.0510615073f, 0.186487272f, 0.097489804f, -21, -13, -128, false},
    {0.0558286421f, 0.270852894f, 0.124697186f, 55, 2, -128, false},
    {0.00702022668f, 0.0268256757f, 0.0338459015f, -128, -128, -128, false},
    {0.027192954f, 0.0145487599f, 0.0284174364f, -71, -1, -128, false},
    {0.0188897364f, 0.011336389f, 0.0302261263f, 40, 74, -3, true},
    {0.0245505944f, 0.143484548f, 0.0719679892f, -1, 21, -128, false},
    {0.05f, 0.05f, 0.1f, 0, 10, -5, false},           /* equal scales: both inputs affine */
    {0.02f, 0.9f, 0.01f, 127, -128, 0, true},         /* output finer than the inputs */
};

/* The node's constants as ADD / SUB prepare() computes them, through real tensors. */
static bool addsub_constants(const AddSubCase *c, bool subtract, int act, EwArith *d) {
  Fixture f;
  fixture_init(&f);
  const int32_t dims[] = {4};
  Tensor t[3] = {shape(1, dims), shape(1, dims), shape(1, dims)};
  float scale[3] = {c->s1, c->s2, c->so};
  int64_t zp[3] = {c->z1, c->z2, c->zo};
  for (int i = 0; i < 3; i++) {
    t[i].n_quant = 1;
    t[i].scale = &scale[i];
    t[i].zero_point = &zp[i];
  }
  memset(d, 0, sizeof *d);
  const bool ok = ew_addsub_quantized(&f.pc, &f.node, d, act, &t[0], &t[1], &t[2], subtract);
  arena_free(&f.arena);
  return ok;
}

/* Runs the tier's kernel over all 65536 pairs; returns the number of wrong outputs. */
static int addsub_kernel_mismatches(const EwArith *d, bool subtract, const AddFlatPlan *plan) {
  static int8_t in1[65536], in2[65536], out[65536];
  for (int i = 0; i < 65536; i++) {
    in1[i] = (int8_t)(i / 256 - 128);
    in2[i] = (int8_t)(i % 256 - 128);
  }
  const ta_addsub_flat_params_t p = {.size = 65536, .table = plan->table, .lin_mult = plan->lin_mult,
                                     .out_mult = plan->out_mult, .out_add = plan->out_add,
                                     .out_shift = plan->out_shift, .act_min = plan->act_min,
                                     .act_max = plan->act_max};
  const int8_t *table_in = plan->swap ? in2 : in1, *affine_in = plan->swap ? in1 : in2;
  if (plan->tier == ADDFLAT_MVE)
    ta_addsub_s8_flat_mve(&p, table_in, affine_in, out);
  else
    ta_addsub_s8_flat(&p, table_in, affine_in, out);
  int wrong = 0;
  for (int i = 0; i < 65536; i++) wrong += out[i] != direct_addsub(d, subtract, in1[i], in2[i]);
  return wrong;
}

/* Every corpus quantization gets an exact plan for both tiers and its own operator and
 * activation; every other combination either gets an exact plan or none. */
static void addsub_flat_exhaustive(UnitState *u) {
  static const int acts[] = {ACT_NONE, ACT_RELU, ACT_RELU6};
  int planned = 0;
  for (size_t k = 0; k < sizeof addsub_cases / sizeof addsub_cases[0]; k++) {
    const AddSubCase *c = &addsub_cases[k];
    for (int sub = 0; sub < 2; sub++) {
      for (int a = 0; a < 3; a++) {
        EwArith d;
        if (!addsub_constants(c, sub, acts[a], &d)) continue;
        for (int tier = ADDFLAT_SCALAR; tier <= ADDFLAT_MVE; tier++) {
          AddFlatPlan plan;
          const bool ok = addsub_flat_plan(&d, sub, (AddFlatTier)tier, &plan);
          if (k < 10 && sub == c->from_corpus_sub && acts[a] != ACT_RELU6) CHECK(u, ok);
          if (!ok) continue;
          planned++;
          const int wrong = addsub_kernel_mismatches(&d, sub, &plan);
          if (wrong) printf("  case %d %s act %d tier %d: %d of 65536 wrong\n", (int)k, sub ? "SUB" : "ADD",
                            acts[a], tier, wrong);
          CHECK(u, wrong == 0);
        }
      }
    }
  }
  /* All but: the equal-scale case without activation (the output rounding has exact ties
   * on both signs, which TFLite breaks away from zero, so no one constant fits), and the
   * fine-output SUB with an activation on the scalar tier (no multiple of the output
   * multiplier falls inside the interval of valid constants). Those nodes keep the
   * general kernel. */
  CHECK(u, planned == 138);
}

/* The direct formula agrees with the compiler's emulation (fixed_point.c) too. */
static void addsub_direct_formula(UnitState *u) {
  EwArith d;
  CHECK(u, addsub_constants(&addsub_cases[8], true, ACT_NONE, &d));
  int wrong = 0;
  for (int32_t a = -128; a < 128; a++)
    for (int32_t b = -128; b < 128; b++) wrong += direct_addsub(&d, true, a, b) != addsub_flat_reference(&d, true, a, b);
  CHECK(u, wrong == 0);
  CHECK(u, direct_high_mul(-(1 << 30), 1 << 30) == -(1 << 29) && direct_shift_right(-3, 1) == -2);
}

const UnitTest elementwise_tests[] = {
    {"elementwise/rounding_primitives", rounding_primitives},
    {"elementwise/logistic_and_tanh_track_libm", logistic_and_tanh_track_libm},
    {"elementwise/broadcast_walks", broadcast_walks},
    {"elementwise/broadcast_rejections", broadcast_rejections},
    {"elementwise/addsub_flat_exhaustive", addsub_flat_exhaustive},
    {"elementwise/addsub_direct_formula", addsub_direct_formula},
    {NULL, NULL},
};
