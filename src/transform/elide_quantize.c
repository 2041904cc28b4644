/* Drops quantization steps that change no byte (issue 17 item 2).
 *
 * A QUANTIZE from an integer type to the same type with the same scale and zero point
 * requantises by exactly 1 (TFLite's multiplier 2^30 with shift 1 is the identity), so
 * its output holds its input's bytes: it shares their storage and runs no code, as a
 * RESHAPE alias does. A DEQUANTIZE whose only reader is a QUANTIZE back to the same
 * type, scale and zero point is a round trip: ((x - zp) * s) / s lies within an ulp of
 * the integer x - zp (|x - zp| < 2^16), which rounds back to it; the DEQUANTIZE is
 * dropped and the QUANTIZE becomes that alias of the integer input. */
#include "../ir/quant.h"
#include "transform.h"

enum { BUILTIN_DEQUANTIZE = 6, BUILTIN_QUANTIZE = 114 };

static bool same_integer_quant(const Tensor *a, const Tensor *b) {
  const bool integer = a->type == TT_INT8 || a->type == TT_INT16 || a->type == TT_UINT8;
  return integer && a->n_quant == 1 && a->bytes == b->bytes && tensor_same_quant(a, b);
}

/* The storage rules of a RESHAPE alias: no state, inputs stay inputs, an input and an
 * output keep distinct buffers. */
static bool may_alias(const Model *m, const Tensor *in, const Tensor *out) {
  return !in->data && !in->is_variable && !out->is_variable && !out->is_input && !transform_joins_io(m, in->id, out->id) &&
         out->alias_of < 0;
}

static int readers(const Model *m, int32_t id) {
  int r = 0;
  for (int k = 0; k < m->n_nodes; k++)
    for (int i = 0; i < m->nodes[k].n_in; i++) r += m->nodes[k].in[i] == id;
  for (int i = 0; i < m->n_outputs; i++) r += m->outputs[i] == id;
  return r;
}

/* The DEQUANTIZE node producing `id`, or -1. */
static int dequantize_producing(const Model *m, int32_t id) {
  for (int k = 0; k < m->n_nodes; k++)
    if (m->nodes[k].builtin_code == BUILTIN_DEQUANTIZE && m->nodes[k].n_out == 1 && m->nodes[k].out[0] == id) return k;
  return -1;
}

int transform_elide_quantize(Model *m) {
  bool *drop = m->n_nodes > 0 ? arena_calloc(m->arena, (size_t)m->n_nodes, sizeof *drop) : NULL;
  if (!drop) return 0;
  int elided = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    Node *q = &m->nodes[k];
    if (q->builtin_code != BUILTIN_QUANTIZE || q->n_in != 1 || q->n_out != 1 || q->in[0] < 0 || q->is_alias) continue;
    Tensor *out = &m->tensors[q->out[0]];
    const Tensor *in = &m->tensors[q->in[0]];
    const int deq = in->type == TT_FLOAT32 ? dequantize_producing(m, in->id) : -1;
    if (deq >= 0 && !drop[deq] && m->nodes[deq].n_in == 1 && m->nodes[deq].in[0] >= 0 && readers(m, in->id) == 1 &&
        !in->is_output && !in->is_variable) {
      const Tensor *source = &m->tensors[m->nodes[deq].in[0]];
      if (!same_integer_quant(source, out) || !may_alias(m, source, out)) continue;
      q->in[0] = source->id; /* the round trip is gone: an identity QUANTIZE of the source */
      drop[deq] = true;
      in = source;
    } else if (!same_integer_quant(in, out) || !may_alias(m, in, out)) {
      continue;
    }
    out->alias_of = in->id;
    q->is_alias = true;
    elided++;
  }
  int kept = 0;
  for (int k = 0; k < m->n_nodes; k++)
    if (!drop[k]) m->nodes[kept++] = m->nodes[k];
  m->n_nodes = kept;
  if (m->n_subgraphs > 0) m->subgraphs[0].n_nodes = kept;
  return elided;
}
