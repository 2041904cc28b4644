/* Folds an explicit PAD / PADV2 into the convolutions that read it (issue 17 item 2).
 *
 * CONV_2D and DEPTHWISE_CONV_2D treat every tap outside the input image as padding:
 * the int8/int16 kernels skip it (or gather the input zero point, which the folded
 * bias cancels), so it contributes exactly what an input element equal to the zero
 * point would. A PAD whose fill value is that zero point therefore computes nothing
 * the convolution cannot compute itself, on any side and by any amount: the
 * convolution reads the PAD's input instead, its window runs over the padded size
 * (fold_* in its options, see conv_axis_setup) and the padded tensor, often the
 * largest of the model, never exists.
 *
 * Not folded: float32 (0 * inf in a padded tap would be NaN where skipping gives a
 * number), pooling (TFLite's pooling excludes padding from a max and from an
 * average's count, an explicit PAD does not), padding of batch or channels, and
 * padding so wide that a window could lie wholly in it. */
#include <string.h>

#include "../ir/quant.h"
#include "transform.h"

enum { BUILTIN_CONV_2D = 3, BUILTIN_DEPTHWISE_CONV_2D = 4, BUILTIN_PAD = 34, BUILTIN_PADV2 = 60 };

typedef struct SpatialPad {
  int32_t top, bottom, left, right;
} SpatialPad;

/* Little-endian signed integer element i of a constant of 4 or 8 bytes per element. */
static bool const_int(const Tensor *t, int64_t i, int64_t *v) {
  if (!t->data || i < 0 || i >= t->elems) return false;
  const uint8_t *p;
  if (t->type == TT_INT32 && t->bytes >= (size_t)t->elems * 4) {
    p = t->data + 4 * i;
    *v = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    return true;
  }
  if (t->type == TT_INT64 && t->bytes >= (size_t)t->elems * 8) {
    p = t->data + 8 * i;
    uint64_t u = 0;
    for (int b = 7; b >= 0; b--) u = u << 8 | p[b];
    *v = (int64_t)u;
    return true;
  }
  return false;
}

/* The [4, 2] NHWC paddings of a PAD that pads only height and width. */
static bool spatial_paddings(const Tensor *paddings, SpatialPad *sp) {
  if (!paddings || paddings->rank != 2 || paddings->dims[0] != 4 || paddings->dims[1] != 2) return false;
  int64_t v[8];
  for (int i = 0; i < 8; i++)
    if (!const_int(paddings, i, &v[i]) || v[i] < 0 || v[i] > (1 << 16)) return false;
  if (v[0] || v[1] || v[6] || v[7]) return false; /* batch or channel padding */
  *sp = (SpatialPad){(int32_t)v[2], (int32_t)v[3], (int32_t)v[4], (int32_t)v[5]};
  return true;
}

/* PAD fills with the output zero point; PADV2 with its constant_values (stored raw,
 * quantized like the output), which must be that zero point too. */
static bool fills_zero_point(const Model *m, const Node *n, const Tensor *out) {
  const Tensor *cv = n->builtin_code == BUILTIN_PADV2 ? node_input(m, n, 2) : NULL;
  if (!cv) return true;
  if (!cv->data || cv->elems != 1 || cv->type != out->type || cv->bytes < tensor_type_size(cv->type)) return false;
  const int64_t raw = cv->type == TT_INT8 ? (int64_t)(int8_t)cv->data[0]
                                          : (int64_t)(int16_t)(cv->data[0] | cv->data[1] << 8);
  return raw == tensor_zero_point(out);
}

/* The PAD node at `k` if it is one this pass may fold (its consumers aside). */
static bool foldable_pad(const Model *m, const Node *n, SpatialPad *sp) {
  if ((n->builtin_code != BUILTIN_PAD && n->builtin_code != BUILTIN_PADV2) || n->n_in < 2 || n->n_out != 1)
    return false;
  const Tensor *in = node_input(m, n, 0), *out = node_output(m, n, 0);
  if (!in || !out || in->data || in->rank != 4 || out->rank != 4 || in->type != out->type) return false;
  if (in->type != TT_INT8 && in->type != TT_INT16) return false;
  if (in->n_quant != 1 || !tensor_same_quant(in, out)) return false;
  if (out->is_output || out->is_variable || out->is_input || in->is_variable || out->alias_of >= 0) return false;
  for (int i = 0; i < m->n_tensors; i++)
    if (m->tensors[i].alias_of == out->id) return false;
  if (!spatial_paddings(node_input(m, n, 1), sp) || !fills_zero_point(m, n, out)) return false;
  return out->dims[1] == in->dims[1] + sp->top + sp->bottom && out->dims[2] == in->dims[2] + sp->left + sp->right &&
         out->dims[0] == in->dims[0] && out->dims[3] == in->dims[3];
}

/* A VALID convolution reading `padded` as its input (and only there) whose every
 * window keeps at least one tap inside the unpadded image on each axis. */
static bool folds_into(const Model *m, const Node *c, int32_t padded, const SpatialPad *sp) {
  if (c->builtin_code != BUILTIN_CONV_2D && c->builtin_code != BUILTIN_DEPTHWISE_CONV_2D) return false;
  if (c->n_in < 2 || c->in[0] != padded) return false;
  for (int i = 1; i < c->n_in; i++)
    if (c->in[i] == padded) return false;
  const bool conv = c->builtin_code == BUILTIN_CONV_2D;
  if (c->opts.kind != (conv ? OPTS_CONV_2D : OPTS_DEPTHWISE_CONV_2D)) return false;
  const int8_t padding = conv ? c->opts.conv2d.padding : c->opts.depthwise.padding;
  const int32_t dil_h = conv ? c->opts.conv2d.dilation_h : c->opts.depthwise.dilation_h;
  const int32_t dil_w = conv ? c->opts.conv2d.dilation_w : c->opts.depthwise.dilation_w;
  const Tensor *filter = node_input(m, c, 1);
  if (padding != OPT_PADDING_VALID || !filter || filter->rank != 4 || dil_h < 1 || dil_w < 1) return false;
  /* a window reaching fully into the padding would have no tap in the image: TFLite
   * gives the bias there, the kernels' border tables assume at least one tap */
  const int64_t reach_h = (int64_t)(filter->dims[1] - 1) * dil_h, reach_w = (int64_t)(filter->dims[2] - 1) * dil_w;
  const bool already = conv ? (c->opts.conv2d.fold_top | c->opts.conv2d.fold_bottom | c->opts.conv2d.fold_left |
                               c->opts.conv2d.fold_right) != 0
                            : (c->opts.depthwise.fold_top | c->opts.depthwise.fold_bottom |
                               c->opts.depthwise.fold_left | c->opts.depthwise.fold_right) != 0;
  return !already && sp->top <= reach_h && sp->bottom <= reach_h && sp->left <= reach_w && sp->right <= reach_w;
}

static void apply_fold(Node *c, int32_t source, const SpatialPad *sp) {
  c->in[0] = source;
  if (c->builtin_code == BUILTIN_CONV_2D) {
    Conv2DOptions *o = &c->opts.conv2d;
    o->fold_top = sp->top, o->fold_bottom = sp->bottom, o->fold_left = sp->left, o->fold_right = sp->right;
  } else {
    DepthwiseConv2DOptions *o = &c->opts.depthwise;
    o->fold_top = sp->top, o->fold_bottom = sp->bottom, o->fold_left = sp->left, o->fold_right = sp->right;
  }
}

/* True when every reader of `padded` (other than node `self`) is a convolution it
 * folds into; at least one must be. */
static bool all_readers_fold(const Model *m, int self, int32_t padded, const SpatialPad *sp) {
  int readers = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    if (k == self) continue;
    const Node *c = &m->nodes[k];
    bool reads = false;
    for (int i = 0; i < c->n_in; i++) reads |= c->in[i] == padded;
    for (int i = 0; i < c->n_inter; i++) reads |= c->inter[i] == padded;
    if (!reads) continue;
    if (!folds_into(m, c, padded, sp)) return false;
    readers++;
  }
  return readers > 0;
}

int transform_fold_pads(Model *m) {
  bool *drop = m->n_nodes > 0 ? arena_calloc(m->arena, (size_t)m->n_nodes, sizeof *drop) : NULL;
  if (!drop) return 0;
  int folded = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    SpatialPad sp;
    if (!foldable_pad(m, n, &sp) || !all_readers_fold(m, k, n->out[0], &sp)) continue;
    for (int j = 0; j < m->n_nodes; j++)
      if (j != k && m->nodes[j].n_in > 0 && m->nodes[j].in[0] == n->out[0]) apply_fold(&m->nodes[j], n->in[0], &sp);
    drop[k] = true; /* nothing reads its output any more */
    folded++;
  }
  int kept = 0;
  for (int k = 0; k < m->n_nodes; k++)
    if (!drop[k]) m->nodes[kept++] = m->nodes[k];
  m->n_nodes = kept;
  if (m->n_subgraphs > 0) m->subgraphs[0].n_nodes = kept;
  return folded;
}
