/* --integer-io (transform/integer_io.c): which float I/O becomes integer, and which stays. */
#include <string.h>

#include "transform/transform.h"
#include "unit.h"

enum { QUANTIZE = 114, DEQUANTIZE = 6, RELU = 19 };

static void tensor(Model *m, Arena *a, int id, TensorType type, int n_quant) {
  Tensor *t = &m->tensors[id];
  t->id = id;
  t->name = "t";
  t->type = type;
  t->rank = 1;
  t->dims[0] = 8;
  t->elems = 8;
  t->bytes = type == TT_FLOAT32 ? 32 : 8;
  t->alias_of = -1;
  t->arena = -1;
  t->n_quant = n_quant;
  if (n_quant) {
    t->scale = arena_calloc(a, (size_t)n_quant, sizeof(float));
    t->zero_point = arena_calloc(a, (size_t)n_quant, sizeof(int64_t));
    for (int i = 0; i < n_quant; i++) t->scale[i] = 0.5f, t->zero_point[i] = -3;
  }
}

static void node(Model *m, Arena *a, int k, int32_t code, int32_t in, int32_t out) {
  Node *n = &m->nodes[k];
  n->index = k;
  n->builtin_code = code;
  n->n_in = n->n_out = 1;
  n->in = arena_calloc(a, 1, sizeof(int32_t));
  n->out = arena_calloc(a, 1, sizeof(int32_t));
  n->in[0] = in;
  n->out[0] = out;
  n->scratch_tensor = -1;
}

/* x float -> QUANTIZE -> q int8 -> RELU -> y int8 -> DEQUANTIZE -> z float (the output);
 * with `extra`, node 3 (RELU) also reads tensor `extra` into tensor 4. */
static void make(Model *m, Arena *a, int32_t extra) {
  memset(m, 0, sizeof *m);
  m->arena = a;
  m->n_tensors = m->n_model_tensors = 5;
  m->tensors = arena_calloc(a, 5, sizeof(Tensor));
  tensor(m, a, 0, TT_FLOAT32, 0);
  tensor(m, a, 1, TT_INT8, 1);
  tensor(m, a, 2, TT_INT8, 1);
  tensor(m, a, 3, TT_FLOAT32, 0);
  tensor(m, a, 4, TT_INT8, 1);
  m->n_nodes = extra >= 0 ? 4 : 3;
  m->nodes = arena_calloc(a, 4, sizeof(Node));
  node(m, a, 0, QUANTIZE, 0, 1);
  node(m, a, 1, RELU, 1, 2);
  node(m, a, 2, DEQUANTIZE, 2, 3);
  if (extra >= 0) node(m, a, 3, RELU, extra, 4);
  m->n_inputs = m->n_outputs = 1;
  m->inputs = arena_calloc(a, 1, sizeof(int32_t));
  m->outputs = arena_calloc(a, 2, sizeof(int32_t));
  m->inputs[0] = 0;
  m->outputs[0] = 3;
  m->tensors[0].is_input = true;
  m->tensors[3].is_output = true;
}

static void both_sides_become_integer(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  make(&m, &a, -1);
  CHECK(u, transform_integer_io(&m) == 2);
  CHECK(u, m.n_nodes == 1 && m.nodes[0].builtin_code == RELU && m.nodes[0].index == 1);
  CHECK(u, m.inputs[0] == 1 && m.tensors[1].is_input && !m.tensors[0].is_input);
  CHECK(u, m.outputs[0] == 2 && m.tensors[2].is_output && !m.tensors[3].is_output);
  CHECK(u, rewrite_integer_io_from(&m, 0) == 0 && rewrite_integer_io_from(&m, 1) == 3);
  CHECK(u, rewrite_integer_io_from(&m, 2) == -1);
  arena_free(&a);
}

/* The float input read by another operator too, or quantized per channel: stays float.
 * The output side changes independently. */
static void input_kept_when_not_only_a_quantize(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  make(&m, &a, 0); /* node 3 reads x as well */
  CHECK(u, transform_integer_io(&m) == 1);
  CHECK(u, m.inputs[0] == 0 && m.tensors[0].is_input && m.n_nodes == 3);
  CHECK(u, rewrite_integer_io_from(&m, 0) == -1 && rewrite_integer_io_from(&m, 1) == 3);
  make(&m, &a, -1);
  tensor(&m, &a, 1, TT_INT8, 2); /* per-channel: no single scale for the application */
  CHECK(u, transform_integer_io(&m) == 1 && m.inputs[0] == 0);
  make(&m, &a, -1);
  m.tensors[1].type = TT_INT32; /* not an activation type the option covers */
  CHECK(u, transform_integer_io(&m) == 1 && m.inputs[0] == 0);
  arena_free(&a);
}

/* A float output read by another operator, or whose integer side is already an output:
 * stays float; a model with nothing to change is left as it was (no record). */
static void output_kept_when_shared(UnitState *u) {
  Arena a;
  arena_init(&a);
  Model m;
  make(&m, &a, 3); /* node 3 reads z */
  CHECK(u, transform_integer_io(&m) == 1 && m.outputs[0] == 3 && m.tensors[3].is_output);
  make(&m, &a, -1);
  m.n_outputs = 2;
  m.outputs[1] = 2; /* y already published */
  m.tensors[2].is_output = true;
  CHECK(u, transform_integer_io(&m) == 1 && m.outputs[0] == 3 && m.outputs[1] == 2);
  make(&m, &a, -1);
  m.tensors[0].type = TT_INT8; /* integer I/O already */
  m.nodes[2].builtin_code = RELU;
  CHECK(u, transform_integer_io(&m) == 0 && !m.integer_io_from && m.n_nodes == 3);
  arena_free(&a);
}

const UnitTest integer_io_tests[] = {
    {"integer_io_both_sides", both_sides_become_integer},
    {"integer_io_input_kept", input_kept_when_not_only_a_quantize},
    {"integer_io_output_kept", output_kept_when_shared},
    {NULL, NULL},
};
