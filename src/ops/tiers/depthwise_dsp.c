/* The Cortex-M4 (DSP) tier of int8 DEPTHWISE_CONV_2D: the tables of ta_depthwise_conv_dsp_s8
 * (runtime/kernels/ta_depthwise_conv_dsp.h) and its descriptor. */
#include <stdlib.h>

#include "depthwise_tier.h"
#include "../../../runtime/kernels/ta_depthwise_conv_dsp_contract.h"

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
size_t depthwise_dsp_rowpair_scratch(const DwData *d) {
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
bool depthwise_dsp_arena_scratch(const DwData *d) { return d->t.dsp_rowpair && !d->t.dsp_rowpair_stack; }

/* Weights [group][kx][ky] as scaled int16 pairs (or the row-pair layout); the class biases
 * scaled like them. The quant table is built first: it checks the scaled ranges on the
 * unscaled biases. */
static bool dw_dsp_tables(PrepareCtx *pc, const DwData *d, const Tensor *filter, const Tensor *bias, DwTierData *t) {
  const int32_t ch = d->out_c, kh = d->h.k, kw = d->w.k, taps = kh * kw, groups = ch / 4;
  const int8_t *w = (const int8_t *)filter->data;
  t->dsp_rowpair = dw_dsp_rowpair_fits(d);
  t->dsp_rowpair_stack = t->dsp_rowpair && depthwise_dsp_rowpair_scratch(d) <= DW_ROWPAIR_STACK_BYTES;
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

/* SIMPLE: no negative rounding fix and the int8 activation range; NEGFIX: the fix on
 * every channel (all right shifts > 0) and the int8 range; anything else CLAMP. */
static int dw_dsp_mode(const DwData *d) {
  if (d->q.act_min != -128 || d->q.act_max != 127) return TA_DW_DSP_CLAMP;
  if (!d->t.negative_fix) return TA_DW_DSP_SIMPLE;
  for (int32_t c = 0; c < d->out_c; c++)
    if (dw_right_shift(d, c) <= 0) return TA_DW_DSP_CLAMP;
  return TA_DW_DSP_NEGFIX;
}

bool depthwise_dsp_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, const Tensor *bias) {
  d->t.dsp_mode = dw_dsp_mode(d);
  return dw_dsp_tables(pc, d, filter, bias, &d->t);
}

void depthwise_dsp_emit(EmitCtx *ec, const Node *node, const DwData *d) {
  const char *name = em_op_name(ec);
  const DwTierData *t = &d->t;
  char geom[512];
  dw_tier_geom(geom, sizeof geom, d);
  const DwTierTables tt = dw_tier_tables(ec, d);
  const char *rows = tt.rows, *cols = tt.cols, *quant = tt.quant;
  /* A layer without a full group of 4 channels has no packed weights; one entry keeps C99 happy. */
  static const int32_t no_weights[1] = {0};
  /* In place, a row-pair layer runs the classic form (dw_inplace) with its classic weights. */
  const int rowpair = t->dsp_rowpair && !node->inplace;
  const int32_t *w32 = t->dsp_rowpair && !rowpair ? t->classic32 : t->weights32;
  const size_t w_n = t->dsp_rowpair && !rowpair ? t->classic_n : t->weights_n;
  const char *weights = w_n ? em_table_i32_from(ec, "weights", EM_FROM_WEIGHTS, w32, w_n)
                            : em_table_i32_from(ec, "weights", EM_FROM_WEIGHTS, no_weights, 1);
  /* the row-pair form's one class (its padding is the zero point), else every border class's */
  const char *bias = rowpair ? em_table_i32_from(ec, "class_bias", EM_FROM_BIAS, t->rp_bias, (size_t)d->out_c)
                             : em_table_i32_from(ec, "class_bias", EM_FROM_BIAS, t->bias, t->bias_n);
  /* the row-pair form's code (TA_DW_DSP_ROWPAIR_BIT), the classic form's
   * (TA_DW_DSP_CLASSIC_BIT; also the in-place entry's): kws links only the row-pair form */
  /* TA_DW_DSP_NARROW_BIT: the row-pair widening set-up per group, for narrow
   * layers (kws: 1.7 k instructions a layer for 104 bytes; vww would pay the bytes for 1.5 k) */
  const uint32_t narrow = rowpair && d->w.out < DW_ROWPAIR_INPLACE_BELOW ? TA_DW_DSP_MASK(TA_DW_DSP_NARROW_BIT) : 0u;
  /* TA_DW_DSP_LONE_BIT: the row-pair body of a lone last row, for odd heights (kws:
   * its 25th row; vww's heights are even) */
  const uint32_t lone = rowpair && d->h.out % 2 ? TA_DW_DSP_MASK(TA_DW_DSP_LONE_BIT) : 0u;
  em_kernel_variants(ec, "TA_DEPTHWISE_CONV_DSP_VARIANTS",
                     TA_DW_DSP_MASK(t->dsp_mode) |
                         TA_DW_DSP_MASK(rowpair ? TA_DW_DSP_ROWPAIR_BIT : TA_DW_DSP_CLASSIC_BIT) | narrow | lone);
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
            em_tensor(ec, node->in[1]), depthwise_dsp_arena_scratch(d) ? em_scratch(ec) : "NULL",
            em_tensor(ec, node->out[0]));
}
