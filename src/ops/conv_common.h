/* Compile-time setup shared by the convolution family (CONV_2D, DEPTHWISE_CONV_2D,
 * TRANSPOSE_CONV): TFLite's output-size and padding rule, per-channel requantisation
 * constants, activation ranges, and checks of the tensors they read. */
#ifndef TINYAOT_CONV_COMMON_H
#define TINYAOT_CONV_COMMON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op.h"

/* TFLite Padding enum (schema.fbs). */
enum { CONV_PAD_SAME = 0, CONV_PAD_VALID = 1 };

/* One spatial axis of a convolution window. */
typedef struct ConvAxis {
  int32_t in, out;     /* image sizes */
  int32_t k;           /* filter taps */
  int32_t stride, dil;
  int32_t pad;         /* leading padding */
  int32_t fold_lead, fold_trail; /* explicit padding folded in from a PAD (0 if none) */
} ConvAxis;

/* Per-output-channel requantisation and the clamp of the quantized output. */
typedef struct ConvQuant {
  int32_t *multiplier; /* arena, one per output channel */
  int32_t *shift;
  int32_t act_min, act_max;
} ConvQuant;

/* TFLite ComputeOutSize for `padding` (SAME/VALID) and ComputePaddingWithOffset's
 * leading padding, from ax->in, k, stride, dil; a folded PAD's fold_lead/fold_trail
 * count as input the kernel reads as padding (the window runs over the padded size and
 * the leading padding grows by fold_lead). Fills ax->pad and *out_size. Reports
 * unsupported padding, non-positive stride/dilation/taps and sizes too large for the
 * kernels' int32 index arithmetic. `what` names the axis ("height"). */
bool conv_axis_setup(PrepareCtx *pc, const Node *node, int padding, const char *what, ConvAxis *ax,
                     int32_t *out_size);

/* Requires a rank-4 tensor with positive dims and at most INT32_MAX elements. */
bool conv_expect_4d(PrepareCtx *pc, const Node *node, const Tensor *t, const char *role);

/* PopulateConvolutionQuantizationParams: for each of `channels` output channels the
 * multiplier of (double)input_scale * (double)filter_scale / (double)output_scale,
 * the filter scale broadcast when it is per-tensor, within the shifts `range` of the
 * kernel's requantisation (QUANT_RANGE_INT32 or _INT64); then the activation clamp.
 * Checks per-tensor input/output quantization, the filter's scale count and axis
 * (`filter_axis`), symmetric filters and, for int16, zero-point-free activations. */
bool conv_quant_prepare(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *filter, int filter_axis,
                        const Tensor *out, int32_t channels, int activation, QuantRange range, ConvQuant *q);

/* CalculateActivationRange<float>: lowest/max for NONE. */
bool conv_float_range(PrepareCtx *pc, const Node *node, int activation, float *lo, float *hi);

/* Optional bias (NULL passes): constant, `type`, exactly `n` elements. */
bool conv_expect_bias(PrepareCtx *pc, const Node *node, const Tensor *bias, TensorType type, int32_t n);

/* A float as a C99 literal that reads back to the same value ("6.0f", "-3.40282347e+38f"). */
void conv_float_literal(char *buf, size_t cap, float v);

/* The in-place contract (op.h) of a convolution over one batch: output pixels of out_c
 * bytes from windows of in_c-byte pixels; `group` and `row_groups` as in InplaceAccess. */
void conv_inplace_access(const ConvAxis *h, const ConvAxis *w, int32_t in_c, int32_t out_c, int32_t group,
                         bool row_groups, InplaceAccess *a);

/* In place (Node.inplace): the pointer argument of the kernel's temporary output, at
 * the dying input's storage + inplace_delta bytes (an int8_t * expression). */
const char *conv_inplace_temp(EmitCtx *ec, const Node *node);

#endif
