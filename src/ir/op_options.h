/* Builtin operator options as plain IR data. The loader decodes each operator's
 * options table once (bounds-checked) into one of these structs, so operators and
 * transforms read and rewrite typed fields and nothing past load/ knows the file
 * format.
 *
 * OptionsKind numbers the kinds as TFLite's BuiltinOptions union does, so a kind
 * and the union tag in a file are the same number. Field defaults (when a field or
 * the whole table is absent) are the schema's: 0 / false / NONE unless noted. */
#ifndef TINYAOT_OP_OPTIONS_H
#define TINYAOT_OP_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>

typedef enum OptionsKind {
  OPTS_NONE = 0,
  OPTS_CONV_2D = 1,
  OPTS_DEPTHWISE_CONV_2D = 2,
  OPTS_CONCAT_EMBEDDINGS = 3,
  OPTS_LSH_PROJECTION = 4,
  OPTS_POOL_2D = 5,
  OPTS_SVDF = 6,
  OPTS_RNN = 7,
  OPTS_FULLY_CONNECTED = 8,
  OPTS_SOFTMAX = 9,
  OPTS_CONCATENATION = 10,
  OPTS_ADD = 11,
  OPTS_L2_NORM = 12,
  OPTS_LOCAL_RESPONSE_NORMALIZATION = 13,
  OPTS_LSTM = 14,
  OPTS_RESIZE_BILINEAR = 15,
  OPTS_CALL = 16,
  OPTS_RESHAPE = 17,
  OPTS_SKIP_GRAM = 18,
  OPTS_SPACE_TO_DEPTH = 19,
  OPTS_EMBEDDING_LOOKUP_SPARSE = 20,
  OPTS_MUL = 21,
  OPTS_PAD = 22,
  OPTS_GATHER = 23,
  OPTS_BATCH_TO_SPACE_ND = 24,
  OPTS_SPACE_TO_BATCH_ND = 25,
  OPTS_TRANSPOSE = 26,
  OPTS_REDUCER = 27,
  OPTS_SUB = 28,
  OPTS_DIV = 29,
  OPTS_SQUEEZE = 30,
  OPTS_SEQUENCE_RNN = 31,
  OPTS_STRIDED_SLICE = 32,
  OPTS_EXP = 33,
  OPTS_TOPK_V2 = 34,
  OPTS_SPLIT = 35,
  OPTS_LOG_SOFTMAX = 36,
  OPTS_CAST = 37,
  OPTS_DEQUANTIZE = 38,
  OPTS_MAXIMUM_MINIMUM = 39,
  OPTS_ARG_MAX = 40,
  OPTS_LESS = 41,
  OPTS_NEG = 42,
  OPTS_PADV2 = 43,
  OPTS_GREATER = 44,
  OPTS_GREATER_EQUAL = 45,
  OPTS_LESS_EQUAL = 46,
  OPTS_SELECT = 47,
  OPTS_SLICE = 48,
  OPTS_TRANSPOSE_CONV = 49,
  OPTS_SPARSE_TO_DENSE = 50,
  OPTS_TILE = 51,
  OPTS_EXPAND_DIMS = 52,
  OPTS_EQUAL = 53,
  OPTS_NOT_EQUAL = 54,
  OPTS_SHAPE = 55,
  OPTS_POW = 56,
  OPTS_ARG_MIN = 57,
  OPTS_FAKE_QUANT = 58,
  OPTS_PACK = 59,
  OPTS_LOGICAL_OR = 60,
  OPTS_ONE_HOT = 61,
  OPTS_LOGICAL_AND = 62,
  OPTS_LOGICAL_NOT = 63,
  OPTS_UNPACK = 64,
  OPTS_FLOOR_DIV = 65,
  OPTS_SQUARE = 66,
  OPTS_ZEROS_LIKE = 67,
  OPTS_FILL = 68,
  OPTS_BIDIRECTIONAL_SEQUENCE_LSTM = 69,
  OPTS_BIDIRECTIONAL_SEQUENCE_RNN = 70,
  OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM = 71,
  OPTS_FLOOR_MOD = 72,
  OPTS_RANGE = 73,
  OPTS_RESIZE_NEAREST_NEIGHBOR = 74,
  OPTS_LEAKY_RELU = 75,
  OPTS_SQUARED_DIFFERENCE = 76,
  OPTS_MIRROR_PAD = 77,
  OPTS_ABS = 78,
  OPTS_SPLIT_V = 79,
  OPTS_UNIQUE = 80,
  OPTS_REVERSE_V2 = 81,
  OPTS_ADD_N = 82,
  OPTS_GATHER_ND = 83,
  OPTS_COS = 84,
  OPTS_WHERE = 85,
  OPTS_RANK = 86,
  OPTS_REVERSE_SEQUENCE = 87,
  OPTS_MATRIX_DIAG = 88,
  OPTS_QUANTIZE = 89,
  OPTS_MATRIX_SET_DIAG = 90,
  OPTS_HARD_SWISH = 91,
  OPTS_IF = 92,
  OPTS_WHILE = 93,
  OPTS_DEPTH_TO_SPACE = 94,
  OPTS_NON_MAX_SUPPRESSION_V4 = 95,
  OPTS_NON_MAX_SUPPRESSION_V5 = 96,
  OPTS_SCATTER_ND = 97,
  OPTS_SELECT_V2 = 98,
  OPTS_DENSIFY = 99,
  OPTS_SEGMENT_SUM = 100,
  OPTS_BATCH_MATMUL = 101,
  OPTS_CUMSUM = 102,
  OPTS_CALL_ONCE = 103,
  OPTS_BROADCAST_TO = 104,
  OPTS_RFFT_2D = 105,
  OPTS_CONV_3D = 106,
  OPTS_HASHTABLE = 107,
  OPTS_HASHTABLE_FIND = 108,
  OPTS_HASHTABLE_IMPORT = 109,
  OPTS_HASHTABLE_SIZE = 110,
  OPTS_VAR_HANDLE = 111,
  OPTS_READ_VARIABLE = 112,
  OPTS_ASSIGN_VARIABLE = 113,
  OPTS_RANDOM = 114,
  OPTS_BUCKETIZE = 115,
  OPTS_GELU = 116,
  OPTS_DYNAMIC_UPDATE_SLICE = 117,
  OPTS_UNSORTED_SEGMENT_PROD = 118,
  OPTS_UNSORTED_SEGMENT_MAX = 119,
  OPTS_UNSORTED_SEGMENT_MIN = 120,
  OPTS_UNSORTED_SEGMENT_SUM = 121,
  OPTS_ATAN2 = 122,
  OPTS_SIGN = 123,
  OPTS_BITCAST = 124,
  OPTS_BITWISE_XOR = 125,
  OPTS_RIGHT_SHIFT = 126,
  OPTS_KIND_COUNT
} OptionsKind;

/* Enum values shared by several kinds (the schema's numbering). */
enum { OPT_PADDING_SAME = 0, OPT_PADDING_VALID = 1 };
/* fused activation: NONE 0, RELU 1, RELU_N1_TO_1 2, RELU6 3, TANH 4, SIGN_BIT 5
 * (ACT_* in ir/quant.h); dtype fields hold a TensorType value. */
enum { OPT_MIRROR_REFLECT = 0, OPT_MIRROR_SYMMETRIC = 1 };

/* A decoded vector field; `v` lives in the model arena (NULL when n == 0). */
typedef struct OptInts {
  int32_t n;
  const int32_t *v;
} OptInts;
typedef struct OptFloats {
  int32_t n;
  const float *v;
} OptFloats;

typedef struct Conv2DOptions {
  int8_t padding, activation;
  int32_t stride_w, stride_h;
  int32_t dilation_w, dilation_h;   /* default 1 */
  int8_t quantized_bias_type;
  /* explicit padding a PAD folded into this operator (src/transform/fold_pad.c), on top
   * of `padding`'s own; never in a file: 0 from the loader */
  int32_t fold_top, fold_bottom, fold_left, fold_right;
} Conv2DOptions;

typedef struct Conv3DOptions {      /* CONV_3D and CONV_3D_TRANSPOSE */
  int8_t padding, activation;
  int32_t stride_d, stride_w, stride_h;
  int32_t dilation_d, dilation_w, dilation_h; /* default 1 */
} Conv3DOptions;

typedef struct Pool2DOptions {      /* AVERAGE/MAX/L2 pooling */
  int8_t padding, activation;
  int32_t stride_w, stride_h, filter_w, filter_h;
} Pool2DOptions;

typedef struct DepthwiseConv2DOptions {
  int8_t padding, activation;
  int32_t stride_w, stride_h;
  int32_t depth_multiplier;
  int32_t dilation_w, dilation_h;   /* default 1 */
  int32_t fold_top, fold_bottom, fold_left, fold_right; /* as in Conv2DOptions */
} DepthwiseConv2DOptions;

typedef struct ConcatEmbeddingsOptions {
  int32_t num_channels;
  OptInts num_columns_per_channel, embedding_dim_per_channel;
} ConcatEmbeddingsOptions;

typedef struct LSHProjectionOptions { int8_t type; } LSHProjectionOptions;

typedef struct SVDFOptions {
  int32_t rank;
  int8_t activation;
  bool asymmetric_quantize_inputs;
} SVDFOptions;

typedef struct RNNOptions {         /* RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN */
  bool time_major;                  /* sequence kinds only */
  int8_t activation;
  bool merge_outputs;               /* bidirectional only */
  bool asymmetric_quantize_inputs;
} RNNOptions;

typedef struct FullyConnectedOptions {
  int8_t activation;
  int8_t weights_format;            /* 0 DEFAULT, 1 SHUFFLED4x16INT8 */
  bool keep_num_dims;
  bool asymmetric_quantize_inputs;
  int8_t quantized_bias_type;
} FullyConnectedOptions;

typedef struct SoftmaxOptions { float beta; } SoftmaxOptions;

typedef struct ConcatenationOptions {
  int32_t axis;
  int8_t activation;
} ConcatenationOptions;

typedef struct AddSubOptions {      /* ADD and SUB */
  int8_t activation;
  bool pot_scale_int16;             /* default true */
} AddSubOptions;

typedef struct ActivationOptions {  /* MUL, DIV, L2_NORMALIZATION */
  int8_t activation;
} ActivationOptions;

typedef struct LocalResponseNormalizationOptions {
  int32_t radius;
  float bias, alpha, beta;
} LocalResponseNormalizationOptions;

typedef struct LSTMOptions {        /* LSTM and both sequence LSTMs */
  int8_t activation;
  float cell_clip, proj_clip;       /* 0: no clipping */
  int8_t kernel_type;               /* LSTM only: 0 FULL, 1 BASIC */
  bool time_major;                  /* sequence kinds; default true for BIDIRECTIONAL */
  bool merge_outputs;               /* bidirectional only */
  bool asymmetric_quantize_inputs;
  bool diagonal_recurrent_tensors;  /* unidirectional only */
} LSTMOptions;

typedef struct ResizeOptions {      /* RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR */
  bool align_corners, half_pixel_centers;
} ResizeOptions;

typedef struct ReshapeOptions { OptInts new_shape; } ReshapeOptions;

typedef struct SkipGramOptions {
  int32_t ngram_size, max_skip_size;
  bool include_all_ngrams;
} SkipGramOptions;

typedef struct BlockSizeOptions { int32_t block_size; } BlockSizeOptions; /* SPACE_TO_DEPTH, DEPTH_TO_SPACE */

typedef struct EmbeddingLookupSparseOptions { int8_t combiner; } EmbeddingLookupSparseOptions;

typedef struct GatherOptions {
  int32_t axis, batch_dims;
} GatherOptions;

typedef struct ReducerOptions { bool keep_dims; } ReducerOptions;

typedef struct SqueezeOptions { OptInts squeeze_dims; } SqueezeOptions;

typedef struct StridedSliceOptions {
  int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask;
  bool offset;
} StridedSliceOptions;

typedef struct SplitOptions { int32_t num_splits; } SplitOptions; /* SPLIT and SPLIT_V */

typedef struct CastOptions { int8_t in_data_type, out_data_type; } CastOptions;

typedef struct ArgMinMaxOptions { int8_t output_type; } ArgMinMaxOptions; /* ARG_MAX and ARG_MIN */

typedef struct TransposeConvOptions {
  int8_t padding, activation;
  int32_t stride_w, stride_h;
  int8_t quantized_bias_type;
} TransposeConvOptions;

typedef struct SparseToDenseOptions { bool validate_indices; } SparseToDenseOptions;

typedef struct ShapeOptions { int8_t out_type; } ShapeOptions;

typedef struct FakeQuantOptions {
  float min, max;
  int32_t num_bits;
  bool narrow_range;
} FakeQuantOptions;

typedef struct PackOptions { int32_t values_count, axis; } PackOptions;
typedef struct UnpackOptions { int32_t num, axis; } UnpackOptions;
typedef struct OneHotOptions { int32_t axis; } OneHotOptions;
typedef struct LeakyReluOptions { float alpha; } LeakyReluOptions;
typedef struct MirrorPadOptions { int8_t mode; } MirrorPadOptions;
typedef struct UniqueOptions { int8_t idx_out_type; } UniqueOptions; /* default INT32 (2) */
typedef struct ReverseSequenceOptions { int32_t seq_dim, batch_dim; } ReverseSequenceOptions;
typedef struct IfOptions { int32_t then_subgraph_index, else_subgraph_index; } IfOptions;
typedef struct WhileOptions { int32_t cond_subgraph_index, body_subgraph_index; } WhileOptions;
typedef struct CallOptions { uint32_t subgraph; } CallOptions;
typedef struct CallOnceOptions { int32_t init_subgraph_index; } CallOnceOptions;

typedef struct BatchMatMulOptions {
  bool adj_x, adj_y;
  bool asymmetric_quantize_inputs;
} BatchMatMulOptions;

typedef struct CumsumOptions { bool exclusive, reverse; } CumsumOptions;

typedef struct HashtableOptions {
  int32_t table_id;
  int8_t key_dtype, value_dtype;
} HashtableOptions;

typedef struct VarHandleOptions {   /* strings in the model arena, "" when absent */
  const char *container, *shared_name;
} VarHandleOptions;

typedef struct RandomOptions { int64_t seed, seed2; } RandomOptions;
typedef struct BucketizeOptions { OptFloats boundaries; } BucketizeOptions;
typedef struct GeluOptions { bool approximate; } GeluOptions;

/* One operator's options. `kind` says which member is valid; kinds with no fields
 * (PAD, TRANSPOSE, QUANTIZE, ...) use none. When the file has no options table,
 * `present` is false and `kind` is the kind the operator's builtin code uses,
 * with every field at its schema default. */
typedef struct NodeOptions {
  OptionsKind kind;     /* OPTS_NONE also for a tag this build does not know */
  uint8_t tag;          /* union tag as found in the file (for messages) */
  bool present;         /* the file holds an options table */
  union {
    Conv2DOptions conv2d;
    Conv3DOptions conv3d;
    Pool2DOptions pool2d;
    DepthwiseConv2DOptions depthwise;
    ConcatEmbeddingsOptions concat_embeddings;
    LSHProjectionOptions lsh_projection;
    SVDFOptions svdf;
    RNNOptions rnn;
    FullyConnectedOptions fully_connected;
    SoftmaxOptions softmax;
    ConcatenationOptions concatenation;
    AddSubOptions add, sub;
    ActivationOptions mul, div, l2_norm;
    LocalResponseNormalizationOptions lrn;
    LSTMOptions lstm;
    ResizeOptions resize;
    CallOptions call;
    ReshapeOptions reshape;
    SkipGramOptions skip_gram;
    BlockSizeOptions space_to_depth, depth_to_space;
    EmbeddingLookupSparseOptions embedding_lookup_sparse;
    GatherOptions gather;
    ReducerOptions reducer;
    SqueezeOptions squeeze;
    StridedSliceOptions strided_slice;
    SplitOptions split, split_v;
    CastOptions cast;
    ArgMinMaxOptions arg_max, arg_min;
    TransposeConvOptions transpose_conv;
    SparseToDenseOptions sparse_to_dense;
    ShapeOptions shape;
    FakeQuantOptions fake_quant;
    PackOptions pack;
    UnpackOptions unpack;
    OneHotOptions one_hot;
    LeakyReluOptions leaky_relu;
    MirrorPadOptions mirror_pad;
    UniqueOptions unique;
    ReverseSequenceOptions reverse_sequence;
    IfOptions if_;
    WhileOptions while_;
    CallOnceOptions call_once;
    BatchMatMulOptions batch_matmul;
    CumsumOptions cumsum;
    HashtableOptions hashtable;
    VarHandleOptions var_handle;
    RandomOptions random;
    BucketizeOptions bucketize;
    GeluOptions gelu;
  };
} NodeOptions;

/* "Conv2DOptions" for messages; "unknown" outside the known kinds. */
const char *options_kind_name(OptionsKind k);
/* The fused_activation_function of kinds that have one (ADD, CONV_2D, ...), else 0 (NONE). */
int options_fused_activation(const NodeOptions *o);
/* The options kind a builtin operator code carries (TFLite's BuiltinOperator
 * numbering, as Node.builtin_code); OPTS_NONE when it has none. */
OptionsKind options_kind_for_builtin(int32_t builtin_code);
/* Options of `kind` with every field at its schema default (present false): what a
 * transform starts from when it creates an operator, and what the loader decodes over. */
NodeOptions options_defaults(OptionsKind kind);

#endif
