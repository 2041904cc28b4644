/* Builtin options decoding (src/load/options.c): every field of each kind lands in
 * its typed struct, absent fields and absent tables take the schema's defaults,
 * and a malformed options table is refused with the operator's location. */
#include <stdlib.h>
#include <string.h>

#include "fbwriter.h"
#include "load/flatbuffer.h"
#include "ir/op_options.h"
#include "load/loader.h"
#include "load/options.h"
#include "unit.h"

enum { OP_CONV_2D = 3, OP_FULLY_CONNECTED = 9 };

/* One operator (builtin code `builtin`) from tensor 0 to tensor 1; `options` may be
 * NULL (no table written). Returns malloc'ed bytes. */
static uint8_t *one_op_model(int32_t builtin, uint8_t tag, FbObj *options, size_t *len) {
  int32_t dims[2] = {1, 4};
  FbObj *tensors[2];
  for (int i = 0; i < 2; i++) {
    tensors[i] = fbw_table();
    fbw_obj(tensors[i], 0, fbw_i32_vec(dims, 2));
    fbw_u8(tensors[i], 1, 0 /* float32 */);
    fbw_obj(tensors[i], 3, fbw_string(i == 0 ? "in" : "out"));
  }
  int32_t in[1] = {0}, out[1] = {1};
  FbObj *op = fbw_table();
  fbw_u32(op, 0, 0);
  fbw_obj(op, 1, fbw_i32_vec(in, 1));
  fbw_obj(op, 2, fbw_i32_vec(out, 1));
  if (tag) fbw_u8(op, 3, tag);
  if (options) fbw_obj(op, 4, options);
  FbObj *code = fbw_table();
  fbw_u8(code, 0, (uint8_t)(builtin < 127 ? builtin : 127));
  fbw_i32(code, 3, builtin);
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(tensors, 2));
  fbw_obj(sg, 1, fbw_i32_vec(in, 1));
  fbw_obj(sg, 2, fbw_i32_vec(out, 1));
  fbw_obj(sg, 3, fbw_obj_vec(&op, 1));
  FbObj *buffer = fbw_table();
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(&code, 1));
  fbw_obj(model, 2, fbw_obj_vec(&sg, 1));
  fbw_obj(model, 4, fbw_obj_vec(&buffer, 1));
  uint8_t *bytes;
  *len = fbw_finish(model, "TFL3", &bytes);
  return bytes;
}

typedef struct Loaded {
  Arena arena;
  uint8_t *bytes;
  Model m;
  Diag d;
  bool ok;
} Loaded;

static void load_bytes(Loaded *l, uint8_t *bytes, size_t len) {
  arena_init(&l->arena);
  l->bytes = bytes;
  diag_init(&l->d, "t.tflite");
  l->ok = load_model(&l->arena, "t.tflite", bytes, len, &l->m, &l->d);
}

/* Loads the model and returns its operator's options (zeroed when loading failed). */
static NodeOptions load_options(UnitState *u, Loaded *l, int32_t builtin, uint8_t tag, FbObj *options) {
  size_t len;
  uint8_t *bytes = one_op_model(builtin, tag, options, &len);
  load_bytes(l, bytes, len);
  CHECK(u, l->ok);
  if (!l->ok) {
    printf("  load failed: %s\n", l->d.msg);
    NodeOptions none;
    memset(&none, 0, sizeof none);
    return none;
  }
  return l->m.nodes[0].opts;
}

static void unload(Loaded *l) {
  arena_free(&l->arena);
  free(l->bytes);
}

/* Decodes `table` alone (serialized as the root of a buffer), for kinds whose operators
 * the loader checks further (subgraph indices, resource operators' inputs). */
static NodeOptions decode_alone(UnitState *u, Arena *a, int32_t builtin, uint8_t tag, FbObj *table) {
  uint8_t *bytes;
  size_t len = fbw_finish(table, "TEST", &bytes);
  FbBuf b;
  fb_init(&b, bytes, len);
  FbTable root = fb_root(&b, "TEST");
  NodeOptions o;
  uint64_t copied = 0;
  CHECK(u, decode_options(a, tag, &root, builtin, &o, &copied)); /* strings are copied: bytes may go */
  free(bytes);
  return o;
}

static void conv_fields_decoded(UnitState *u) {
  FbObj *t = fbw_table();
  fbw_u8(t, 0, OPT_PADDING_VALID);
  fbw_i32(t, 1, 2);
  fbw_i32(t, 2, 3);
  fbw_u8(t, 3, 3 /* RELU6 */);
  fbw_i32(t, 4, 4);
  fbw_i32(t, 5, 5);
  fbw_u8(t, 6, 4 /* INT64 */);
  Loaded l;
  NodeOptions o = load_options(u, &l, OP_CONV_2D, OPTS_CONV_2D, t);
  CHECK(u, o.present && o.kind == OPTS_CONV_2D && o.tag == OPTS_CONV_2D);
  const Conv2DOptions *c = &o.conv2d;
  CHECK(u, c->padding == OPT_PADDING_VALID && c->stride_w == 2 && c->stride_h == 3 && c->activation == 3);
  CHECK(u, c->dilation_w == 4 && c->dilation_h == 5 && c->quantized_bias_type == 4);
  CHECK(u, options_fused_activation(&o) == 3);
  unload(&l);
}

static void defaults_when_fields_absent(UnitState *u) {
  Loaded l;
  NodeOptions o = load_options(u, &l, OP_CONV_2D, OPTS_CONV_2D, fbw_table());
  CHECK(u, o.present && o.kind == OPTS_CONV_2D);
  CHECK(u, o.conv2d.padding == OPT_PADDING_SAME && o.conv2d.stride_w == 0 && o.conv2d.activation == 0);
  CHECK(u, o.conv2d.dilation_w == 1 && o.conv2d.dilation_h == 1); /* schema default 1 */
  unload(&l);
  o = load_options(u, &l, 0 /* ADD */, OPTS_ADD, fbw_table());
  CHECK(u, o.kind == OPTS_ADD && o.add.activation == 0 && o.add.pot_scale_int16); /* default true */
  unload(&l);
  o = load_options(u, &l, 41 /* SUB */, OPTS_SUB, fbw_table());
  CHECK(u, o.kind == OPTS_SUB && o.sub.pot_scale_int16);
  unload(&l);
  o = load_options(u, &l, 4 /* DEPTHWISE_CONV_2D */, OPTS_DEPTHWISE_CONV_2D, fbw_table());
  CHECK(u, o.depthwise.dilation_w == 1 && o.depthwise.dilation_h == 1 && o.depthwise.depth_multiplier == 0);
  unload(&l);
  o = load_options(u, &l, 103 /* UNIQUE */, OPTS_UNIQUE, fbw_table());
  CHECK(u, o.unique.idx_out_type == 2); /* INT32 */
  unload(&l);
  o = load_options(u, &l, 52 /* BIDIRECTIONAL_SEQUENCE_LSTM */, OPTS_BIDIRECTIONAL_SEQUENCE_LSTM, fbw_table());
  CHECK(u, o.lstm.time_major && !o.lstm.merge_outputs); /* time_major defaults to true there */
  unload(&l);
  o = load_options(u, &l, 44 /* UNIDIRECTIONAL_SEQUENCE_LSTM */, OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM, fbw_table());
  CHECK(u, !o.lstm.time_major && o.lstm.cell_clip == 0.0f);
  unload(&l);
  o = load_options(u, &l, 43 /* SQUEEZE */, OPTS_SQUEEZE, fbw_table());
  CHECK(u, o.squeeze.squeeze_dims.n == 0 && o.squeeze.squeeze_dims.v == NULL);
  unload(&l);
  Arena a;
  arena_init(&a);
  o = decode_alone(u, &a, 142 /* VAR_HANDLE */, OPTS_VAR_HANDLE, fbw_table());
  CHECK(u, o.kind == OPTS_VAR_HANDLE && o.var_handle.container && o.var_handle.shared_name);
  if (o.var_handle.container && o.var_handle.shared_name)
    CHECK(u, strcmp(o.var_handle.container, "") == 0 && strcmp(o.var_handle.shared_name, "") == 0);
  arena_free(&a);
}

/* No table in the file: the kind follows the builtin code, every field its default. */
static void absent_table_takes_builtin_kind(UnitState *u) {
  Loaded l;
  NodeOptions o = load_options(u, &l, OP_CONV_2D, 0, NULL);
  CHECK(u, !o.present && o.kind == OPTS_CONV_2D && o.tag == 0);
  CHECK(u, o.conv2d.dilation_w == 1 && o.conv2d.dilation_h == 1 && o.conv2d.padding == OPT_PADDING_SAME);
  unload(&l);
  o = load_options(u, &l, 17 /* MAX_POOL_2D */, OPTS_POOL_2D, NULL); /* tag without table */
  CHECK(u, !o.present && o.kind == OPTS_POOL_2D && o.pool2d.filter_w == 0);
  unload(&l);
  o = load_options(u, &l, 19 /* RELU: no options */, 0, NULL);
  CHECK(u, !o.present && o.kind == OPTS_NONE);
  unload(&l);
}

/* A table is decoded by its own tag; the operator then sees the mismatch. */
static void tag_decides_the_layout(UnitState *u) {
  FbObj *t = fbw_table();
  fbw_f32(t, 0, 0.25f);
  Loaded l;
  NodeOptions o = load_options(u, &l, OP_CONV_2D, OPTS_SOFTMAX, t);
  CHECK(u, o.present && o.kind == OPTS_SOFTMAX && o.softmax.beta == 0.25f);
  unload(&l);
  o = load_options(u, &l, OP_CONV_2D, 250, fbw_table()); /* a tag no schema defines */
  CHECK(u, o.present && o.kind == OPTS_NONE && o.tag == 250);
  unload(&l);
}

static FbObj *table_i32s(int n, const int32_t *v) {
  FbObj *t = fbw_table();
  for (int i = 0; i < n; i++) fbw_i32(t, i, v[i]);
  return t;
}

static void scalar_kinds_decoded(UnitState *u) {
  Loaded l;
  NodeOptions o;
  const int32_t pool[6] = {1, 2, 3, 4, 5, 1};
  o = load_options(u, &l, 1, OPTS_POOL_2D, table_i32s(6, pool));
  CHECK(u, o.pool2d.padding == 1 && o.pool2d.stride_w == 2 && o.pool2d.stride_h == 3 && o.pool2d.filter_w == 4 &&
               o.pool2d.filter_h == 5 && o.pool2d.activation == 1);
  unload(&l);
  const int32_t dw[7] = {1, 2, 3, 4, 2, 6, 7};
  o = load_options(u, &l, 4, OPTS_DEPTHWISE_CONV_2D, table_i32s(7, dw));
  CHECK(u, o.depthwise.padding == 1 && o.depthwise.stride_w == 2 && o.depthwise.stride_h == 3 &&
               o.depthwise.depth_multiplier == 4 && o.depthwise.activation == 2 && o.depthwise.dilation_w == 6 &&
               o.depthwise.dilation_h == 7);
  unload(&l);
  const int32_t fc[5] = {1, 1, 1, 1, 9};
  o = load_options(u, &l, OP_FULLY_CONNECTED, OPTS_FULLY_CONNECTED, table_i32s(5, fc));
  CHECK(u, o.fully_connected.activation == 1 && o.fully_connected.weights_format == 1 &&
               o.fully_connected.keep_num_dims && o.fully_connected.asymmetric_quantize_inputs &&
               o.fully_connected.quantized_bias_type == 9);
  unload(&l);
  const int32_t concat[2] = {-1, 3};
  o = load_options(u, &l, 2, OPTS_CONCATENATION, table_i32s(2, concat));
  CHECK(u, o.concatenation.axis == -1 && o.concatenation.activation == 3 && options_fused_activation(&o) == 3);
  unload(&l);
  const int32_t add[2] = {1, 0};
  o = load_options(u, &l, 0, OPTS_ADD, table_i32s(2, add));
  CHECK(u, o.add.activation == 1 && !o.add.pot_scale_int16);
  unload(&l);
  const int32_t act2[1] = {2};
  o = load_options(u, &l, 18, OPTS_MUL, table_i32s(1, act2));
  CHECK(u, o.mul.activation == 2 && options_fused_activation(&o) == 2);
  unload(&l);
  o = load_options(u, &l, 42, OPTS_DIV, table_i32s(1, act2));
  CHECK(u, o.div.activation == 2 && options_fused_activation(&o) == 2);
  unload(&l);
  o = load_options(u, &l, 11, OPTS_L2_NORM, table_i32s(1, act2));
  CHECK(u, o.l2_norm.activation == 2);
  unload(&l);
  const int32_t svdf[3] = {4, 1, 1};
  o = load_options(u, &l, 27, OPTS_SVDF, table_i32s(3, svdf));
  CHECK(u, o.svdf.rank == 4 && o.svdf.activation == 1 && o.svdf.asymmetric_quantize_inputs);
  unload(&l);
  const int32_t gather[2] = {2, 1};
  o = load_options(u, &l, 36, OPTS_GATHER, table_i32s(2, gather));
  CHECK(u, o.gather.axis == 2 && o.gather.batch_dims == 1);
  unload(&l);
  const int32_t one[1] = {1};
  o = load_options(u, &l, 40, OPTS_REDUCER, table_i32s(1, one));
  CHECK(u, o.reducer.keep_dims);
  unload(&l);
  const int32_t ss[6] = {1, 2, 4, 8, 16, 1};
  o = load_options(u, &l, 45, OPTS_STRIDED_SLICE, table_i32s(6, ss));
  CHECK(u, o.strided_slice.begin_mask == 1 && o.strided_slice.end_mask == 2 && o.strided_slice.ellipsis_mask == 4 &&
               o.strided_slice.new_axis_mask == 8 && o.strided_slice.shrink_axis_mask == 16 &&
               o.strided_slice.offset);
  unload(&l);
  const int32_t three[1] = {3};
  o = load_options(u, &l, 49, OPTS_SPLIT, table_i32s(1, three));
  CHECK(u, o.split.num_splits == 3);
  unload(&l);
  o = load_options(u, &l, 102, OPTS_SPLIT_V, table_i32s(1, three));
  CHECK(u, o.split_v.num_splits == 3);
  unload(&l);
  o = load_options(u, &l, 26, OPTS_SPACE_TO_DEPTH, table_i32s(1, three));
  CHECK(u, o.space_to_depth.block_size == 3);
  unload(&l);
  o = load_options(u, &l, 5, OPTS_DEPTH_TO_SPACE, table_i32s(1, three));
  CHECK(u, o.depth_to_space.block_size == 3);
  unload(&l);
  const int32_t cast[2] = {9, 7};
  o = load_options(u, &l, 53, OPTS_CAST, table_i32s(2, cast));
  CHECK(u, o.cast.in_data_type == 9 && o.cast.out_data_type == 7);
  unload(&l);
  const int32_t i64t[1] = {4};
  o = load_options(u, &l, 56, OPTS_ARG_MAX, table_i32s(1, i64t));
  CHECK(u, o.arg_max.output_type == 4);
  unload(&l);
  o = load_options(u, &l, 79, OPTS_ARG_MIN, table_i32s(1, i64t));
  CHECK(u, o.arg_min.output_type == 4);
  unload(&l);
  o = load_options(u, &l, 77, OPTS_SHAPE, table_i32s(1, i64t));
  CHECK(u, o.shape.out_type == 4);
  unload(&l);
  const int32_t tc[5] = {1, 2, 3, 1, 7};
  o = load_options(u, &l, 67, OPTS_TRANSPOSE_CONV, table_i32s(5, tc));
  CHECK(u, o.transpose_conv.padding == 1 && o.transpose_conv.stride_w == 2 && o.transpose_conv.stride_h == 3 &&
               o.transpose_conv.activation == 1 && o.transpose_conv.quantized_bias_type == 7);
  unload(&l);
  const int32_t pack[2] = {3, -2};
  o = load_options(u, &l, 83, OPTS_PACK, table_i32s(2, pack));
  CHECK(u, o.pack.values_count == 3 && o.pack.axis == -2);
  unload(&l);
  o = load_options(u, &l, 88, OPTS_UNPACK, table_i32s(2, pack));
  CHECK(u, o.unpack.num == 3 && o.unpack.axis == -2);
  unload(&l);
  o = load_options(u, &l, 85, OPTS_ONE_HOT, table_i32s(1, three));
  CHECK(u, o.one_hot.axis == 3);
  unload(&l);
  o = load_options(u, &l, 100, OPTS_MIRROR_PAD, table_i32s(1, one));
  CHECK(u, o.mirror_pad.mode == OPT_MIRROR_SYMMETRIC);
  unload(&l);
  const int32_t rs[2] = {1, 2};
  o = load_options(u, &l, 112, OPTS_REVERSE_SEQUENCE, table_i32s(2, rs));
  CHECK(u, o.reverse_sequence.seq_dim == 1 && o.reverse_sequence.batch_dim == 2);
  unload(&l);
  /* the loader checks these subgraph indices against the model: decode the tables alone */
  Arena a;
  arena_init(&a);
  o = decode_alone(u, &a, 118, OPTS_IF, table_i32s(2, rs));
  CHECK(u, o.kind == OPTS_IF && o.if_.then_subgraph_index == 1 && o.if_.else_subgraph_index == 2);
  o = decode_alone(u, &a, 119, OPTS_WHILE, table_i32s(2, rs));
  CHECK(u, o.kind == OPTS_WHILE && o.while_.cond_subgraph_index == 1 && o.while_.body_subgraph_index == 2);
  o = decode_alone(u, &a, 129, OPTS_CALL_ONCE, table_i32s(1, three));
  CHECK(u, o.kind == OPTS_CALL_ONCE && o.call_once.init_subgraph_index == 3);
  arena_free(&a);
  o = load_options(u, &l, 31, OPTS_CALL, table_i32s(1, three));
  CHECK(u, o.call.subgraph == 3);
  unload(&l);
  const int32_t bmm[3] = {0, 1, 1};
  o = load_options(u, &l, 126, OPTS_BATCH_MATMUL, table_i32s(3, bmm));
  CHECK(u, !o.batch_matmul.adj_x && o.batch_matmul.adj_y && o.batch_matmul.asymmetric_quantize_inputs);
  unload(&l);
  const int32_t cumsum[2] = {1, 0};
  o = load_options(u, &l, 128, OPTS_CUMSUM, table_i32s(2, cumsum));
  CHECK(u, o.cumsum.exclusive && !o.cumsum.reverse);
  unload(&l);
  const int32_t ht[3] = {5, 9, 2};
  o = load_options(u, &l, 136, OPTS_HASHTABLE, table_i32s(3, ht));
  CHECK(u, o.hashtable.table_id == 5 && o.hashtable.key_dtype == 9 && o.hashtable.value_dtype == 2);
  unload(&l);
  o = load_options(u, &l, 150, OPTS_GELU, table_i32s(1, one));
  CHECK(u, o.gelu.approximate);
  unload(&l);
  o = load_options(u, &l, 68, OPTS_SPARSE_TO_DENSE, table_i32s(1, one));
  CHECK(u, o.sparse_to_dense.validate_indices);
  unload(&l);
  o = load_options(u, &l, 15, OPTS_LSH_PROJECTION, table_i32s(1, one));
  CHECK(u, o.lsh_projection.type == 1);
  unload(&l);
  o = load_options(u, &l, 33, OPTS_EMBEDDING_LOOKUP_SPARSE, table_i32s(1, one));
  CHECK(u, o.embedding_lookup_sparse.combiner == 1);
  unload(&l);
  const int32_t sg[3] = {3, 2, 1};
  o = load_options(u, &l, 30, OPTS_SKIP_GRAM, table_i32s(3, sg));
  CHECK(u, o.skip_gram.ngram_size == 3 && o.skip_gram.max_skip_size == 2 && o.skip_gram.include_all_ngrams);
  unload(&l);
  const int32_t c3[8] = {1, 2, 3, 4, 1, 6, 7, 8};
  o = load_options(u, &l, 132, OPTS_CONV_3D, table_i32s(8, c3));
  CHECK(u, o.conv3d.padding == 1 && o.conv3d.stride_d == 2 && o.conv3d.stride_w == 3 && o.conv3d.stride_h == 4 &&
               o.conv3d.activation == 1 && o.conv3d.dilation_d == 6 && o.conv3d.dilation_w == 7 &&
               o.conv3d.dilation_h == 8);
  unload(&l);
}

static void float_and_layout_kinds_decoded(UnitState *u) {
  Loaded l;
  NodeOptions o;
  FbObj *t = fbw_table();
  fbw_f32(t, 0, 1.5f);
  o = load_options(u, &l, 25, OPTS_SOFTMAX, t);
  CHECK(u, o.softmax.beta == 1.5f);
  unload(&l);
  t = fbw_table();
  fbw_f32(t, 0, 0.125f);
  o = load_options(u, &l, 98, OPTS_LEAKY_RELU, t);
  CHECK(u, o.leaky_relu.alpha == 0.125f);
  unload(&l);
  t = fbw_table();
  fbw_i32(t, 0, 2);
  fbw_f32(t, 1, 1.0f);
  fbw_f32(t, 2, 0.5f);
  fbw_f32(t, 3, 0.75f);
  o = load_options(u, &l, 13, OPTS_LOCAL_RESPONSE_NORMALIZATION, t);
  CHECK(u, o.lrn.radius == 2 && o.lrn.bias == 1.0f && o.lrn.alpha == 0.5f && o.lrn.beta == 0.75f);
  unload(&l);
  t = fbw_table();
  fbw_f32(t, 0, -1.0f);
  fbw_f32(t, 1, 2.0f);
  fbw_i32(t, 2, 8);
  fbw_u8(t, 3, 1);
  o = load_options(u, &l, 80, OPTS_FAKE_QUANT, t);
  CHECK(u, o.fake_quant.min == -1.0f && o.fake_quant.max == 2.0f && o.fake_quant.num_bits == 8 &&
               o.fake_quant.narrow_range);
  unload(&l);
  /* the three LSTM layouts differ after proj_clip */
  t = fbw_table();
  fbw_u8(t, 0, 4);
  fbw_f32(t, 1, 10.0f);
  fbw_f32(t, 2, 3.0f);
  fbw_u8(t, 3, 1);
  fbw_u8(t, 4, 1);
  fbw_u8(t, 5, 1);
  o = load_options(u, &l, 44, OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM, t);
  CHECK(u, o.lstm.activation == 4 && o.lstm.cell_clip == 10.0f && o.lstm.proj_clip == 3.0f && o.lstm.time_major &&
               o.lstm.asymmetric_quantize_inputs && o.lstm.diagonal_recurrent_tensors);
  unload(&l);
  t = fbw_table();
  fbw_u8(t, 3, 1);
  fbw_u8(t, 4, 1);
  o = load_options(u, &l, 16, OPTS_LSTM, t);
  CHECK(u, o.lstm.kernel_type == 1 && o.lstm.asymmetric_quantize_inputs && !o.lstm.time_major);
  unload(&l);
  t = fbw_table();
  fbw_u8(t, 3, 1);
  fbw_u8(t, 4, 0);
  o = load_options(u, &l, 52, OPTS_BIDIRECTIONAL_SEQUENCE_LSTM, t);
  CHECK(u, o.lstm.merge_outputs && !o.lstm.time_major);
  unload(&l);
  /* the three RNN layouts */
  t = fbw_table();
  fbw_u8(t, 0, 1);
  fbw_u8(t, 1, 1);
  o = load_options(u, &l, 24, OPTS_RNN, t);
  CHECK(u, o.rnn.activation == 1 && o.rnn.asymmetric_quantize_inputs && !o.rnn.time_major);
  unload(&l);
  t = fbw_table();
  fbw_u8(t, 0, 1);
  fbw_u8(t, 1, 3);
  fbw_u8(t, 2, 1);
  o = load_options(u, &l, 35, OPTS_SEQUENCE_RNN, t);
  CHECK(u, o.rnn.time_major && o.rnn.activation == 3 && o.rnn.asymmetric_quantize_inputs && !o.rnn.merge_outputs);
  unload(&l);
  o = load_options(u, &l, 46, OPTS_BIDIRECTIONAL_SEQUENCE_RNN, t);
  CHECK(u, o.rnn.time_major && o.rnn.activation == 3 && o.rnn.merge_outputs && !o.rnn.asymmetric_quantize_inputs);
  unload(&l);
  /* ResizeBilinearOptions keeps two deprecated fields before align_corners */
  t = fbw_table();
  fbw_u8(t, 2, 1);
  fbw_u8(t, 3, 0);
  o = load_options(u, &l, 23, OPTS_RESIZE_BILINEAR, t);
  CHECK(u, o.resize.align_corners && !o.resize.half_pixel_centers);
  unload(&l);
  t = fbw_table();
  fbw_u8(t, 0, 0);
  fbw_u8(t, 1, 1);
  o = load_options(u, &l, 97, OPTS_RESIZE_NEAREST_NEIGHBOR, t);
  CHECK(u, !o.resize.align_corners && o.resize.half_pixel_centers);
  unload(&l);
}

static void vector_and_string_kinds_decoded(UnitState *u) {
  Loaded l;
  NodeOptions o;
  const int32_t dims[3] = {0, -1, 2};
  FbObj *t = fbw_table();
  fbw_obj(t, 0, fbw_i32_vec(dims, 3));
  o = load_options(u, &l, 43, OPTS_SQUEEZE, t);
  CHECK(u, o.squeeze.squeeze_dims.n == 3 && o.squeeze.squeeze_dims.v[0] == 0 &&
               o.squeeze.squeeze_dims.v[1] == -1 && o.squeeze.squeeze_dims.v[2] == 2);
  unload(&l);
  t = fbw_table();
  fbw_obj(t, 0, fbw_i32_vec(dims, 2));
  o = load_options(u, &l, 22, OPTS_RESHAPE, t);
  CHECK(u, o.reshape.new_shape.n == 2 && o.reshape.new_shape.v[1] == -1);
  unload(&l);
  const float bounds[2] = {-0.5f, 3.0f};
  t = fbw_table();
  fbw_obj(t, 0, fbw_f32_vec(bounds, 2));
  o = load_options(u, &l, 147, OPTS_BUCKETIZE, t);
  CHECK(u, o.bucketize.boundaries.n == 2 && o.bucketize.boundaries.v[0] == -0.5f &&
               o.bucketize.boundaries.v[1] == 3.0f);
  unload(&l);
  t = fbw_table();
  fbw_i32(t, 0, 2);
  fbw_obj(t, 1, fbw_i32_vec(dims + 1, 2));
  fbw_obj(t, 2, fbw_i32_vec(dims, 1));
  o = load_options(u, &l, 29, OPTS_CONCAT_EMBEDDINGS, t);
  CHECK(u, o.concat_embeddings.num_channels == 2 && o.concat_embeddings.num_columns_per_channel.n == 2 &&
               o.concat_embeddings.num_columns_per_channel.v[1] == 2 &&
               o.concat_embeddings.embedding_dim_per_channel.n == 1);
  unload(&l);
  t = fbw_table();
  fbw_obj(t, 0, fbw_string("box"));
  fbw_obj(t, 1, fbw_string("state\tvar"));
  Arena a; /* the loader checks VAR_HANDLE's inputs: decode the table alone */
  arena_init(&a);
  o = decode_alone(u, &a, 142, OPTS_VAR_HANDLE, t);
  CHECK(u, o.kind == OPTS_VAR_HANDLE && o.var_handle.container && o.var_handle.shared_name);
  if (o.var_handle.container && o.var_handle.shared_name) {
    CHECK(u, strcmp(o.var_handle.container, "box") == 0);
    CHECK(u, strcmp(o.var_handle.shared_name, "state?var") == 0); /* control bytes made printable */
  }
  arena_free(&a);
}

/* Finds the 4 bytes of `v` (little-endian) in the model; -1 if absent. */
static long find_u32(const uint8_t *b, size_t len, uint32_t v) {
  for (size_t i = 0; i + 4 <= len; i++)
    if (b[i] == (uint8_t)v && b[i + 1] == (uint8_t)(v >> 8) && b[i + 2] == (uint8_t)(v >> 16) &&
        b[i + 3] == (uint8_t)(v >> 24))
      return (long)i;
  return -1;
}

static void put_u32(uint8_t *b, long pos, uint32_t v) {
  for (int i = 0; i < 4; i++) b[pos + i] = (uint8_t)(v >> (8 * i));
}

static void expect_refused(UnitState *u, uint8_t *bytes, size_t len, const char *needle) {
  Loaded l;
  load_bytes(&l, bytes, len);
  CHECK(u, !l.ok);
  if (!l.ok && (!strstr(l.d.msg, "operator 0 (CONV_2D) options") || !strstr(l.d.msg, needle))) {
    printf("  expected the located '%s' in: %s\n", needle, l.d.msg);
    u->failures++;
  }
  CHECK(u, strchr(l.d.msg, '\n') == NULL); /* one line */
  unload(&l);
}

static void malformed_table_refused_with_location(UnitState *u) {
  enum { MARK = 0x5A5A1234 };
  size_t len;
  /* the table's vtable offset points outside the file (the stride is its first slot) */
  FbObj *t = fbw_table();
  fbw_i32(t, 0, MARK);
  uint8_t *b = one_op_model(OP_CONV_2D, OPTS_CONV_2D, t, &len);
  long field = find_u32(b, len, MARK);
  CHECK(u, field >= 4);
  if (field < 4) return;
  put_u32(b, field - 4, 0x80000000u);
  expect_refused(u, b, len, "malformed model");
  /* a field slot beyond the table's recorded size */
  t = fbw_table();
  fbw_i32(t, 0, MARK);
  b = one_op_model(OP_CONV_2D, OPTS_CONV_2D, t, &len);
  field = find_u32(b, len, MARK);
  /* the table starts with the offset back to its vtable {vt_size, tbl_size, field0} */
  long pos = field - 4;
  long vt = pos - (long)(b[pos] | b[pos + 1] << 8);
  CHECK(u, vt >= 0 && b[vt] == 6 && b[vt + 4] == 4);
  if (vt < 0 || b[vt] != 6) return;
  b[vt + 4] = 0xF0; /* field 0 at offset 240 of an 8-byte table */
  expect_refused(u, b, len, "malformed model");
  /* a vector whose length runs past the end of the file */
  const int32_t dims[2] = {MARK, MARK};
  t = fbw_table();
  fbw_obj(t, 0, fbw_i32_vec(dims, 2));
  b = one_op_model(OP_CONV_2D, OPTS_SQUEEZE, t, &len);
  field = find_u32(b, len, MARK);
  CHECK(u, field >= 4);
  if (field < 4) return;
  put_u32(b, field - 4, 0x3FFFFFFFu);
  expect_refused(u, b, len, "malformed model");
}

static void builtin_kind_map_and_names(UnitState *u) {
  CHECK(u, options_kind_for_builtin(3) == OPTS_CONV_2D);
  CHECK(u, options_kind_for_builtin(1) == OPTS_POOL_2D && options_kind_for_builtin(12) == OPTS_POOL_2D &&
               options_kind_for_builtin(17) == OPTS_POOL_2D);
  CHECK(u, options_kind_for_builtin(40) == OPTS_REDUCER && options_kind_for_builtin(74) == OPTS_REDUCER &&
               options_kind_for_builtin(82) == OPTS_REDUCER);
  CHECK(u, options_kind_for_builtin(55) == OPTS_MAXIMUM_MINIMUM && options_kind_for_builtin(57) == OPTS_MAXIMUM_MINIMUM);
  CHECK(u, options_kind_for_builtin(44) == OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM);
  CHECK(u, options_kind_for_builtin(132) == OPTS_CONV_3D && options_kind_for_builtin(141) == OPTS_CONV_3D);
  CHECK(u, options_kind_for_builtin(128) == OPTS_CUMSUM && options_kind_for_builtin(161) == OPTS_RIGHT_SHIFT);
  CHECK(u, options_kind_for_builtin(19) == OPTS_NONE && options_kind_for_builtin(32) == OPTS_NONE &&
               options_kind_for_builtin(-1) == OPTS_NONE);
  NodeOptions dflt = options_defaults(OPTS_CONV_2D);
  CHECK(u, dflt.kind == OPTS_CONV_2D && !dflt.present && dflt.conv2d.dilation_w == 1 && dflt.conv2d.stride_w == 0);
  dflt = options_defaults(OPTS_SUB);
  CHECK(u, dflt.sub.pot_scale_int16 && dflt.sub.activation == 0);
  CHECK(u, strcmp(options_kind_name(OPTS_CONV_2D), "Conv2DOptions") == 0);
  CHECK(u, strcmp(options_kind_name(OPTS_BATCH_MATMUL), "BatchMatMulOptions") == 0);
  CHECK(u, strcmp(options_kind_name(OPTS_RIGHT_SHIFT), "RightShiftOptions") == 0);
  CHECK(u, strcmp(options_kind_name(OPTS_KIND_COUNT), "unknown") == 0);
}

const UnitTest options_tests[] = {
    {"options_conv_fields_decoded", conv_fields_decoded},
    {"options_defaults_when_fields_absent", defaults_when_fields_absent},
    {"options_absent_table_takes_builtin_kind", absent_table_takes_builtin_kind},
    {"options_tag_decides_the_layout", tag_decides_the_layout},
    {"options_scalar_kinds_decoded", scalar_kinds_decoded},
    {"options_float_and_layout_kinds_decoded", float_and_layout_kinds_decoded},
    {"options_vector_and_string_kinds_decoded", vector_and_string_kinds_decoded},
    {"options_malformed_table_refused_with_location", malformed_table_refused_with_location},
    {"options_builtin_kind_map_and_names", builtin_kind_map_and_names},
    {NULL, NULL},
};
