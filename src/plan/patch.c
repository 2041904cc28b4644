/* Patch-based execution (see patch.h). A band of the chain output's rows [o0, o1)
 * needs, from each operator's input, the rows its windows touch: for a convolution
 * with stride s, dilated filter height ek and leading padding pt, rows
 * [o0 * s - pt, (o1 - 1) * s - pt + ek). Clipped to the image, the rows outside become
 * the band's own explicit padding (fold_top / fold_bottom, VALID), which the kernels
 * treat exactly as the original SAME/folded padding: the same taps are padding in both,
 * so every band computes bit-exact rows of the original tensors, and only in-image rows
 * are ever computed (no zero-point refill needed). Rows are contiguous in NHWC, so a
 * band of the chain input or output is a view (alias at a byte offset), no copy. */
#include "patch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "../ops/op.h"
#include "../ir/storage.h"

enum { B_ADD = 0, B_CONV_2D = 3, B_DEPTHWISE_CONV_2D = 4, B_QUANTIZE = 114 };
enum { PATCH_MAX_OPS = 24, PATCH_MAX_BANDS = 128, PATCH_ALIGN = 16, PAD_VALID = 1 };
/* The chosen plan may recompute at most this share of the model's MACs (vww's cheapest
 * bound at 21 % cost +57 % instructions on Cortex-M55: the band calls and small
 * kernels add to the halo), and must lower the bound by at least 1/16 (a few bytes are
 * not worth the halo). */
enum { PATCH_MAX_EXTRA_PERCENT = 12 };

static size_t al(size_t x) { return (x + PATCH_ALIGN - 1) / PATCH_ALIGN * PATCH_ALIGN; }

typedef struct Range {
  int32_t lo, hi; /* rows [lo, hi); empty when lo >= hi */
} Range;

/* One chain operator's row geometry and its activation inputs. */
typedef struct ChainOp {
  int pos;                 /* node position */
  int n_act;               /* activation inputs (1, or 2 for ADD) */
  int act_slot[2];         /* their input slots */
  int src[2];              /* -1: the chain input; else the chain op producing it */
  int32_t in_h, out_h, stride, ek, pad_top; /* rows */
  int32_t pad_left, pad_right;              /* columns (convolutions) */
  size_t row_bytes;        /* bytes of one output row */
  int64_t row_macs;        /* MACs of one output row */
  int last_consumer;       /* last chain op reading its output, -1 */
} ChainOp;

static bool rank4_batch1(const Tensor *t) { return t && t->rank == 4 && t->dims[0] == 1 && t->bytes > 0; }

static int32_t lead_pad(int padding, int32_t in, int32_t fl, int32_t fr, int32_t s, int32_t ek, int32_t *out) {
  const int64_t inp = (int64_t)in + fl + fr;
  const int64_t o = padding == 0 ? (inp + s - 1) / s : (inp + s - ek) / s;
  int64_t total = (o - 1) * s + ek - inp;
  if (total < 0) total = 0;
  *out = (int32_t)o;
  return (int32_t)(total / 2 + fl);
}

/* Row geometry of node n as a chain operator; false when it cannot be one. */
static bool chain_geometry(const Model *m, const Node *n, ChainOp *c) {
  const OpDef *def = n->def ? n->def : op_find(n->builtin_code); /* set by resolve, which runs later */
  if (!def || n->is_alias || !(def->capabilities & CAP_REORDERABLE) || n->n_out != 1 || n->out[0] < 0 ||
      n->n_in < 1 || n->in[0] < 0)
    return false;
  const Tensor *x = node_input(m, n, 0), *y = node_output(m, n, 0);
  if (!rank4_batch1(x) || !rank4_batch1(y) || x->data || y->is_variable || y->type != TT_INT8 ||
      y->alias_of >= 0) /* a view already (a CONCATENATION's input) */
    return false;
  c->n_act = 1;
  c->act_slot[0] = 0;
  c->in_h = x->dims[1];
  c->out_h = y->dims[1];
  c->row_bytes = (size_t)y->dims[2] * (size_t)y->dims[3];
  c->stride = c->ek = 1;
  c->pad_top = c->pad_left = c->pad_right = 0;
  c->row_macs = 0;
  switch (n->builtin_code) {
    case B_QUANTIZE:
    case B_ADD:
      if (x->dims[1] != y->dims[1] || x->dims[2] != y->dims[2] || x->dims[3] != y->dims[3]) return false;
      if (n->builtin_code == B_QUANTIZE) return n->n_in == 1 && (x->type == TT_FLOAT32 || x->type == TT_INT8);
      {
        const Tensor *b = node_input(m, n, 1);
        if (n->n_in != 2 || !b || b->data || !tensor_same_shape(x, b) || x->type != TT_INT8) return false;
      }
      c->n_act = 2;
      c->act_slot[1] = 1;
      return true;
    case B_CONV_2D:
    case B_DEPTHWISE_CONV_2D: {
      const Tensor *w = node_input(m, n, 1), *b = n->n_in > 2 ? node_input(m, n, 2) : NULL;
      if (x->type != TT_INT8 || !w || !w->data || w->rank != 4 || (b && !b->data)) return false;
      const bool dw = n->builtin_code == B_DEPTHWISE_CONV_2D;
      int padding, sh, sw, dh, dwid, ft, fb, fl, fr;
      if (dw) {
        const DepthwiseConv2DOptions *o = &n->opts.depthwise;
        padding = o->padding, sh = o->stride_h, sw = o->stride_w, dh = o->dilation_h, dwid = o->dilation_w;
        ft = o->fold_top, fb = o->fold_bottom, fl = o->fold_left, fr = o->fold_right;
      } else {
        const Conv2DOptions *o = &n->opts.conv2d;
        padding = o->padding, sh = o->stride_h, sw = o->stride_w, dh = o->dilation_h, dwid = o->dilation_w;
        ft = o->fold_top, fb = o->fold_bottom, fl = o->fold_left, fr = o->fold_right;
      }
      if (dh < 1) dh = 1;
      if (dwid < 1) dwid = 1;
      if ((padding != 0 && padding != PAD_VALID) || sh < 1 || sw < 1 || sh > 8 || sw > 8) return false;
      const int32_t kh = w->dims[1], kw = w->dims[2];
      if (kh < 1 || kw < 1 || kh > 16 || kw > 16) return false;
      c->stride = sh;
      c->ek = (kh - 1) * dh + 1;
      const int32_t ekw = (kw - 1) * dwid + 1;
      int32_t oh, ow;
      c->pad_top = lead_pad(padding, x->dims[1], ft, fb, sh, c->ek, &oh);
      c->pad_left = lead_pad(padding, x->dims[2], fl, fr, sw, ekw, &ow);
      if (oh != y->dims[1] || ow != y->dims[2]) return false;
      c->pad_right = (ow - 1) * sw + ekw - x->dims[2] - c->pad_left;
      if (c->pad_right < 0) c->pad_right = 0;
      c->row_macs = (int64_t)ow * y->dims[3] * kh * kw * (dw ? 1 : w->dims[3]);
      return true;
    }
    default: return false;
  }
}

/* The chain candidates from node position `start`: how many consecutive operators from
 * there can be chain operators, reading the first one's input x (or each other). */
static int collect_chain(const Model *m, int start, ChainOp *ops, int32_t *x_out) {
  if (start >= m->n_nodes - 1) return 0;
  const Node *first = &m->nodes[start];
  if (first->n_in < 1 || first->in[0] < 0 || tensor_is_const(&m->tensors[first->in[0]])) return 0;
  *x_out = first->in[0];
  int n = 0;
  for (int k = start; k < m->n_nodes && n < PATCH_MAX_OPS; k++) {
    ChainOp c = {0};
    c.pos = k;
    if (!chain_geometry(m, &m->nodes[k], &c)) break;
    bool ok = true;
    for (int a = 0; a < c.n_act && ok; a++) {
      const int32_t t = m->nodes[k].in[c.act_slot[a]];
      c.src[a] = -2;
      if (t == *x_out) c.src[a] = -1;
      for (int j = 0; j < n; j++)
        if (m->nodes[ops[j].pos].out[0] == t) c.src[a] = j;
      ok = c.src[a] != -2;
    }
    if (!ok) break;
    c.last_consumer = -1;
    ops[n++] = c;
  }
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++)
      for (int a = 0; a < ops[i].n_act; a++)
        if (ops[i].src[a] == j) ops[j].last_consumer = i;
  return n;
}

/* Chain ops[0..e] is closed: every output but e's is read only inside it. */
static bool chain_closed(const Model *m, const ChainOp *ops, int e) {
  for (int j = 0; j < e; j++) {
    const int32_t t = m->nodes[ops[j].pos].out[0];
    bool read = false;
    for (int k = 0; k < m->n_nodes; k++) {
      const Node *n = &m->nodes[k];
      for (int i = 0; i < n->n_in; i++)
        if (n->in[i] >= 0 && tensor_storage(m, n->in[i]) == tensor_storage(m, t)) {
          if (k > ops[e].pos) return false;
          read = true;
        }
    }
    for (int i = 0; i < m->n_outputs; i++)
      if (tensor_storage(m, m->outputs[i]) == tensor_storage(m, t)) return false;
    if (!read) return false;
  }
  return true;
}

/* Input rows op c reads for its output rows r: clipped range, and the padding rows. */
static Range input_rows(const ChainOp *c, Range r, int32_t *ptop, int32_t *pbot) {
  const int32_t u0 = r.lo * c->stride - c->pad_top, u1 = (r.hi - 1) * c->stride - c->pad_top + c->ek;
  Range in = {u0 < 0 ? 0 : u0, u1 > c->in_h ? c->in_h : u1};
  *ptop = in.lo - u0;
  *pbot = u1 - in.hi;
  return in;
}

static void unite(Range *a, Range b) {
  if (a->lo >= a->hi) {
    *a = b;
    return;
  }
  if (b.lo < a->lo) a->lo = b.lo;
  if (b.hi > a->hi) a->hi = b.hi;
}

/* Rows each chain op computes for the output rows [o0, o1) of op e (need[0..e]); false
 * when some op computes nothing (it feeds no row of the band). */
static bool band_needs(const ChainOp *ops, int e, Range out, Range *need) {
  for (int j = 0; j <= e; j++) need[j] = (Range){0, 0};
  need[e] = out;
  for (int j = e; j >= 0; j--) {
    if (need[j].lo >= need[j].hi) return false;
    for (int a = 0; a < ops[j].n_act; a++) {
      int32_t pt, pb;
      Range in = input_rows(&ops[j], need[j], &pt, &pb);
      if (in.lo >= in.hi) return false;
      if (ops[j].src[a] >= 0) unite(&need[ops[j].src[a]], in);
    }
  }
  return true;
}

/* Whole-tensor live bytes per node position, model order: every storage tensor from
 * its first to its last use (inputs from 0, outputs to the end). */
static bool live_profile(const Model *m, size_t *live, int32_t *first, int32_t *last) {
  const int n = m->n_nodes;
  for (int i = 0; i < m->n_tensors; i++) first[i] = -1, last[i] = -1;
#define TOUCH(id, k)                                      \
  do {                                                    \
    int32_t s_ = tensor_storage(m, id);                   \
    if (first[s_] < 0 || (k) < first[s_]) first[s_] = (k); \
    if ((k) > last[s_]) last[s_] = (k);                   \
  } while (0)
  for (int i = 0; i < m->n_inputs; i++) TOUCH(m->inputs[i], 0);
  for (int k = 0; k < n; k++) {
    const Node *nd = &m->nodes[k];
    for (int i = 0; i < nd->n_in; i++)
      if (nd->in[i] >= 0) TOUCH(nd->in[i], k);
    for (int o = 0; o < nd->n_out; o++)
      if (nd->out[o] >= 0) TOUCH(nd->out[o], k);
  }
  for (int i = 0; i < m->n_outputs; i++) TOUCH(m->outputs[i], n - 1);
#undef TOUCH
  for (int k = 0; k < n; k++) live[k] = 0;
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (first[i] < 0 || t->alias_of >= 0 || tensor_is_const(t) || t->is_variable) continue;
    for (int k = first[i]; k <= last[i] && k < n; k++) live[k] += al(t->bytes);
  }
  return true;
}

typedef struct Choice {
  int e;            /* last chain op */
  int32_t h;        /* output rows per band */
  size_t estimate, band_bytes;
  int64_t macs;
} Choice;

/* Bytes of the patched schedule that do not depend on the band height: the live peak
 * after the chain, and what is live during it besides the chain's own tensors. */
static void chain_outside(const Model *m, const ChainOp *ops, int e, const size_t *live, const int32_t *first,
                          const int32_t *last, size_t *after, size_t *during) {
  *after = *during = 0;
  for (int k = ops[e].pos + 1; k < m->n_nodes; k++)
    if (live[k] > *after) *after = live[k];
  for (int k = ops[0].pos; k <= ops[e].pos; k++) {
    size_t at = 0;
    for (int i = 0; i < m->n_tensors; i++) {
      const Tensor *t = &m->tensors[i];
      if (first[i] < 0 || first[i] > k || last[i] < k || t->alias_of >= 0 || tensor_is_const(t) || t->is_variable)
        continue;
      bool inner = false;
      for (int j = 0; j <= e; j++) inner |= tensor_storage(m, m->nodes[ops[j].pos].out[0]) == i;
      if (!inner) at += al(t->bytes);
    }
    if (at > *during) *during = at;
  }
}

/* Bound and MACs of the chain ops[0..e] run in bands of h output rows: after the chain,
 * as before; during it, what else is live, the whole chain output and the band buffers. */
static bool evaluate(const Model *m, const ChainOp *ops, int e, int32_t h, size_t after, size_t during, Range *need,
                     Choice *c) {
  const Tensor *y = node_output(m, &m->nodes[ops[e].pos], 0);
  const int32_t rows = y->dims[1];
  size_t band_peak = 0;
  int64_t macs = 0;
  for (int32_t o0 = 0; o0 < rows; o0 += h) {
    Range out = {o0, o0 + h < rows ? o0 + h : rows};
    if (!band_needs(ops, e, out, need)) return false;
    for (int j = 0; j <= e; j++) {
      macs += (int64_t)(need[j].hi - need[j].lo) * ops[j].row_macs;
      size_t at = 0; /* band buffers live while op j runs */
      for (int i = 0; i < e; i++)
        if (i <= j && j <= ops[i].last_consumer) at += al((size_t)(need[i].hi - need[i].lo) * ops[i].row_bytes);
      if (at > band_peak) band_peak = at;
    }
  }
  const size_t chain = during + al(y->bytes) + band_peak;
  *c = (Choice){e, h, chain > after ? chain : after, band_peak, macs};
  return true;
}

/* Band heights worth trying for `rows` output rows: 1 .. 32, then the heights that split
 * the rows into 2 .. 8 bands; never more than PATCH_MAX_BANDS bands (compile time). */
static bool band_height_ok(int32_t h, int32_t rows) {
  if (h < 1 || h >= rows || (rows + h - 1) / h > PATCH_MAX_BANDS) return false;
  if (h <= 32) return true;
  for (int b = 2; b <= 8; b++)
    if (h == (rows + b - 1) / b) return true;
  return false;
}

static int64_t model_macs(const Model *m) {
  int64_t total = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    ChainOp c = {0};
    if (chain_geometry(m, &m->nodes[k], &c)) total += (int64_t)c.out_h * c.row_macs;
  }
  return total;
}

/* ---- the rewrite ------------------------------------------------------------ */

typedef struct Builder {
  Model *m;
  Tensor *tensors;
  int n_tensors, cap_tensors;
} Builder;

/* A new tensor like `like` with `rows` rows: a band buffer (view_of -1) or a view of
 * rows [row0, row0 + rows) of tensor view_of. */
static int32_t band_tensor(Builder *b, int32_t like, int32_t rows, int32_t view_of, int32_t row0, const char *what,
                           int band) {
  if (b->n_tensors >= b->cap_tensors) return -1;
  const Tensor *src = &b->tensors[like];
  if (view_of >= 0 && row0 == 0 && rows == b->tensors[view_of].dims[1]) return view_of; /* the whole tensor */
  Tensor *t = &b->tensors[b->n_tensors];
  *t = *src;
  t->id = b->n_tensors;
  t->name = arena_printf(b->m->arena, "%s/%s%d", src->name, what, band);
  t->dims[1] = rows;
  t->elems = (int64_t)t->dims[0] * rows * t->dims[2] * t->dims[3];
  const size_t row_bytes = src->bytes / (size_t)src->dims[1];
  t->bytes = row_bytes * (size_t)rows;
  t->data = NULL;
  t->is_input = t->is_output = t->is_variable = false;
  t->is_scratch_buffer = t->dead = false;
  t->alias_of = view_of;
  t->alias_offset = view_of >= 0 ? row_bytes * (size_t)row0 : 0;
  t->first_use = t->last_use = -1;
  t->arena = -1;
  t->offset = 0;
  if (!t->name) return -1;
  return b->n_tensors++;
}

static void set_rows_padding(Node *n, const ChainOp *c, int32_t ptop, int32_t pbot) {
  if (n->builtin_code == B_CONV_2D) {
    Conv2DOptions *o = &n->opts.conv2d;
    o->padding = PAD_VALID;
    o->fold_top = ptop, o->fold_bottom = pbot, o->fold_left = c->pad_left, o->fold_right = c->pad_right;
  } else if (n->builtin_code == B_DEPTHWISE_CONV_2D) {
    DepthwiseConv2DOptions *o = &n->opts.depthwise;
    o->padding = PAD_VALID;
    o->fold_top = ptop, o->fold_bottom = pbot, o->fold_left = c->pad_left, o->fold_right = c->pad_right;
  }
}

static bool rewrite(Model *m, const ChainOp *ops, int e, int32_t h, int32_t x, Range *need, PatchPlan *pp) {
  const Tensor *y = node_output(m, &m->nodes[ops[e].pos], 0);
  const int32_t rows = y->dims[1], yid = y->id;
  const int n_bands = (rows + h - 1) / h, L = e + 1;
  Builder b = {m, NULL, m->n_tensors, m->n_tensors + n_bands * L * 4 + 4};
  b.tensors = arena_calloc(m->arena, (size_t)b.cap_tensors, sizeof(Tensor));
  const int n_nodes = m->n_nodes - L + n_bands * L;
  Node *nodes = arena_calloc(m->arena, (size_t)n_nodes + 1, sizeof(Node));
  int32_t *buf = arena_calloc(m->arena, (size_t)L, sizeof(int32_t));
  if (!b.tensors || !nodes || !buf) return false;
  memcpy(b.tensors, m->tensors, sizeof(Tensor) * (size_t)m->n_tensors);
  int at = 0;
  const int start = ops[0].pos;
  for (int k = 0; k < start; k++) nodes[at++] = m->nodes[k];
  for (int band = 0; band < n_bands; band++) {
    Range out = {band * h, band * h + h < rows ? band * h + h : rows};
    if (!band_needs(ops, e, out, need)) return false;
    for (int j = 0; j <= e; j++) {
      const Node *orig = &m->nodes[ops[j].pos];
      Node *n = &nodes[at++];
      *n = *orig;
      n->patched = true;
      n->band = band;
      n->in = arena_calloc(m->arena, (size_t)orig->n_in + 1, sizeof(int32_t));
      n->out = arena_calloc(m->arena, 2, sizeof(int32_t));
      if (!n->in || !n->out) return false;
      memcpy(n->in, orig->in, sizeof(int32_t) * (size_t)orig->n_in);
      int32_t ptop = 0, pbot = 0;
      for (int a = 0; a < ops[j].n_act; a++) {
        Range in = input_rows(&ops[j], need[j], &ptop, &pbot);
        const int s = ops[j].src[a];
        const int32_t whole = orig->in[ops[j].act_slot[a]];
        const int32_t from = s < 0 ? x : buf[s];
        const int32_t base = s < 0 ? 0 : need[s].lo;
        const int32_t v = band_tensor(&b, whole, in.hi - in.lo, from, in.lo - base, "rows", band);
        if (v < 0) return false;
        n->in[ops[j].act_slot[a]] = v;
      }
      set_rows_padding(n, &ops[j], ptop, pbot);
      const int32_t o = j == e ? band_tensor(&b, yid, need[j].hi - need[j].lo, yid, need[j].lo, "band", band)
                               : band_tensor(&b, orig->out[0], need[j].hi - need[j].lo, -1, 0, "band", band);
      if (o < 0) return false;
      n->out[0] = o;
      buf[j] = o;
    }
  }
  for (int k = start + L; k < m->n_nodes; k++) nodes[at++] = m->nodes[k];
  pp->ops = arena_calloc(m->arena, (size_t)L, sizeof(int32_t));
  if (!pp->ops) return false;
  for (int j = 0; j < L; j++) pp->ops[j] = m->nodes[ops[j].pos].index;
  m->tensors = b.tensors;
  m->n_tensors = b.n_tensors;
  m->nodes = nodes;
  m->n_nodes = at;
  if (m->n_subgraphs > 0) {
    m->subgraphs[0].nodes = nodes;
    m->subgraphs[0].n_nodes = at;
  }
  pp->n_bands = n_bands;
  return true;
}

bool patch_model(Model *m, int start, PatchPlan *pp, Diag *d) {
  memset(pp, 0, sizeof *pp);
  ChainOp *ops = arena_calloc(m->arena, PATCH_MAX_OPS + 1, sizeof(ChainOp));
  Range *need = arena_calloc(m->arena, PATCH_MAX_OPS + 1, sizeof(Range));
  size_t *live = arena_calloc(m->arena, (size_t)m->n_nodes + 1, sizeof(size_t));
  int32_t *first = arena_calloc(m->arena, (size_t)m->n_tensors + 1, sizeof(int32_t));
  int32_t *last = arena_calloc(m->arena, (size_t)m->n_tensors + 1, sizeof(int32_t));
  if (!ops || !need || !live || !first || !last || !live_profile(m, live, first, last))
    return diag_error(d, "out of memory while planning patches");
  size_t whole = 0;
  for (int k = 0; k < m->n_nodes; k++)
    if (live[k] > whole) whole = live[k];
  pp->layer_by_layer_bound = whole;
  const int64_t total_macs = model_macs(m);
  Choice best = {-1, 0, whole, 0, 0};
  int64_t best_extra = 0;
  {
    int32_t x = -1;
    const int n = collect_chain(m, start, ops, &x);
    size_t from = 0; /* the bound over the steps the chain can change */
    for (int k = start; k < m->n_nodes; k++)
      if (live[k] > from) from = live[k];
    for (int e = 1; e < n; e++) { /* at least two operators: one alone recomputes nothing */
      if (!chain_closed(m, ops, e)) continue;
      int64_t once = 0;
      for (int j = 0; j <= e; j++) once += (int64_t)ops[j].out_h * ops[j].row_macs;
      size_t after, during;
      chain_outside(m, ops, e, live, first, last, &after, &during);
      for (int32_t h = 1; h < ops[e].out_h; h++) {
        Choice c;
        if (!band_height_ok(h, ops[e].out_h) || !evaluate(m, ops, e, h, after, during, need, &c)) continue;
        const int64_t extra = c.macs - once;
        if (extra * 100 > total_macs * PATCH_MAX_EXTRA_PERCENT || c.estimate >= from - from / 16) continue;
        /* lower bound first (2 % counts as equal), then fewer recomputed MACs */
        const bool lower = best.e < 0 || c.estimate * 50 < best.estimate * 49 ||
                           (c.estimate * 49 <= best.estimate * 50 && extra < best_extra);
        if (!lower) continue;
        best = c;
        best_extra = extra;
      }
    }
  }
  if (best.e < 0) return true;
  int32_t x = -1;
  collect_chain(m, start, ops, &x);
  int64_t once = 0;
  for (int j = 0; j <= best.e; j++) once += (int64_t)ops[j].out_h * ops[j].row_macs;
  pp->n_ops = best.e + 1;
  pp->input_tensor = x;
  pp->output_tensor = m->nodes[ops[best.e].pos].out[0];
  pp->out_rows = ops[best.e].out_h;
  pp->band_rows = best.h;
  pp->chain_macs = once;
  pp->patched_macs = best.macs;
  pp->model_macs = total_macs;
  pp->estimate = best.estimate; /* and the operators before the chain, run as before */
  for (int k = 0; k < start; k++)
    if (live[k] > pp->estimate) pp->estimate = live[k];
  pp->band_bytes = best.band_bytes;
  if (!rewrite(m, ops, best.e, best.h, x, need, pp)) return diag_error(d, "out of memory while rewriting patches");
  pp->active = true;
  return true;
}

/* ---- report ----------------------------------------------------------------- */

static double percent(int64_t part, int64_t whole) { return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0; }

void patch_report_json(const Model *m, const PatchPlan *p, StrBuf *js) {
  if (!p || !p->active) {
    sb_append(js, ",\n  \"patch\": {\"enabled\": false}");
    return;
  }
  sb_printf(js, ",\n  \"patch\": {\"enabled\": true, \"operators\": [");
  for (int j = 0; j < p->n_ops; j++) sb_printf(js, "%s%d", j ? ", " : "", (int)p->ops[j]);
  const int64_t extra = p->patched_macs - p->chain_macs;
  sb_printf(js, "], \"input_tensor\": %d, \"output_tensor\": %d, \"output_rows\": %d, \"band_rows\": %d, "
                "\"bands\": %d, \"chain_macs\": %lld, \"recomputed_macs\": %lld, \"recomputed_percent_of_chain\": %.1f, "
                "\"recomputed_percent_of_model\": %.1f, \"layer_by_layer_bound_unpatched\": %zu, "
                "\"layer_by_layer_bound_patched\": %zu}",
            (int)p->input_tensor, (int)p->output_tensor, (int)p->out_rows, (int)p->band_rows, (int)p->n_bands,
            (long long)p->chain_macs, (long long)extra, percent(extra, p->chain_macs), percent(extra, p->model_macs),
            p->layer_by_layer_bound, p->estimate);
  (void)m;
}

void patch_report_md(const Model *m, const PatchPlan *p, StrBuf *md) {
  if (!p || !p->active) return;
  const int64_t extra = p->patched_macs - p->chain_macs;
  sb_printf(md, "Patch-based execution (--memory.optimize max): operators");
  for (int j = 0; j < p->n_ops; j++) sb_printf(md, " %d", (int)p->ops[j]);
  const Tensor *x = &m->tensors[p->input_tensor], *y = &m->tensors[p->output_tensor];
  sb_printf(md, " run in %d bands of %d of the %d rows of tensor %d '%s' (from tensor %d '%s', read by rows), "
                "recomputing the halo: %lld extra MACs (%.1f %% of the chain, %.1f %% of the model). "
                "Layer-by-layer bound %zu bytes unpatched, %zu bytes patched (band buffers included).\n\n",
            (int)p->n_bands, (int)p->band_rows, (int)p->out_rows, (int)y->id, y->name, (int)x->id, x->name,
            (long long)extra, percent(extra, p->chain_macs), percent(extra, p->model_macs), p->layer_by_layer_bound,
            p->estimate);
}
