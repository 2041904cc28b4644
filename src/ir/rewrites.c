#include "rewrites.h"

enum {
  BUILTIN_CONCATENATION = 2,
  BUILTIN_CONV_2D = 3,
  BUILTIN_DEPTHWISE_CONV_2D = 4,
  BUILTIN_STRIDED_SLICE = 45,
  BUILTIN_SPLIT = 49,
  BUILTIN_SLICE = 65,
  BUILTIN_UNPACK = 88,
  BUILTIN_SPLIT_V = 102,
  BUILTIN_QUANTIZE = 114,
};

bool rewrite_is_slicing(int32_t code) {
  return code == BUILTIN_SPLIT || code == BUILTIN_SPLIT_V || code == BUILTIN_UNPACK || code == BUILTIN_SLICE ||
         code == BUILTIN_STRIDED_SLICE;
}

size_t rewrite_fold_bytes(const Model *m, const Node *n) {
  int32_t t, b, l, r;
  if (n->builtin_code == BUILTIN_CONV_2D && n->opts.kind == OPTS_CONV_2D) {
    const Conv2DOptions *o = &n->opts.conv2d;
    t = o->fold_top, b = o->fold_bottom, l = o->fold_left, r = o->fold_right;
  } else if (n->builtin_code == BUILTIN_DEPTHWISE_CONV_2D && n->opts.kind == OPTS_DEPTHWISE_CONV_2D) {
    const DepthwiseConv2DOptions *o = &n->opts.depthwise;
    t = o->fold_top, b = o->fold_bottom, l = o->fold_left, r = o->fold_right;
  } else {
    return 0;
  }
  const Tensor *in = node_input(m, n, 0);
  if ((t | b | l | r) == 0 || !in || in->rank != 4) return 0;
  return (size_t)in->dims[0] * (size_t)(in->dims[1] + t + b) * (size_t)(in->dims[2] + l + r) * (size_t)in->dims[3] *
         tensor_type_size(in->type);
}

void rewrite_fold_summary(const Model *m, int *folds, size_t *bytes) {
  *folds = 0;
  *bytes = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    const size_t b = rewrite_fold_bytes(m, &m->nodes[k]);
    if (b) (*folds)++, *bytes += b;
  }
}

int rewrite_quantizes_elided(const Model *m) {
  int n = 0;
  for (int k = 0; k < m->n_nodes; k++) n += m->nodes[k].builtin_code == BUILTIN_QUANTIZE && m->nodes[k].is_alias;
  return n;
}

int rewrite_concats_viewed(const Model *m) {
  int n = 0;
  for (int k = 0; k < m->n_nodes; k++) n += m->nodes[k].builtin_code == BUILTIN_CONCATENATION && m->nodes[k].is_alias;
  return n;
}

int rewrite_slices_viewed(const Model *m) {
  int n = 0;
  for (int k = 0; k < m->n_nodes; k++) n += rewrite_is_slicing(m->nodes[k].builtin_code) && m->nodes[k].is_alias;
  return n;
}

int32_t rewrite_integer_io_from(const Model *m, int io) {
  return m->integer_io_from && io >= 0 && io < m->n_inputs + m->n_outputs ? m->integer_io_from[io] : -1;
}
