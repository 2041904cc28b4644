/* Graph rewrites (src/transform): when PAD folding applies and when it must not. */
#include <string.h>

#include "transform/transform.h"
#include "unit.h"

/* in [1,4,4,2] -> PAD (paddings) -> padded -> CONV_2D 3x3 (VALID unless `same`) -> out. */
typedef struct PadConv {
  Arena arena;
  Model m;
  int32_t pads[8];
  float scale;
  int64_t zp;
} PadConv;

static void tensor(Model *m, int id, TensorType type, int32_t d0, int32_t d1, int32_t d2, int32_t d3, int rank) {
  Tensor *t = &m->tensors[id];
  const int32_t d[4] = {d0, d1, d2, d3};
  t->id = id;
  t->name = "t";
  t->type = type;
  t->rank = rank;
  t->elems = 1;
  for (int i = 0; i < rank; i++) t->dims[i] = d[i], t->elems *= d[i];
  t->bytes = (size_t)t->elems * tensor_type_size(type);
  t->alias_of = -1;
  t->arena = -1;
}

static Node node(Arena *a, int32_t code, int n_in, const int32_t *in, int32_t out, int index) {
  Node n = {.index = index, .builtin_code = code, .n_in = n_in, .n_out = 1, .scratch_tensor = -1};
  n.in = arena_calloc(a, (size_t)n_in, sizeof(int32_t));
  n.out = arena_calloc(a, 1, sizeof(int32_t));
  memcpy(n.in, in, sizeof(int32_t) * (size_t)n_in);
  n.out[0] = out;
  return n;
}

/* paddings {top, bottom, left, right} on H and W plus `channel` on C's end. */
static void build(PadConv *pc, int top, int bottom, int left, int right, int channel, bool same) {
  memset(pc, 0, sizeof *pc);
  arena_init(&pc->arena);
  Model *m = &pc->m;
  m->arena = &pc->arena;
  m->n_tensors = m->n_model_tensors = 5;
  m->tensors = arena_calloc(&pc->arena, 5, sizeof(Tensor));
  const int32_t ph = 4 + top + bottom, pw = 4 + left + right;
  tensor(m, 0, TT_INT8, 1, 4, 4, 2, 4);
  tensor(m, 1, TT_INT32, 4, 2, 1, 1, 2);
  tensor(m, 2, TT_INT8, 1, ph, pw, 2 + channel, 4);
  tensor(m, 3, TT_INT8, 2, 3, 3, 2 + channel, 4);
  tensor(m, 4, TT_INT8, 1, ph - 2, pw - 2, 2, 4);
  const int32_t p[8] = {0, 0, top, bottom, left, right, 0, channel};
  memcpy(pc->pads, p, sizeof p);
  m->tensors[1].data = (const uint8_t *)pc->pads; /* little-endian host */
  pc->scale = 0.5f;
  pc->zp = -3;
  for (int i = 0; i < 5; i += 2) {
    m->tensors[i].n_quant = 1;
    m->tensors[i].scale = &pc->scale;
    m->tensors[i].zero_point = &pc->zp;
  }
  m->n_nodes = 2;
  m->nodes = arena_calloc(&pc->arena, 2, sizeof(Node));
  m->nodes[0] = node(&pc->arena, 34, 2, (const int32_t[]){0, 1}, 2, 0);
  m->nodes[1] = node(&pc->arena, 3, 2, (const int32_t[]){2, 3}, 4, 1);
  m->nodes[1].opts.kind = OPTS_CONV_2D;
  m->nodes[1].opts.conv2d = (Conv2DOptions){.padding = same ? OPT_PADDING_SAME : OPT_PADDING_VALID,
                                            .stride_w = 1, .stride_h = 1, .dilation_w = 1, .dilation_h = 1};
  m->n_inputs = m->n_outputs = 1;
  m->inputs = arena_calloc(&pc->arena, 1, sizeof(int32_t));
  m->outputs = arena_calloc(&pc->arena, 1, sizeof(int32_t));
  m->inputs[0] = 0;
  m->outputs[0] = 4;
  m->tensors[0].is_input = m->tensors[4].is_output = true;
}

static void asymmetric_pad_folds(UnitState *u) {
  PadConv pc;
  build(&pc, 1, 2, 0, 1, 0, false);
  CHECK(u, transform_fold_pads(&pc.m) == 1);
  CHECK(u, pc.m.n_nodes == 1);
  const Node *c = &pc.m.nodes[0];
  CHECK(u, c->builtin_code == 3 && c->in[0] == 0);
  CHECK(u, c->opts.conv2d.fold_top == 1 && c->opts.conv2d.fold_bottom == 2);
  CHECK(u, c->opts.conv2d.fold_left == 0 && c->opts.conv2d.fold_right == 1);
  int folds;
  size_t bytes;
  rewrite_fold_summary(&pc.m, &folds, &bytes);
  CHECK(u, folds == 1 && bytes == 7 * 5 * 2);
  arena_free(&pc.arena);
}

static void pad_that_must_stay(UnitState *u) {
  PadConv pc;
  build(&pc, 1, 1, 1, 1, 0, true); /* SAME convolution */
  CHECK(u, transform_fold_pads(&pc.m) == 0 && pc.m.n_nodes == 2);
  arena_free(&pc.arena);
  build(&pc, 1, 1, 1, 1, 1, false); /* channel padding */
  CHECK(u, transform_fold_pads(&pc.m) == 0 && pc.m.n_nodes == 2);
  arena_free(&pc.arena);
  build(&pc, 3, 0, 0, 0, 0, false); /* wider than the 3x3 reach: a window wholly in padding */
  CHECK(u, transform_fold_pads(&pc.m) == 0 && pc.m.n_nodes == 2);
  arena_free(&pc.arena);
  build(&pc, 1, 1, 1, 1, 0, false); /* the padded tensor is also a graph output */
  pc.m.tensors[2].is_output = true;
  CHECK(u, transform_fold_pads(&pc.m) == 0 && pc.m.n_nodes == 2);
  arena_free(&pc.arena);
  build(&pc, 1, 1, 1, 1, 0, false); /* float32 */
  for (int i = 0; i < 5; i += 2) pc.m.tensors[i].type = TT_FLOAT32;
  CHECK(u, transform_fold_pads(&pc.m) == 0 && pc.m.n_nodes == 2);
  arena_free(&pc.arena);
  build(&pc, 1, 1, 1, 1, 0, false); /* PAD's output quantized unlike its input */
  static int64_t other_zp = 4;
  pc.m.tensors[2].zero_point = &other_zp;
  CHECK(u, transform_fold_pads(&pc.m) == 0 && pc.m.n_nodes == 2);
  arena_free(&pc.arena);
}

/* t0 (graph input) -> MAX_POOL -> t1 -> DEQUANTIZE -> t2 (float) -> QUANTIZE -> t3 -> MAX_POOL -> t4,
 * every integer tensor int8 [1,2,2,1] with scale 0.5 and zero point -3 unless changed. */
static void build_round_trip(PadConv *pc) {
  memset(pc, 0, sizeof *pc);
  arena_init(&pc->arena);
  Model *m = &pc->m;
  m->arena = &pc->arena;
  m->n_tensors = m->n_model_tensors = 5;
  m->tensors = arena_calloc(&pc->arena, 5, sizeof(Tensor));
  pc->scale = 0.5f;
  pc->zp = -3;
  for (int i = 0; i < 5; i++) {
    tensor(m, i, i == 2 ? TT_FLOAT32 : TT_INT8, 1, 2, 2, 1, 4);
    if (i == 2) continue;
    m->tensors[i].n_quant = 1;
    m->tensors[i].scale = &pc->scale;
    m->tensors[i].zero_point = &pc->zp;
  }
  m->n_nodes = 4;
  m->nodes = arena_calloc(&pc->arena, 4, sizeof(Node));
  const int32_t codes[4] = {17, 6, 114, 17};
  for (int k = 0; k < 4; k++) m->nodes[k] = node(&pc->arena, codes[k], 1, (const int32_t[]){k}, k + 1, k);
  m->n_inputs = m->n_outputs = 1;
  m->inputs = arena_calloc(&pc->arena, 1, sizeof(int32_t));
  m->outputs = arena_calloc(&pc->arena, 1, sizeof(int32_t));
  m->outputs[0] = 4;
  m->tensors[0].is_input = m->tensors[4].is_output = true;
}

static void round_trip_elides(UnitState *u) {
  PadConv pc;
  build_round_trip(&pc);
  CHECK(u, transform_elide_quantize(&pc.m) == 1);
  CHECK(u, pc.m.n_nodes == 3); /* the DEQUANTIZE is gone */
  CHECK(u, pc.m.nodes[1].builtin_code == 114 && pc.m.nodes[1].is_alias && pc.m.nodes[1].in[0] == 1);
  CHECK(u, pc.m.tensors[3].alias_of == 1);
  CHECK(u, rewrite_quantizes_elided(&pc.m) == 1);
  arena_free(&pc.arena);
  build_round_trip(&pc); /* back to another zero point: a real requantisation */
  static int64_t other_zp = 4;
  pc.m.tensors[3].zero_point = &other_zp;
  CHECK(u, transform_elide_quantize(&pc.m) == 0 && pc.m.n_nodes == 4 && !pc.m.nodes[2].is_alias);
  arena_free(&pc.arena);
  build_round_trip(&pc); /* the float tensor is also a graph output */
  pc.m.tensors[2].is_output = true;
  CHECK(u, transform_elide_quantize(&pc.m) == 0 && pc.m.n_nodes == 4);
  arena_free(&pc.arena);
}

const UnitTest rewrites_tests[] = {
    {"rewrites: a DEQUANTIZE->QUANTIZE round trip elides; a requantising one and a graph output stay", round_trip_elides},
    {"rewrites: an asymmetric PAD folds into the VALID convolution after it", asymmetric_pad_folds},
    {"rewrites: SAME, channel, too wide, graph-output, float and requantising PADs stay", pad_that_must_stay},
    {NULL, NULL},
};
