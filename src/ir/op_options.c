/* Names of the options kinds, for messages. */
#include "op_options.h"

#include <stddef.h>
#include <string.h>

static const char *const kind_names[OPTS_KIND_COUNT] = {
    "none",
    "Conv2DOptions", "DepthwiseConv2DOptions", "ConcatEmbeddingsOptions", "LSHProjectionOptions", "Pool2DOptions",
    "SVDFOptions", "RNNOptions", "FullyConnectedOptions", "SoftmaxOptions", "ConcatenationOptions", "AddOptions",
    "L2NormOptions", "LocalResponseNormalizationOptions", "LSTMOptions", "ResizeBilinearOptions", "CallOptions",
    "ReshapeOptions", "SkipGramOptions", "SpaceToDepthOptions", "EmbeddingLookupSparseOptions", "MulOptions",
    "PadOptions", "GatherOptions", "BatchToSpaceNDOptions", "SpaceToBatchNDOptions", "TransposeOptions",
    "ReducerOptions", "SubOptions", "DivOptions", "SqueezeOptions", "SequenceRNNOptions", "StridedSliceOptions",
    "ExpOptions", "TopKV2Options", "SplitOptions", "LogSoftmaxOptions", "CastOptions", "DequantizeOptions",
    "MaximumMinimumOptions", "ArgMaxOptions", "LessOptions", "NegOptions", "PadV2Options", "GreaterOptions",
    "GreaterEqualOptions", "LessEqualOptions", "SelectOptions", "SliceOptions", "TransposeConvOptions",
    "SparseToDenseOptions", "TileOptions", "ExpandDimsOptions", "EqualOptions", "NotEqualOptions", "ShapeOptions",
    "PowOptions", "ArgMinOptions", "FakeQuantOptions", "PackOptions", "LogicalOrOptions", "OneHotOptions",
    "LogicalAndOptions", "LogicalNotOptions", "UnpackOptions", "FloorDivOptions", "SquareOptions",
    "ZerosLikeOptions", "FillOptions", "BidirectionalSequenceLSTMOptions", "BidirectionalSequenceRNNOptions",
    "UnidirectionalSequenceLSTMOptions", "FloorModOptions", "RangeOptions", "ResizeNearestNeighborOptions",
    "LeakyReluOptions", "SquaredDifferenceOptions", "MirrorPadOptions", "AbsOptions", "SplitVOptions",
    "UniqueOptions", "ReverseV2Options", "AddNOptions", "GatherNdOptions", "CosOptions", "WhereOptions",
    "RankOptions", "ReverseSequenceOptions", "MatrixDiagOptions", "QuantizeOptions", "MatrixSetDiagOptions",
    "HardSwishOptions", "IfOptions", "WhileOptions", "DepthToSpaceOptions", "NonMaxSuppressionV4Options",
    "NonMaxSuppressionV5Options", "ScatterNdOptions", "SelectV2Options", "DensifyOptions", "SegmentSumOptions",
    "BatchMatMulOptions", "CumsumOptions", "CallOnceOptions", "BroadcastToOptions", "Rfft2dOptions",
    "Conv3DOptions", "HashtableOptions", "HashtableFindOptions", "HashtableImportOptions", "HashtableSizeOptions",
    "VarHandleOptions", "ReadVariableOptions", "AssignVariableOptions", "RandomOptions", "BucketizeOptions",
    "GeluOptions", "DynamicUpdateSliceOptions", "UnsortedSegmentProdOptions", "UnsortedSegmentMaxOptions",
    "UnsortedSegmentMinOptions", "UnsortedSegmentSumOptions", "ATan2Options", "SignOptions", "BitcastOptions",
    "BitwiseXorOptions", "RightShiftOptions",
};

const char *options_kind_name(OptionsKind k) {
  if ((int)k < 0 || k >= OPTS_KIND_COUNT) return "unknown";
  return kind_names[k];
}

int options_fused_activation(const NodeOptions *o) {
  switch (o->kind) {
    case OPTS_CONV_2D: return o->conv2d.activation;
    case OPTS_CONV_3D: return o->conv3d.activation;
    case OPTS_POOL_2D: return o->pool2d.activation;
    case OPTS_DEPTHWISE_CONV_2D: return o->depthwise.activation;
    case OPTS_SVDF: return o->svdf.activation;
    case OPTS_RNN:
    case OPTS_SEQUENCE_RNN:
    case OPTS_BIDIRECTIONAL_SEQUENCE_RNN: return o->rnn.activation;
    case OPTS_FULLY_CONNECTED: return o->fully_connected.activation;
    case OPTS_CONCATENATION: return o->concatenation.activation;
    case OPTS_ADD: return o->add.activation;
    case OPTS_SUB: return o->sub.activation;
    case OPTS_MUL: return o->mul.activation;
    case OPTS_DIV: return o->div.activation;
    case OPTS_L2_NORM: return o->l2_norm.activation;
    case OPTS_LSTM:
    case OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM:
    case OPTS_BIDIRECTIONAL_SEQUENCE_LSTM: return o->lstm.activation;
    case OPTS_TRANSPOSE_CONV: return o->transpose_conv.activation;
    default: return 0;
  }
}

typedef struct BuiltinKind {
  int16_t builtin;
  uint8_t kind;
} BuiltinKind;

/* BuiltinOperator codes whose operators carry options; the rest carry none. */
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

NodeOptions options_defaults(OptionsKind kind) {
  NodeOptions o;
  memset(&o, 0, sizeof o);
  o.kind = kind;
  switch (kind) {
    case OPTS_CONV_2D: o.conv2d.dilation_w = o.conv2d.dilation_h = 1; break;
    case OPTS_CONV_3D: o.conv3d.dilation_d = o.conv3d.dilation_w = o.conv3d.dilation_h = 1; break;
    case OPTS_DEPTHWISE_CONV_2D: o.depthwise.dilation_w = o.depthwise.dilation_h = 1; break;
    case OPTS_ADD: o.add.pot_scale_int16 = true; break;
    case OPTS_SUB: o.sub.pot_scale_int16 = true; break;
    case OPTS_BIDIRECTIONAL_SEQUENCE_LSTM: o.lstm.time_major = true; break;
    case OPTS_UNIQUE: o.unique.idx_out_type = 2; /* INT32 */ break;
    case OPTS_VAR_HANDLE: o.var_handle.container = o.var_handle.shared_name = ""; break;
    default: break; /* every other field defaults to 0 / false / NONE / SAME */
  }
  return o;
}
