/* SVDF: a rank-decomposed time-delay layer whose activation state (a variable tensor)
 * persists across inferences. int8 follows TFLM's integer reference (int16 time
 * weights and state, or int8 time weights and int8 state; no fused activation: TFLM
 * ignores it for integer models);
 * float32 applies the fused activation. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../ir/quant.h"
#include "op.h"

enum { SVDF_IN = 0, SVDF_W_FEATURE = 1, SVDF_W_TIME = 2, SVDF_BIAS = 3, SVDF_STATE = 4 };

typedef struct SvdfShape {
  int32_t batches, input_size, filters, memory, units, rank;
} SvdfShape;

typedef struct SvdfData {
  SvdfShape s;
  /* int8 */
  int32_t *feature_offset, *unit_bias;
  int32_t feature_multiplier, feature_shift, output_multiplier, output_shift;
  int32_t state_zero_point, output_zero_point;
  const char *tier; /* NULL (portable), "dsp" or "mve": the int16-state kernel's tier */
  /* float32 */
  float act_min, act_max;
} SvdfData;

static bool expect_rank2(PrepareCtx *pc, const Node *node, const Tensor *t) {
  if (t->rank != 2) return op_error(pc, node, "%s must have rank 2, has shape %s", op_tensor_desc(pc, t),
                                    tensor_shape_str(pc->arena, t));
  return true;
}

static bool expect_const(PrepareCtx *pc, const Node *node, const Tensor *t) {
  if (!tensor_is_const(t)) return op_error(pc, node, "%s must be a constant", op_tensor_desc(pc, t));
  return true;
}

/* Shapes: input [B,I], weights_feature [F,I], weights_time [F,M], bias [U],
 * state [B, M*F] (variable), output [B,U], F = U * rank. */
static bool svdf_check_shapes(PrepareCtx *pc, const Node *node, int32_t rank, SvdfShape *s) {
  const Model *m = pc->model;
  const Tensor *in = node_input(m, node, SVDF_IN), *wf = node_input(m, node, SVDF_W_FEATURE);
  const Tensor *wt = node_input(m, node, SVDF_W_TIME), *bias = node_input(m, node, SVDF_BIAS);
  const Tensor *state = node_input(m, node, SVDF_STATE), *out = node_output(m, node, 0);
  if (!expect_rank2(pc, node, in) || !expect_rank2(pc, node, wf) || !expect_rank2(pc, node, wt) ||
      !expect_rank2(pc, node, state) || !expect_rank2(pc, node, out))
    return false;
  if (rank < 1) return op_error(pc, node, "rank option is %d, must be >= 1", (int)rank);
  s->rank = rank;
  s->batches = in->dims[0];
  s->input_size = in->dims[1];
  s->filters = wf->dims[0];
  s->memory = wt->dims[1];
  if (s->batches < 1 || s->input_size < 1 || s->filters < 1 || s->memory < 1)
    return op_error(pc, node, "empty or negative dimensions (input %s, weights_feature %s, weights_time %s)",
                    tensor_shape_str(pc->arena, in), tensor_shape_str(pc->arena, wf), tensor_shape_str(pc->arena, wt));
  if (s->filters % rank != 0)
    return op_error(pc, node, "%s has %d filters, not a multiple of rank %d", op_tensor_desc(pc, wf),
                    (int)s->filters, (int)rank);
  s->units = s->filters / rank;
  if (wf->dims[1] != s->input_size)
    return op_error(pc, node, "%s is %s, expected [%d,%d]", op_tensor_desc(pc, wf), tensor_shape_str(pc->arena, wf),
                    (int)s->filters, (int)s->input_size);
  if (wt->dims[0] != s->filters)
    return op_error(pc, node, "%s has %d rows, expected %d filters", op_tensor_desc(pc, wt), (int)wt->dims[0],
                    (int)s->filters);
  int64_t state_cols = (int64_t)s->memory * s->filters;
  if ((int64_t)s->batches * state_cols > INT32_MAX / 4)
    return op_error(pc, node, "state of %d x %lld elements is too large", (int)s->batches, (long long)state_cols);
  if (state->dims[0] != s->batches || state->dims[1] != state_cols)
    return op_error(pc, node, "%s is %s, expected [%d,%lld]", op_tensor_desc(pc, state),
                    tensor_shape_str(pc->arena, state), (int)s->batches, (long long)state_cols);
  if (out->dims[0] != s->batches || out->dims[1] != s->units)
    return op_error(pc, node, "%s is %s, expected [%d,%d]", op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out),
                    (int)s->batches, (int)s->units);
  if (bias && (bias->rank != 1 || bias->dims[0] != s->units))
    return op_error(pc, node, "%s is %s, expected [%d]", op_tensor_desc(pc, bias), tensor_shape_str(pc->arena, bias),
                    (int)s->units);
  if (!state->is_variable || tensor_is_const(state))
    return op_error(pc, node, "activation state %s must be a variable tensor", op_tensor_desc(pc, state));
  if (!expect_const(pc, node, wf) || !expect_const(pc, node, wt) || (bias && !expect_const(pc, node, bias)))
    return false;
  return true;
}

static bool expect_per_tensor(PrepareCtx *pc, const Node *node, const Tensor *t) {
  if (!op_expect_quantized(pc, node, t)) return false;
  if (t->n_quant != 1)
    return op_error(pc, node, "%s has %d quantization scales; only per-tensor quantization is supported",
                    op_tensor_desc(pc, t), t->n_quant);
  return true;
}

/* Folds the input zero point into one offset per filter and the state zero point
 * into the bias, so the kernel multiplies raw values (exact in int32). */
static bool svdf_fold_int8(PrepareCtx *pc, const Node *node, SvdfData *d) {
  const Model *m = pc->model;
  const Tensor *in = node_input(m, node, SVDF_IN), *wf = node_input(m, node, SVDF_W_FEATURE);
  const Tensor *wt = node_input(m, node, SVDF_W_TIME), *bias = node_input(m, node, SVDF_BIAS);
  const SvdfShape *s = &d->s;
  d->feature_offset = arena_calloc(pc->arena, (size_t)s->filters, sizeof(int32_t));
  d->unit_bias = arena_calloc(pc->arena, (size_t)s->units, sizeof(int32_t));
  if (!d->feature_offset || !d->unit_bias) return op_error(pc, node, "out of memory");
  const int8_t *wf_data = (const int8_t *)wf->data;
  for (int32_t f = 0; f < s->filters; f++) {
    int64_t sum = 0;
    for (int32_t c = 0; c < s->input_size; c++) sum += wf_data[(int64_t)f * s->input_size + c];
    d->feature_offset[f] = (int32_t)(uint32_t)(uint64_t)(-(int64_t)tensor_zero_point(in) * sum);
  }
  for (int32_t u = 0; u < s->units; u++) {
    int64_t sum = 0;
    for (int64_t k = (int64_t)u * s->rank * s->memory; k < (int64_t)(u + 1) * s->rank * s->memory; k++)
      sum += wt->type == TT_INT8 ? ((const int8_t *)wt->data)[k] : const_i16(wt, k);
    int64_t b = (int64_t)const_i32(bias, u) - (int64_t)d->state_zero_point * sum;
    d->unit_bias[u] = (int32_t)(uint32_t)(uint64_t)b;
  }
  return true;
}

/* The MVE tier requantises 4 sums per vector (VQRDMULH, VRSHL), TFLM's arithmetic for
 * multipliers >= 0 and shifts in [-31, 30] (docs/kernels.md); other layers keep ta_svdf_s8. */
static bool svdf_mve_quant_ok(const SvdfData *d) {
  return d->feature_multiplier >= 0 && d->feature_shift >= -31 && d->feature_shift <= 30 &&
         d->output_multiplier >= 0 && d->output_shift >= -31 && d->output_shift <= 30;
}

/* Scales exactly as TFLM's PrepareSvdf: float products and quotients, then widened. */
static bool svdf_prepare_int8(PrepareCtx *pc, Node *node, SvdfData *d) {
  const Model *m = pc->model;
  const Tensor *in = node_input(m, node, SVDF_IN), *wf = node_input(m, node, SVDF_W_FEATURE);
  const Tensor *wt = node_input(m, node, SVDF_W_TIME), *bias = node_input(m, node, SVDF_BIAS);
  const Tensor *state = node_input(m, node, SVDF_STATE), *out = node_output(m, node, 0);
  if (!op_expect_type(pc, node, wf, TT_INT8) || !op_expect_type(pc, node, out, TT_INT8)) return false;
  /* TFLite Micro runs two integer forms: int16 time weights and state, or both int8. */
  bool state8 = wt->type == TT_INT8 && state->type == TT_INT8;
  if (!state8 && (wt->type != TT_INT16 || state->type != TT_INT16))
    return op_error(pc, node, "int8 SVDF needs time weights and state both int16 or both int8; %s is %s and %s is %s",
                    op_tensor_desc(pc, wt), tensor_type_name(wt->type), op_tensor_desc(pc, state),
                    tensor_type_name(state->type));
  if (!bias) return op_error(pc, node, "int8 SVDF requires a bias tensor (TFLM reads its scale)");
  if (!op_expect_type(pc, node, bias, TT_INT32)) return false;
  const Tensor *q[] = {in, wf, wt, bias, state, out};
  for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
    if (!expect_per_tensor(pc, node, q[i])) return false;
  float state_time = state->scale[0] * wt->scale[0];
  if (fabs((double)bias->scale[0] - (double)state_time) >= 1e-5)
    return op_error(pc, node, "%s scale %g differs from state scale x time-weight scale %g", op_tensor_desc(pc, bias),
                    (double)bias->scale[0], (double)state_time);
  float feature_scale = in->scale[0] * wf->scale[0];
  feature_scale = feature_scale / state->scale[0];
  float output_scale = state_time / out->scale[0];
  /* ta_svdf_s8 applies both with ta_requantize */
  if (!op_quant_multiplier(pc, node, (double)feature_scale, QUANT_RANGE_INT32, &d->feature_multiplier,
                           &d->feature_shift,
                           "input x feature weights / state scale of tensor %d '%s', tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(in), OP_TENSOR_ARG(wf), OP_TENSOR_ARG(state)) ||
      !op_quant_multiplier(pc, node, (double)output_scale, QUANT_RANGE_INT32, &d->output_multiplier, &d->output_shift,
                           "state x time weights / output scale of tensor %d '%s', tensor %d '%s', tensor %d '%s'",
                           OP_TENSOR_ARG(state), OP_TENSOR_ARG(wt), OP_TENSOR_ARG(out)))
    return false;
  d->state_zero_point = tensor_zero_point(state);
  d->output_zero_point = tensor_zero_point(out);
  if (!svdf_fold_int8(pc, node, d)) return false;
  node->kernel = state8 ? "ta_svdf_s8_state8" : "ta_svdf_s8";
  /* The int16-state form has a tier per core (docs/kernels.md): the same parameters and
   * sums modulo 2^32, so the same results. */
  if (!state8 && pc->platform && (pc->platform->mve ? svdf_mve_quant_ok(d) : pc->platform->dsp)) {
    d->tier = pc->platform->mve ? "mve" : "dsp";
    node->kernel = pc->platform->mve ? "ta_svdf_s8_mve" : "ta_svdf_s8_dsp";
  }
  return true;
}

static bool svdf_prepare_f32(PrepareCtx *pc, Node *node, SvdfData *d, int activation) {
  const Model *m = pc->model;
  for (int i = SVDF_W_FEATURE; i <= SVDF_STATE; i++) {
    const Tensor *t = node_input(m, node, i);
    if (t && !op_expect_type(pc, node, t, TT_FLOAT32)) return false;
  }
  if (!op_expect_type(pc, node, node_output(m, node, 0), TT_FLOAT32)) return false;
  if (activation == ACT_TANH || activation == ACT_SIGN_BIT ||
      !quant_activation_range_f32(activation, &d->act_min, &d->act_max))
    return op_error(pc, node, "fused activation %d is not supported for float32 SVDF", activation);
  node->kernel = "ta_svdf_f32";
  return true;
}

static bool svdf_prepare(PrepareCtx *pc, Node *node) {
  if (node->n_in != 5 || node->n_out != 1)
    return op_error(pc, node, "expects 5 inputs and 1 output, has %d and %d", node->n_in, node->n_out);
  static const int required[] = {SVDF_IN, SVDF_W_FEATURE, SVDF_W_TIME, SVDF_STATE};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
    if (!node_input(pc->model, node, required[i])) return op_error(pc, node, "required input %d is missing", required[i]);
  if (!node_output(pc->model, node, 0)) return op_error(pc, node, "output 0 is missing");
  if (!op_expect_options(pc, node, OPTS_SVDF)) return false;
  int32_t rank = node->opts.svdf.rank;
  int activation = node->opts.svdf.activation;
  SvdfData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->tier = NULL;
  if (!svdf_check_shapes(pc, node, rank, &d->s)) return false;
  const Tensor *in = node_input(pc->model, node, SVDF_IN);
  bool ok;
  if (in->type == TT_INT8)
    ok = svdf_prepare_int8(pc, node, d);
  else if (in->type == TT_FLOAT32)
    ok = svdf_prepare_f32(pc, node, d, activation);
  else
    return op_error(pc, node, "%s has dtype %s; SVDF supports int8 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (!ok) return false;
  const SvdfShape *s = &d->s;
  node->op_data = d;
  node->families[0] = "svdf"; /* a tier's header includes ta_svdf.h (its parameters) */
  if (d->tier) node->families[1] = strcmp(d->tier, "mve") == 0 ? "svdf_mve" : "svdf_dsp";
  node->macs = (int64_t)s->batches * s->filters * ((int64_t)s->input_size + s->memory);
  return true;
}

/* A C float literal that round-trips (9 significant digits), e.g. "8.0f". */
static const char *svdf_float_literal(char *buf, size_t cap, float v) {
  snprintf(buf, cap, "%.9g", (double)v);
  if (!strpbrk(buf, ".eEn")) strncat(buf, ".0", cap - strlen(buf) - 1);
  strncat(buf, "f", cap - strlen(buf) - 1);
  return buf;
}

static void svdf_emit_shape(EmitCtx *ec, const SvdfShape *s) {
  em_decl(ec, "  .batches = %d, .input_size = %d, .filters = %d, .memory = %d, .units = %d, .rank = %d,",
          (int)s->batches, (int)s->input_size, (int)s->filters, (int)s->memory, (int)s->units, (int)s->rank);
}

static void svdf_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const SvdfData *d = node->op_data;
  const Tensor *in = node_input(m, node, SVDF_IN);
  const char *name = em_op_name(ec);
  if (in->type == TT_INT8) {
    const char *offsets = em_table_i32(ec, "feature_offset", d->feature_offset, (size_t)d->s.filters);
    const char *bias = em_table_i32(ec, "unit_bias", d->unit_bias, (size_t)d->s.units);
    em_decl(ec, "static const ta_svdf_s8_params_t %s_params = {", name);
    svdf_emit_shape(ec, &d->s);
    em_decl(ec, "  .feature_offset = %s, .unit_bias = %s,\n"
                "  .feature_multiplier = %d, .feature_shift = %d,\n"
                "  .output_multiplier = %d, .output_shift = %d,\n"
                "  .state_zero_point = %d, .output_zero_point = %d,\n};",
            offsets, bias, (int)d->feature_multiplier, (int)d->feature_shift, (int)d->output_multiplier,
            (int)d->output_shift, (int)d->state_zero_point, (int)d->output_zero_point);
    em_call(ec, node->kernel, 6, em_desc(ec, "params"), em_tensor(ec, node->in[SVDF_IN]),
            em_tensor(ec, node->in[SVDF_W_FEATURE]), em_tensor(ec, node->in[SVDF_W_TIME]),
            em_tensor(ec, node->in[SVDF_STATE]), em_tensor(ec, node->out[0]));
    return;
  }
  em_decl(ec, "static const ta_svdf_f32_params_t %s_params = {", name);
  svdf_emit_shape(ec, &d->s);
  /* Infinite bounds become +-FLT_MAX: same result for every finite value, no math.h needed. */
  float lo = isinf(d->act_min) ? -FLT_MAX : d->act_min, hi = isinf(d->act_max) ? FLT_MAX : d->act_max;
  char lo_text[48], hi_text[48];
  em_decl(ec, "  .act_min = %s, .act_max = %s,\n};", svdf_float_literal(lo_text, sizeof lo_text, lo),
          svdf_float_literal(hi_text, sizeof hi_text, hi));
  em_call(ec, "ta_svdf_f32", 7, em_desc(ec, "params"), em_tensor(ec, node->in[SVDF_IN]),
          em_tensor(ec, node->in[SVDF_W_FEATURE]), em_tensor(ec, node->in[SVDF_W_TIME]),
          em_tensor(ec, node->in[SVDF_BIAS]), em_tensor(ec, node->in[SVDF_STATE]), em_tensor(ec, node->out[0]));
}

/* The state this operator owns starts from its initial value at every init. */
static void svdf_emit_init(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  em_reset_state(ec, node->in[SVDF_STATE]);
}

const OpDef op_svdf = {
    .name = "SVDF",
    .builtin_code = 27,
    /* Owns and mutates state tensors: not stateless (its init resets them), neither pure nor reorderable. */
    .capabilities = CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8 (int16 or int8 time weights and state), float32",
    .constraints = "constant weights and bias; int8 requires a bias and ignores the fused activation (as TFLM); int8 "
                   "state starts at its zero point; as TFLite Micro (reference 90b983c2b3f1), the newest int8 state "
                   "slot is saturated to int8 first and then offset by the state zero point, wrapping around on "
                   "overflow (later TFLite Micro adds the zero point before saturating)",
    .prepare = svdf_prepare,
    .emit = svdf_emit,
    .emit_init = svdf_emit_init,
};
