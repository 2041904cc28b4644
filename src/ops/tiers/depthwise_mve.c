/* The Cortex-M55 (MVE) tier of int8 DEPTHWISE_CONV_2D: the tables of ta_depthwise_conv_mve_s8
 * (runtime/kernels/ta_depthwise_conv_mve.h), the loops it links and its descriptor. */
#include <stdio.h>

#include "depthwise_tier.h"
#include "../../../runtime/kernels/ta_depthwise_conv_mve_contract.h"

/* Lane of channel j (0..7) of a group in the MVE tables: even channels, then odd ones. */
static int32_t dw_mve_lane(int32_t j) { return (j & 1) ? 4 + (j >> 1) : j >> 1; }

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
  uint32_t bits = ((t->lanes16 && d->out_c == 16) || t->pack ? TA_DW_MVE_MASK(TA_DW_MVE_BIT_ONE) : 0) |
                  (t->pack ? TA_DW_MVE_MASK(TA_DW_MVE_BIT_PACK) : 0);
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
          bits |= TA_DW_MVE_MASK(TA_DW_MVE_BIT_LAYER(shape)) |
                  TA_DW_MVE_MASK(t->simple                                             ? TA_DW_MVE_BIT_LAYER_S
                                 : dw_mve_negative_fix(d) == 2 && t->no_left_shift ? TA_DW_MVE_BIT_LAYER_P
                                                                                   : TA_DW_MVE_BIT_LAYER_G);
        else
          bits |= TA_DW_MVE_MASK(TA_DW_MVE_BIT16(t->simple, shape));
      }
      if (!t->lanes16) { /* with pack: the pixels left over */
        /* 0 whole 3x3, 1..3 rows of that many taps, 4 any */
        shape = TA_DW_MVE_SHAPE8(k3x3 && n_ky == 3 && n_kx == 3, n_kx);
        bits |= TA_DW_MVE_MASK(TA_DW_MVE_BIT8(t->simple, shape));
      }
    }
  return bits;
}

bool depthwise_mve_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, const Tensor *bias) {
  d->t.simple = !d->t.negative_fix;
  d->t.no_left_shift = 1; /* both cleared by a left shift */
  return dw_mve_tables(pc, d, filter, bias, &d->t);
}

void depthwise_mve_emit(EmitCtx *ec, const Node *node, const DwData *d) {
  const char *name = em_op_name(ec);
  const DwTierData *t = &d->t;
  char geom[512];
  dw_tier_geom(geom, sizeof geom, d);
  const DwTierTables tt = dw_tier_tables(ec, d);
  const char *rows = tt.rows, *cols = tt.cols, *quant = tt.quant;
  const char *bias = em_table_i32_from(ec, "class_bias", EM_FROM_BIAS, t->bias, t->bias_n);
  const char *weights = t->lanes16 ? em_table_i8_from(ec, "weights", EM_FROM_WEIGHTS, t->weights8, t->weights_n)
                                   : em_table_i16_from(ec, "weights", EM_FROM_WEIGHTS, t->weights16, t->weights_n);
  char pack[1024] = "";
  if (t->pack) /* the 16-lane tables of the packed pixels */
    snprintf(pack, sizeof pack, "  .weights8 = %s,\n  .pack = %d,\n  .pack_bias = %s,\n  .pack_quant = %s,\n",
             em_table_i8_from(ec, "pack_weights", EM_FROM_WEIGHTS, t->weights8, t->pack_weights_n), t->pack,
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
}
