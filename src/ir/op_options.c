/* Names of the options kinds, for messages. */
#include "op_options.h"

#include <stddef.h>

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
