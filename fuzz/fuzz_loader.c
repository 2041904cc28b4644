/* libFuzzer target: .tflite bytes -> IR or a one-line error (issue 7).
 * fuzz-seeds: tflite
 * Besides the sanitizers, it checks what the loader promises: a failure always has a
 * message that fits one line, a success is a consistent IR, and the IR never takes
 * more memory than the documented bound for the input's size. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "load/loader.h"

static void check_ir(const Model *m, size_t size) {
  FUZZ_CHECK(m->n_tensors == m->n_model_tensors && m->n_outputs > 0);
  for (int i = 0; i < m->n_inputs; i++) FUZZ_CHECK(m->inputs[i] >= 0 && m->inputs[i] < m->n_tensors);
  for (int i = 0; i < m->n_outputs; i++) FUZZ_CHECK(m->outputs[i] >= 0 && m->outputs[i] < m->n_tensors);
  for (int t = 0; t < m->n_tensors; t++) {
    const Tensor *x = &m->tensors[t];
    FUZZ_CHECK(x->rank >= 0 && x->rank <= TA_MAX_RANK && x->name != NULL);
    FUZZ_CHECK(x->bytes == (size_t)x->elems * tensor_type_size(x->type) && x->bytes <= LOAD_MAX_TENSOR_BYTES);
    /* Constant bytes lie inside the input. */
    if (x->data) FUZZ_CHECK(x->data >= m->file && x->bytes <= size && x->data - m->file <= (ptrdiff_t)(size - x->bytes));
  }
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    for (int i = 0; i < n->n_in; i++) FUZZ_CHECK(n->in[i] >= -1 && n->in[i] < m->n_tensors);
    for (int i = 0; i < n->n_out; i++) FUZZ_CHECK(n->out[i] >= 0 && n->out[i] < m->n_tensors);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Arena a;
  arena_init(&a);
  Model m;
  Diag d;
  diag_init(&d, "fuzz.tflite");
  if (load_model(&a, "fuzz.tflite", data, size, &m, &d))
    check_ir(&m, size);
  else
    fuzz_check_message(&d);
  fuzz_check_memory(a.used_total, size, "loader arena");
  arena_free(&a);
  return 0;
}
