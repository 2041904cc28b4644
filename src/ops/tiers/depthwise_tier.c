/* What the int8 depthwise tiers share: border classes, class biases, descriptor geometry. */
#include <stdio.h>

#include "depthwise_tier.h"

/* Taps [lo, hi) of an axis whose input coordinate origin + dil * k lies inside the image. */
static void dw_axis_taps(const ConvAxis *ax, int32_t o, int32_t *lo, int32_t *hi) {
  const int64_t origin = (int64_t)o * ax->stride - ax->pad;
  int32_t a = 0, b = ax->k;
  while (a < b && origin + (int64_t)ax->dil * a < 0) a++;
  while (b > a && origin + (int64_t)ax->dil * (b - 1) >= ax->in) b--;
  *lo = a;
  *hi = b;
}

bool dw_axis_classes(PrepareCtx *pc, const ConvAxis *ax, DwAxisClasses *c) {
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
int32_t dw_class_bias(const DwData *d, const Tensor *filter, const Tensor *bias, int32_t r, int32_t k,
                      int32_t c) {
  const int8_t *w = (const int8_t *)filter->data;
  int64_t sum = 0;
  for (int32_t ky = d->t.rows.lo[r]; ky < d->t.rows.hi[r]; ky++)
    for (int32_t kx = d->t.cols.lo[k]; kx < d->t.cols.hi[k]; kx++) sum += w[(ky * d->w.k + kx) * d->out_c + c];
  const uint32_t b = bias ? (uint32_t)const_i32(bias, c) : 0u;
  return (int32_t)(b - (uint32_t)((int64_t)d->input_zero_point * sum));
}

/* Shape fields shared by the DSP and MVE descriptors. */
void dw_tier_geom(char *buf, size_t cap, const DwData *d) {
  snprintf(buf, cap,
           "  .batches = %d,\n  .in_h = %d, .in_w = %d, .channels = %d,\n  .out_h = %d, .out_w = %d,\n"
           "  .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,\n  .dil_h = %d, .dil_w = %d,\n"
           "  .pad_h = %d, .pad_w = %d,\n  .col_classes = %d,\n",
           (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->out_c, (int)d->h.out, (int)d->w.out, (int)d->h.k,
           (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil, (int)d->h.pad,
           (int)d->w.pad, (int)d->t.cols.count);
}

DwTierTables dw_tier_tables(EmitCtx *ec, const DwData *d) {
  const DwTierData *t = &d->t;
  DwTierTables tt;
  tt.rows = em_table_i16(ec, "rows", t->rows.table, (size_t)d->h.out * 3);
  tt.cols = em_table_i16(ec, "cols", t->cols.table, (size_t)d->w.out * 3);
  tt.quant = em_table_i32(ec, "quant", t->quant, t->quant_n);
  return tt;
}
