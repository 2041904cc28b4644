/* QUANTIZE: float32 -> int8/int16 (affine quantization) and requantization
 * int8/uint8 -> int8 (tabulated), int16 -> int8/int16/int32, int8 -> int16/int32/uint8,
 * int32 -> int8/int16, as TFLite Micro's reference QUANTIZE computes them. */
#include <string.h>

#include "../ir/quant.h"
#include "elementwise.h"
#include "fixed_point.h"
#include "op.h"

typedef enum QuantizeKind { Q_FROM_FLOAT, Q_REQUANTIZE } QuantizeKind;

typedef struct QuantizeData {
  QuantizeKind kind;
  int64_t size;
  float scale;        /* Q_FROM_FLOAT: output scale */
  int32_t zero_point; /* Q_FROM_FLOAT: output zero point */
  int32_t in_zero_point, out_zero_point, multiplier, shift; /* Q_REQUANTIZE */
} QuantizeData;

typedef struct Conversion {
  TensorType from, to;
  const char *kernel; /* NULL: tabulated */
} Conversion;

static const Conversion conversions[] = {
    {TT_FLOAT32, TT_INT8, "ta_quantize_f32_s8"},     {TT_FLOAT32, TT_INT16, "ta_quantize_f32_s16"},
    {TT_INT8, TT_INT8, NULL},                        {TT_UINT8, TT_INT8, NULL},
    {TT_INT16, TT_INT8, "ta_requantize_s16_s8"},     {TT_INT16, TT_INT16, "ta_requantize_s16_s16"},
    {TT_INT16, TT_INT32, "ta_requantize_s16_s32"},   {TT_INT8, TT_INT16, "ta_requantize_s8_s16"},
    {TT_INT8, TT_INT32, "ta_requantize_s8_s32"},     {TT_INT8, TT_UINT8, "ta_requantize_s8_u8"},
    {TT_INT32, TT_INT8, "ta_requantize_s32_s8"},     {TT_INT32, TT_INT16, "ta_requantize_s32_s16"},
};

static const Conversion *find_conversion(TensorType from, TensorType to) {
  for (size_t i = 0; i < sizeof conversions / sizeof conversions[0]; i++)
    if (conversions[i].from == from && conversions[i].to == to) return &conversions[i];
  return NULL;
}

/* Multiplier for input scale / output scale (TFLite QuantizeMultiplier, double), applied
 * by ta_requantize or, for the tabulated int8 cases, fx_requantize. */
static bool requant_multiplier(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, int32_t *q,
                               int32_t *shift) {
  const double m = (double)tensor_scale(in) / (double)tensor_scale(out);
  return op_quant_multiplier(pc, node, m, QUANT_RANGE_INT32, q, shift,
                             "input / output scale of tensor %d '%s', tensor %d '%s'", OP_TENSOR_ARG(in),
                             OP_TENSOR_ARG(out));
}

/* int8/uint8 -> int8: requantize every possible input byte at compile time. */
static bool tabulate(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out) {
  int32_t multiplier, shift;
  if (!requant_multiplier(pc, node, in, out, &multiplier, &shift)) return false;
  EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
  if (!u) return false;
  for (int b = 0; b < 256; b++) {
    const int32_t x = ew_lut_input(u, b) - tensor_zero_point(in);
    const int32_t y = fx_requantize(x, multiplier, shift) + tensor_zero_point(out);
    u->table[b] = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
  }
  return true;
}

static bool quantize_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, OPTS_QUANTIZE)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  const Conversion *conv = find_conversion(in->type, out->type);
  if (!conv)
    return op_error(pc, node, "%s -> %s is not supported (float32 -> int8/int16; int8/uint8 -> int8; "
                    "int16 -> int8/int16/int32; int8 -> int16/int32/uint8; int32 -> int8/int16)", tensor_type_name(in->type),
                    tensor_type_name(out->type));
  if (!ew_expect_unary_shape(pc, node, in, out) || !ew_expect_quant(pc, node, out)) return false;
  if (in->type != TT_FLOAT32 && !ew_expect_quant(pc, node, in)) return false;
  if (!conv->kernel) return tabulate(pc, node, in, out);
  QuantizeData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->size = in->elems;
  if (in->type == TT_FLOAT32) {
    d->kind = Q_FROM_FLOAT;
    d->scale = tensor_scale(out);
    d->zero_point = tensor_zero_point(out);
  } else {
    d->kind = Q_REQUANTIZE;
    d->in_zero_point = tensor_zero_point(in);
    d->out_zero_point = tensor_zero_point(out);
    if (!requant_multiplier(pc, node, in, out, &d->multiplier, &d->shift)) return false;
  }
  node->op_data = d;
  node->kernel = conv->kernel;
  node->families[0] = "quantize";
  node->macs = 0;
  return true;
}

static void quantize_emit(EmitCtx *ec, const Model *m, const Node *node) {
  if (strcmp(node->families[0], "lut") == 0) {
    ew_unary_emit(ec, m, node);
    return;
  }
  const QuantizeData *d = node->op_data;
  if (d->size == 0) return;
  if (d->kind == Q_FROM_FLOAT) {
    char scale[32];
    ew_float_literal(scale, sizeof scale, d->scale);
    em_decl(ec, "static const ta_affine_params_t %s_params = {.size = %lld, .scale = %s, .zero_point = %d};",
            em_op_name(ec), (long long)d->size, scale, d->zero_point);
  } else {
    em_decl(ec,
            "static const ta_requantize_params_t %s_params = {\n  .size = %lld,\n"
            "  .in_zero_point = %d, .out_zero_point = %d,\n  .multiplier = %d, .shift = %d,\n};",
            em_op_name(ec), (long long)d->size, d->in_zero_point, d->out_zero_point, d->multiplier, d->shift);
  }
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

/* In-place contract: the ta_quantize.c kernels write element i after reading it, in
 * order, so an output no wider than its input may take the input's place (a wider one
 * may not: the plan finds no offset that works). The LUT form declares nothing. */
static bool quantize_inplace(const Model *m, const Node *node, int input, InplaceAccess *acc) {
  if (input != 0 || !node->families[0] || strcmp(node->families[0], "quantize") != 0) return false;
  const Tensor *in = node_input(m, node, 0), *out = node_output(m, node, 0);
  if (!in || !out || in->elems != out->elems || out->elems > INT32_MAX || out->elems < 1) return false;
  *acc = (InplaceAccess){.in_h = 1, .in_w = (int32_t)in->elems, .in_px = (int32_t)tensor_type_size(in->type),
                         .out_h = 1, .out_w = (int32_t)out->elems, .out_px = (int32_t)tensor_type_size(out->type),
                         .k_h = 1, .k_w = 1, .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1, .group = 0};
  return acc->in_px > 0 && acc->out_px > 0;
}

const OpDef op_quantize = {
    .name = "QUANTIZE",
    .builtin_code = 114,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32->int8/int16, int8/uint8->int8, int16->int8/int16/int32, int8->int16/int32/uint8, "
              "int32->int8/int16",
    .constraints = "per-tensor output quantization",
    .prepare = quantize_prepare,
    .emit = quantize_emit,
    .inplace = quantize_inplace,
};
