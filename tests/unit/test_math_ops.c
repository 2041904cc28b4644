/* Unit tests of the unary math kernels (ops-math): every int16 input where the
 * domain allows it, the fixed-point building blocks against libm, and the
 * compile-time inverse square root against the runtime one. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ops/fixed_point.h"
#include "ops/elementwise.h"
#include "ops/math_unary.h"
#include "ops/op.h"
#include "unit.h"

#include "../../runtime/kernels/ta_l2norm.c"
#include "../../runtime/kernels/ta_log_softmax.c"
#include "../../runtime/kernels/ta_math_f32.c"
#include "../../runtime/kernels/ta_unary_s16.c"

enum { N16 = 65536 };

static void all_int16(int16_t *v) {
  for (int i = 0; i < N16; i++) v[i] = (int16_t)(i - 32768);
}

/* 1 / sqrt(x) represented by (multiplier, shift): multiplier * 2^shift / 2^31. */
static double inv_sqrt_value(int32_t multiplier, int32_t shift) { return ldexp((double)multiplier, shift - 31); }

static void test_inv_sqrt_runtime_matches_compiler(UnitState *u) {
  int mismatches = 0, inaccurate = 0;
  for (int64_t x = -3; x <= INT32_MAX; x += x < (1 << 20) ? 1 : 104729 + (x >> 12)) {
    int32_t qa, sa, qb, sb;
    ta_inv_sqrt_multiplier((int32_t)x, &qa, &sa);
    mu_inv_sqrt_multiplier((int32_t)x, &qb, &sb);
    if (qa != qb || sa != sb) mismatches++;
    if (x <= 1) {
      CHECK(u, qa == INT32_MAX && sa == 0);
    } else if (fabs(inv_sqrt_value(qa, sa) * sqrt((double)x) - 1.0) > 2e-6) { /* measured worst 1.25e-6 */
      inaccurate++;
    }
  }
  CHECK(u, mismatches == 0);
  CHECK(u, inaccurate == 0);
}

static void test_abs_raw_s16_every_input(UnitState *u) {
  static int16_t in[N16], out[N16];
  all_int16(in);
  ta_abs_raw_s16(N16, in, out);
  int bad = 0;
  for (int i = 0; i < N16; i++) {
    const int32_t x = in[i];
    const int32_t expect = x == -32768 ? -32768 : (x < 0 ? -x : x); /* |-32768| wraps in int16 */
    bad += out[i] != expect;
  }
  CHECK(u, bad == 0);
}

static void test_abs_q_s16_identity_saturates(UnitState *u) {
  static int16_t in[N16], out[N16];
  all_int16(in);
  ta_unary_s16_params_t p = {.size = N16, .act_min = -32768, .act_max = 32767};
  mu_identity_multiplier(&p.pos_multiplier, &p.pos_shift);
  ta_abs_q_s16(&p, in, out);
  int bad = 0;
  for (int i = 0; i < N16; i++) {
    const int32_t x = in[i], a = x < 0 ? -x : x;
    bad += out[i] != (a > 32767 ? 32767 : a); /* quantized ABS saturates instead */
  }
  CHECK(u, bad == 0);
}

/* LEAKY_RELU int16 over every input, against double arithmetic: within one step
 * of round(d * factor) and exactly the compiler's requantisation. */
static void test_leaky_relu_s16_every_input(UnitState *u) {
  static int16_t in[N16], out[N16];
  all_int16(in);
  const double pos = 0.75, neg = 0.75 * 0.2;
  ta_unary_s16_params_t p = {.size = N16, .in_offset = 3, .out_offset = -5, .act_min = -32768, .act_max = 32767};
  quant_multiplier(pos, &p.pos_multiplier, &p.pos_shift);
  quant_multiplier(neg, &p.neg_multiplier, &p.neg_shift);
  ta_requant_sign_s16(&p, in, out);
  int far = 0, differ = 0;
  for (int i = 0; i < N16; i++) {
    const int32_t d = in[i] - 3;
    const double real = d * (d >= 0 ? pos : neg) - 5;
    double clamped = real < -32768 ? -32768 : real > 32767 ? 32767 : real;
    far += fabs(out[i] - clamped) > 1.0;
    int32_t y = -5 + (d >= 0 ? fx_requantize(d, p.pos_multiplier, p.pos_shift)
                             : fx_requantize(d, p.neg_multiplier, p.neg_shift));
    y = y < -32768 ? -32768 : y > 32767 ? 32767 : y;
    differ += out[i] != y;
  }
  CHECK(u, far == 0);
  CHECK(u, differ == 0);
}

static void test_relu6_s16_every_input(UnitState *u) {
  static int16_t in[N16], out[N16];
  all_int16(in);
  ta_unary_s16_params_t p = {.size = N16, .act_min = -7, .act_max = 12000};
  mu_identity_multiplier(&p.pos_multiplier, &p.pos_shift);
  mu_identity_multiplier(&p.neg_multiplier, &p.neg_shift);
  ta_requant_sign_s16(&p, in, out);
  int bad = 0;
  for (int i = 0; i < N16; i++) bad += out[i] != (in[i] < -7 ? -7 : in[i] > 12000 ? 12000 : in[i]);
  CHECK(u, bad == 0);
}

static void test_round_f32_ties_to_even(UnitState *u) {
  float in[4], out[4];
  int bad = 0;
  for (int k = -2000; k <= 2000; k++) {
    in[0] = (float)k + 0.5f;
    in[1] = (float)k + 0.25f;
    in[2] = (float)k + 0.75f;
    in[3] = (float)k;
    ta_round_f32(4, in, out);
    const float even = (k % 2 == 0) ? (float)k : (float)k + 1.0f;
    bad += out[0] != even || out[1] != (float)k || out[2] != (float)k + 1.0f || out[3] != (float)k;
  }
  CHECK(u, bad == 0);
}

static void test_exp_on_negative_q5_accuracy(UnitState *u) {
  int bad = 0;
  for (int64_t a = 0; a >= -((int64_t)31 << 26); a -= 9973) {
    const double got = ldexp(ta_exp_on_negative_q5((int32_t)a), -31);
    bad += fabs(got - exp(ldexp((double)a, -26))) > 5e-7; /* gemmlowp Taylor step: worst 2.3e-7 */
  }
  CHECK(u, bad == 0);
  CHECK(u, ta_exp_on_negative_q5(0) == INT32_MAX);
}

static void test_log_q12_to_q5_accuracy(UnitState *u) {
  int bad = 0;
  for (int64_t x = (int64_t)1 << 19; x <= INT32_MAX; x += 7919 + (x >> 10)) {
    const double got = ldexp(ta_log_q12_to_q5((int32_t)x), -26);
    bad += fabs(got - log(ldexp((double)x, -19))) > 1e-6;
  }
  CHECK(u, bad == 0);
}

/* int8 LOG_SOFTMAX rows against the float formula, output step 1/16, zero point 127. */
static void test_log_softmax_s8_near_formula(UnitState *u) {
  const float scale = 0.1f;
  ta_log_softmax_params_t p = {.outer = 1, .depth = 16};
  quant_multiplier((double)scale * (double)(1 << 26), &p.input_multiplier, &p.input_left_shift);
  quant_multiplier((double)((int64_t)1 << (31 - p.input_left_shift)) / p.input_multiplier, &p.reverse_multiplier,
                   &p.reverse_shift);
  p.diff_min = -(int32_t)floor(31.0 * (double)(1 << 26) / (double)((int64_t)1 << p.input_left_shift));
  int bad = 0;
  for (int seed = 1; seed <= 200; seed++) {
    int8_t in[16], out[16];
    uint32_t s = (uint32_t)seed * 2654435761u;
    for (int i = 0; i < 16; i++) {
      s = s * 1103515245u + 12345u;
      in[i] = (int8_t)(s >> 24);
    }
    ta_log_softmax_s8(&p, in, out);
    int max = -128;
    for (int i = 0; i < 16; i++) max = in[i] > max ? in[i] : max;
    double sum = 0;
    for (int i = 0; i < 16; i++) sum += exp(scale * (in[i] - max));
    for (int i = 0; i < 16; i++) {
      double q = round((scale * (in[i] - max) - log(sum)) * 16.0) + 127;
      q = q < -128 ? -128 : q > 127 ? 127 : q;
      bad += fabs(out[i] - q) > 1.0;
    }
  }
  CHECK(u, bad == 0);
}

static void test_l2norm_s8_near_formula(UnitState *u) {
  int bad = 0;
  for (int seed = 1; seed <= 300; seed++) {
    int8_t in[33], out[33];
    uint32_t s = (uint32_t)seed * 2246822519u;
    const int depth = 1 + seed % 33;
    for (int i = 0; i < depth; i++) {
      s = s * 1664525u + 1013904223u;
      in[i] = (int8_t)(s >> 24);
    }
    const ta_l2norm_params_t p = {.outer = 1, .depth = depth, .in_offset = -3};
    ta_l2norm_s8(&p, in, out);
    double sq = 0;
    for (int i = 0; i < depth; i++) sq += (double)(in[i] + 3) * (in[i] + 3);
    for (int i = 0; i < depth; i++) {
      double q = sq > 1 ? round(128.0 * (in[i] + 3) / sqrt(sq)) : 0;
      q = q < -128 ? -128 : q > 127 ? 127 : q;
      if (sq > 1) bad += fabs(out[i] - q) > 1.0;
    }
  }
  CHECK(u, bad == 0);
}


/* ---- operator contracts: one node with one input and one output, prepared directly ---- */

typedef struct OneOp {
  Arena arena;
  Model model;
  Tensor tensors[2];
  float scales[2];
  int64_t zero_points[2];
  int32_t in_id, out_id;
  Node node;
  Diag diag;
} OneOp;

/* A [1, 4, 16] tensor pair of dtype `type` (quantized with the given scales when
 * scale > 0) feeding the operator `builtin`. */
static void one_op_init(OneOp *o, int32_t builtin, TensorType type, float in_scale, int64_t in_zp, float out_scale,
                        int64_t out_zp) {
  memset(o, 0, sizeof *o);
  arena_init(&o->arena);
  o->scales[0] = in_scale;
  o->scales[1] = out_scale;
  o->zero_points[0] = in_zp;
  o->zero_points[1] = out_zp;
  for (int i = 0; i < 2; i++) {
    Tensor *t = &o->tensors[i];
    t->id = i;
    t->name = i ? "out" : "in";
    t->type = type;
    t->rank = 3;
    t->dims[0] = 1;
    t->dims[1] = 4;
    t->dims[2] = 16;
    t->elems = 64;
    t->bytes = 64 * tensor_type_size(type);
    t->n_quant = o->scales[i] > 0 ? 1 : 0;
    t->scale = &o->scales[i];
    t->zero_point = &o->zero_points[i];
    t->alias_of = -1;
  }
  o->model.arena = &o->arena;
  o->model.n_tensors = o->model.n_model_tensors = 2;
  o->model.tensors = o->tensors;
  o->in_id = 0;
  o->out_id = 1;
  o->node.builtin_code = builtin;
  o->node.opname = builtin_name(builtin);
  o->node.def = op_find(builtin);
  o->node.n_in = o->node.n_out = 1;
  o->node.in = &o->in_id;
  o->node.out = &o->out_id;
  o->node.opts.kind = OPTS_NONE;
  o->node.scratch_tensor = -1;
  o->model.n_nodes = 1;
  o->model.nodes = &o->node;
  diag_init(&o->diag, NULL);
}

static bool one_op_prepare(OneOp *o) {
  PrepareCtx pc = {.model = &o->model, .arena = &o->arena, .diag = &o->diag, .platform = NULL};
  return o->node.def && o->node.def->prepare(&pc, &o->node);
}

enum { OP_RELU = 19, OP_L2_NORMALIZATION = 11, OP_LOG_SOFTMAX = 50, OP_RSQRT = 76, OP_SIN = 66, OP_ABS = 101 };

static void test_refusals_name_the_operator(UnitState *u) {
  OneOp o;
  one_op_init(&o, OP_LOG_SOFTMAX, TT_INT8, 0.1f, 0, 0.5f, 0); /* not TFLite's fixed 16/256, 127 */
  CHECK(u, !one_op_prepare(&o) && strstr(o.diag.msg, "operator 0") && strstr(o.diag.msg, "16/256"));
  arena_free(&o.arena);
  one_op_init(&o, OP_RELU, TT_INT16, 0.01f, 3, 0.01f, 0); /* int16 RELU needs zero points 0 */
  CHECK(u, !one_op_prepare(&o) && strstr(o.diag.msg, "zero point 0"));
  arena_free(&o.arena);
  one_op_init(&o, OP_RSQRT, TT_INT16, 0.01f, 0, 0.01f, 0); /* TFLite Micro has no int16 RSQRT */
  CHECK(u, !one_op_prepare(&o) && strstr(o.diag.msg, "RSQRT supports int8 and float32"));
  arena_free(&o.arena);
  one_op_init(&o, OP_SIN, TT_INT8, 0.01f, 0, 0.01f, 0);
  CHECK(u, !one_op_prepare(&o) && strstr(o.diag.msg, "float32"));
  arena_free(&o.arena);
  one_op_init(&o, OP_L2_NORMALIZATION, TT_FLOAT32, 0, 0, 0, 0);
  o.node.opts.kind = OPTS_L2_NORM;
  o.node.opts.l2_norm.activation = ACT_RELU;
  CHECK(u, !one_op_prepare(&o) && strstr(o.diag.msg, "fused activation"));
  arena_free(&o.arena);
  one_op_init(&o, OP_ABS, TT_INT16, 0, 0, 0, 0); /* unquantized int16: TFLite Micro's plain path */
  CHECK(u, one_op_prepare(&o) && strcmp(o.node.kernel, "ta_abs_raw_s16") == 0);
  arena_free(&o.arena);
}

/* The int8 RSQRT table over every input byte against 1 / sqrt(real input) in output
 * steps: within one step where the result is inside the int8 range. */
static void test_rsqrt_int8_table_near_formula(UnitState *u) {
  const float in_scale = 0.037f, out_scale = 0.021f;
  const int in_zp = -20, out_zp = -100;
  OneOp o;
  one_op_init(&o, OP_RSQRT, TT_INT8, in_scale, in_zp, out_scale, out_zp);
  CHECK(u, one_op_prepare(&o));
  const EwUnary *t = o.node.op_data;
  int far = 0;
  for (int x = -128; x < 128; x++) {
    const int8_t got = t->table[(uint8_t)(int8_t)x];
    if (x == in_zp) {
      CHECK(u, got == 127);
      continue;
    }
    if (x < in_zp) continue; /* outside RSQRT's domain */
    double q = round(1.0 / sqrt(in_scale * (double)(x - in_zp)) / out_scale) + out_zp;
    q = q < -128 ? -128 : q > 127 ? 127 : q;
    far += fabs(got - q) > 1.0;
  }
  CHECK(u, far == 0);
  arena_free(&o.arena);
}

/* Regression (differential run against tflm_ref): TFLite Micro divides the ABS scales in
 * single precision; for these scales the double quotient gives another multiplier and an
 * int16 element one step away. */
static void test_abs_factor_in_single_precision(UnitState *u) {
  const float si = 0.000225825148f, so = 0.00010647656f;
  OneOp o;
  one_op_init(&o, OP_ABS, TT_INT16, si, 0, so, 0);
  CHECK(u, one_op_prepare(&o));
  const MathS16 *d = o.node.op_data;
  int32_t q_float, s_float, q_double, s_double;
  quant_multiplier((double)(si / so), &q_float, &s_float);
  quant_multiplier((double)si / (double)so, &q_double, &s_double);
  CHECK(u, q_float != q_double); /* the case distinguishes the two */
  CHECK(u, d->pos_multiplier == q_float && d->pos_shift == s_float);
  arena_free(&o.arena);
}

/* Regression (found/relu_int8_tie_a, issue 29): RELU's factor is divided in single
 * precision too. (39 + 49) * s_in / s_out is 127.5000025 with the double quotient (rounds
 * to 128, output 0) and 127.4999990 with the float one (127, output -1, the reference's). */
static void test_relu_factor_in_single_precision(UnitState *u) {
  const float si = 0.0312049463f, so = 0.0215375312f;
  OneOp o;
  one_op_init(&o, OP_RELU, TT_INT8, si, -49, so, -128);
  CHECK(u, one_op_prepare(&o));
  const EwUnary *t = o.node.op_data;
  CHECK(u, t->table[(uint8_t)(int8_t)39] == -1);
  CHECK(u, t->table[(uint8_t)(int8_t)-49] == -128 && t->table[(uint8_t)(int8_t)-128] == -128);
  arena_free(&o.arena);
  one_op_init(&o, OP_RELU, TT_INT16, si, 0, so, 0); /* int16 takes the same multiplier */
  CHECK(u, one_op_prepare(&o));
  const MathS16 *d = o.node.op_data;
  int32_t q_float, s_float, q_double, s_double;
  quant_multiplier((double)(si / so), &q_float, &s_float);
  quant_multiplier((double)si / (double)so, &q_double, &s_double);
  CHECK(u, q_float != q_double && d->pos_multiplier == q_float && d->pos_shift == s_float);
  arena_free(&o.arena);
}

const UnitTest math_ops_tests[] = {
    {"math_inv_sqrt_runtime_matches_compiler", test_inv_sqrt_runtime_matches_compiler},
    {"math_abs_raw_s16_every_input", test_abs_raw_s16_every_input},
    {"math_abs_q_s16_identity_saturates", test_abs_q_s16_identity_saturates},
    {"math_leaky_relu_s16_every_input", test_leaky_relu_s16_every_input},
    {"math_relu6_s16_every_input", test_relu6_s16_every_input},
    {"math_round_f32_ties_to_even", test_round_f32_ties_to_even},
    {"math_exp_on_negative_q5_accuracy", test_exp_on_negative_q5_accuracy},
    {"math_log_q12_to_q5_accuracy", test_log_q12_to_q5_accuracy},
    {"math_log_softmax_s8_near_formula", test_log_softmax_s8_near_formula},
    {"math_l2norm_s8_near_formula", test_l2norm_s8_near_formula},
    {"math_refusals_name_the_operator", test_refusals_name_the_operator},
    {"math_rsqrt_int8_table_near_formula", test_rsqrt_int8_table_near_formula},
    {"math_abs_factor_in_single_precision", test_abs_factor_in_single_precision},
    {"math_relu_factor_in_single_precision", test_relu_factor_in_single_precision},
    {NULL, NULL},
};
