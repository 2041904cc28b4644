#include "cost_model.h"

#include <string.h>

#include "../ops/op.h"

static int64_t product(const Tensor *t, int from, int to) {
  int64_t p = 1;
  for (int i = from; i < to && i < t->rank; i++) p *= t->dims[i] > 0 ? t->dims[i] : 1;
  return p;
}

/* Output positions along one axis whose window lies inside the input (extent `in`, the
 * window k taps dil apart, SAME padding by TFLite's rule plus `fold` padding folded in before). */
static int64_t inside_positions(int64_t in, int64_t out, int64_t k, int64_t stride, int64_t dil, bool same,
                                int64_t fold_before, int64_t fold_after) {
  const int64_t in_padded = in + fold_before + fold_after, span = (k - 1) * dil + 1;
  const int64_t total = same ? (out - 1) * stride + span - in_padded : 0;
  const int64_t before = (total > 0 ? total / 2 : 0) + fold_before;
  int64_t n = 0;
  for (int64_t o = 0; o < out; o++) n += o * stride - before >= 0 && o * stride - before + span <= in;
  return n;
}

/* A depthwise convolution's output elements whose window crosses the padding (the DSP
 * classic form handles those pixels apart; the row-pair form pads the rows once). */
static int64_t depthwise_border_elems(const Model *m, const Node *n) {
  const Tensor *in = node_input(m, n, 0), *w = node_input(m, n, 1), *out = node_output(m, n, 0);
  if (!in || !w || !out || in->rank != 4 || w->rank != 4 || out->rank != 4) return 0;
  const DepthwiseConv2DOptions *o = &n->opts.depthwise;
  const bool same = o->padding == OPT_PADDING_SAME;
  const int64_t rows = inside_positions(in->dims[1], out->dims[1], w->dims[1], o->stride_h > 0 ? o->stride_h : 1,
                                        o->dilation_h > 0 ? o->dilation_h : 1, same, o->fold_top, o->fold_bottom);
  const int64_t cols = inside_positions(in->dims[2], out->dims[2], w->dims[2], o->stride_w > 0 ? o->stride_w : 1,
                                        o->dilation_w > 0 ? o->dilation_w : 1, same, o->fold_left, o->fold_right);
  const int64_t per_image = (int64_t)out->dims[1] * out->dims[2];
  return (per_image - rows * cols) * out->dims[0] * out->dims[3];
}

/* The window terms of convolutions and poolings (cost_model.h), as the operator
 * declares them (OpDef.cost_window). */
static void window_terms(const Model *m, const Node *n, int64_t pixels, int64_t out_elems, CostFeatures *f) {
  const CostWindow kind = n->def ? n->def->cost_window : COST_WINDOW_NONE;
  if (kind == COST_WINDOW_NONE) return;
  if (kind == COST_WINDOW_POOL) {
    f->term[COST_TAP_RUNS] = (double)(out_elems * n->opts.pool2d.filter_w * n->opts.pool2d.filter_h);
    return;
  }
  const Tensor *w = node_input(m, n, 1);
  if (!w || w->rank != 4) return;
  const int64_t taps = (int64_t)w->dims[1] * w->dims[2];
  if (kind == COST_WINDOW_CONV) {
    if (taps > 1) f->term[COST_GATHER] = (double)(pixels * taps * w->dims[3]); /* 1x1 reads in place */
    f->term[COST_TAP_RUNS] = (double)(out_elems * taps);
    if (w->dims[3] < 4) f->term[COST_SHALLOW_MACS] = (double)n->macs;
  } else if (kind == COST_WINDOW_DEPTHWISE) {
    f->term[COST_TAP_RUNS] = (double)(pixels * taps);
    f->term[COST_GATHER] = (double)(depthwise_border_elems(m, n) * taps);
  }
}

void cost_features(const Model *m, const Node *n, CostFeatures *f) {
  memset(f, 0, sizeof *f);
  const Tensor *out = node_output(m, n, 0);
  const Tensor *in = node_input(m, n, 0);
  const int64_t out_elems = out ? product(out, 0, out->rank) : 0;
  const int64_t pixels = out && out->rank > 1 ? product(out, 0, out->rank - 1) : out_elems;
  f->term[COST_MACS] = (double)n->macs;
  f->term[COST_OUT_ELEMS] = (double)out_elems;
  f->term[COST_PIXELS] = (double)pixels;
  window_terms(m, n, pixels, out_elems, f);
  f->term[COST_IN_ELEMS] = in ? (double)product(in, 0, in->rank) : 0.0;
  f->term[COST_CALL] = 1.0;
}

CostCore cost_core_of(const Platform *p) { return p->mve ? COST_M55 : COST_M4; }

const char *cost_core_name(CostCore c) { return c == COST_M55 ? "cortex-m55" : "cortex-m4"; }

static const CostRow *find_row(CostCore core, const char *kernel) {
  for (int i = 0; i < cost_n_rows; i++)
    if (cost_rows[i].core == core && !strcmp(cost_rows[i].kernel, kernel)) return &cost_rows[i];
  return NULL;
}

double cost_estimate(CostCore core, const char *kernel, const CostFeatures *f, bool *fitted) {
  if (fitted) *fitted = false;
  if (!kernel || !*kernel || !strcmp(kernel, "(alias)")) return 0.0;
  const CostRow *r = find_row(core, kernel);
  if (r && fitted) *fitted = true;
  if (!r) r = find_row(core, "*");
  if (!r) return 0.0;
  double s = 0.0;
  for (int i = 0; i < COST_N_TERMS; i++) s += r->coef[i] * f->term[i];
  return s > 0.0 ? s : 0.0;
}

static double core_cpi(CostCore core) {
  for (int i = 0; i < cost_n_cpi; i++)
    if (cost_cpi[i].core == core && cost_cpi[i].n_points > 0) return cost_cpi[i].cycles_per_instruction;
  return 0.0;
}

bool cost_cycles_known(CostCore core) { return core_cpi(core) > 0.0; }

const char *cost_cycle_source_name(CostCycleSource s) {
  return s == COST_CYCLES_FITTED ? "fitted" : s == COST_CYCLES_CPI ? "cpi" : "none";
}

double cost_estimate_cycles(CostCore core, const char *kernel, const CostFeatures *f, CostCycleSource *source) {
  if (source) *source = COST_CYCLES_NONE;
  if (!cost_cycles_known(core) || !kernel || !*kernel || !strcmp(kernel, "(alias)")) return 0.0;
  const CostRow *r = find_row(core, kernel);
  if (r && r->n_cycle_points > 0) {
    if (source) *source = COST_CYCLES_FITTED;
    double s = 0.0;
    for (int i = 0; i < COST_N_TERMS; i++) s += r->cycle_coef[i] * f->term[i];
    return s > 0.0 ? s : 0.0;
  }
  if (source) *source = COST_CYCLES_CPI;
  return cost_estimate(core, kernel, f, NULL) * core_cpi(core);
}

double cost_node_cycles(const Model *m, const Node *n, CostCore core, CostCycleSource *source) {
  if (source) *source = COST_CYCLES_NONE;
  if (n->is_alias || !n->def) return 0.0;
  CostFeatures f;
  cost_features(m, n, &f);
  return cost_estimate_cycles(core, n->kernel, &f, source);
}

double cost_node_estimate(const Model *m, const Node *n, CostCore core) {
  if (n->is_alias || !n->def) return 0.0;
  CostFeatures f;
  cost_features(m, n, &f);
  return cost_estimate(core, n->kernel, &f, NULL);
}

uint32_t cost_family_code_bytes(CostCore core, const char *family) {
  for (int i = 0; family && i < cost_n_code; i++)
    if (cost_code[i].core == core && !strcmp(cost_code[i].family, family)) return cost_code[i].bytes;
  return 0;
}
