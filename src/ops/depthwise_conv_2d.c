/* DEPTHWISE_CONV_2D: int8 (per-channel filters, folded int32 bias), int16x8 (int64 bias)
 * and float32, NHWC with [1,kh,kw,out_c] filters, depth multiplier, SAME/VALID padding,
 * strides and dilations. int8 with depth multiplier 1 runs a Helium (MVE) or DSP kernel
 * when the platform has one, with tables specialised here (see ta_depthwise_conv_mve.h,
 * ta_depthwise_conv_dsp.h). */
#include <stdio.h>
#include <stdlib.h>

#include "../resolve/quant.h"
#include "conv_common.h"
#include "gemm_s16_dsp.h"
#include "gemm_s16_mve.h"
#include "op.h"

/* DepthwiseConv2DOptions fields. */

typedef enum DwKernel { DW_S8, DW_S16, DW_F32 } DwKernel;

static const char *const dw_kernel_names[] = {"ta_depthwise_conv_s8", "ta_depthwise_conv_s16",
                                              "ta_depthwise_conv_f32"};
static const char *const dw_param_types[] = {"ta_depthwise_conv_s8_params_t", "ta_depthwise_conv_s16_params_t",
                                             "ta_depthwise_conv_f32_params_t"};

/* Kernel tier for int8: the fastest the platform offers and the layer allows. */
typedef enum DwTier { DW_TIER_PORTABLE, DW_TIER_DSP, DW_TIER_MVE } DwTier;

/* Per output row or column: the taps [lo, hi) that read inside the image and the index
 * of that (lo, hi) pair among the axis's distinct ones (its border class). */
typedef struct DwAxisClasses {
  int16_t *table;      /* [out][3]: lo, hi, class */
  int32_t count;
  int32_t *lo, *hi;    /* per class */
} DwAxisClasses;

/* Tables of the DSP / MVE kernels. */
typedef struct DwTierData {
  DwAxisClasses rows, cols;
  int32_t *bias;       /* per (row class, column class), tier layout */
  int32_t *rp_bias;    /* DSP row-pair form: per channel, every tap's zero-point share (its padding is the zero point) */
  size_t bias_n;
  int32_t *weights32;  /* DSP: packed int16 pairs */
  int32_t *classic32;  /* DSP row-pair form kept in place (dsp_rowpair_inplace): the classic layout too */
  size_t classic_n;
  int16_t *weights16;  /* MVE: widened */
  int8_t *weights8;    /* MVE, 16-channel groups */
  int lanes16;         /* MVE: 16-channel groups (see ta_depthwise_conv_mve.h) */
  int pack;            /* MVE, 16 / channels: pixels per 16-channel group (ta_depthwise_conv_mve.h), else 0 */
  int32_t *pack_bias;  /* MVE pack: [row class][column class][16] */
  int32_t *pack_quant; /* MVE pack: [3][16] */
  size_t pack_bias_n, pack_weights_n;
  size_t weights_n;
  int32_t *quant;
  size_t quant_n;
  int negative_fix;
  int simple;          /* MVE: the kernel's reduced requantisation applies (ta_depthwise_conv_mve.h) */
  int no_left_shift;   /* MVE: no channel shifts left */
  int dsp_mode;        /* DSP: TA_DW_DSP_SIMPLE 0, NEGFIX 1 or CLAMP 2 (ta_depthwise_conv_dsp.h) */
  int dsp_rowpair;     /* DSP: form TA_DW_DSP_ROWPAIR (input rows widened in pairs into scratch) */
  int dsp_rowpair_stack; /* its widened rows fit on the kernel's stack (TA_DW_DSP_STACK_BYTES) */
  int dsp_rowpair_inplace; /* and it keeps the classic form's in-place contract (dw_inplace) */
} DwTierData;

typedef struct DwData {
  DwKernel kernel;
  DwTier tier;
  DwTierData t;
  int32_t batches, in_c, out_c, multiplier;
  ConvAxis h, w;
  ConvQuant q;            /* integer kernels */
  int32_t *folded_bias;   /* int8: bias - input_zero_point * sum over taps of filter[.][oc] */
  int32_t input_zero_point, output_zero_point;
  float act_min, act_max; /* float kernel */
  DwS16Plan *s16dsp;      /* int16x8, multiplier 1, on Cortex-M4: ta_depthwise_conv_s16_dsp, else NULL */
  DwS16MvePlan *s16mve;   /* int16x8, multiplier 1, on Cortex-M55: ta_depthwise_conv_s16_mve, else NULL */
} DwData;

/* folded[oc] = bias[oc] - zp * sum over taps of filter[tap][oc], wrapping like int32. */
static int32_t *dw_fold_bias(PrepareCtx *pc, const Tensor *filter, const Tensor *bias, int32_t zp, int32_t out_c) {
  int32_t *folded = arena_alloc(pc->arena, (size_t)out_c * sizeof(int32_t));
  if (!folded) return NULL;
  const int64_t taps = filter->elems / out_c;
  const int8_t *w = (const int8_t *)filter->data;
  for (int32_t oc = 0; oc < out_c; oc++) {
    int64_t sum = 0;
    for (int64_t t = 0; t < taps; t++) sum += w[t * out_c + oc];
    const uint32_t b = bias ? (uint32_t)const_i32(bias, oc) : 0u;
    folded[oc] = (int32_t)(b - (uint32_t)((int64_t)zp * sum));
  }
  return folded;
}

static bool dw_prepare_types(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter, const Tensor *bias,
                             const Tensor *out, DwData *d) {
  if (!op_expect_type(pc, node, out, in->type)) return false;
  switch (in->type) {
    case TT_INT8:
      d->kernel = DW_S8;
      return op_expect_type(pc, node, filter, TT_INT8) && conv_expect_bias(pc, node, bias, TT_INT32, d->out_c);
    case TT_INT16:
      /* TFLite Micro reads the 16x8 bias as int64 unconditionally. */
      d->kernel = DW_S16;
      return op_expect_type(pc, node, filter, TT_INT8) && conv_expect_bias(pc, node, bias, TT_INT64, d->out_c);
    case TT_FLOAT32:
      d->kernel = DW_F32;
      return op_expect_type(pc, node, filter, TT_FLOAT32) && conv_expect_bias(pc, node, bias, TT_FLOAT32, d->out_c);
    default:
      return op_error(pc, node, "input %s has dtype %s; supported: int8, int16 (with int8 filters), float32",
                      op_tensor_desc(pc, in), tensor_type_name(in->type));
  }
}

static bool dw_prepare_shapes(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter, const Tensor *out,
                              DwData *d) {
  if (!conv_expect_4d(pc, node, in, "input") || !conv_expect_4d(pc, node, filter, "filter") ||
      !conv_expect_4d(pc, node, out, "output"))
    return false;
  d->batches = in->dims[0];
  d->in_c = in->dims[3];
  d->out_c = filter->dims[3];
  if (filter->dims[0] != 1)
    return op_error(pc, node, "filter %s must have shape [1, h, w, channels]", op_tensor_desc(pc, filter));
  if (d->out_c % d->in_c != 0)
    return op_error(pc, node, "filter channels %d are not a multiple of the input depth %d", (int)d->out_c,
                    (int)d->in_c);
  d->multiplier = d->out_c / d->in_c;
  /* TFLite's kernel loops over the option's multiplier; it must describe these shapes. */
  const int32_t option = node->opts.depthwise.depth_multiplier;
  if (option != d->multiplier)
    return op_error(pc, node, "depth_multiplier option is %d but the filter has %d channels for %d inputs",
                    (int)option, (int)d->out_c, (int)d->in_c);
  if (out->dims[0] != d->batches || out->dims[3] != d->out_c)
    return op_error(pc, node, "output %s should have batch %d and %d channels", op_tensor_desc(pc, out),
                    (int)d->batches, (int)d->out_c);
  return true;
}

static bool dw_prepare_window(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter, const Tensor *out,
                              DwData *d) {
  const DepthwiseConv2DOptions *o = &node->opts.depthwise;
  const int padding = o->padding;
  d->h = (ConvAxis){.in = in->dims[1], .out = out->dims[1], .k = filter->dims[1],
                    .stride = o->stride_h, .dil = o->dilation_h, .fold_lead = o->fold_top, .fold_trail = o->fold_bottom};
  d->w = (ConvAxis){.in = in->dims[2], .out = out->dims[2], .k = filter->dims[2],
                    .stride = o->stride_w, .dil = o->dilation_w, .fold_lead = o->fold_left, .fold_trail = o->fold_right};
  int32_t out_h, out_w;
  if (!conv_axis_setup(pc, node, padding, "height", &d->h, &out_h) ||
      !conv_axis_setup(pc, node, padding, "width", &d->w, &out_w))
    return false;
  if (out_h != d->h.out || out_w != d->w.out)
    return op_error(pc, node, "output %s is %dx%d but the window gives %dx%d", op_tensor_desc(pc, out),
                    (int)d->h.out, (int)d->w.out, (int)out_h, (int)out_w);
  return true;
}

/* ---- DSP / MVE tiers (int8, depth multiplier 1) ------------------------------------ */

/* Table entries, and compile-time work (bias entries x taps), beyond which a layer stays portable. */
enum { DW_MAX_TABLE = 1 << 20, DW_MAX_WORK = 1 << 26 };

/* Taps [lo, hi) of an axis whose input coordinate origin + dil * k lies inside the image. */
static void dw_axis_taps(const ConvAxis *ax, int32_t o, int32_t *lo, int32_t *hi) {
  const int64_t origin = (int64_t)o * ax->stride - ax->pad;
  int32_t a = 0, b = ax->k;
  while (a < b && origin + (int64_t)ax->dil * a < 0) a++;
  while (b > a && origin + (int64_t)ax->dil * (b - 1) >= ax->in) b--;
  *lo = a;
  *hi = b;
}

static bool dw_axis_classes(PrepareCtx *pc, const ConvAxis *ax, DwAxisClasses *c) {
  if (ax->k > INT16_MAX || ax->out > DW_MAX_TABLE) return false;
  c->table = arena_alloc(pc->arena, (size_t)ax->out * 3 * sizeof(int16_t));
  c->lo = arena_alloc(pc->arena, (size_t)ax->out * sizeof(int32_t));
  c->hi = arena_alloc(pc->arena, (size_t)ax->out * sizeof(int32_t));
  if (!c->table || !c->lo || !c->hi) return false;
  c->count = 0;
  for (int32_t o = 0; o < ax->out; o++) {
    int32_t lo, hi, k = 0;
    dw_axis_taps(ax, o, &lo, &hi);
    while (k < c->count && (c->lo[k] != lo || c->hi[k] != hi)) k++;
    if (k == c->count) {
      if (k >= INT16_MAX) return false;
      c->lo[k] = lo;
      c->hi[k] = hi;
      c->count++;
    }
    c->table[3 * o] = (int16_t)lo;
    c->table[3 * o + 1] = (int16_t)hi;
    c->table[3 * o + 2] = (int16_t)k;
  }
  return true;
}

/* bias - zp * (weights of channel c over the taps of row class r x column class k), int32 wrap. */
static int32_t dw_class_bias(const DwData *d, const Tensor *filter, const Tensor *bias, int32_t r, int32_t k,
                             int32_t c) {
  const int8_t *w = (const int8_t *)filter->data;
  int64_t sum = 0;
  for (int32_t ky = d->t.rows.lo[r]; ky < d->t.rows.hi[r]; ky++)
    for (int32_t kx = d->t.cols.lo[k]; kx < d->t.cols.hi[k]; kx++) sum += w[(ky * d->w.k + kx) * d->out_c + c];
  const uint32_t b = bias ? (uint32_t)const_i32(bias, c) : 0u;
  return (int32_t)(b - (uint32_t)((int64_t)d->input_zero_point * sum));
}

/* Largest |accumulator| of channel c over every border class, from the DSP bias table. */
static int64_t dw_acc_bound(const DwData *d, const Tensor *filter, int32_t c) {
  const int8_t *w = (const int8_t *)filter->data;
  const size_t classes = (size_t)d->t.rows.count * d->t.cols.count;
  int64_t abs_w = 0, worst_bias = 0;
  for (int64_t t = 0; t < (int64_t)d->h.k * d->w.k; t++) abs_w += llabs((long long)w[t * d->out_c + c]);
  for (size_t k = 0; k < classes; k++) {
    const int64_t b = llabs((long long)d->t.bias[k * d->out_c + c]);
    worst_bias = b > worst_bias ? b : worst_bias;
  }
  return worst_bias + 128 * abs_w;
}

/* Lane of channel j (0..7) of a group in the MVE tables: even channels, then odd ones. */
static int32_t dw_mve_lane(int32_t j) { return (j & 1) ? 4 + (j >> 1) : j >> 1; }

static int32_t dw_right_shift(const DwData *d, int32_t c) { return d->q.shift[c] < 0 ? -d->q.shift[c] : 0; }
static int32_t dw_left_shift(const DwData *d, int32_t c) { return d->q.shift[c] > 0 ? d->q.shift[c] : 0; }

/* The DSP requantisation is exact only while (acc << (left + 1)) and the rounding addend
 * plus the high product stay in int32 (see ta_depthwise_conv_dsp.c), and the scaled
 * weights w << (left + 1) in int16. */
static bool dw_dsp_quant(PrepareCtx *pc, const DwData *d, const Tensor *filter, DwTierData *t) {
  const int8_t *w = (const int8_t *)filter->data;
  const int64_t taps = (int64_t)d->h.k * d->w.k;
  t->quant_n = (size_t)d->out_c * 5;
  if (!(t->quant = arena_alloc(pc->arena, t->quant_n * sizeof(int32_t)))) return false;
  for (int32_t c = 0; c < d->out_c; c++) {
    const int32_t left = dw_left_shift(d, c), right = dw_right_shift(d, c);
    if (left > 29 || right > 30) return false;
    for (int64_t tap = 0; tap < taps; tap++) {
      const int64_t scaled = (int64_t)w[tap * d->out_c + c] * ((int64_t)1 << (left + 1));
      if (scaled < INT16_MIN || scaled > INT16_MAX) return false;
    }
    const int64_t bound = dw_acc_bound(d, filter, c);
    const int64_t doubled = bound << (left + 1);
    const int64_t zp = d->output_zero_point;
    const int64_t addend = right > 0 ? ((int64_t)1 << (right - 1)) + zp * ((int64_t)1 << right) : zp;
    if (doubled > INT32_MAX || llabs((long long)addend) + (doubled >> 1) + 2 > INT32_MAX) return false;
    int32_t *q = t->quant + 5 * c;
    q[0] = d->q.multiplier[c];
    q[1] = (int32_t)addend;
    q[2] = right;
    q[3] = t->negative_fix && right > 0 ? -1 : 0;
    q[4] = left + 1;
  }
  return true;
}

/* int16 pair of two int8 weights scaled by 2^shift (range checked by dw_dsp_quant). */
static int32_t dw_dsp_pair(int32_t lo, int32_t hi, int32_t shift_lo, int32_t shift_hi) {
  const uint32_t a = (uint16_t)(int16_t)(lo * (1 << shift_lo)), b = (uint16_t)(int16_t)(hi * (1 << shift_hi));
  return (int32_t)(a | b << 16);
}

/* The DSP row-pair form (ta_depthwise_conv_dsp.h): 3x3, stride 1 and dilation 1 both
 * ways, whole groups of 4 channels, mode SIMPLE or NEGFIX (its asm body).
 * It widens every input row pair once per group and runs a loop per output row pair, so
 * it pays from 5 output columns (QEMU M4: vww's 6-wide layers 146 k -> 114 k instructions;
 * vww's 3-wide one would go 83 k -> 91 k).
 * Its scratch would land on kws's arena peak (5 wide: 224 bytes, 16,000 -> 16,224), so up
 * to DW_ROWPAIR_STACK_BYTES the kernel keeps it on its stack instead (no arena scratch).
 * Such a layer narrower than DW_ROWPAIR_INPLACE_BELOW columns (kws: classic before the
 * stack, and in place in max mode: 16,000 -> 8,704 bytes) also keeps the classic weights
 * and contract, which it runs in place (dw_inplace); the wider ones declare nothing, as
 * before (max mode takes every tie: vww's 6-wide layers would run in place for no byte,
 * +190 k instructions).
 * Its padding is the input zero point, so one bias per channel serves every pixel and each
 * output row is one asm loop (rp_bias). */
enum {
  DW_ROWPAIR_MIN_WIDTH = 5,
  DW_ROWPAIR_STACK_BYTES = 256, /* TA_DW_DSP_STACK_BYTES */
  DW_ROWPAIR_INPLACE_BELOW = 6
};
static bool dw_dsp_rowpair_fits(const DwData *d) {
  return d->h.k == 3 && d->w.k == 3 && d->h.stride == 1 && d->w.stride == 1 && d->h.dil == 1 && d->w.dil == 1 &&
         d->out_c % 4 == 0 && d->w.out >= DW_ROWPAIR_MIN_WIDTH && d->t.dsp_mode != 2;
}

/* Its scratch: two widened row pairs of every column the windows read, 4 channels. */
static size_t dw_dsp_rowpair_scratch(const DwData *d) {
  return (size_t)32 * (size_t)((d->w.out - 1) * d->w.stride + d->w.k);
}

/* Row-pair weights [group][kx][channel][2]: (w0, w1) and (w1, w2) of the filter column, scaled. */
static void dw_dsp_rowpair_weights(const DwData *d, const int8_t *w, DwTierData *t) {
  const int32_t ch = d->out_c, kw = d->w.k;
  for (int32_t c = 0; c < ch; c++) {
    const int32_t shift = t->quant[5 * c + 4];
    for (int32_t kx = 0; kx < kw; kx++) {
      const int32_t w0 = w[(0 * kw + kx) * ch + c], w1 = w[(1 * kw + kx) * ch + c], w2 = w[(2 * kw + kx) * ch + c];
      int32_t *dst = t->weights32 + (((size_t)(c / 4) * kw + kx) * 4 + c % 4) * 2;
      dst[0] = dw_dsp_pair(w0, w1, shift, shift);
      dst[1] = dw_dsp_pair(w1, w2, shift, shift);
    }
  }
}

/* The classic layout [group][kx][ky] of scaled int16 pairs (w[c], w[c+2]), (w[c+1], w[c+3]). */
static void dw_dsp_classic_weights(const DwData *d, const int8_t *w, const int32_t *quant, int32_t *out) {
  const int32_t ch = d->out_c, kh = d->h.k, kw = d->w.k, groups = ch / 4;
  for (int32_t g = 0; g < groups; g++)
    for (int32_t kx = 0; kx < kw; kx++)
      for (int32_t ky = 0; ky < kh; ky++) {
        const int32_t c = 4 * g;
        const int8_t *wt = w + (size_t)(ky * kw + kx) * ch + c;
        const int32_t *s = quant + 5 * c + 4; /* shifts of channels c.. c + 3, 5 words apart */
        int32_t *dst = out + (((size_t)g * kw + kx) * kh + ky) * 2;
        dst[0] = dw_dsp_pair(wt[0], wt[2], s[0], s[10]);
        dst[1] = dw_dsp_pair(wt[1], wt[3], s[5], s[15]);
      }
}

/* The row-pair form's widened rows live in the scratch arena (else on the kernel's stack). */
static bool dw_dsp_arena_scratch(const DwData *d) { return d->t.dsp_rowpair && !d->t.dsp_rowpair_stack; }

/* Weights [group][kx][ky] as scaled int16 pairs (or the row-pair layout); the class biases
 * scaled like them. The quant table is built first: it checks the scaled ranges on the
 * unscaled biases. */
static bool dw_dsp_tables(PrepareCtx *pc, const DwData *d, const Tensor *filter, const Tensor *bias, DwTierData *t) {
  const int32_t ch = d->out_c, kh = d->h.k, kw = d->w.k, taps = kh * kw, groups = ch / 4;
  const int8_t *w = (const int8_t *)filter->data;
  t->dsp_rowpair = dw_dsp_rowpair_fits(d);
  t->dsp_rowpair_stack = t->dsp_rowpair && dw_dsp_rowpair_scratch(d) <= DW_ROWPAIR_STACK_BYTES;
  t->dsp_rowpair_inplace = t->dsp_rowpair_stack && d->w.out < DW_ROWPAIR_INPLACE_BELOW;
  t->bias_n = (size_t)t->rows.count * t->cols.count * ch;
  t->classic_n = (size_t)groups * taps * 2;
  t->weights_n = t->dsp_rowpair ? (size_t)groups * kw * 8 : t->classic_n;
  if (t->bias_n > DW_MAX_TABLE || t->weights_n > DW_MAX_TABLE || t->bias_n * (size_t)taps > DW_MAX_WORK) return false;
  t->bias = arena_alloc(pc->arena, (t->bias_n ? t->bias_n : 1) * sizeof(int32_t));
  t->weights32 = arena_alloc(pc->arena, (t->weights_n ? t->weights_n : 1) * sizeof(int32_t));
  if (!t->bias || !t->weights32) return false;
  for (int32_t r = 0; r < t->rows.count; r++)
    for (int32_t k = 0; k < t->cols.count; k++)
      for (int32_t c = 0; c < ch; c++)
        t->bias[((size_t)r * t->cols.count + k) * ch + c] = dw_class_bias(d, filter, bias, r, k, c);
  if (!dw_dsp_quant(pc, d, filter, t)) return false;
  for (size_t i = 0; i < t->bias_n; i++) {
    const int32_t shift = t->quant[5 * (i % (size_t)ch) + 4];
    t->bias[i] = (int32_t)((uint32_t)t->bias[i] << shift);
  }
  if (!t->dsp_rowpair) {
    dw_dsp_classic_weights(d, w, t->quant, t->weights32);
    return true;
  }
  dw_dsp_rowpair_weights(d, w, t);
  /* bias - zp * the sum of all taps, scaled: the padding reads the zero point */
  if (!(t->rp_bias = arena_alloc(pc->arena, (size_t)ch * sizeof(int32_t)))) return false;
  for (int32_t c = 0; c < ch; c++) {
    int64_t sum = 0;
    for (int32_t tap = 0; tap < taps; tap++) sum += w[(size_t)tap * ch + c];
    const uint32_t b = bias ? (uint32_t)const_i32(bias, c) : 0u;
    const uint32_t folded = b - (uint32_t)((int64_t)d->input_zero_point * sum);
    t->rp_bias[c] = (int32_t)(folded << t->quant[5 * c + 4]);
  }
  if (t->dsp_rowpair_inplace) { /* emitted instead when the layer runs in place */
    t->classic32 = arena_alloc(pc->arena, (t->classic_n ? t->classic_n : 1) * sizeof(int32_t));
    if (!t->classic32) return false;
    dw_dsp_classic_weights(d, w, t->quant, t->classic32);
  }
  return true;
}

/* Position of channel j (0..15) of a 16-channel group in the MVE tables: lane l of
 * accumulator a holds channel 4l + {0,2,1,3}[a]. */
static int32_t dw_mve16_pos(int32_t j) {
  static const int32_t acc_of[4] = {0, 2, 1, 3};
  return 4 * acc_of[j & 3] + (j >> 2);
}

/* 16-channel groups need 16 channels (when the count is not a multiple of 16, the last
 * group is the last 16 channels, overlapping the one before) and no weight of -128 (two
 * taps' int16 products are summed before widening: each within 128 * 127). */
static bool dw_mve16_fits(const DwData *d, const Tensor *filter) {
  if (d->out_c < 16) return false;
  const int8_t *w = (const int8_t *)filter->data;
  for (int64_t i = 0; i < filter->elems; i++)
    if (w[i] == INT8_MIN) return false;
  return true;
}

/* The layer form of the 16-channel loops (TA_DW_MVE_BIT_LAYER: one call per layer, the
 * window shape switched per pixel) pays on one-pixel-wide columns and on narrow maps taller
 * than wide, whose rows are runs of a few pixels: each run costs the run loops a call
 * (kws's 25x5 layers: 76,363 -> 69,256 instructions on QEMU M55; strww's columns 26,919 ->
 * 22,938, 23,751 -> 21,210 and 2,257 -> 1,962, its code 10,308 -> 9,860 bytes).
 * On wider or square maps the runs are long, and its per-pixel switch costs more than it
 * saves where a pixel is one group (vww's 24x24x16 layer: 87,077 -> 121,407); it needs the
 * int8 activation range (no clamp after the narrowing). */
static bool dw_mve_layer_form(const DwData *d) {
  return d->q.act_min == -128 && d->q.act_max == 127 && (d->w.out == 1 || (d->w.out <= 8 && d->h.out >= 2 * d->w.out));
}

static bool dw_mve16_tables(PrepareCtx *pc, const DwData *d, const Tensor *filter, const Tensor *bias,
                            DwTierData *t) {
  const int32_t ch = d->out_c, taps = d->h.k * d->w.k, groups = (ch + 15) / 16, padded = groups * 16;
  const int8_t *w = (const int8_t *)filter->data;
  t->lanes16 = dw_mve_layer_form(d) ? 2 : 1;
  t->bias_n = (size_t)t->rows.count * t->cols.count * padded;
  t->weights_n = (size_t)taps * padded;
  t->quant_n = (size_t)padded * 3;
  if (t->bias_n > DW_MAX_TABLE || t->weights_n > DW_MAX_TABLE || t->bias_n * (size_t)taps > DW_MAX_WORK) return false;
  t->bias = arena_calloc(pc->arena, t->bias_n, sizeof(int32_t));
  t->weights8 = arena_calloc(pc->arena, t->weights_n, sizeof(int8_t));
  t->quant = arena_calloc(pc->arena, t->quant_n, sizeof(int32_t));
  if (!t->bias || !t->weights8 || !t->quant) return false;
  for (int32_t g = 0; g < groups; g++) {
    const int32_t base = 16 * g < ch - 16 ? 16 * g : ch - 16; /* the group's first channel */
    for (int32_t j = 0; j < 16; j++) {
      const int32_t c = base + j, pos = dw_mve16_pos(j);
      if (dw_right_shift(d, c) > 31) return false;
      for (int32_t r = 0; r < t->rows.count; r++)
        for (int32_t k = 0; k < t->cols.count; k++)
          t->bias[((size_t)r * t->cols.count + k) * padded + 16 * g + pos] = dw_class_bias(d, filter, bias, r, k, c);
      for (int32_t tap = 0; tap < taps; tap++)
        t->weights8[((size_t)g * taps + tap) * 16 + j] = w[(size_t)tap * ch + c];
      int32_t *q = t->quant + 48 * g + pos;
      q[0] = d->q.multiplier[c];
      q[16] = dw_left_shift(d, c);
      q[32] = -dw_right_shift(d, c);
      if (dw_left_shift(d, c) != 0) t->simple = t->no_left_shift = 0;
    }
  }
  return true;
}

/* Pixels per 16-channel group for a layer of fewer than 16 channels: its pixels must be
 * neighbours in the input (stride_w 1) and in a row (out_w > 1), 16 a multiple of the
 * channels, and no weight -128 (as dw_mve16_fits). 0: no packing. */
static int dw_mve_pack(const DwData *d, const Tensor *filter) {
  if (d->out_c >= 16 || 16 % d->out_c != 0 || d->w.stride != 1 || d->w.out < 2) return 0;
  const int8_t *w = (const int8_t *)filter->data;
  for (int64_t i = 0; i < filter->elems; i++)
    if (w[i] == INT8_MIN) return 0;
  return 16 / d->out_c;
}

/* The 16-lane tables of a packed layer: lane j holds channel j % channels (of pixel
 * j / channels), at table position dw_mve16_pos(j). */
static bool dw_mve_pack_tables(PrepareCtx *pc, const DwData *d, const Tensor *filter, const Tensor *bias,
                               DwTierData *t) {
  const int32_t ch = d->out_c, taps = d->h.k * d->w.k;
  const int8_t *w = (const int8_t *)filter->data;
  t->pack_bias_n = (size_t)t->rows.count * t->cols.count * 16;
  t->pack_weights_n = (size_t)taps * 16;
  if (t->pack_bias_n > DW_MAX_TABLE || t->pack_weights_n > DW_MAX_TABLE) return false;
  t->pack_bias = arena_calloc(pc->arena, t->pack_bias_n, sizeof(int32_t));
  t->weights8 = arena_calloc(pc->arena, t->pack_weights_n, sizeof(int8_t));
  t->pack_quant = arena_calloc(pc->arena, 48, sizeof(int32_t));
  if (!t->pack_bias || !t->weights8 || !t->pack_quant) return false;
  for (int32_t j = 0; j < 16; j++) {
    const int32_t c = j % ch, pos = dw_mve16_pos(j);
    for (int32_t r = 0; r < t->rows.count; r++)
      for (int32_t k = 0; k < t->cols.count; k++)
        t->pack_bias[((size_t)r * t->cols.count + k) * 16 + pos] = dw_class_bias(d, filter, bias, r, k, c);
    for (int32_t tap = 0; tap < taps; tap++) t->weights8[(size_t)tap * 16 + j] = w[(size_t)tap * ch + c];
    t->pack_quant[pos] = d->q.multiplier[c];
    t->pack_quant[16 + pos] = dw_left_shift(d, c);
    t->pack_quant[32 + pos] = -dw_right_shift(d, c);
  }
  return true;
}

static bool dw_mve_tables(PrepareCtx *pc, const DwData *d, const Tensor *filter, const Tensor *bias, DwTierData *t) {
  if (dw_mve16_fits(d, filter)) return dw_mve16_tables(pc, d, filter, bias, t);
  t->pack = dw_mve_pack(d, filter);
  if (t->pack && !dw_mve_pack_tables(pc, d, filter, bias, t)) return false;
  const int32_t ch = d->out_c, taps = d->h.k * d->w.k, groups = (ch + 7) / 8, padded = groups * 8;
  const int8_t *w = (const int8_t *)filter->data;
  t->bias_n = (size_t)t->rows.count * t->cols.count * padded;
  t->weights_n = (size_t)groups * taps * 8;
  t->quant_n = (size_t)groups * 24;
  if (t->bias_n > DW_MAX_TABLE || t->weights_n > DW_MAX_TABLE || t->bias_n * (size_t)taps > DW_MAX_WORK) return false;
  t->bias = arena_calloc(pc->arena, t->bias_n, sizeof(int32_t));
  t->weights16 = arena_calloc(pc->arena, t->weights_n, sizeof(int16_t));
  t->quant = arena_calloc(pc->arena, t->quant_n, sizeof(int32_t));
  if (!t->bias || !t->weights16 || !t->quant) return false;
  for (int32_t c = 0; c < ch; c++) {
    const int32_t g = c / 8, lane = dw_mve_lane(c % 8);
    if (dw_right_shift(d, c) > 31) return false;
    for (int32_t r = 0; r < t->rows.count; r++)
      for (int32_t k = 0; k < t->cols.count; k++)
        t->bias[((size_t)r * t->cols.count + k) * padded + 8 * g + lane] = dw_class_bias(d, filter, bias, r, k, c);
    for (int32_t tap = 0; tap < taps; tap++)
      t->weights16[((size_t)g * taps + tap) * 8 + c % 8] = w[(size_t)tap * ch + c];
    int32_t *q = t->quant + 24 * g + lane;
    q[0] = d->q.multiplier[c];
    q[8] = dw_left_shift(d, c);
    q[16] = -dw_right_shift(d, c);
    if (dw_left_shift(d, c) != 0) t->simple = t->no_left_shift = 0;
  }
  return true;
}

/* SIMPLE: no negative rounding fix and the int8 activation range; NEGFIX: the fix on
 * every channel (all right shifts > 0) and the int8 range; anything else CLAMP. */
static int dw_dsp_mode(const DwData *d) {
  if (d->q.act_min != -128 || d->q.act_max != 127) return 2;
  if (!d->t.negative_fix) return 0;
  for (int32_t c = 0; c < d->out_c; c++)
    if (dw_right_shift(d, c) <= 0) return 2;
  return 1;
}

/* Picks MVE > DSP > portable for an int8 layer and builds the tier's tables. A layer the
 * fast kernels cannot do exactly stays portable. */
static DwTier dw_select_tier(PrepareCtx *pc, const Tensor *filter, const Tensor *bias, DwData *d) {
  const Platform *pf = pc->platform;
  if (d->kernel != DW_S8 || d->multiplier != 1 || !pf || (!pf->mve && !pf->dsp)) return DW_TIER_PORTABLE;
  if (!dw_axis_classes(pc, &d->h, &d->t.rows) || !dw_axis_classes(pc, &d->w, &d->t.cols)) return DW_TIER_PORTABLE;
  d->t.negative_fix = d->q.act_min < d->output_zero_point;
  if (pf->mve) {
    d->t.simple = !d->t.negative_fix;
    d->t.no_left_shift = 1; /* both cleared by a left shift */
    return dw_mve_tables(pc, d, filter, bias, &d->t) ? DW_TIER_MVE : DW_TIER_PORTABLE;
  }
  d->t.dsp_mode = dw_dsp_mode(d);
  return dw_dsp_tables(pc, d, filter, bias, &d->t) ? DW_TIER_DSP : DW_TIER_PORTABLE;
}

static bool dw_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 3, 1) || !op_expect_options(pc, node, OPTS_DEPTHWISE_CONV_2D)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *filter = node_input(pc->model, node, 1);
  const Tensor *bias = node_input(pc->model, node, 2);
  const Tensor *out = node_output(pc->model, node, 0);
  DwData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!dw_prepare_shapes(pc, node, in, filter, out, d) || !dw_prepare_types(pc, node, in, filter, bias, out, d) ||
      !dw_prepare_window(pc, node, in, filter, out, d))
    return false;
  if (!tensor_is_const(filter))
    return op_error(pc, node, "filter %s must be a constant tensor", op_tensor_desc(pc, filter));
  const int activation = node->opts.depthwise.activation;
  if (d->kernel == DW_F32) {
    if (!conv_float_range(pc, node, activation, &d->act_min, &d->act_max)) return false;
  } else {
    /* ta_depthwise_conv_s16 requantises its int64 accumulator with ta_requantize64 */
    const QuantRange range = d->kernel == DW_S16 ? QUANT_RANGE_INT64 : QUANT_RANGE_INT32;
    if (!conv_quant_prepare(pc, node, in, filter, 3, out, d->out_c, activation, range, &d->q)) return false;
    d->input_zero_point = tensor_zero_point(in);
    d->output_zero_point = tensor_zero_point(out);
  }
  if (d->kernel == DW_S8 && !(d->folded_bias = dw_fold_bias(pc, filter, bias, d->input_zero_point, d->out_c)))
    return op_error(pc, node, "out of memory");
  d->tier = dw_select_tier(pc, filter, bias, d);
  if (d->kernel == DW_S16 && d->multiplier == 1 && gemm_s16_dsp_available(pc->platform) &&
      d->input_zero_point == 0 && d->output_zero_point == 0 && (!bias || tensor_is_const(bias)) &&
      !dw_s16_dsp_plan(pc->arena, d->out_c, d->h.k * d->w.k, (const int8_t *)filter->data, bias, d->q.multiplier,
                       d->q.shift, d->q.act_min, d->q.act_max, &d->s16dsp))
    return op_error(pc, node, "out of memory");
  if (d->kernel == DW_S16 && d->multiplier == 1 && gemm_s16_mve_available(pc->platform) &&
      d->input_zero_point == 0 && d->output_zero_point == 0 && (!bias || tensor_is_const(bias)) &&
      !dw_s16_mve_plan(pc->arena, d->out_c, d->h.k * d->w.k, (const int8_t *)filter->data, bias, d->q.multiplier,
                       d->q.shift, &d->s16mve))
    return op_error(pc, node, "out of memory");
  node->op_data = d;
  node->kernel = dw_kernel_names[d->kernel];
  node->families[0] = "depthwise_conv";
  if (d->tier == DW_TIER_MVE) {
    node->kernel = "ta_depthwise_conv_mve_s8";
    node->families[0] = "depthwise_conv_mve";
  } else if (d->tier == DW_TIER_DSP) {
    node->kernel = "ta_depthwise_conv_dsp_s8";
    node->families[0] = "depthwise_conv_dsp";
    node->reads_scratch = dw_dsp_arena_scratch(d);
    node->scratch_bytes = dw_dsp_arena_scratch(d) ? dw_dsp_rowpair_scratch(d) : 0;
  }
  if (d->s16dsp) {
    node->kernel = "ta_depthwise_conv_s16_dsp";
    node->families[0] = "depthwise_conv_s16_dsp";
    node->families[1] = "gemm_s16_dsp"; /* its header holds the requantisation */
  }
  if (d->s16mve) {
    node->kernel = "ta_depthwise_conv_s16_mve";
    node->families[0] = "depthwise_conv_s16_mve";
    node->families[1] = "gemm_s16_mve"; /* its header holds the general requantisation */
  }
  node->macs = out->elems * (int64_t)d->h.k * d->w.k;
  return true;
}

/* Writes the ta_depthwise_geom_t initializer. */
static void dw_geom_init(char *buf, size_t cap, const DwData *d) {
  snprintf(buf, cap,
           "{\n    .batches = %d,\n    .in_h = %d, .in_w = %d, .in_c = %d,\n"
           "    .out_h = %d, .out_w = %d, .out_c = %d,\n    .depth_multiplier = %d,\n    .k_h = %d, .k_w = %d,\n"
           "    .stride_h = %d, .stride_w = %d,\n    .dil_h = %d, .dil_w = %d,\n"
           "    .pad_h = %d, .pad_w = %d,\n  }",
           (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->in_c, (int)d->h.out, (int)d->w.out, (int)d->out_c,
           (int)d->multiplier, (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil,
           (int)d->w.dil, (int)d->h.pad, (int)d->w.pad);
}

/* Shape fields shared by the DSP and MVE descriptors. */
static void dw_tier_geom(char *buf, size_t cap, const DwData *d) {
  snprintf(buf, cap,
           "  .batches = %d,\n  .in_h = %d, .in_w = %d, .channels = %d,\n  .out_h = %d, .out_w = %d,\n"
           "  .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,\n  .dil_h = %d, .dil_w = %d,\n"
           "  .pad_h = %d, .pad_w = %d,\n  .col_classes = %d,\n",
           (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->out_c, (int)d->h.out, (int)d->w.out, (int)d->h.k,
           (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil, (int)d->h.pad,
           (int)d->w.pad, (int)d->t.cols.count);
}

/* The MVE descriptor's negative_fix: 2 on 16-channel tables when every channel shifts
 * right (the kernel's fix is then the sign alone). */
static int dw_mve_negative_fix(const DwData *d) {
  if (!d->t.negative_fix || !d->t.lanes16) return d->t.negative_fix;
  for (int32_t c = 0; c < d->out_c; c++)
    if (dw_right_shift(d, c) <= 0) return 1;
  return 2;
}

/* The MVE loops this layer's windows take (bits of TA_DEPTHWISE_CONV_MVE_VARIANTS, see
 * ta_depthwise_conv_mve.h): every row class meets every column class. Mirrors the
 * kernel's choice (mve16_shape, mve_pick); a loop left out would only cost speed. */
static uint32_t dw_mve_variants(const DwData *d) {
  const DwTierData *t = &d->t;
  const bool k3x3 = d->h.k == 3 && d->w.k == 3;
  /* TA_DW_MVE_BIT_ONE, TA_DW_MVE_BIT_PACK */
  uint32_t bits = ((t->lanes16 && d->out_c == 16) || t->pack ? 1u << 22 : 0) | (t->pack ? 1u << 23 : 0);
  for (int32_t r = 0; r < t->rows.count; r++)
    for (int32_t k = 0; k < t->cols.count; k++) {
      const int32_t n_ky = t->rows.hi[r] - t->rows.lo[r], n_kx = t->cols.hi[k] - t->cols.lo[k];
      int shape;
      if (t->lanes16 || t->pack) {
        /* 0 whole 3x3, 1 2x3, 2 3x2, 3 2x2 (rows x columns), 4 column, 5 any */
        if (d->w.k == 1) shape = 4;
        else if (k3x3 && n_ky >= 2 && n_kx >= 2) shape = n_ky == 3 ? (n_kx == 3 ? 0 : 2) : (n_kx == 3 ? 1 : 3);
        else shape = 5;
        if (t->lanes16 == 2) /* the layer form: its shape (TA_DW_MVE_BIT_LAYER), its requantisation (_S, _P, _G) */
          bits |= 1u << (24 + (shape == 0 ? 0 : shape <= 3 ? 1 : shape - 2)) |
                  1u << (t->simple ? 28 : dw_mve_negative_fix(d) == 2 && t->no_left_shift ? 29 : 30);
        else
          bits |= 1u << (t->simple ? 6 + shape : shape);
      }
      if (!t->lanes16) { /* with pack: the pixels left over */
        /* 0 whole 3x3, 1..3 rows of that many taps, 4 any */
        shape = k3x3 && n_ky == 3 && n_kx == 3 ? 0 : n_kx >= 1 && n_kx <= 3 ? n_kx : 4;
        bits |= 1u << (12 + (t->simple ? 5 : 0) + shape);
      }
    }
  return bits;
}

static void dw_emit_tier(EmitCtx *ec, const Node *node, const DwData *d) {
  const char *name = em_op_name(ec);
  const DwTierData *t = &d->t;
  char geom[512];
  dw_tier_geom(geom, sizeof geom, d);
  const char *rows = em_table_i16(ec, "rows", t->rows.table, (size_t)d->h.out * 3);
  const char *cols = em_table_i16(ec, "cols", t->cols.table, (size_t)d->w.out * 3);
  const char *quant = em_table_i32(ec, "quant", t->quant, t->quant_n);
  if (d->tier == DW_TIER_MVE) {
    const char *bias = em_table_i32(ec, "class_bias", t->bias, t->bias_n);
    const char *weights = t->lanes16 ? em_table_i8(ec, "weights", t->weights8, t->weights_n)
                                     : em_table_i16(ec, "weights", t->weights16, t->weights_n);
    char pack[1024] = "";
    if (t->pack) /* the 16-lane tables of the packed pixels */
      snprintf(pack, sizeof pack, "  .weights8 = %s,\n  .pack = %d,\n  .pack_bias = %s,\n  .pack_quant = %s,\n",
               em_table_i8(ec, "pack_weights", t->weights8, t->pack_weights_n), t->pack,
               em_table_i32(ec, "pack_bias", t->pack_bias, t->pack_bias_n),
               em_table_i32(ec, "pack_quant", t->pack_quant, 48));
    em_kernel_variants(ec, "TA_DEPTHWISE_CONV_MVE_VARIANTS", dw_mve_variants(d));
    em_decl(ec,
            "static const ta_depthwise_conv_mve_params_t %s_params = {\n%s  .output_zero_point = %d,\n"
            "  .act_min = %d, .act_max = %d,\n  .negative_fix = %d,\n  .simple = %d,\n  .no_left_shift = %d,\n"
            "  .rows = %s,\n  .cols = %s,\n  .bias = %s,\n  .%s = %s,\n  .quant = %s,\n  .lanes16 = %d,\n%s};",
            name, geom, (int)d->output_zero_point, (int)d->q.act_min, (int)d->q.act_max, dw_mve_negative_fix(d), t->simple,
            t->no_left_shift, rows, cols, bias, t->lanes16 ? "weights8" : "weights", weights, quant, t->lanes16, pack);
    if (node->inplace) /* the output written over the dying input, then moved into place */
      em_call(ec, "ta_depthwise_conv_mve_s8_inplace", 5, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
              conv_inplace_temp(ec, node), em_tensor(ec, node->out[0]), em_int(ec, (int64_t)d->h.out * d->w.out * d->out_c));
    else
      em_call(ec, "ta_depthwise_conv_mve_s8", 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
              em_tensor(ec, node->out[0]));
    return;
  }
  /* A layer without a full group of 4 channels has no packed weights; one entry keeps C99 happy. */
  static const int32_t no_weights[1] = {0};
  /* In place, a row-pair layer runs the classic form (dw_inplace) with its classic weights. */
  const int rowpair = t->dsp_rowpair && !node->inplace;
  const int32_t *w32 = t->dsp_rowpair && !rowpair ? t->classic32 : t->weights32;
  const size_t w_n = t->dsp_rowpair && !rowpair ? t->classic_n : t->weights_n;
  const char *weights = w_n ? em_table_i32(ec, "weights", w32, w_n) : em_table_i32(ec, "weights", no_weights, 1);
  /* the row-pair form's one class (its padding is the zero point), else every border class's */
  const char *bias = rowpair ? em_table_i32(ec, "class_bias", t->rp_bias, (size_t)d->out_c)
                             : em_table_i32(ec, "class_bias", t->bias, t->bias_n);
  /* bit 3: the row-pair form's code (TA_DW_DSP_ROWPAIR_BIT), bit 4 the classic form's
   * (TA_DW_DSP_CLASSIC_BIT; also the in-place entry's): kws links only the row-pair form */
  /* bit 5 (TA_DW_DSP_NARROW_BIT): the row-pair widening set-up per group, for narrow
   * layers (kws: 1.7 k instructions a layer for 104 bytes; vww would pay the bytes for 1.5 k) */
  const uint32_t narrow = rowpair && d->w.out < DW_ROWPAIR_INPLACE_BELOW ? 32u : 0u;
  /* bit 6 (TA_DW_DSP_LONE_BIT): the row-pair body of a lone last row, for odd heights (kws:
   * its 25th row; vww's heights are even) */
  const uint32_t lone = rowpair && d->h.out % 2 ? 64u : 0u;
  em_kernel_variants(ec, "TA_DEPTHWISE_CONV_DSP_VARIANTS",
                     (1u << t->dsp_mode) | (rowpair ? 8u : 16u) | narrow | lone);
  em_decl(ec,
          "static const ta_depthwise_conv_dsp_params_t %s_params = {\n%s  .act_min = %d, .act_max = %d,\n"
          "  .mode = %d,\n  .form = %d,\n  .zero_point = %d,\n  .rows = %s,\n  .cols = %s,\n  .bias = %s,\n"
          "  .weights = %s,\n  .quant = %s,\n};",
          name, geom, (int)d->q.act_min, (int)d->q.act_max, t->dsp_mode, rowpair, rowpair ? (int)d->input_zero_point : 0,
          rows, cols, bias, weights, quant);
  if (node->inplace) /* classic form only (dw_inplace): written over the dying input, then moved */
    em_call(ec, "ta_depthwise_conv_dsp_s8_inplace", 6, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
            em_tensor(ec, node->in[1]), conv_inplace_temp(ec, node), em_tensor(ec, node->out[0]),
            em_int(ec, (int64_t)d->h.out * d->w.out * d->out_c));
  else
    em_call(ec, "ta_depthwise_conv_dsp_s8", 5, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
            em_tensor(ec, node->in[1]), dw_dsp_arena_scratch(d) ? em_scratch(ec) : "NULL", em_tensor(ec, node->out[0]));
}

/* The int16x8 Cortex-M4 tier: geometry, requantisation and widened weights. */
static void dw_emit_s16_dsp(EmitCtx *ec, const Node *node, const DwData *d) {
  const char *name = em_op_name(ec);
  const char *q = s16_requant_emit(ec, &d->s16dsp->q, 12); /* the depthwise loops' bits */
  em_decl(ec,
          "static const ta_depthwise_s16_dsp_params_t %s_dw16 = {\n  .batches = %d, .in_h = %d, .in_w = %d,"
          " .channels = %d,\n  .out_h = %d, .out_w = %d, .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,"
          " .dil_h = %d, .dil_w = %d, .pad_h = %d, .pad_w = %d,\n  .q = %s,\n};",
          name, (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->out_c, (int)d->h.out, (int)d->w.out,
          (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil,
          (int)d->h.pad, (int)d->w.pad, q);
  /* bit 11: the border windows of a padded 3x3 filter as whole-pixel blocks */
  if (d->h.k == 3 && d->w.k == 3 && (d->h.pad > 0 || d->w.pad > 0) && d->out_c >= 4 && d->s16dsp->q.hi &&
      (d->s16dsp->q.act_max == 32767 && (d->s16dsp->q.act_min == 0 || d->s16dsp->q.act_min == -32768)))
    em_kernel_variants(ec, "TA_S16_DSP_VARIANTS", 1u << 11);
  const char *weights = em_table_i32(ec, "dw16_weights", d->s16dsp->w32, d->s16dsp->n_w32);
  em_call(ec, "ta_depthwise_conv_s16_dsp", 4, em_desc(ec, "dw16"), em_tensor(ec, node->in[0]), weights,
          em_tensor(ec, node->out[0]));
}

/* The int16x8 Cortex-M55 tier: geometry, the per-block requantisation table and the
 * filter re-laid per block of 8 channels. */
static void dw_emit_s16_mve(EmitCtx *ec, const Node *node, const DwData *d) {
  const char *name = em_op_name(ec);
  const char *rq = em_table_i32(ec, "dw16m_rq", d->s16mve->rq, d->s16mve->n_rq);
  const char *general =
      d->s16mve->general ? em_table_i32(ec, "dw16m_general", d->s16mve->general, (size_t)d->out_c * 4) : "NULL";
  const char *wide =
      d->s16mve->wide ? em_table_i32(ec, "dw16m_wide", d->s16mve->wide, (size_t)(d->out_c + 7) / 8 * 32) : "NULL";
  em_decl(ec,
          "static const ta_depthwise_s16_mve_params_t %s_dw16m = {\n  .batches = %d, .in_h = %d, .in_w = %d,"
          " .channels = %d,\n  .out_h = %d, .out_w = %d, .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,"
          " .dil_h = %d, .dil_w = %d, .pad_h = %d, .pad_w = %d,\n  .rq = %s, .act_min = %d, .act_max = %d,"
          " .general = %s,\n  .wide = %s,\n};",
          name, (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->out_c, (int)d->h.out, (int)d->w.out,
          (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil,
          (int)d->h.pad, (int)d->w.pad, rq, (int)d->q.act_min, (int)d->q.act_max, general, wide);
  const char *weights = em_table_i8(ec, "dw16m_weights", d->s16mve->w8, d->s16mve->n_w8);
  em_call(ec, "ta_depthwise_conv_s16_mve", 4, em_desc(ec, "dw16m"), em_tensor(ec, node->in[0]), weights,
          em_tensor(ec, node->out[0]));
}

static void dw_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const DwData *d = node->op_data;
  if (d->s16mve) {
    dw_emit_s16_mve(ec, node, d);
    return;
  }
  if (d->tier != DW_TIER_PORTABLE) {
    dw_emit_tier(ec, node, d);
    return;
  }
  if (d->s16dsp) {
    dw_emit_s16_dsp(ec, node, d);
    return;
  }
  const char *name = em_op_name(ec);
  const char *type = dw_param_types[d->kernel];
  char geom[512];
  dw_geom_init(geom, sizeof geom, d);
  /* int8 reads the folded table instead of the model's bias. */
  const char *bias = d->kernel == DW_S8 ? em_table_i32(ec, "folded_bias", d->folded_bias, (size_t)d->out_c)
                                        : em_tensor(ec, node->n_in > 2 ? node->in[2] : -1);
  if (d->kernel == DW_F32) {
    char lo[48], hi[48];
    conv_float_literal(lo, sizeof lo, d->act_min);
    conv_float_literal(hi, sizeof hi, d->act_max);
    em_decl(ec, "static const %s %s_params = {\n  .g = %s,\n  .act_min = %s,\n  .act_max = %s,\n};", type, name, geom,
            lo, hi);
  } else {
    const char *mult = em_table_i32(ec, "multiplier", d->q.multiplier, (size_t)d->out_c);
    const char *shift = em_table_i32(ec, "shift", d->q.shift, (size_t)d->out_c);
    if (d->kernel == DW_S8)
      em_decl(ec,
              "static const %s %s_params = {\n  .g = %s,\n  .input_zero_point = %d,\n  .output_zero_point = %d,\n"
              "  .act_min = %d,\n  .act_max = %d,\n  .multiplier = %s,\n  .shift = %s,\n};",
              type, name, geom, (int)d->input_zero_point, (int)d->output_zero_point, (int)d->q.act_min,
              (int)d->q.act_max, mult, shift);
    else
      em_decl(ec,
              "static const %s %s_params = {\n  .g = %s,\n  .act_min = %d,\n  .act_max = %d,\n"
              "  .multiplier = %s,\n  .shift = %s,\n};",
              type, name, geom, (int)d->q.act_min, (int)d->q.act_max, mult, shift);
  }
  if (node->inplace) /* int8 only (dw_inplace): written over the dying input, then moved */
    em_call(ec, "ta_depthwise_conv_s8_inplace", 7, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
            em_tensor(ec, node->in[1]), bias, conv_inplace_temp(ec, node), em_tensor(ec, node->out[0]),
            em_int(ec, (int64_t)d->h.out * d->w.out * d->out_c));
  else
    em_call(ec, dw_kernel_names[d->kernel], 5, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
            em_tensor(ec, node->in[1]), bias, em_tensor(ec, node->out[0]));
}

/* In-place contract: int8, one batch. The portable kernel writes each pixel after reading
 * its window; the MVE tier runs a row's pixels of one border class together (channel
 * groups outer), or, one pixel wide, a column's (in place: blocks of DW_MVE_INPLACE_ROWS
 * rows, max mode only). The DSP tier's classic form, in place,
 * runs one row pair column by column (ta_depthwise_conv_dsp_s8_inplace): after writing
 * pixel (y + 1, x) it reads windows from pixel (y, x + 1) on, a group of one output row.
 * Its row-pair form widens every row of a channel group first: it declares nothing, like
 * int16 and float, except on layers narrower than DW_ROWPAIR_INPLACE_BELOW with their rows
 * on the stack, which keep the classic weights too and in place run the classic form
 * (dw_emit_tier). */
/* = TA_DW_MVE_INPLACE_ROWS (runtime/kernels/ta_depthwise_conv_mve.h): the rows of a
 * one-pixel-wide MVE layer per call when it runs in place. */
enum { DW_MVE_INPLACE_ROWS = 1 };

static bool dw_inplace(const Model *m, const Node *node, int input, InplaceAccess *acc) {
  (void)m;
  const DwData *d = node->op_data;
  if (input != 0 || !d || d->kernel != DW_S8 || d->batches != 1) return false;
  if (d->tier == DW_TIER_DSP && d->t.dsp_rowpair && !d->t.dsp_rowpair_inplace) return false;
  const bool mve = d->tier == DW_TIER_MVE;
  const bool column = mve && d->w.out == 1;
  const int32_t group = d->tier == DW_TIER_DSP ? d->w.out : column ? DW_MVE_INPLACE_ROWS : 1;
  conv_inplace_access(&d->h, &d->w, d->in_c, d->out_c, group, mve && !column, acc);
  /* DSP: its bands shrink to one row pair; MVE column: its runs to DW_MVE_INPLACE_ROWS */
  acc->slower = d->tier == DW_TIER_DSP || column;
  return true;
}

/* Only the DSP tier's row-pair form reads scratch (its widened input rows), when they do
 * not fit on its stack. */
static bool dw_scratch_needed(const Model *m, const Node *node) {
  (void)m;
  const DwData *d = node->op_data;
  return d && d->tier == DW_TIER_DSP && dw_dsp_arena_scratch(d);
}

const OpDef op_depthwise_conv_2d = {
    .name = "DEPTHWISE_CONV_2D",
    .builtin_code = 4,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .cost_window = COST_WINDOW_DEPTHWISE,
    .scratch_usage = SCRATCH_CONDITIONAL,
    .scratch_needed = dw_scratch_needed,
    .dtypes = "int8, int16x8, float32",
    .constraints = "constant filter and bias; per-channel or per-tensor symmetric int8 filters; int16 bias int64; "
                   "depth_multiplier option must equal output/input channels",
    .prepare = dw_prepare,
    .emit = dw_emit,
    .inplace = dw_inplace,
};
