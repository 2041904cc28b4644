/* CONV_2D: int8 (per-channel filters, folded int32 bias), int16x8 (int64 or int32 bias)
 * and float32, NHWC with OHWI filters, SAME/VALID padding, strides and dilations. */
#include <stdio.h>
#include <string.h>

#include "../ir/quant.h"
#include "conv_common.h"
#include "op.h"
#include "tiers/gemm_s16_dsp.h"
#include "tiers/gemm_s16_mve.h"
#include "tiers/gemm_tier.h"
#include "../../runtime/kernels/ta_gemm_dsp_contract.h"

/* Conv2DOptions fields. */

typedef enum ConvKernel {
  CONV_S8,        /* ta_conv_s8 */
  CONV_S16,       /* ta_conv_s16: int64 bias, 64-bit accumulator */
  CONV_S16_ACC32, /* ta_conv_s16_acc32: int32 bias or none, 32-bit accumulator */
  CONV_F32,       /* ta_conv_f32 */
} ConvKernel;

static const char *const conv_kernel_names[] = {"ta_conv_s8", "ta_conv_s16", "ta_conv_s16_acc32", "ta_conv_f32"};
static const char *const conv_param_types[] = {"ta_conv_s8_params_t", "ta_conv_s16_params_t",
                                               "ta_conv_s16_params_t", "ta_conv_f32_params_t"};

typedef struct ConvData {
  ConvKernel kernel;
  int32_t batches, in_c, out_c, filter_c, groups;
  ConvAxis h, w;
  ConvQuant q;           /* integer kernels */
  int32_t *folded_bias;  /* int8: bias - input_zero_point * sum(filter[oc]) */
  int32_t input_zero_point, output_zero_point;
  float act_min, act_max; /* float kernel */
  GemmPlan *gemm;         /* int8 on a DSP / MVE target: the optimised kernel, else NULL */
  GemmS16Plan *gemm16;    /* int16x8 (int64 bias) on Cortex-M4: ta_conv_s16_dsp, else NULL */
  GemmS16MvePlan *gemm16m; /* int16x8 (int64 bias) on Cortex-M55: ta_conv_s16_mve, else NULL */
  bool direct;            /* gemm: 1x1 window without padding reads the input in place */
  int32_t chunk;          /* gemm: windows gathered into scratch at once */
  int32_t window;         /* gemm: bytes from one gathered window to the next */
  bool cols;              /* DSP gemm: column form (ta_conv_s8_dsp_cols); window = values per column */
  bool first;             /* DSP gemm: first-layer form (ta_conv_s8_dsp_first); window = padded depth */
} ConvData;

/* folded[oc] = bias[oc] - zp * sum of filter[oc], in wrapping int32 like the kernel's accumulator. */
static int32_t *conv_fold_bias(PrepareCtx *pc, const Tensor *filter, const Tensor *bias, int32_t zp,
                               int32_t out_c) {
  int32_t *folded = arena_alloc(pc->arena, (size_t)out_c * sizeof(int32_t));
  if (!folded) return NULL;
  const int64_t per_channel = filter->elems / out_c;
  const int8_t *w = (const int8_t *)filter->data;
  for (int32_t oc = 0; oc < out_c; oc++) {
    int64_t sum = 0;
    for (int64_t i = 0; i < per_channel; i++) sum += w[oc * per_channel + i];
    const uint32_t b = bias ? (uint32_t)const_i32(bias, oc) : 0u;
    folded[oc] = (int32_t)(b - (uint32_t)((int64_t)zp * sum));
  }
  return folded;
}

static bool conv_prepare_types(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter,
                               const Tensor *bias, const Tensor *out, ConvData *d) {
  if (!op_expect_type(pc, node, out, in->type)) return false;
  switch (in->type) {
    case TT_INT8:
      d->kernel = CONV_S8;
      return op_expect_type(pc, node, filter, TT_INT8) && conv_expect_bias(pc, node, bias, TT_INT32, d->out_c);
    case TT_INT16:
      if (!op_expect_type(pc, node, filter, TT_INT8)) return false;
      /* TFLite Micro picks the accumulator from the bias type: int64 or else int32. */
      d->kernel = bias && bias->type == TT_INT64 ? CONV_S16 : CONV_S16_ACC32;
      return conv_expect_bias(pc, node, bias, d->kernel == CONV_S16 ? TT_INT64 : TT_INT32, d->out_c);
    case TT_FLOAT32:
      d->kernel = CONV_F32;
      return op_expect_type(pc, node, filter, TT_FLOAT32) && conv_expect_bias(pc, node, bias, TT_FLOAT32, d->out_c);
    default:
      return op_error(pc, node, "input %s has dtype %s; supported: int8, int16 (with int8 filters), float32",
                      op_tensor_desc(pc, in), tensor_type_name(in->type));
  }
}

static bool conv_prepare_shapes(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter,
                                const Tensor *out, ConvData *d) {
  if (!conv_expect_4d(pc, node, in, "input") || !conv_expect_4d(pc, node, filter, "filter") ||
      !conv_expect_4d(pc, node, out, "output"))
    return false;
  d->batches = in->dims[0];
  d->in_c = in->dims[3];
  d->out_c = filter->dims[0];
  d->filter_c = filter->dims[3];
  if (d->in_c % d->filter_c != 0)
    return op_error(pc, node, "input depth %d is not a multiple of the filter depth %d", (int)d->in_c,
                    (int)d->filter_c);
  d->groups = d->in_c / d->filter_c;
  if (d->groups != 1)
    return op_error(pc, node, "grouped convolution (input depth %d, filter depth %d) is not supported",
                    (int)d->in_c, (int)d->filter_c);
  if (out->dims[0] != d->batches || out->dims[3] != d->out_c)
    return op_error(pc, node, "output %s should have batch %d and %d channels", op_tensor_desc(pc, out),
                    (int)d->batches, (int)d->out_c);
  return true;
}

static bool conv_prepare_window(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *filter,
                                const Tensor *out, ConvData *d) {
  const Conv2DOptions *o = &node->opts.conv2d;
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

/* DSP tier: the scratch bytes gathered windows may take (at least one window). */
#define CONV_GATHER_BYTES 1024

/* DSP column form (ta_conv_s8_dsp_cols): windows with dilation 1 across and whole groups
 * of 4 channels, whose image columns are widened once per strip of output pixels and
 * read in place (no gather and unpacking per window). The values of one window column,
 * or 0 when the layer keeps the gathered windows. */
static int32_t conv_dsp_cols_values(const ConvData *d) {
  if (d->w.dil != 1 || d->direct || d->filter_c % 4 != 0) return 0;
  return d->h.k * d->filter_c;
}

/* The filter [oc][ky][kx][c] re-laid in column order [oc][kx][ky][c], each column padded
 * with zero weights to `values`. */
static int8_t *conv_cols_filter(Arena *arena, const int8_t *w, const ConvData *d, int32_t values) {
  const int32_t k_h = d->h.k, k_w = d->w.k, c_n = d->filter_c;
  const size_t depth = (size_t)k_w * (size_t)values;
  int8_t *out = arena_calloc(arena, (size_t)d->out_c * depth, 1);
  if (!out) return NULL;
  for (int32_t oc = 0; oc < d->out_c; oc++)
    for (int32_t ky = 0; ky < k_h; ky++)
      for (int32_t kx = 0; kx < k_w; kx++)
        for (int32_t c = 0; c < c_n; c++)
          out[(size_t)oc * depth + (size_t)kx * (size_t)values + (size_t)(ky * c_n + c)] =
              w[(((size_t)oc * (size_t)k_h + (size_t)ky) * (size_t)k_w + (size_t)kx) * (size_t)c_n + (size_t)c];
  return out;
}

/* The DSP column form: the weights in column order, then strips of output pixels whose
 * columns the scratch holds. A strip widens k_w - stride_w columns its neighbour widens
 * too: as many pixels as CONV_GATHER_BYTES holds, and at least CONV_COLS_PIXELS where
 * that takes at most CONV_COLS_BYTES_MAX (else one window). */
#define CONV_COLS_PIXELS 8
#define CONV_COLS_BYTES_MAX 4096
static int32_t conv_cols_strip(const ConvData *d, int32_t col_bytes) {
  const int32_t k_w = d->w.k, stride = d->w.stride;
  int32_t pixels = CONV_GATHER_BYTES / col_bytes >= k_w ? (CONV_GATHER_BYTES / col_bytes - k_w) / stride + 1 : 1;
  const int64_t wanted = ((int64_t)(CONV_COLS_PIXELS - 1) * stride + k_w) * col_bytes;
  if (pixels < CONV_COLS_PIXELS && wanted <= CONV_COLS_BYTES_MAX) pixels = CONV_COLS_PIXELS;
  return pixels < d->w.out ? pixels : d->w.out;
}

static bool conv_prepare_dsp_cols(PrepareCtx *pc, Node *node, const Tensor *filter, ConvData *d, int32_t values) {
  const int8_t *w = conv_cols_filter(pc->arena, (const int8_t *)filter->data, d, values);
  d->gemm = arena_alloc(pc->arena, sizeof *d->gemm);
  if (!w || !d->gemm ||
      !gemm_plan(pc->arena, GEMM_DSP, d->out_c, d->w.k * values, w, d->folded_bias, d->q.multiplier, d->q.shift, 0, 0,
                 d->output_zero_point, d->q.act_min, d->q.act_max, d->gemm))
    return op_error(pc, node, "out of memory");
  const int32_t col_bytes = values * 2;
  d->gemm->dsp_unpacked = true;
  d->cols = true;
  d->window = values;
  d->chunk = conv_cols_strip(d, col_bytes);
  /* two pixels against two output channels per step (ta_conv_s8_dsp_cols_pairs) where the
   * strips have pixels to pair; the pair interleaved in scratch after the columns */
  if ((d->chunk % 2 == 0 || d->chunk >= 13) && !gemm_dsp_use_pairs(pc->arena, d->gemm, w, d->gemm->depth))
    return op_error(pc, node, "out of memory");
  node->kernel = "ta_conv_s8_dsp";
  node->families[0] = gemm_family(GEMM_DSP);
  node->families[1] = "im2col";
  node->reads_scratch = true;
  node->scratch_bytes = (size_t)((d->chunk - 1) * d->w.stride + d->w.k) * (size_t)col_bytes +
                        (d->gemm->pairs ? (size_t)d->gemm->depth * 4 : 0);
  return true;
}

/* DSP first-layer form (ta_conv_s8_dsp_first): fewer than 4 input channels (vww's and ic's
 * 3x3x3 windows, kws's 10x4x1), the window depth padded with zero weights to a multiple of
 * 16 so that the pair loop runs it, the windows unpacked from the image. `taken` false when
 * the layer does not qualify for the pair stream (the gemm plan is then unchanged). */
#define CONV_FIRST_DEPTH_MAX (4 * TA_GEMM_DSP_PAIR_MAX_GROUPS)
static bool conv_prepare_dsp_first(Arena *arena, const int8_t *w, ConvData *d, bool *taken) {
  const int32_t depth = d->gemm->depth, padded = (depth + 15) & ~15;
  /* windows of rows of 4 values and depth 40 (kws): their own pair loop and reader */
  const bool rows40 = depth == TA_GEMM_DSP_FIRST_DEPTH40 && d->w.k * d->in_c == 4 && d->h.dil == 1 && d->w.dil == 1;
  /* else at most one group of 4 zero weights (27 -> 32) */
  if (padded > CONV_FIRST_DEPTH_MAX || (padded - ((depth + 3) & ~3) > 4 && !rows40)) return true;
  int8_t *wp = arena_calloc(arena, (size_t)d->out_c * (size_t)padded, 1);
  if (!wp) return false;
  for (int32_t oc = 0; oc < d->out_c; oc++)
    memcpy(wp + (size_t)oc * (size_t)padded, w + (size_t)oc * (size_t)depth, (size_t)depth);
  d->gemm->depth = padded;
  if (!gemm_dsp_use_pairs(arena, d->gemm, wp, padded)) return false;
  if (!d->gemm->pairs) {
    d->gemm->depth = depth;
    return true;
  }
  if (rows40 && d->gemm->rq_zp == 0) { /* one pass of 10 groups (TA_GEMM_DSP_BIT_FIRST_ROWS), no zero group */
    d->gemm->depth = TA_GEMM_DSP_FIRST_DEPTH40;
    if (!gemm_dsp_pair_stream(arena, d->gemm, w, depth)) return false;
  } else if (rows40) { /* 40 -> 48 would waste two groups: the block loop */
    d->gemm->pairs = NULL;
    d->gemm->depth = depth;
    return true;
  }
  const int32_t groups4 = (depth + 3) & ~3;
  /* 3x3x3: the pair loop of 7 groups (TA_GEMM_DSP_BIT_PAIRS28), no zero group */
  if (groups4 == TA_GEMM_DSP_FIRST_DEPTH28 && d->gemm->rq_zp == 0) {
    int8_t *w28 = arena_calloc(arena, (size_t)d->out_c * TA_GEMM_DSP_FIRST_DEPTH28, 1);
    if (!w28) return false;
    for (int32_t oc = 0; oc < d->out_c; oc++)
      memcpy(w28 + (size_t)oc * TA_GEMM_DSP_FIRST_DEPTH28, w + (size_t)oc * (size_t)depth, (size_t)depth);
    d->gemm->depth = TA_GEMM_DSP_FIRST_DEPTH28;
    if (!gemm_dsp_pair_stream(arena, d->gemm, w28, TA_GEMM_DSP_FIRST_DEPTH28)) return false;
  }
  d->first = true;
  d->window = d->gemm->depth;
  d->chunk = 1;
  *taken = true;
  return true;
}

/* int8 on a DSP or MVE target: per output pixel, a matrix-vector product of the
 * window (read in place for an unpadded 1x1 window, else gathered into scratch with
 * the padding set to the input zero point, which the folded bias then cancels). */
static bool conv_prepare_tier(PrepareCtx *pc, Node *node, const Tensor *filter, ConvData *d) {
  const GemmTier tier = gemm_tier_for(pc->platform);
  if (d->kernel != CONV_S8 || tier == GEMM_PORTABLE) return true;
  const int64_t depth = (int64_t)d->h.k * d->w.k * d->filter_c;
  /* absurd sizes (the re-laid tables round them up) and out-of-range requantisation
   * keep the portable kernel */
  if (depth > (1 << 24) || d->out_c > (1 << 24) ||
      !gemm_quant_supported(d->q.multiplier, d->q.shift, 0, 0, d->out_c))
    return true;
  d->direct = d->h.k == 1 && d->w.k == 1 && d->h.pad == 0 && d->w.pad == 0;
  const int32_t col_values = tier == GEMM_DSP ? conv_dsp_cols_values(d) : 0;
  if (col_values > 0) return conv_prepare_dsp_cols(pc, node, filter, d, col_values);
  d->gemm = arena_alloc(pc->arena, sizeof *d->gemm);
  if (!d->gemm || !gemm_plan(pc->arena, tier, d->out_c, (int32_t)depth, (const int8_t *)filter->data,
                             d->folded_bias, d->q.multiplier, d->q.shift, 0, 0, d->output_zero_point, d->q.act_min,
                             d->q.act_max, d->gemm))
    return op_error(pc, node, "out of memory");
  node->kernel = tier == GEMM_MVE ? "ta_conv_s8_mve" : "ta_conv_s8_dsp";
  node->families[0] = gemm_family(tier);
  node->families[1] = "im2col";
  if (tier == GEMM_DSP && !d->direct && d->filter_c < 4) {
    bool taken = false;
    if (!conv_prepare_dsp_first(pc->arena, (const int8_t *)filter->data, d, &taken))
      return op_error(pc, node, "out of memory");
    if (taken) {
      node->reads_scratch = true;
      node->scratch_bytes = (size_t)d->window;
      return true;
    }
  }
  /* DSP: gathered windows padded with zero bytes to a multiple of 4 make the dot
   * product one of that depth (the kernel then needs no partial group): the re-laid
   * weights are the same, their padding zero. Several windows per gather amortise the
   * kernel's per-call set-up; a small scratch budget bounds the extra RAM. */
  d->window = (int32_t)depth;
  d->chunk = 1;
  if (tier == GEMM_DSP && !d->direct) {
    d->window = (int32_t)((depth + 3) & ~3);
    d->gemm->depth = d->window;
    if (CONV_GATHER_BYTES / d->window > 1)
      d->chunk = CONV_GATHER_BYTES / d->window < d->w.out ? CONV_GATHER_BYTES / d->window : d->w.out;
  }
  /* DSP: two pixels against two output channels per step where the kernel's calls have
   * pixels to pair: an even count, or enough that an odd last one paired with itself costs
   * little (vww's 9-pixel layers would lose 0.5 %, strww's 15-pixel one gains 4 %) */
  const int64_t per_call = d->direct && d->h.stride == 1 && d->w.stride == 1 ? (int64_t)d->h.out * d->w.out
                           : d->direct                                       ? d->w.out
                                                                             : d->chunk;
  if (tier == GEMM_DSP && (per_call % 2 == 0 || per_call >= 13) &&
      !gemm_dsp_use_pairs(pc->arena, d->gemm, (const int8_t *)filter->data, (int32_t)depth))
    return op_error(pc, node, "out of memory");
  node->reads_scratch = !d->direct;
  node->scratch_bytes = d->direct ? 0 : (size_t)d->window * (size_t)d->chunk;
  return true;
}

/* int16x8 with an int64 bias on Cortex-M4: per output pixel the window (in place for an
 * unpadded 1x1 window, else gathered into scratch with zeros, the int16 zero point)
 * against the widened weights. */
static bool conv_prepare_s16_dsp(PrepareCtx *pc, Node *node, const Tensor *filter, const Tensor *bias,
                                 ConvData *d) {
  const int64_t depth = (int64_t)d->h.k * d->w.k * d->filter_c;
  if (d->input_zero_point != 0 || d->output_zero_point != 0 || depth > (1 << 24) ||
      (bias && !tensor_is_const(bias)))
    return true;
  if (!gemm_s16_dsp_plan(pc->arena, d->out_c, (int32_t)depth, (const int8_t *)filter->data, bias, d->q.multiplier,
                         d->q.shift, 0, 0, d->q.act_min, d->q.act_max, &d->gemm16))
    return op_error(pc, node, "out of memory");
  if (!d->gemm16) return true;
  d->direct = d->h.k == 1 && d->w.k == 1 && d->h.pad == 0 && d->w.pad == 0;
  if (!d->direct && !gemm_s16_dsp_pad_depth(pc->arena, d->gemm16, (const int8_t *)filter->data))
    return op_error(pc, node, "out of memory");
  node->kernel = "ta_conv_s16_dsp";
  node->families[0] = "gemm_s16_dsp";
  node->reads_scratch = !d->direct;
  node->scratch_bytes = d->direct ? 0 : (size_t)d->gemm16->depth * sizeof(int16_t);
  return true;
}

/* int16x8 with an int64 bias on Cortex-M55: as on Cortex-M4, against the int8 weights
 * (rows padded to 8) that the MVE loads widen. */
static bool conv_prepare_s16_mve(PrepareCtx *pc, Node *node, const Tensor *filter, const Tensor *bias,
                                 ConvData *d) {
  const int64_t depth = (int64_t)d->h.k * d->w.k * d->filter_c;
  if (d->input_zero_point != 0 || d->output_zero_point != 0 || depth > (1 << 24) || d->groups != 1 ||
      (bias && !tensor_is_const(bias)))
    return true;
  if (!gemm_s16_mve_plan(pc->arena, d->out_c, (int32_t)depth, (const int8_t *)filter->data, bias, d->q.multiplier,
                         d->q.shift, 0, 0, d->q.act_min, d->q.act_max, &d->gemm16m))
    return op_error(pc, node, "out of memory");
  if (!d->gemm16m) return true;
  d->direct = d->h.k == 1 && d->w.k == 1 && d->h.pad == 0 && d->w.pad == 0;
  node->kernel = "ta_conv_s16_mve";
  node->families[0] = "gemm_s16_mve";
  node->reads_scratch = !d->direct;
  /* two gathered windows, each padded to the weights' stride (a multiple of 8) */
  node->scratch_bytes = d->direct ? 0 : 2 * (size_t)d->gemm16m->stride * sizeof(int16_t);
  return true;
}

static bool conv_scratch_needed(const Model *m, const Node *node) {
  (void)m;
  const ConvData *d = node->op_data;
  return d && (d->gemm || d->gemm16 || d->gemm16m) && !d->direct;
}

static bool conv_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 3, 1) || !op_expect_options(pc, node, OPTS_CONV_2D)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *filter = node_input(pc->model, node, 1);
  const Tensor *bias = node_input(pc->model, node, 2);
  const Tensor *out = node_output(pc->model, node, 0);
  ConvData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!conv_prepare_shapes(pc, node, in, filter, out, d) || !conv_prepare_types(pc, node, in, filter, bias, out, d) ||
      !conv_prepare_window(pc, node, in, filter, out, d))
    return false;
  if (!tensor_is_const(filter))
    return op_error(pc, node, "filter %s must be a constant tensor", op_tensor_desc(pc, filter));
  const int activation = node->opts.conv2d.activation;
  if (d->kernel == CONV_F32) {
    if (!conv_float_range(pc, node, activation, &d->act_min, &d->act_max)) return false;
  } else {
    /* ta_conv_s16 requantises its int64 accumulator with ta_requantize64 */
    const QuantRange range = d->kernel == CONV_S16 ? QUANT_RANGE_INT64 : QUANT_RANGE_INT32;
    if (!conv_quant_prepare(pc, node, in, filter, 0, out, d->out_c, activation, range, &d->q)) return false;
    d->input_zero_point = tensor_zero_point(in);
    d->output_zero_point = tensor_zero_point(out);
  }
  if (d->kernel == CONV_S8 && !(d->folded_bias = conv_fold_bias(pc, filter, bias, d->input_zero_point, d->out_c)))
    return op_error(pc, node, "out of memory");
  node->op_data = d;
  node->kernel = conv_kernel_names[d->kernel];
  node->families[0] = "conv";
  node->macs = out->elems * (int64_t)d->h.k * d->w.k * d->filter_c;
  if (d->kernel == CONV_S16 && gemm_s16_dsp_available(pc->platform))
    return conv_prepare_s16_dsp(pc, node, filter, bias, d);
  if (d->kernel == CONV_S16 && gemm_s16_mve_available(pc->platform))
    return conv_prepare_s16_mve(pc, node, filter, bias, d);
  return conv_prepare_tier(pc, node, filter, d);
}

/* Writes the ta_conv_geom_t initializer. */
static void conv_geom_init(char *buf, size_t cap, const ConvData *d) {
  snprintf(buf, cap,
           "{\n    .batches = %d,\n    .in_h = %d, .in_w = %d, .in_c = %d,\n"
           "    .out_h = %d, .out_w = %d, .out_c = %d,\n    .k_h = %d, .k_w = %d, .filter_c = %d, .groups = %d,\n"
           "    .stride_h = %d, .stride_w = %d,\n    .dil_h = %d, .dil_w = %d,\n"
           "    .pad_h = %d, .pad_w = %d,\n  }",
           (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->in_c, (int)d->h.out, (int)d->w.out, (int)d->out_c,
           (int)d->h.k, (int)d->w.k, (int)d->filter_c, (int)d->groups, (int)d->h.stride, (int)d->w.stride,
           (int)d->h.dil, (int)d->w.dil, (int)d->h.pad, (int)d->w.pad);
}

/* The optimised tiers: geometry for the window gather, then the kernel call. */
static void conv_emit_gemm(EmitCtx *ec, const Node *node, const ConvData *d) {
  const char *name = em_op_name(ec);
  const char *weights = gemm_emit_params(ec, d->gemm);
  const int64_t row_bytes = (int64_t)d->w.in * d->in_c; /* a window's span in the image: */
  /* bytes per window row read in place (ta_conv_s8_mve: 1x1 the whole depth, else k_w taps
   * without horizontal dilation) */
  const int64_t run = d->direct ? d->gemm->depth : d->w.dil == 1 ? (int64_t)d->w.k * d->in_c : 0;
  gemm_emit_conv_variants(ec, d->gemm,
                          d->direct ? 0
                                    : (int64_t)(d->h.k - 1) * d->h.dil * row_bytes +
                                          (int64_t)(d->w.k - 1) * d->w.dil * d->in_c + d->in_c,
                          run > 0 && run % 16 == 0 ? (int32_t)(run / 16) : 0, d->direct ? 1 : (int32_t)d->h.k);
  em_decl(ec,
          "static const ta_im2col_geom_t %s_geom = {\n  .batches = %d, .in_h = %d, .in_w = %d, .in_c = %d,\n"
          "  .out_h = %d, .out_w = %d, .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,"
          " .dil_h = %d, .dil_w = %d,\n  .pad_h = %d, .pad_w = %d, .pad_value = %d, .direct = %d,\n"
          "  .chunk = %d, .window = %d,\n};",
          name, (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->in_c, (int)d->h.out, (int)d->w.out,
          (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil,
          (int)d->h.pad, (int)d->w.pad, (int)d->input_zero_point, d->direct ? 1 : 0, (int)d->chunk, (int)d->window);
  /* the column form and the DSP pair stream have their own entry points (only what a module
   * calls is linked) */
  /* ta_conv_s8_dsp_first's image reader of 3x3 windows of 3 channels */
  if (d->first && d->h.dil == 1 && d->w.dil == 1 && d->h.k == 3 && d->w.k * d->in_c == 9)
    em_kernel_variants(ec, "TA_GEMM_DSP_VARIANTS", TA_GEMM_DSP_MASK(TA_GEMM_DSP_BIT_FIRST_333));
  /* a first layer's pair stream of a depth other than 28 and 40: the general pair loops */
  if (d->first && d->gemm->tier == GEMM_DSP && d->gemm->pairs && d->gemm->depth != TA_GEMM_DSP_FIRST_DEPTH28 &&
      d->gemm->depth != TA_GEMM_DSP_FIRST_DEPTH40)
    em_kernel_variants(ec, "TA_GEMM_DSP_VARIANTS", TA_GEMM_DSP_MASK(TA_GEMM_DSP_BIT_FIRST_ANY));
  if (d->gemm->tier == GEMM_DSP && !d->direct && !d->cols && !d->first) /* conv_run's window gather */
    em_kernel_variants(ec, "TA_GEMM_DSP_VARIANTS", TA_GEMM_DSP_MASK(TA_GEMM_DSP_BIT_GATHER));
  const char *form = d->cols ? (d->gemm->pairs ? "_cols_pairs" : "_cols") : d->first ? "_first" : d->gemm->pairs ? "_pairs" : "";
  if (node->inplace) /* the output written over the dying input, then moved into place */
    em_call(ec, em_name(ec, "ta_conv_s8_%s%s_inplace", gemm_suffix(d->gemm->tier), form), 8,
            em_desc(ec, "gemm"),
            em_desc(ec, "geom"), em_tensor(ec, node->in[0]), weights, d->direct ? "NULL" : em_scratch(ec),
            conv_inplace_temp(ec, node), em_tensor(ec, node->out[0]),
            em_int(ec, (int64_t)d->h.out * d->w.out * d->out_c));
  else
    em_call(ec, em_name(ec, "ta_conv_s8_%s%s", gemm_suffix(d->gemm->tier), form), 6,
            em_desc(ec, "gemm"),
            em_desc(ec, "geom"), em_tensor(ec, node->in[0]), weights, d->direct ? "NULL" : em_scratch(ec),
            em_tensor(ec, node->out[0]));
}

/* The int16x8 Cortex-M4 tier: window geometry, then the kernel call. */
static void conv_emit_s16_dsp(EmitCtx *ec, const Node *node, const ConvData *d) {
  const char *name = em_op_name(ec);
  const char *weights = gemm_s16_dsp_emit_params(ec, d->gemm16);
  if (!d->direct) gemm_s16_dsp_emit_window(ec, d->gemm16, d->h.k, d->w.k, d->in_c, d->w.dil);
  em_decl(ec,
          "static const ta_conv_s16_dsp_geom_t %s_geom16 = {\n  .batches = %d, .in_h = %d, .in_w = %d, .in_c = %d,\n"
          "  .out_h = %d, .out_w = %d, .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,"
          " .dil_h = %d, .dil_w = %d,\n  .pad_h = %d, .pad_w = %d, .direct = %d,\n};",
          name, (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->in_c, (int)d->h.out, (int)d->w.out,
          (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil,
          (int)d->h.pad, (int)d->w.pad, d->direct ? 1 : 0);
  em_call(ec, "ta_conv_s16_dsp", 6, em_desc(ec, "gemm16"), em_desc(ec, "geom16"), em_tensor(ec, node->in[0]),
          weights, d->direct ? "NULL" : em_scratch(ec), em_tensor(ec, node->out[0]));
}

/* The int16x8 Cortex-M55 tier: window geometry, then the kernel call. */
static void conv_emit_s16_mve(EmitCtx *ec, const Node *node, const ConvData *d) {
  const char *name = em_op_name(ec);
  const char *weights = gemm_s16_mve_emit_params(ec, d->gemm16m);
  em_decl(ec,
          "static const ta_conv_s16_mve_geom_t %s_geom16m = {\n  .batches = %d, .in_h = %d, .in_w = %d, .in_c = %d,\n"
          "  .out_h = %d, .out_w = %d, .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,"
          " .dil_h = %d, .dil_w = %d,\n  .pad_h = %d, .pad_w = %d, .direct = %d,\n};",
          name, (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->in_c, (int)d->h.out, (int)d->w.out,
          (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil,
          (int)d->h.pad, (int)d->w.pad, d->direct ? 1 : 0);
  em_call(ec, "ta_conv_s16_mve", 6, em_desc(ec, "gemm16m"), em_desc(ec, "geom16m"), em_tensor(ec, node->in[0]),
          weights, d->direct ? "NULL" : em_scratch(ec), em_tensor(ec, node->out[0]));
}

static void conv_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const ConvData *d = node->op_data;
  if (d->gemm16m) {
    conv_emit_s16_mve(ec, node, d);
    return;
  }
  if (d->gemm) {
    conv_emit_gemm(ec, node, d);
    return;
  }
  if (d->gemm16) {
    conv_emit_s16_dsp(ec, node, d);
    return;
  }
  const char *name = em_op_name(ec);
  const char *type = conv_param_types[d->kernel];
  char geom[512];
  conv_geom_init(geom, sizeof geom, d);
  (void)m;
  /* int8 reads the folded table instead of the model's bias. */
  const char *bias = d->kernel == CONV_S8
                         ? em_table_i32_from(ec, "folded_bias", EM_FROM_BIAS, d->folded_bias, (size_t)d->out_c)
                         : em_tensor(ec, node->n_in > 2 ? node->in[2] : -1);
  if (d->kernel == CONV_F32) {
    char lo[48], hi[48];
    conv_float_literal(lo, sizeof lo, d->act_min);
    conv_float_literal(hi, sizeof hi, d->act_max);
    em_decl(ec, "static const %s %s_params = {\n  .g = %s,\n  .act_min = %s,\n  .act_max = %s,\n};", type, name, geom,
            lo, hi);
  } else {
    const char *mult = em_table_i32(ec, "multiplier", d->q.multiplier, (size_t)d->out_c);
    const char *shift = em_table_i32(ec, "shift", d->q.shift, (size_t)d->out_c);
    if (d->kernel == CONV_S8) {
      em_decl(ec,
              "static const %s %s_params = {\n  .g = %s,\n  .input_zero_point = %d,\n  .output_zero_point = %d,\n"
              "  .act_min = %d,\n  .act_max = %d,\n  .multiplier = %s,\n  .shift = %s,\n};",
              type, name, geom, (int)d->input_zero_point, (int)d->output_zero_point, (int)d->q.act_min,
              (int)d->q.act_max, mult, shift);
    } else {
      em_decl(ec,
              "static const %s %s_params = {\n  .g = %s,\n  .act_min = %d,\n  .act_max = %d,\n"
              "  .multiplier = %s,\n  .shift = %s,\n};",
              type, name, geom, (int)d->q.act_min, (int)d->q.act_max, mult, shift);
    }
  }
  if (node->inplace) /* int8 only (conv_inplace): written over the dying input, then moved */
    em_call(ec, "ta_conv_s8_inplace", 7, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
            em_tensor(ec, node->in[1]), bias, conv_inplace_temp(ec, node), em_tensor(ec, node->out[0]),
            em_int(ec, (int64_t)d->h.out * d->w.out * d->out_c));
  else
    em_call(ec, conv_kernel_names[d->kernel], 5, em_desc(ec, "params"), em_tensor(ec, node->in[0]),
            em_tensor(ec, node->in[1]), bias, em_tensor(ec, node->out[0]));
}

/* In-place contract: int8, one batch, not grouped. The portable kernel writes each pixel
 * after reading its window; the DSP tier gathers windows before it writes them, or reads
 * a 1x1 pixel while writing it, or (its pair loop) reads two pixels before writing them,
 * like the MVE tier, which runs pixels in pairs. The int16 and float
 * tiers declare nothing. */
static bool conv_inplace(const Model *m, const Node *node, int input, InplaceAccess *acc) {
  (void)m;
  const ConvData *d = node->op_data;
  if (input != 0 || !d || d->kernel != CONV_S8 || d->batches != 1 || d->groups != 1) return false;
  const int32_t group = d->gemm && (d->gemm->tier == GEMM_MVE || d->gemm->pairs) ? 2 : 1;
  conv_inplace_access(&d->h, &d->w, d->in_c, d->out_c, group, false, acc);
  return true;
}

const OpDef op_conv_2d = {
    .name = "CONV_2D",
    .builtin_code = 3,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .cost_window = COST_WINDOW_CONV,
    .scratch_usage = SCRATCH_CONDITIONAL,
    .scratch_needed = conv_scratch_needed,
    .dtypes = "int8, int16x8, float32",
    .constraints = "constant filter and bias; per-channel or per-tensor symmetric int8 filters; int16 bias int64 "
                   "or int32; no grouped convolution",
    .prepare = conv_prepare,
    .emit = conv_emit,
    .inplace = conv_inplace,
};
