/* The cost model: the formula, the geometry terms, and the choice between tier and
 * portable kernels (instructions lost per byte freed, kernel code counted once per family). */
#include <math.h>
#include <string.h>

#include "plan/cost_choice.h"
#include "ops/op.h"
#include "resolve/cost_model.h"
#include "unit.h"

static void test_estimate_is_the_formula(UnitState *u) {
  CHECK(u, cost_n_rows > 0);
  const CostRow *r = &cost_rows[0];
  CostFeatures f = {{1000, 200, 30, 400, 50, 70, 600, 1}};
  double want = 0.0;
  for (int i = 0; i < COST_N_TERMS; i++) want += r->coef[i] * f.term[i];
  bool fitted = false;
  const double got = cost_estimate(r->core, r->kernel, &f, &fitted);
  CHECK(u, fitted);
  CHECK(u, fabs(got - (want > 0 ? want : 0)) < 1e-6 * (fabs(want) + 1));
  /* an unmeasured kernel takes the core's fallback, an alias costs nothing */
  CHECK(u, cost_estimate(COST_M4, "ta_no_such_kernel", &f, &fitted) >= 0 && !fitted);
  CHECK(u, cost_estimate(COST_M4, "(alias)", &f, NULL) == 0.0);
  /* every fitted formula grows with the MACs it does (no negative coefficient) */
  for (int i = 0; i < cost_n_rows; i++)
    for (int t = 0; t < COST_N_TERMS; t++) CHECK(u, cost_rows[i].coef[t] >= 0);
}

static void set_tensor(Tensor *t, int id, int rank, const int32_t *dims) {
  memset(t, 0, sizeof *t);
  t->id = id;
  t->name = "t";
  t->type = TT_INT8;
  t->rank = rank;
  t->elems = 1;
  for (int i = 0; i < rank; i++) t->dims[i] = dims[i], t->elems *= dims[i];
  t->bytes = (size_t)t->elems;
  t->alias_of = -1;
}

/* A 3x3 CONV_2D, 4 -> 16 channels on 8x8, and a 3x3 DEPTHWISE_CONV_2D on it. */
static void test_features_of_a_convolution(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m = {0};
  m.arena = &a;
  Tensor ts[5];
  set_tensor(&ts[0], 0, 4, (const int32_t[]){1, 8, 8, 4});
  set_tensor(&ts[1], 1, 4, (const int32_t[]){16, 3, 3, 4});
  set_tensor(&ts[2], 2, 4, (const int32_t[]){1, 8, 8, 16});
  set_tensor(&ts[3], 3, 4, (const int32_t[]){1, 3, 3, 16});
  set_tensor(&ts[4], 4, 4, (const int32_t[]){1, 8, 8, 16});
  m.tensors = ts;
  m.n_tensors = m.n_model_tensors = 5;
  int32_t conv_in[] = {0, 1}, conv_out[] = {2}, dw_in[] = {2, 3}, dw_out[] = {4};
  const OpDef conv_def = {.name = "CONV_2D", .cost_window = COST_WINDOW_CONV};
  const OpDef dw_def = {.name = "DEPTHWISE_CONV_2D", .cost_window = COST_WINDOW_DEPTHWISE};
  Node conv = {.index = 0, .opname = "CONV_2D", .def = &conv_def, .n_in = 2, .n_out = 1, .in = conv_in, .out = conv_out,
               .macs = 8 * 8 * 16 * 36, .kernel = "ta_conv_s8"};
  Node dw = {.index = 1, .opname = "DEPTHWISE_CONV_2D", .def = &dw_def, .n_in = 2, .n_out = 1, .in = dw_in, .out = dw_out,
             .macs = 8 * 8 * 16 * 9, .kernel = "ta_depthwise_conv_s8"};
  Node nodes[] = {conv, dw};
  m.nodes = nodes;
  m.n_nodes = 2;
  CostFeatures f;
  cost_features(&m, &nodes[0], &f);
  CHECK(u, f.term[COST_MACS] == 36864 && f.term[COST_OUT_ELEMS] == 1024 && f.term[COST_PIXELS] == 64);
  CHECK(u, f.term[COST_GATHER] == 64 * 9 * 4);    /* the window gathered per pixel */
  CHECK(u, f.term[COST_TAP_RUNS] == 1024 * 9);    /* MACs / input channels */
  CHECK(u, f.term[COST_IN_ELEMS] == 256 && f.term[COST_CALL] == 1 && f.term[COST_SHALLOW_MACS] == 0);
  ts[1].dims[3] = 3; /* a first layer's 3 input channels: its MACs count as shallow too */
  cost_features(&m, &nodes[0], &f);
  CHECK(u, f.term[COST_SHALLOW_MACS] == f.term[COST_MACS] && f.term[COST_GATHER] == 64 * 9 * 3);
  ts[1].dims[3] = 4;
  cost_features(&m, &nodes[1], &f);
  /* SAME padding, stride 1: the 28 outputs on the 8x8 border have windows past the input */
  CHECK(u, f.term[COST_GATHER] == 28 * 16 * 9 && f.term[COST_TAP_RUNS] == 64 * 9);
  nodes[1].opts.depthwise.stride_h = nodes[1].opts.depthwise.stride_w = 2; /* positions 0..2 of 4 inside each way (the last window runs past the input) */
  ts[4].dims[1] = ts[4].dims[2] = 4;
  cost_features(&m, &nodes[1], &f);
  CHECK(u, f.term[COST_GATHER] == (16 - 9) * 16 * 9);
  ts[4].dims[1] = ts[4].dims[2] = 8;
  nodes[1].opts.depthwise.stride_h = nodes[1].opts.depthwise.stride_w = 1;
  /* more output channels: more instructions, on either kernel */
  CostFeatures f16, f32;
  cost_features(&m, &nodes[0], &f16);
  nodes[0].macs *= 2;
  ts[2].dims[3] = 32;
  cost_features(&m, &nodes[0], &f32);
  CHECK(u, cost_estimate(COST_M4, "ta_conv_s8", &f32, NULL) > cost_estimate(COST_M4, "ta_conv_s8", &f16, NULL));
  CHECK(u, cost_estimate(COST_M55, "ta_conv_s8_mve", &f32, NULL) > cost_estimate(COST_M55, "ta_conv_s8_mve", &f16, NULL));
  CHECK(u, cost_estimate(COST_M4, "ta_conv_s8", &f16, NULL) > cost_estimate(COST_M4, "ta_conv_s8_dsp", &f16, NULL));
  arena_free(&a);
}

/* Two tier operators sharing the code family gemm_dsp (measured on Cortex-M4), whose
 * portable kernel is conv. */
static CostChoice two_ops(CostOp ops[2], double lost0, int64_t freed0, double lost1, int64_t freed1) {
  memset(ops, 0, 2 * sizeof *ops);
  for (int i = 0; i < 2; i++) {
    ops[i].index = i;
    ops[i].fast_instr = 1000;
    ops[i].fast_fam[0] = "gemm_dsp";
    ops[i].port_fam[0] = "conv";
    ops[i].port_bytes = 100;
  }
  ops[0].port_instr = 1000 + lost0;
  ops[0].fast_bytes[MEM_MRAM] = (uint64_t)(100 + freed0);
  ops[1].port_instr = 1000 + lost1;
  ops[1].fast_bytes[MEM_MRAM] = (uint64_t)(100 + freed1);
  return (CostChoice){.core = COST_M4, .n_ops = 2, .ops = ops};
}

static void test_choice_counts_code_once(UnitState *u) {
  const uint32_t gemm = cost_family_code_bytes(COST_M4, "gemm_dsp"), conv = cost_family_code_bytes(COST_M4, "conv");
  CHECK(u, gemm > conv && conv > 0); /* the committed table measured both */
  Arena a;
  arena_init(&a);
  CostOp ops[2];
  /* op 1 loses little and frees tables: alone it goes first under a budget */
  CostChoice cc = two_ops(ops, 100000, 5000, 10, (int64_t)conv + 2000);
  bool portable[2] = {false, false};
  CHECK(u, cost_trade(&cc, MEM_MRAM, 100, portable, 2, &a));
  CHECK(u, !portable[0] && portable[1]);
  /* the pair together frees gemm_dsp's code too: balanced at a high price moves both */
  memset(portable, 0, sizeof portable);
  CHECK(u, cost_balance(&cc, 1e9, portable, 2, &a) == 2 && portable[0] && portable[1]);
  /* at 1 instruction per byte only op 1 moves: 10 lost for about 2000 bytes */
  memset(portable, 0, sizeof portable);
  CHECK(u, cost_balance(&cc, 1.0, portable, 2, &a) == 1 && portable[1] && !portable[0]);
  /* the move's figures: the last user of gemm_dsp leaving frees its code, conv costs once */
  CostMove mv;
  bool none[2] = {false, false};
  CHECK(u, cost_best_move(&cc, none, 2, MEM_MRAM, true, &a, &mv));
  CHECK(u, mv.n == 1 && mv.ops[0] == 1 && mv.code_bytes == -(int64_t)conv && mv.table_bytes == (int64_t)conv + 2000);
  bool one[2] = {false, true};
  CHECK(u, cost_best_move(&cc, one, 2, MEM_MRAM, true, &a, &mv));
  CHECK(u, mv.n == 1 && mv.ops[0] == 0 && mv.code_bytes == (int64_t)gemm && mv.lost == 100000);
  arena_free(&a);
}

/* Cycles: a kernel's own cycle formula when the bench measured its cycles, else its
 * instruction estimate x the core's cycles per instruction, and nothing on a core with no
 * measured cycles; milliseconds are cycles over the platform's clock. */
static void test_cycles_follow_the_table(UnitState *u) {
  CostFeatures f = {{1000, 200, 30, 400, 50, 70, 600, 1}};
  for (int i = 0; i < cost_n_rows; i++) {
    const CostRow *r = &cost_rows[i];
    CostCycleSource src;
    const double got = cost_estimate_cycles(r->core, r->kernel, &f, &src);
    double want = 0.0;
    if (!cost_cycles_known(r->core)) {
      CHECK(u, src == COST_CYCLES_NONE && got == 0.0 && r->n_cycle_points == 0);
      continue;
    }
    if (r->n_cycle_points > 0) {
      for (int t = 0; t < COST_N_TERMS; t++) want += r->cycle_coef[t] * f.term[t];
      CHECK(u, src == COST_CYCLES_FITTED);
    } else {
      double cpi = 0.0;
      for (int k = 0; k < cost_n_cpi; k++)
        if (cost_cpi[k].core == r->core) cpi = cost_cpi[k].cycles_per_instruction;
      want = cost_estimate(r->core, r->kernel, &f, NULL) * cpi;
      CHECK(u, src == COST_CYCLES_CPI);
    }
    CHECK(u, fabs(got - (want > 0 ? want : 0)) < 1e-6 * (fabs(want) + 1));
    for (int t = 0; t < COST_N_TERMS; t++) CHECK(u, r->cycle_coef[t] >= 0);
  }
  CHECK(u, cost_estimate_cycles(COST_M55, "(alias)", &f, NULL) == 0.0);
  for (int i = 0; i < platform_builtin_count(); i++) {
    Platform p;
    CHECK(u, platform_builtin(platform_builtin_name(i), &p));
    CHECK(u, p.clock_hz >= 1000000u && p.lp_clock_hz <= p.clock_hz);
    CHECK(u, fabs(platform_cycles_to_ms(&p, (double)p.clock_hz) - 1000.0) < 1e-9);
  }
}

const UnitTest cost_model_tests[] = {
    {"cost_cycles_follow_the_table", test_cycles_follow_the_table},
    {"cost_estimate_is_the_formula", test_estimate_is_the_formula},
    {"cost_features_of_a_convolution", test_features_of_a_convolution},
    {"cost_choice_counts_code_once", test_choice_counts_code_once},
    {NULL, NULL},
};
