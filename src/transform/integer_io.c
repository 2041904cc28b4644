/* Integer model I/O (--integer-io, issue 17).
 *
 * Models converted from PyTorch or TFLite's float-I/O quantization take a float input
 * that their first operator QUANTIZEs to int8, and DEQUANTIZE their results back to
 * float. The float input is then the largest tensor of the plan (mcunet_det: 245,760
 * bytes of float32 against its 61,440-byte int8 copy), while a camera or a microphone
 * delivers integers anyway. With the option the module's input is the QUANTIZE's
 * integer output and its output the DEQUANTIZE's integer input: both operators are
 * dropped, and the application quantizes (q = round(x / scale) + zero_point, half away
 * from zero, clamped: TFLite's formula, so the rest of the model computes the same
 * bytes) and dequantizes ((q - zero_point) * scale) itself with the scale and zero point
 * the module's I/O tables publish. Model.integer_io_from records what was replaced, for
 * the report and the generated header. */
#include <stdio.h>

#include "../common/strbuf.h"
#include "../ir/quant.h"
#include "transform.h"

enum { BUILTIN_DEQUANTIZE = 6, BUILTIN_QUANTIZE = 114 };

static bool float_tensor(const Tensor *t) { return t->type == TT_FLOAT32 && !t->data && !t->is_variable; }

/* An integer side of the boundary the application can handle with one scale and zero point. */
static bool integer_per_tensor(const Tensor *t) {
  const bool integer = t->type == TT_INT8 || t->type == TT_UINT8 || t->type == TT_INT16;
  return integer && !t->data && !t->is_variable && t->alias_of < 0 && t->n_quant == 1 && tensor_scale(t) > 0.0f;
}

static int readers(const Model *m, int32_t id) {
  int r = 0;
  for (int k = 0; k < m->n_nodes; k++)
    for (int i = 0; i < m->nodes[k].n_in; i++) r += m->nodes[k].in[i] == id;
  return r;
}

static int listed(const int32_t *ids, int n, int32_t id) {
  int c = 0;
  for (int i = 0; i < n; i++) c += ids[i] == id;
  return c;
}

static int producer(const Model *m, int32_t id) {
  for (int k = 0; k < m->n_nodes; k++)
    for (int o = 0; o < m->nodes[k].n_out; o++)
      if (m->nodes[k].out[o] == id) return k;
  return -1;
}

/* The QUANTIZE node that alone reads model input `x` and may become the input, or -1. */
static int leading_quantize(const Model *m, int32_t x) {
  const Tensor *in = &m->tensors[x];
  if (!float_tensor(in) || in->is_output || listed(m->inputs, m->n_inputs, x) != 1 || readers(m, x) != 1) return -1;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *q = &m->nodes[k];
    if (q->n_in < 1 || q->in[0] != x) continue;
    if (q->builtin_code != BUILTIN_QUANTIZE || q->n_in != 1 || q->n_out != 1 || q->out[0] < 0) return -1;
    const Tensor *out = &m->tensors[q->out[0]];
    if (!integer_per_tensor(out) || out->is_output || out->is_input) return -1;
    return k;
  }
  return -1;
}

/* The DEQUANTIZE node whose float output is model output `y` and whose integer input
 * may become the output instead, or -1. */
static int trailing_dequantize(const Model *m, int32_t y) {
  const Tensor *out = &m->tensors[y];
  if (!float_tensor(out) || out->is_input || listed(m->outputs, m->n_outputs, y) != 1 || readers(m, y) != 0) return -1;
  const int k = producer(m, y);
  if (k < 0) return -1;
  const Node *dq = &m->nodes[k];
  if (dq->builtin_code != BUILTIN_DEQUANTIZE || dq->n_in != 1 || dq->n_out != 1 || dq->in[0] < 0) return -1;
  const Tensor *in = &m->tensors[dq->in[0]];
  /* an integer tensor that is already an input or output would be published twice */
  if (!integer_per_tensor(in) || in->is_input || in->is_output) return -1;
  return k;
}

int transform_integer_io(Model *m) {
  const int n_io = m->n_inputs + m->n_outputs;
  if (n_io == 0) return 0;
  bool *drop = m->n_nodes > 0 ? arena_calloc(m->arena, (size_t)m->n_nodes, sizeof *drop) : NULL;
  int32_t *from = arena_calloc(m->arena, (size_t)n_io, sizeof *from);
  if (!drop || !from) return 0;
  int changed = 0;
  for (int i = 0; i < n_io; i++) from[i] = -1;
  for (int i = 0; i < m->n_inputs; i++) {
    const int32_t x = m->inputs[i];
    const int k = x >= 0 && x < m->n_tensors ? leading_quantize(m, x) : -1;
    if (k < 0 || drop[k]) continue;
    const int32_t q = m->nodes[k].out[0];
    m->tensors[x].is_input = false; /* read by nothing now: it gets no storage */
    m->tensors[q].is_input = true;
    m->inputs[i] = q;
    from[i] = x;
    drop[k] = true;
    changed++;
  }
  for (int i = 0; i < m->n_outputs; i++) {
    const int32_t y = m->outputs[i];
    const int k = y >= 0 && y < m->n_tensors ? trailing_dequantize(m, y) : -1;
    if (k < 0 || drop[k]) continue;
    const int32_t q = m->nodes[k].in[0];
    m->tensors[y].is_output = false;
    m->tensors[q].is_output = true;
    m->tensors[q].dead = false;
    m->outputs[i] = q;
    from[m->n_inputs + i] = y;
    drop[k] = true;
    changed++;
  }
  if (!changed) return 0;
  int kept = 0;
  for (int k = 0; k < m->n_nodes; k++)
    if (!drop[k]) m->nodes[kept++] = m->nodes[k];
  m->n_nodes = kept;
  if (m->n_subgraphs > 0) m->subgraphs[0].n_nodes = kept;
  m->integer_io_from = from;
  return changed;
}
