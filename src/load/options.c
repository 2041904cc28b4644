/* Builtin options decoding: one function per options table layout. Field numbers
 * are the order of the fields in TFLite's schema.fbs (deprecated fields keep their
 * number). Decoding starts from options_defaults() (ir/op_options.c, the schema's
 * defaults) and each read falls back on the value already there. Every read goes
 * through the bounds-checked FlatBuffer reader, whose sticky failure the loader
 * reports with the operator. */
#include "options.h"

#include <string.h>

typedef struct Decoder {
  Arena *arena;
  const FbTable *t;
  uint64_t copied;
  bool oom;
} Decoder;

static int8_t i8(const Decoder *d, int field, int8_t def) { return fb_i8(d->t, field, def); }
static int32_t i32(const Decoder *d, int field, int32_t def) { return fb_i32(d->t, field, def); }
static bool flag(const Decoder *d, int field, bool def) { return fb_bool(d->t, field, def); }
static float f32(const Decoder *d, int field) { return fb_f32(d->t, field, 0.0f); }

static OptInts ints(Decoder *d, int field) {
  OptInts out = {0, NULL};
  FbVec v = fb_vector(d->t, field, 4);
  if (!v.present || v.len == 0 || !fb_ok(d->t->buf)) return out;
  int32_t *copy = arena_calloc(d->arena, v.len, sizeof(int32_t));
  if (!copy) {
    d->oom = true;
    return out;
  }
  for (uint32_t i = 0; i < v.len; i++) copy[i] = fb_vec_i32(&v, i);
  d->copied += 4ull * v.len;
  out.n = (int32_t)v.len; /* fb_vector checked len*4 bytes inside the file: below 2^30 */
  out.v = copy;
  return out;
}

static OptFloats floats(Decoder *d, int field) {
  OptFloats out = {0, NULL};
  FbVec v = fb_vector(d->t, field, 4);
  if (!v.present || v.len == 0 || !fb_ok(d->t->buf)) return out;
  float *copy = arena_calloc(d->arena, v.len, sizeof(float));
  if (!copy) {
    d->oom = true;
    return out;
  }
  for (uint32_t i = 0; i < v.len; i++) copy[i] = fb_vec_f32(&v, i);
  d->copied += 4ull * v.len;
  out.n = (int32_t)v.len;
  out.v = copy;
  return out;
}

void load_make_text_safe(char *s) {
  for (char *p = s; *p; p++) {
    if ((unsigned char)*p < 32 || (unsigned char)*p > 126) *p = '?';
    else if (*p == '\\') *p = '/'; /* no escape or line splice in C */
    else if (p[0] == '*' && p[1] == '/') p[1] = '_'; /* would end the C comment */
    else if (p[0] == '/' && p[1] == '*') p[1] = '_'; /* a nested comment (-Wcomment) */
    else if (p[0] == '?' && p[1] == '?') p[1] = '_'; /* a C99 trigraph */
  }
}

/* Strings are identifiers (resource names): kept whole, bytes unsafe in messages and C
 * comments replaced (load_make_text_safe). */
static const char *string(Decoder *d, int field) {
  uint32_t len = 0;
  const char *s = fb_string(d->t, field, &len);
  if (!s || !fb_ok(d->t->buf)) return "";
  char *copy = arena_strndup(d->arena, s, len);
  if (!copy) {
    d->oom = true;
    return "";
  }
  load_make_text_safe(copy);
  d->copied += len;
  return copy;
}

/* ---- one decoder per table layout --------------------------------------------- */

static void conv2d(const Decoder *d, Conv2DOptions *o) {
  o->padding = i8(d, 0, o->padding);
  o->stride_w = i32(d, 1, o->stride_w);
  o->stride_h = i32(d, 2, o->stride_h);
  o->activation = i8(d, 3, o->activation);
  o->dilation_w = i32(d, 4, o->dilation_w);
  o->dilation_h = i32(d, 5, o->dilation_h);
  o->quantized_bias_type = i8(d, 6, o->quantized_bias_type);
}

static void conv3d(const Decoder *d, Conv3DOptions *o) {
  o->padding = i8(d, 0, o->padding);
  o->stride_d = i32(d, 1, o->stride_d);
  o->stride_w = i32(d, 2, o->stride_w);
  o->stride_h = i32(d, 3, o->stride_h);
  o->activation = i8(d, 4, o->activation);
  o->dilation_d = i32(d, 5, o->dilation_d);
  o->dilation_w = i32(d, 6, o->dilation_w);
  o->dilation_h = i32(d, 7, o->dilation_h);
}

static void pool2d(const Decoder *d, Pool2DOptions *o) {
  o->padding = i8(d, 0, o->padding);
  o->stride_w = i32(d, 1, o->stride_w);
  o->stride_h = i32(d, 2, o->stride_h);
  o->filter_w = i32(d, 3, o->filter_w);
  o->filter_h = i32(d, 4, o->filter_h);
  o->activation = i8(d, 5, o->activation);
}

static void depthwise(const Decoder *d, DepthwiseConv2DOptions *o) {
  o->padding = i8(d, 0, o->padding);
  o->stride_w = i32(d, 1, o->stride_w);
  o->stride_h = i32(d, 2, o->stride_h);
  o->depth_multiplier = i32(d, 3, o->depth_multiplier);
  o->activation = i8(d, 4, o->activation);
  o->dilation_w = i32(d, 5, o->dilation_w);
  o->dilation_h = i32(d, 6, o->dilation_h);
}

static void svdf(const Decoder *d, SVDFOptions *o) {
  o->rank = i32(d, 0, o->rank);
  o->activation = i8(d, 1, o->activation);
  o->asymmetric_quantize_inputs = flag(d, 2, o->asymmetric_quantize_inputs);
}

/* RNNOptions {act, asym}; SequenceRNNOptions {time_major, act, asym};
 * BidirectionalSequenceRNNOptions {time_major, act, merge_outputs, asym}. */
static void rnn(const Decoder *d, OptionsKind k, RNNOptions *o) {
  if (k == OPTS_RNN) {
    o->activation = i8(d, 0, o->activation);
    o->asymmetric_quantize_inputs = flag(d, 1, o->asymmetric_quantize_inputs);
    return;
  }
  o->time_major = flag(d, 0, o->time_major);
  o->activation = i8(d, 1, o->activation);
  if (k == OPTS_SEQUENCE_RNN) {
    o->asymmetric_quantize_inputs = flag(d, 2, o->asymmetric_quantize_inputs);
  } else {
    o->merge_outputs = flag(d, 2, o->merge_outputs);
    o->asymmetric_quantize_inputs = flag(d, 3, o->asymmetric_quantize_inputs);
  }
}

static void fully_connected(const Decoder *d, FullyConnectedOptions *o) {
  o->activation = i8(d, 0, o->activation);
  o->weights_format = i8(d, 1, o->weights_format);
  o->keep_num_dims = flag(d, 2, o->keep_num_dims);
  o->asymmetric_quantize_inputs = flag(d, 3, o->asymmetric_quantize_inputs);
  o->quantized_bias_type = i8(d, 4, o->quantized_bias_type);
}

/* LSTMOptions {act, cell_clip, proj_clip, kernel_type, asym};
 * UnidirectionalSequenceLSTMOptions {act, cell_clip, proj_clip, time_major, asym, diagonal};
 * BidirectionalSequenceLSTMOptions {act, cell_clip, proj_clip, merge_outputs, time_major = true, asym}. */
static void lstm(const Decoder *d, OptionsKind k, LSTMOptions *o) {
  o->activation = i8(d, 0, o->activation);
  o->cell_clip = f32(d, 1);
  o->proj_clip = f32(d, 2);
  if (k == OPTS_LSTM) {
    o->kernel_type = i8(d, 3, o->kernel_type);
    o->asymmetric_quantize_inputs = flag(d, 4, o->asymmetric_quantize_inputs);
  } else if (k == OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM) {
    o->time_major = flag(d, 3, o->time_major);
    o->asymmetric_quantize_inputs = flag(d, 4, o->asymmetric_quantize_inputs);
    o->diagonal_recurrent_tensors = flag(d, 5, o->diagonal_recurrent_tensors);
  } else {
    o->merge_outputs = flag(d, 3, o->merge_outputs);
    o->time_major = flag(d, 4, o->time_major);
    o->asymmetric_quantize_inputs = flag(d, 5, o->asymmetric_quantize_inputs);
  }
}

static void strided_slice(const Decoder *d, StridedSliceOptions *o) {
  o->begin_mask = i32(d, 0, o->begin_mask);
  o->end_mask = i32(d, 1, o->end_mask);
  o->ellipsis_mask = i32(d, 2, o->ellipsis_mask);
  o->new_axis_mask = i32(d, 3, o->new_axis_mask);
  o->shrink_axis_mask = i32(d, 4, o->shrink_axis_mask);
  o->offset = flag(d, 5, o->offset);
}

static void transpose_conv(const Decoder *d, TransposeConvOptions *o) {
  o->padding = i8(d, 0, o->padding);
  o->stride_w = i32(d, 1, o->stride_w);
  o->stride_h = i32(d, 2, o->stride_h);
  o->activation = i8(d, 3, o->activation);
  o->quantized_bias_type = i8(d, 4, o->quantized_bias_type);
}

static void fake_quant(const Decoder *d, FakeQuantOptions *o) {
  o->min = f32(d, 0);
  o->max = f32(d, 1);
  o->num_bits = i32(d, 2, o->num_bits);
  o->narrow_range = flag(d, 3, o->narrow_range);
}

static void lrn(const Decoder *d, LocalResponseNormalizationOptions *o) {
  o->radius = i32(d, 0, o->radius);
  o->bias = f32(d, 1);
  o->alpha = f32(d, 2);
  o->beta = f32(d, 3);
}

/* Kinds whose tables hold at most two scalar fields. */
static void small_kinds(Decoder *d, OptionsKind k, NodeOptions *o) {
  switch (k) {
    case OPTS_LSH_PROJECTION: o->lsh_projection.type = i8(d, 0, 0); break;
    case OPTS_SOFTMAX: o->softmax.beta = f32(d, 0); break;
    case OPTS_CONCATENATION: o->concatenation = (ConcatenationOptions){i32(d, 0, 0), i8(d, 1, 0)}; break;
    case OPTS_ADD:
      o->add.activation = i8(d, 0, 0);
      o->add.pot_scale_int16 = flag(d, 1, o->add.pot_scale_int16);
      break;
    case OPTS_SUB:
      o->sub.activation = i8(d, 0, 0);
      o->sub.pot_scale_int16 = flag(d, 1, o->sub.pot_scale_int16);
      break;
    case OPTS_MUL: o->mul.activation = i8(d, 0, 0); break;
    case OPTS_DIV: o->div.activation = i8(d, 0, 0); break;
    case OPTS_L2_NORM: o->l2_norm.activation = i8(d, 0, 0); break;
    /* ResizeBilinearOptions: fields 0 and 1 are the deprecated new_height/new_width. */
    case OPTS_RESIZE_BILINEAR: o->resize = (ResizeOptions){flag(d, 2, false), flag(d, 3, false)}; break;
    case OPTS_RESIZE_NEAREST_NEIGHBOR: o->resize = (ResizeOptions){flag(d, 0, false), flag(d, 1, false)}; break;
    case OPTS_CALL: o->call.subgraph = fb_u32(d->t, 0, 0); break;
    case OPTS_SKIP_GRAM: o->skip_gram = (SkipGramOptions){i32(d, 0, 0), i32(d, 1, 0), flag(d, 2, false)}; break;
    case OPTS_SPACE_TO_DEPTH: o->space_to_depth.block_size = i32(d, 0, 0); break;
    case OPTS_DEPTH_TO_SPACE: o->depth_to_space.block_size = i32(d, 0, 0); break;
    case OPTS_EMBEDDING_LOOKUP_SPARSE: o->embedding_lookup_sparse.combiner = i8(d, 0, 0); break;
    case OPTS_GATHER: o->gather = (GatherOptions){i32(d, 0, 0), i32(d, 1, 0)}; break;
    case OPTS_REDUCER: o->reducer.keep_dims = flag(d, 0, false); break;
    case OPTS_SPLIT: o->split.num_splits = i32(d, 0, 0); break;
    case OPTS_SPLIT_V: o->split_v.num_splits = i32(d, 0, 0); break;
    case OPTS_CAST: o->cast = (CastOptions){i8(d, 0, 0), i8(d, 1, 0)}; break;
    case OPTS_ARG_MAX: o->arg_max.output_type = i8(d, 0, 0); break;
    case OPTS_ARG_MIN: o->arg_min.output_type = i8(d, 0, 0); break;
    case OPTS_SPARSE_TO_DENSE: o->sparse_to_dense.validate_indices = flag(d, 0, false); break;
    case OPTS_SHAPE: o->shape.out_type = i8(d, 0, 0); break;
    case OPTS_PACK: o->pack = (PackOptions){i32(d, 0, 0), i32(d, 1, 0)}; break;
    case OPTS_UNPACK: o->unpack = (UnpackOptions){i32(d, 0, 0), i32(d, 1, 0)}; break;
    case OPTS_ONE_HOT: o->one_hot.axis = i32(d, 0, 0); break;
    case OPTS_LEAKY_RELU: o->leaky_relu.alpha = f32(d, 0); break;
    case OPTS_MIRROR_PAD: o->mirror_pad.mode = i8(d, 0, 0); break;
    case OPTS_UNIQUE: o->unique.idx_out_type = i8(d, 0, o->unique.idx_out_type); break;
    case OPTS_REVERSE_SEQUENCE: o->reverse_sequence = (ReverseSequenceOptions){i32(d, 0, 0), i32(d, 1, 0)}; break;
    case OPTS_IF: o->if_ = (IfOptions){i32(d, 0, 0), i32(d, 1, 0)}; break;
    case OPTS_WHILE: o->while_ = (WhileOptions){i32(d, 0, 0), i32(d, 1, 0)}; break;
    case OPTS_CALL_ONCE: o->call_once.init_subgraph_index = i32(d, 0, 0); break;
    case OPTS_BATCH_MATMUL: o->batch_matmul = (BatchMatMulOptions){flag(d, 0, false), flag(d, 1, false), flag(d, 2, false)}; break;
    case OPTS_CUMSUM: o->cumsum = (CumsumOptions){flag(d, 0, false), flag(d, 1, false)}; break;
    case OPTS_HASHTABLE: o->hashtable = (HashtableOptions){i32(d, 0, 0), i8(d, 1, 0), i8(d, 2, 0)}; break;
    case OPTS_RANDOM: o->random = (RandomOptions){fb_i64(d->t, 0, 0), fb_i64(d->t, 1, 0)}; break;
    case OPTS_GELU: o->gelu.approximate = flag(d, 0, false); break;
    default: break; /* kinds without fields */
  }
}

static void decode_kind(Decoder *d, OptionsKind k, NodeOptions *o) {
  switch (k) {
    case OPTS_CONV_2D: conv2d(d, &o->conv2d); break;
    case OPTS_CONV_3D: conv3d(d, &o->conv3d); break;
    case OPTS_POOL_2D: pool2d(d, &o->pool2d); break;
    case OPTS_DEPTHWISE_CONV_2D: depthwise(d, &o->depthwise); break;
    case OPTS_SVDF: svdf(d, &o->svdf); break;
    case OPTS_RNN:
    case OPTS_SEQUENCE_RNN:
    case OPTS_BIDIRECTIONAL_SEQUENCE_RNN: rnn(d, k, &o->rnn); break;
    case OPTS_FULLY_CONNECTED: fully_connected(d, &o->fully_connected); break;
    case OPTS_LSTM:
    case OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM:
    case OPTS_BIDIRECTIONAL_SEQUENCE_LSTM: lstm(d, k, &o->lstm); break;
    case OPTS_STRIDED_SLICE: strided_slice(d, &o->strided_slice); break;
    case OPTS_TRANSPOSE_CONV: transpose_conv(d, &o->transpose_conv); break;
    case OPTS_FAKE_QUANT: fake_quant(d, &o->fake_quant); break;
    case OPTS_LOCAL_RESPONSE_NORMALIZATION: lrn(d, &o->lrn); break;
    case OPTS_CONCAT_EMBEDDINGS:
      o->concat_embeddings.num_channels = i32(d, 0, 0);
      o->concat_embeddings.num_columns_per_channel = ints(d, 1);
      o->concat_embeddings.embedding_dim_per_channel = ints(d, 2);
      break;
    case OPTS_RESHAPE: o->reshape.new_shape = ints(d, 0); break;
    case OPTS_SQUEEZE: o->squeeze.squeeze_dims = ints(d, 0); break;
    case OPTS_BUCKETIZE: o->bucketize.boundaries = floats(d, 0); break;
    case OPTS_VAR_HANDLE:
      o->var_handle.container = string(d, 0);
      o->var_handle.shared_name = string(d, 1);
      break;
    default: small_kinds(d, k, o); break;
  }
}

bool decode_options(Arena *a, uint8_t tag, const FbTable *table, int32_t builtin_code, NodeOptions *out,
                    uint64_t *copied_bytes) {
  OptionsKind kind;
  if (table->present)
    kind = tag < OPTS_KIND_COUNT ? (OptionsKind)tag : OPTS_NONE;
  else
    kind = options_kind_for_builtin(builtin_code);
  /* Every read falls back on the field's schema default, already in place; an absent
   * table reads as all defaults, which is what the schema means by it. */
  *out = options_defaults(kind);
  out->tag = tag;
  out->present = table->present;
  Decoder d = {.arena = a, .t = table};
  decode_kind(&d, out->kind, out);
  *copied_bytes = d.copied;
  return !d.oom && fb_ok(table->buf);
}
