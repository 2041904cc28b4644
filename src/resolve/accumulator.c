/* Accumulator bounds of the dot-product operators (CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, TRANSPOSE_CONV), checked at compile time from the constant bias and
 * weights: int8 with an int32 bias must keep every accumulator inside int32; 16x8 with an
 * int64 bias inside +-2^47, the range TFLite's int64 requantisation (a multiply by up to
 * 2^15) is defined for. TFLite would silently wrap or overflow there, and in the emitted C
 * it would be undefined behaviour; no trained model comes near, so only hostile or
 * corrupted files are refused. */
#include "resolve.h"

#include <stdio.h>
#include <stdlib.h>

enum { BUILTIN_CONV_2D = 3, BUILTIN_DEPTHWISE_CONV_2D = 4, BUILTIN_FULLY_CONNECTED = 9, BUILTIN_TRANSPOSE_CONV = 67 };

/* Where an operator keeps its input, filter and bias, and how the filter maps to
 * output channels: `channel_last` (depthwise: [1, h, w, channels]) or first ([out, ...]). */
typedef struct DotLayout {
  int input, filter, bias;
  bool channel_last;
} DotLayout;

static bool dot_layout(int32_t builtin, DotLayout *l) {
  switch (builtin) {
    case BUILTIN_CONV_2D:
    case BUILTIN_FULLY_CONNECTED: *l = (DotLayout){0, 1, 2, false}; return true;
    case BUILTIN_DEPTHWISE_CONV_2D: *l = (DotLayout){0, 1, 2, true}; return true;
    case BUILTIN_TRANSPOSE_CONV: *l = (DotLayout){2, 1, 3, false}; return true;
    default: return false;
  }
}

/* Little-endian int32 or int64 value i. */
static int64_t bias_at(const Tensor *bias, int64_t i) {
  const size_t es = bias->type == TT_INT64 ? 8 : 4;
  const uint8_t *p = bias->data + es * (size_t)i;
  uint64_t v = 0;
  for (size_t b = 0; b < es; b++) v |= (uint64_t)p[b] << (8 * b);
  if (es == 4) return (int32_t)(uint32_t)v;
  return (int64_t)v;
}

/* The bound for this input/bias combination, or 0 when it is not checked (int16 with an
 * int32 bias accumulates as TFLite does and is left alone). */
static int64_t accumulator_limit(const Tensor *in, const Tensor *b) {
  if (in->type == TT_INT8 && b->type == TT_INT32) return INT32_MAX;
  if (in->type == TT_INT16 && b->type == TT_INT64) return (int64_t)1 << 47;
  return 0;
}

/* Checks every output channel: bias -+ (max |input| + |input zero point|) * sum |weights|
 * stays within int32 (or |bias| + that within +-2^47). That bounds TFLite's accumulator (inputs minus the zero point)
 * and every partial sum of ours (the zero-point term folded into the bias, raw inputs added). */
static bool check_node(const Model *m, const Node *n, const DotLayout *l, Diag *d) {
  const Tensor *in = node_input(m, n, l->input);
  const Tensor *w = node_input(m, n, l->filter);
  const Tensor *b = node_input(m, n, l->bias);
  if (!in || !w || !b || w->type != TT_INT8) return true;
  const int64_t limit = accumulator_limit(in, b);
  if (limit == 0) return true;
  if (!w->data || !b->data || w->elems <= 0 || b->elems <= 0) return true; /* prepare checked */
  const int64_t channels = b->elems;
  if (w->elems % channels != 0 || b->bytes < tensor_type_size(b->type) * (size_t)channels ||
      (int64_t)w->bytes < w->elems)
    return true;
  const int64_t zp = in->n_quant > 0 ? in->zero_point[0] : 0;
  if (zp < -65536 || zp > 65536) return true; /* prepare refuses these */
  const int64_t x_max = (in->type == TT_INT8 ? 128 : 32768) + (zp < 0 ? -zp : zp);
  const int64_t per = w->elems / channels;
  const int8_t *wv = (const int8_t *)w->data;
  for (int64_t c = 0; c < channels; c++) {
    int64_t sum = 0;
    for (int64_t k = 0; k < per; k++) {
      const int64_t v = wv[l->channel_last ? k * channels + c : c * per + k];
      sum += v < 0 ? -v : v;
    }
    const int64_t bias = bias_at(b, c);
    const uint64_t reach = (uint64_t)x_max * (uint64_t)sum; /* no wrap: sum <= 127 * 2^30 */
    bool over;
    char worst[32];
    if (limit == INT32_MAX) {
      /* int32 is asymmetric: bias INT32_MIN with all-zero weights (an int4 requantised
       * channel) accumulates exactly INT32_MIN. reach < 2^57, |bias| <= 2^31: no wrap. */
      const int64_t lo = bias - (int64_t)reach, hi = bias + (int64_t)reach;
      over = lo < INT32_MIN || hi > INT32_MAX;
      snprintf(worst, sizeof worst, "%lld", (long long)(hi > INT32_MAX ? hi : lo));
    } else {
      const uint64_t magnitude = bias < 0 ? (uint64_t)0 - (uint64_t)bias : (uint64_t)bias;
      const uint64_t bound = magnitude + reach;
      over = bound > (uint64_t)limit;
      snprintf(worst, sizeof worst, "+-%llu", (unsigned long long)bound);
    }
    if (over)
      return diag_error(d, "operator %d (%s): output channel %lld can accumulate %s, beyond %s (bias '%s' is %lld, "
                           "input zero point %lld, sum of |weights| %lld): the model's arithmetic would overflow",
                        (int)n->index, n->opname, (long long)c, worst,
                        limit == INT32_MAX ? "int32" : "+-2^47", b->name, (long long)bias, (long long)zp, (long long)sum);
  }
  return true;
}

bool resolve_check_accumulators(const Model *m, Diag *d) {
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    DotLayout l;
    if (dot_layout(n->builtin_code, &l) && !check_node(m, n, &l, d)) return false;
  }
  return true;
}
