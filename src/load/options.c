/* Builtin options decoding: one function per options table layout. Field numbers
 * are the order of the fields in TFLite's schema.fbs (deprecated fields keep their
 * number); defaults are the schema's. Every read goes through the bounds-checked
 * FlatBuffer reader, whose sticky failure the loader reports with the operator. */
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

/* Strings are identifiers (resource names): kept whole, non-printable bytes
 * replaced so that they are safe in messages and C comments. */
static const char *string(Decoder *d, int field) {
  uint32_t len = 0;
  const char *s = fb_string(d->t, field, &len);
  if (!s || !fb_ok(d->t->buf)) return "";
  char *copy = arena_strndup(d->arena, s, len);
  if (!copy) {
    d->oom = true;
    return "";
  }
  for (char *p = copy; *p; p++)
    if ((unsigned char)*p < 32 || (unsigned char)*p > 126) *p = '?';
  d->copied += len;
  return copy;
}

/* ---- one decoder per table layout --------------------------------------------- */

static void conv2d(const Decoder *d, Conv2DOptions *o) {
  o->padding = i8(d, 0, OPT_PADDING_SAME);
  o->stride_w = i32(d, 1, 0);
  o->stride_h = i32(d, 2, 0);
  o->activation = i8(d, 3, 0);
  o->dilation_w = i32(d, 4, 1);
  o->dilation_h = i32(d, 5, 1);
  o->quantized_bias_type = i8(d, 6, 0);
}

static void conv3d(const Decoder *d, Conv3DOptions *o) {
  o->padding = i8(d, 0, OPT_PADDING_SAME);
  o->stride_d = i32(d, 1, 0);
  o->stride_w = i32(d, 2, 0);
  o->stride_h = i32(d, 3, 0);
  o->activation = i8(d, 4, 0);
  o->dilation_d = i32(d, 5, 1);
  o->dilation_w = i32(d, 6, 1);
  o->dilation_h = i32(d, 7, 1);
}

static void pool2d(const Decoder *d, Pool2DOptions *o) {
  o->padding = i8(d, 0, OPT_PADDING_SAME);
  o->stride_w = i32(d, 1, 0);
  o->stride_h = i32(d, 2, 0);
  o->filter_w = i32(d, 3, 0);
  o->filter_h = i32(d, 4, 0);
  o->activation = i8(d, 5, 0);
}

static void depthwise(const Decoder *d, DepthwiseConv2DOptions *o) {
  o->padding = i8(d, 0, OPT_PADDING_SAME);
  o->stride_w = i32(d, 1, 0);
  o->stride_h = i32(d, 2, 0);
  o->depth_multiplier = i32(d, 3, 0);
  o->activation = i8(d, 4, 0);
  o->dilation_w = i32(d, 5, 1);
  o->dilation_h = i32(d, 6, 1);
}

static void svdf(const Decoder *d, SVDFOptions *o) {
  o->rank = i32(d, 0, 0);
  o->activation = i8(d, 1, 0);
  o->asymmetric_quantize_inputs = flag(d, 2, false);
}

/* RNNOptions {act, asym}; SequenceRNNOptions {time_major, act, asym};
 * BidirectionalSequenceRNNOptions {time_major, act, merge_outputs, asym}. */
static void rnn(const Decoder *d, OptionsKind k, RNNOptions *o) {
  if (k == OPTS_RNN) {
    o->activation = i8(d, 0, 0);
    o->asymmetric_quantize_inputs = flag(d, 1, false);
    return;
  }
  o->time_major = flag(d, 0, false);
  o->activation = i8(d, 1, 0);
  if (k == OPTS_SEQUENCE_RNN) {
    o->asymmetric_quantize_inputs = flag(d, 2, false);
  } else {
    o->merge_outputs = flag(d, 2, false);
    o->asymmetric_quantize_inputs = flag(d, 3, false);
  }
}

static void fully_connected(const Decoder *d, FullyConnectedOptions *o) {
  o->activation = i8(d, 0, 0);
  o->weights_format = i8(d, 1, 0);
  o->keep_num_dims = flag(d, 2, false);
  o->asymmetric_quantize_inputs = flag(d, 3, false);
  o->quantized_bias_type = i8(d, 4, 0);
}

/* LSTMOptions {act, cell_clip, proj_clip, kernel_type, asym};
 * UnidirectionalSequenceLSTMOptions {act, cell_clip, proj_clip, time_major, asym, diagonal};
 * BidirectionalSequenceLSTMOptions {act, cell_clip, proj_clip, merge_outputs, time_major = true, asym}. */
static void lstm(const Decoder *d, OptionsKind k, LSTMOptions *o) {
  o->activation = i8(d, 0, 0);
  o->cell_clip = f32(d, 1);
  o->proj_clip = f32(d, 2);
  if (k == OPTS_LSTM) {
    o->kernel_type = i8(d, 3, 0);
    o->asymmetric_quantize_inputs = flag(d, 4, false);
  } else if (k == OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM) {
    o->time_major = flag(d, 3, false);
    o->asymmetric_quantize_inputs = flag(d, 4, false);
    o->diagonal_recurrent_tensors = flag(d, 5, false);
  } else {
    o->merge_outputs = flag(d, 3, false);
    o->time_major = flag(d, 4, true);
    o->asymmetric_quantize_inputs = flag(d, 5, false);
  }
}

static void strided_slice(const Decoder *d, StridedSliceOptions *o) {
  o->begin_mask = i32(d, 0, 0);
  o->end_mask = i32(d, 1, 0);
  o->ellipsis_mask = i32(d, 2, 0);
  o->new_axis_mask = i32(d, 3, 0);
  o->shrink_axis_mask = i32(d, 4, 0);
  o->offset = flag(d, 5, false);
}

static void transpose_conv(const Decoder *d, TransposeConvOptions *o) {
  o->padding = i8(d, 0, OPT_PADDING_SAME);
  o->stride_w = i32(d, 1, 0);
  o->stride_h = i32(d, 2, 0);
  o->activation = i8(d, 3, 0);
  o->quantized_bias_type = i8(d, 4, 0);
}

static void fake_quant(const Decoder *d, FakeQuantOptions *o) {
  o->min = f32(d, 0);
  o->max = f32(d, 1);
  o->num_bits = i32(d, 2, 0);
  o->narrow_range = flag(d, 3, false);
}

static void lrn(const Decoder *d, LocalResponseNormalizationOptions *o) {
  o->radius = i32(d, 0, 0);
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
    case OPTS_ADD: o->add = (AddSubOptions){i8(d, 0, 0), flag(d, 1, true)}; break;
    case OPTS_SUB: o->sub = (AddSubOptions){i8(d, 0, 0), flag(d, 1, true)}; break;
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
    case OPTS_MIRROR_PAD: o->mirror_pad.mode = i8(d, 0, OPT_MIRROR_REFLECT); break;
    case OPTS_UNIQUE: o->unique.idx_out_type = i8(d, 0, 2 /* INT32 */); break;
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
  memset(out, 0, sizeof *out);
  out->tag = tag;
  out->present = table->present;
  if (table->present)
    out->kind = tag < OPTS_KIND_COUNT ? (OptionsKind)tag : OPTS_NONE;
  else
    out->kind = options_kind_for_builtin(builtin_code);
  /* An absent table reads as all defaults, which is what the schema means by it. */
  Decoder d = {.arena = a, .t = table};
  decode_kind(&d, out->kind, out);
  *copied_bytes = d.copied;
  return !d.oom && fb_ok(table->buf);
}

/* ---- builtin operator -> options kind ------------------------------------------ */

typedef struct BuiltinKind {
  int16_t builtin;
  uint8_t kind;
} BuiltinKind;

/* BuiltinOperator codes (schema.fbs) whose operators carry options; the rest carry none. */
static const BuiltinKind builtin_kinds[] = {
    {0, OPTS_ADD}, {1, OPTS_POOL_2D}, {2, OPTS_CONCATENATION}, {3, OPTS_CONV_2D}, {4, OPTS_DEPTHWISE_CONV_2D},
    {5, OPTS_DEPTH_TO_SPACE}, {6, OPTS_DEQUANTIZE}, {9, OPTS_FULLY_CONNECTED}, {11, OPTS_L2_NORM},
    {12, OPTS_POOL_2D}, {13, OPTS_LOCAL_RESPONSE_NORMALIZATION}, {15, OPTS_LSH_PROJECTION}, {16, OPTS_LSTM},
    {17, OPTS_POOL_2D}, {18, OPTS_MUL}, {22, OPTS_RESHAPE}, {23, OPTS_RESIZE_BILINEAR}, {24, OPTS_RNN},
    {25, OPTS_SOFTMAX}, {26, OPTS_SPACE_TO_DEPTH}, {27, OPTS_SVDF}, {29, OPTS_CONCAT_EMBEDDINGS},
    {30, OPTS_SKIP_GRAM}, {31, OPTS_CALL}, {33, OPTS_EMBEDDING_LOOKUP_SPARSE}, {34, OPTS_PAD},
    {35, OPTS_SEQUENCE_RNN}, {36, OPTS_GATHER}, {37, OPTS_BATCH_TO_SPACE_ND}, {38, OPTS_SPACE_TO_BATCH_ND},
    {39, OPTS_TRANSPOSE}, {40, OPTS_REDUCER}, {41, OPTS_SUB}, {42, OPTS_DIV}, {43, OPTS_SQUEEZE},
    {44, OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM}, {45, OPTS_STRIDED_SLICE}, {46, OPTS_BIDIRECTIONAL_SEQUENCE_RNN},
    {47, OPTS_EXP}, {48, OPTS_TOPK_V2}, {49, OPTS_SPLIT}, {50, OPTS_LOG_SOFTMAX},
    {52, OPTS_BIDIRECTIONAL_SEQUENCE_LSTM}, {53, OPTS_CAST}, {55, OPTS_MAXIMUM_MINIMUM}, {56, OPTS_ARG_MAX},
    {57, OPTS_MAXIMUM_MINIMUM}, {58, OPTS_LESS}, {59, OPTS_NEG}, {60, OPTS_PADV2}, {61, OPTS_GREATER},
    {62, OPTS_GREATER_EQUAL}, {63, OPTS_LESS_EQUAL}, {64, OPTS_SELECT}, {65, OPTS_SLICE},
    {67, OPTS_TRANSPOSE_CONV}, {68, OPTS_SPARSE_TO_DENSE}, {69, OPTS_TILE}, {70, OPTS_EXPAND_DIMS},
    {71, OPTS_EQUAL}, {72, OPTS_NOT_EQUAL}, {74, OPTS_REDUCER}, {77, OPTS_SHAPE}, {78, OPTS_POW},
    {79, OPTS_ARG_MIN}, {80, OPTS_FAKE_QUANT}, {81, OPTS_REDUCER}, {82, OPTS_REDUCER}, {83, OPTS_PACK},
    {84, OPTS_LOGICAL_OR}, {85, OPTS_ONE_HOT}, {86, OPTS_LOGICAL_AND}, {87, OPTS_LOGICAL_NOT}, {88, OPTS_UNPACK},
    {89, OPTS_REDUCER}, {90, OPTS_FLOOR_DIV}, {91, OPTS_REDUCER}, {92, OPTS_SQUARE}, {93, OPTS_ZEROS_LIKE},
    {94, OPTS_FILL}, {95, OPTS_FLOOR_MOD}, {96, OPTS_RANGE}, {97, OPTS_RESIZE_NEAREST_NEIGHBOR},
    {98, OPTS_LEAKY_RELU}, {99, OPTS_SQUARED_DIFFERENCE}, {100, OPTS_MIRROR_PAD}, {101, OPTS_ABS},
    {102, OPTS_SPLIT_V}, {103, OPTS_UNIQUE}, {105, OPTS_REVERSE_V2}, {106, OPTS_ADD_N}, {107, OPTS_GATHER_ND},
    {108, OPTS_COS}, {109, OPTS_WHERE}, {110, OPTS_RANK}, {112, OPTS_REVERSE_SEQUENCE}, {113, OPTS_MATRIX_DIAG},
    {114, OPTS_QUANTIZE}, {115, OPTS_MATRIX_SET_DIAG}, {117, OPTS_HARD_SWISH}, {118, OPTS_IF}, {119, OPTS_WHILE},
    {120, OPTS_NON_MAX_SUPPRESSION_V4}, {121, OPTS_NON_MAX_SUPPRESSION_V5}, {122, OPTS_SCATTER_ND},
    {123, OPTS_SELECT_V2}, {124, OPTS_DENSIFY}, {125, OPTS_SEGMENT_SUM}, {126, OPTS_BATCH_MATMUL},
    {128, OPTS_CUMSUM}, {129, OPTS_CALL_ONCE}, {130, OPTS_BROADCAST_TO}, {131, OPTS_RFFT_2D}, {132, OPTS_CONV_3D},
    {136, OPTS_HASHTABLE}, {137, OPTS_HASHTABLE_FIND}, {138, OPTS_HASHTABLE_IMPORT}, {139, OPTS_HASHTABLE_SIZE},
    {140, OPTS_REDUCER}, {141, OPTS_CONV_3D}, {142, OPTS_VAR_HANDLE}, {143, OPTS_READ_VARIABLE},
    {144, OPTS_ASSIGN_VARIABLE}, {146, OPTS_RANDOM}, {147, OPTS_BUCKETIZE}, {148, OPTS_RANDOM},
    {149, OPTS_RANDOM}, {150, OPTS_GELU}, {151, OPTS_DYNAMIC_UPDATE_SLICE}, {153, OPTS_UNSORTED_SEGMENT_PROD},
    {154, OPTS_UNSORTED_SEGMENT_MAX}, {155, OPTS_UNSORTED_SEGMENT_SUM}, {156, OPTS_ATAN2},
    {157, OPTS_UNSORTED_SEGMENT_MIN}, {158, OPTS_SIGN}, {159, OPTS_BITCAST}, {160, OPTS_BITWISE_XOR},
    {161, OPTS_RIGHT_SHIFT},
};

OptionsKind options_kind_for_builtin(int32_t builtin_code) {
  for (size_t i = 0; i < sizeof builtin_kinds / sizeof builtin_kinds[0]; i++)
    if (builtin_kinds[i].builtin == builtin_code) return (OptionsKind)builtin_kinds[i].kind;
  return OPTS_NONE;
}
