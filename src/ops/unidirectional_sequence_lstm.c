/* UNIDIRECTIONAL_SEQUENCE_LSTM: the standard LSTM over a sequence, with hidden and
 * cell state in variable tensors. As TFLM's kernel: no CIFG, peephole, projection or
 * layer norm; int8 activations/weights with an int16 power-of-two-scaled cell state
 * (gates in Q3.12 -> Q0.15, intermediates ignored), int16 activations with int8
 * weights and int64 biases (the same gates, int64 fully connected sums), or float32. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/quant.h"
#include "fixed_point.h"
#include "op.h"

enum { LSTM_INPUTS = 24, LSTM_IN = 0, LSTM_W_IN = 1, LSTM_W_REC = 5, LSTM_BIAS = 12, LSTM_HIDDEN = 18, LSTM_CELL = 19 };
enum { GATES = 4 };

/* Set to 0 to keep the portable int8 kernel on every core (e.g. to bisect a mismatch). */
#define LSTM_TIERS_ENABLED 1

/* The int8 kernel: portable (ta_lstm.c), DSP (ta_lstm_dsp.c) or MVE (ta_lstm_mve.c). */
typedef enum { LSTM_PORTABLE, LSTM_DSP, LSTM_MVE } LstmTier;

typedef struct LstmData {
  int32_t sequences, rows, time_steps, input_size, state_size;
  /* int8 */
  int8_t *weights_s8;
  int32_t *bias_s8;
  int64_t *bias_s16;  /* int16: per unit the 4 input-side biases */
  bool is_int16;
  LstmTier tier;
  bool small_sums; /* the tiers' short requantisation applies (lstm_small_sums) */
  int32_t in_mult[GATES], in_shift[GATES], rec_mult[GATES], rec_shift[GATES];
  int32_t forget_mult, forget_shift, update_mult, update_shift;
  int32_t hidden_mult, hidden_shift, hidden_zp;
  int32_t cell_tanh_mult, cell_tanh_shift;
  int32_t clip_cell, quantized_cell_clip;
  int16_t sigmoid_nodes[256]; /* gate sigmoid/tanh interpolation nodes, minus 32768 */
  /* float32 */
  float *weights_f32, *bias_f32;
  float cell_clip;
} LstmData;

static bool lstm_is_optional_variant(int i) { return (i >= 9 && i <= 11) || i == 16 || i == 17 || i >= 20; }

/* Which inputs must be present (and which must be absent: TFLM supports no LSTM variant). */
static bool lstm_check_inputs(PrepareCtx *pc, const Node *node) {
  if (node->n_in != LSTM_INPUTS || node->n_out != 1)
    return op_error(pc, node, "expects %d inputs and 1 output, has %d and %d", LSTM_INPUTS, node->n_in, node->n_out);
  for (int i = 0; i < LSTM_INPUTS; i++) {
    const Tensor *t = node_input(pc->model, node, i);
    if (lstm_is_optional_variant(i) && t)
      return op_error(pc, node, "input %d (%s) is set: peephole, projection and layer-norm LSTMs are not supported", i,
                      op_tensor_desc(pc, t));
    if (!lstm_is_optional_variant(i) && !t)
      return op_error(pc, node, "required input %d is missing (CIFG LSTMs are not supported)", i);
  }
  if (!node_output(pc->model, node, 0)) return op_error(pc, node, "output 0 is missing");
  for (int i = LSTM_W_IN; i < LSTM_BIAS + GATES; i++) {
    const Tensor *t = node_input(pc->model, node, i);
    if (t && !tensor_is_const(t)) return op_error(pc, node, "%s must be a constant", op_tensor_desc(pc, t));
  }
  for (int i = LSTM_HIDDEN; i <= LSTM_CELL; i++) {
    const Tensor *t = node_input(pc->model, node, i);
    if (!t->is_variable || tensor_is_const(t))
      return op_error(pc, node, "state %s must be a variable tensor", op_tensor_desc(pc, t));
  }
  return true;
}

static bool expect_dims(PrepareCtx *pc, const Node *node, const Tensor *t, int rank, int32_t d0, int32_t d1) {
  if (t->rank == rank && t->dims[0] == d0 && (rank == 1 || t->dims[1] == d1)) return true;
  if (rank == 1)
    return op_error(pc, node, "%s is %s, expected [%d]", op_tensor_desc(pc, t), tensor_shape_str(pc->arena, t), (int)d0);
  return op_error(pc, node, "%s is %s, expected [%d,%d]", op_tensor_desc(pc, t), tensor_shape_str(pc->arena, t),
                  (int)d0, (int)d1);
}

/* Input [T,B,I] (time major) or [B,T,I]; weights [S,I] / [S,S]; biases [S];
 * states B*S elements; output like the input with S features. */
static bool lstm_check_shapes(PrepareCtx *pc, const Node *node, bool time_major, LstmData *d) {
  const Model *m = pc->model;
  const Tensor *in = node_input(m, node, LSTM_IN), *hidden = node_input(m, node, LSTM_HIDDEN);
  const Tensor *cell = node_input(m, node, LSTM_CELL), *out = node_output(m, node, 0);
  if (in->rank != 3) return op_error(pc, node, "%s must have rank 3, has shape %s", op_tensor_desc(pc, in),
                                     tensor_shape_str(pc->arena, in));
  if (hidden->rank != 2) return op_error(pc, node, "%s must have rank 2, has shape %s", op_tensor_desc(pc, hidden),
                                         tensor_shape_str(pc->arena, hidden));
  int32_t batches = time_major ? in->dims[1] : in->dims[0];
  d->time_steps = time_major ? in->dims[0] : in->dims[1];
  d->input_size = in->dims[2];
  d->state_size = hidden->dims[1];
  if (batches < 1 || d->time_steps < 1 || d->input_size < 1 || d->state_size < 1)
    return op_error(pc, node, "empty or negative dimensions (input %s, hidden state %s)", tensor_shape_str(pc->arena, in),
                    tensor_shape_str(pc->arena, hidden));
  if ((int64_t)batches * d->time_steps * ((int64_t)d->input_size + d->state_size) > INT32_MAX / 8 ||
      (int64_t)d->state_size * 4 * ((int64_t)d->input_size + d->state_size) > INT32_MAX / 8)
    return op_error(pc, node, "LSTM dimensions are too large");
  d->sequences = time_major ? 1 : batches;
  d->rows = time_major ? batches : 1;
  for (int g = 0; g < GATES; g++) {
    if (!expect_dims(pc, node, node_input(m, node, LSTM_W_IN + g), 2, d->state_size, d->input_size) ||
        !expect_dims(pc, node, node_input(m, node, LSTM_W_REC + g), 2, d->state_size, d->state_size) ||
        !expect_dims(pc, node, node_input(m, node, LSTM_BIAS + g), 1, d->state_size, 0))
      return false;
  }
  int64_t state_elems = (int64_t)batches * d->state_size;
  if (hidden->elems != state_elems || cell->elems != state_elems)
    return op_error(pc, node, "states %s and %s must hold %lld elements (batches x state size)",
                    op_tensor_desc(pc, hidden), op_tensor_desc(pc, cell), (long long)state_elems);
  if (out->rank != 3 || out->dims[0] != in->dims[0] || out->dims[1] != in->dims[1] || out->dims[2] != d->state_size)
    return op_error(pc, node, "%s is %s, expected [%d,%d,%d]", op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out),
                    (int)in->dims[0], (int)in->dims[1], (int)d->state_size);
  return true;
}

static bool lstm_expect_types(PrepareCtx *pc, const Node *node, TensorType act, TensorType weight, TensorType bias,
                              TensorType cell) {
  const Model *m = pc->model;
  if (!op_expect_type(pc, node, node_input(m, node, LSTM_IN), act) ||
      !op_expect_type(pc, node, node_input(m, node, LSTM_HIDDEN), act) ||
      !op_expect_type(pc, node, node_output(m, node, 0), act) ||
      !op_expect_type(pc, node, node_input(m, node, LSTM_CELL), cell))
    return false;
  for (int g = 0; g < GATES; g++)
    if (!op_expect_type(pc, node, node_input(m, node, LSTM_W_IN + g), weight) ||
        !op_expect_type(pc, node, node_input(m, node, LSTM_W_REC + g), weight) ||
        !op_expect_type(pc, node, node_input(m, node, LSTM_BIAS + g), bias))
      return false;
  return true;
}

/* Per unit: the unit's row of the 4 input matrices, then of the 4 recurrent ones. */
static size_t lstm_weight_index(const LstmData *d, int32_t unit, int g, bool recurrent, int32_t k) {
  size_t unit_len = (size_t)4 * (size_t)(d->input_size + d->state_size);
  size_t base = (size_t)unit * unit_len;
  if (!recurrent) return base + (size_t)g * (size_t)d->input_size + (size_t)k;
  return base + (size_t)4 * (size_t)d->input_size + (size_t)g * (size_t)d->state_size + (size_t)k;
}

static size_t lstm_weight_count(const LstmData *d) {
  return (size_t)d->state_size * 4u * (size_t)(d->input_size + d->state_size);
}

/* Re-lays out the weights and folds both zero points into the biases:
 * sum w*(x - zx) + b = sum w*x + (b - zx * sum w), exact in int32. */
static bool lstm_fold_int8(PrepareCtx *pc, const Node *node, LstmData *d) {
  const Model *m = pc->model;
  d->weights_s8 = arena_alloc(pc->arena, lstm_weight_count(d));
  d->bias_s8 = arena_calloc(pc->arena, (size_t)d->state_size * 8u, sizeof(int32_t));
  if (!d->weights_s8 || !d->bias_s8) return op_error(pc, node, "out of memory");
  int64_t input_zp = tensor_zero_point(node_input(m, node, LSTM_IN));
  int64_t hidden_zp = tensor_zero_point(node_input(m, node, LSTM_HIDDEN));
  for (int g = 0; g < GATES; g++) {
    const int8_t *w_in = (const int8_t *)node_input(m, node, LSTM_W_IN + g)->data;
    const int8_t *w_rec = (const int8_t *)node_input(m, node, LSTM_W_REC + g)->data;
    const Tensor *bias = node_input(m, node, LSTM_BIAS + g);
    for (int32_t j = 0; j < d->state_size; j++) {
      int64_t sum_in = 0, sum_rec = 0;
      for (int32_t k = 0; k < d->input_size; k++) {
        int8_t w = w_in[(size_t)j * (size_t)d->input_size + (size_t)k];
        d->weights_s8[lstm_weight_index(d, j, g, false, k)] = w;
        sum_in += w;
      }
      for (int32_t k = 0; k < d->state_size; k++) {
        int8_t w = w_rec[(size_t)j * (size_t)d->state_size + (size_t)k];
        d->weights_s8[lstm_weight_index(d, j, g, true, k)] = w;
        sum_rec += w;
      }
      d->bias_s8[(size_t)j * 8u + (size_t)g] = (int32_t)(uint32_t)(uint64_t)(const_i32(bias, j) - input_zp * sum_in);
      d->bias_s8[(size_t)j * 8u + 4u + (size_t)g] = (int32_t)(uint32_t)(uint64_t)(-hidden_zp * sum_rec);
    }
  }
  return true;
}

/* The DSP tier's order (ta_lstm_dsp.h): per unit and side, for each group of 4
 * elements the 4 gates' 4 weights, then the 4 gates' n % 4 tail weights. */
static bool lstm_reorder_dsp(PrepareCtx *pc, const Node *node, LstmData *d) {
  int8_t *out = arena_alloc(pc->arena, lstm_weight_count(d));
  if (!out) return op_error(pc, node, "out of memory");
  size_t o = 0;
  for (int32_t j = 0; j < d->state_size; j++)
    for (int side = 0; side < 2; side++) {
      const int32_t n = side ? d->state_size : d->input_size, groups = n / 4, tail = n % 4;
      for (int32_t c = 0; c < groups; c++)
        for (int g = 0; g < GATES; g++)
          for (int32_t k = 0; k < 4; k++) out[o++] = d->weights_s8[lstm_weight_index(d, j, g, side, c * 4 + k)];
      for (int g = 0; g < GATES; g++)
        for (int32_t k = 0; k < tail; k++) out[o++] = d->weights_s8[lstm_weight_index(d, j, g, side, groups * 4 + k)];
    }
  d->weights_s8 = out;
  return true;
}

static bool lstm_expect_quant(PrepareCtx *pc, const Node *node, const Tensor *t, bool symmetric) {
  if (!op_expect_quantized(pc, node, t)) return false;
  if (t->n_quant != 1)
    return op_error(pc, node, "%s has %d quantization scales; only per-tensor quantization is supported",
                    op_tensor_desc(pc, t), t->n_quant);
  if (symmetric && t->zero_point[0] != 0)
    return op_error(pc, node, "%s has zero point %lld, expected 0", op_tensor_desc(pc, t),
                    (long long)t->zero_point[0]);
  return true;
}

/* TFLM's FC multiplier: the float product of the scales, widened, over the output scale.
 * ta_lstm_s8 applies every multiplier with ta_requantize, ta_lstm_s16 its FC ones with
 * ta_requantize64. */
static bool lstm_fc_multiplier(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *w, float out_scale,
                               int32_t *mult, int32_t *shift) {
  float product = in->scale[0] * w->scale[0];
  const QuantRange range = in->type == TT_INT16 ? QUANT_RANGE_INT64 : QUANT_RANGE_INT32;
  return op_quant_multiplier(pc, node, (double)product / (double)out_scale, range, mult, shift,
                             "input x weights / 2^-12 gate scale of tensor %d '%s', tensor %d '%s'", OP_TENSOR_ARG(in),
                             OP_TENSOR_ARG(w));
}

/* TFLM's element-wise multiply rescale, in double. */
static bool lstm_mul_multiplier(PrepareCtx *pc, const Node *node, float a, float b, float out, const char *what,
                                int32_t *mult, int32_t *shift) {
  return op_quant_multiplier(pc, node, (double)a * (double)b / (double)out, QUANT_RANGE_INT32, mult, shift, "%s",
                             what);
}

/* tanh(cell) input scaling: TFLM derives a shift from log2 of the cell scale
 * (rounded as CheckedLog2 does, in float) and folds the table's x3 into a multiplier. */
static bool lstm_cell_tanh_params(PrepareCtx *pc, const Node *node, float cell_scale, LstmData *d) {
  float log2_scale = logf(cell_scale) * (1.0f / logf(2.0f));
  int power = (int)roundf(log2_scale);
  int left = 15 + power - 3;
  if (left > 14 || left < -30)
    return op_error(pc, node, "cell state scale %g (2^%d) is out of the supported range", (double)cell_scale, power);
  if (left >= 0) {
    d->cell_tanh_mult = 3 << left;
    d->cell_tanh_shift = 0;
  } else {
    d->cell_tanh_mult = 3;
    d->cell_tanh_shift = -left;
  }
  return true;
}

/* int16: weights re-laid out as for int8, biases kept (zero points are 0). */
static bool lstm_layout_int16(PrepareCtx *pc, const Node *node, LstmData *d) {
  const Model *m = pc->model;
  d->weights_s8 = arena_alloc(pc->arena, lstm_weight_count(d));
  d->bias_s16 = arena_calloc(pc->arena, (size_t)d->state_size * 4u, sizeof(int64_t));
  if (!d->weights_s8 || !d->bias_s16) return op_error(pc, node, "out of memory");
  for (int g = 0; g < GATES; g++) {
    const int8_t *w_in = (const int8_t *)node_input(m, node, LSTM_W_IN + g)->data;
    const int8_t *w_rec = (const int8_t *)node_input(m, node, LSTM_W_REC + g)->data;
    const Tensor *bias = node_input(m, node, LSTM_BIAS + g);
    for (int32_t j = 0; j < d->state_size; j++) {
      for (int32_t k = 0; k < d->input_size; k++)
        d->weights_s8[lstm_weight_index(d, j, g, false, k)] = w_in[(size_t)j * (size_t)d->input_size + (size_t)k];
      for (int32_t k = 0; k < d->state_size; k++)
        d->weights_s8[lstm_weight_index(d, j, g, true, k)] = w_rec[(size_t)j * (size_t)d->state_size + (size_t)k];
      d->bias_s16[(size_t)j * 4u + (size_t)g] = const_i64(bias, j);
    }
  }
  return true;
}

/* Whether every requantised value of the tiers' DSP gates has magnitude below 2^30
 * after its left shift, so that ta_lstm_gate_requantize_small applies: each gate sum is
 * at most |bias| + 128 * sum |w| (inputs and hidden values are int8), the element-wise
 * products of Q0.15 gates and int16 cells are below 2^30 and must not shift left. */
static bool lstm_small_sums(const LstmData *d) {
  if (d->forget_shift > 0 || d->update_shift > 0 || d->hidden_shift > 0) return false;
  for (int32_t j = 0; j < d->state_size; j++)
    for (int g = 0; g < GATES; g++)
      for (int side = 0; side < 2; side++) {
        const int32_t n = side ? d->state_size : d->input_size;
        const int32_t shift = side ? d->rec_shift[g] : d->in_shift[g];
        int64_t bound = llabs((long long)d->bias_s8[(size_t)j * 8u + (size_t)(side * 4 + g)]);
        for (int32_t k = 0; k < n; k++) bound += 128 * llabs((long long)d->weights_s8[lstm_weight_index(d, j, g, side, k)]);
        if (shift > 0) bound <<= shift; /* bound < 2^32 here, shift <= 30 */
        if (bound >= ((int64_t)1 << 30)) return false;
      }
  return true;
}

static bool lstm_tier_quant_ok(int32_t mult, int32_t shift) { return mult >= 0 && shift >= -31 && shift <= 30; }

/* The tiers' requantisation (ta_lstm_gates.h, the MVE shifts) assumes multipliers >= 0
 * and shifts in [-31, 30]. */
static bool lstm_tier_supported(const LstmData *d) {
  for (int g = 0; g < GATES; g++)
    if (!lstm_tier_quant_ok(d->in_mult[g], d->in_shift[g]) || !lstm_tier_quant_ok(d->rec_mult[g], d->rec_shift[g]))
      return false;
  return lstm_tier_quant_ok(d->forget_mult, d->forget_shift) && lstm_tier_quant_ok(d->update_mult, d->update_shift) &&
         lstm_tier_quant_ok(d->hidden_mult, d->hidden_shift);
}

static bool lstm_prepare_int8(PrepareCtx *pc, Node *node, LstmData *d, float cell_clip) {
  const Model *m = pc->model;
  const Tensor *in = node_input(m, node, LSTM_IN), *hidden = node_input(m, node, LSTM_HIDDEN);
  const Tensor *cell = node_input(m, node, LSTM_CELL);
  d->is_int16 = in->type == TT_INT16;
  if (d->is_int16 ? !lstm_expect_types(pc, node, TT_INT16, TT_INT8, TT_INT64, TT_INT16)
                  : !lstm_expect_types(pc, node, TT_INT8, TT_INT8, TT_INT32, TT_INT16))
    return false;
  if (!lstm_expect_quant(pc, node, in, d->is_int16) || !lstm_expect_quant(pc, node, hidden, d->is_int16) ||
      !lstm_expect_quant(pc, node, cell, true))
    return false;
  const float gate_in_scale = 1.0f / 4096.0f;        /* Q3.12 gate pre-activations */
  const float gate_out_scale = 1.0f / 32768.0f;      /* Q0.15 gate outputs */
  for (int g = 0; g < GATES; g++) {
    const Tensor *w_in = node_input(m, node, LSTM_W_IN + g), *w_rec = node_input(m, node, LSTM_W_REC + g);
    if (!lstm_expect_quant(pc, node, w_in, true) || !lstm_expect_quant(pc, node, w_rec, true)) return false;
    if (!lstm_fc_multiplier(pc, node, in, w_in, gate_in_scale, &d->in_mult[g], &d->in_shift[g]) ||
        !lstm_fc_multiplier(pc, node, hidden, w_rec, gate_in_scale, &d->rec_mult[g], &d->rec_shift[g]))
      return false;
  }
  const float cs = cell->scale[0];
  if (!lstm_mul_multiplier(pc, node, gate_out_scale, cs, cs, "forget gate 2^-15 x cell / cell scale", &d->forget_mult,
                           &d->forget_shift) ||
      !lstm_mul_multiplier(pc, node, gate_out_scale, gate_out_scale, cs, "2^-15 x 2^-15 / cell scale",
                           &d->update_mult, &d->update_shift) ||
      !lstm_mul_multiplier(pc, node, gate_out_scale, gate_out_scale, hidden->scale[0],
                           "2^-15 x 2^-15 / hidden state scale", &d->hidden_mult, &d->hidden_shift))
    return false;
  d->hidden_zp = tensor_zero_point(hidden);
  if (!lstm_cell_tanh_params(pc, node, cs, d)) return false;
  d->clip_cell = cell_clip > 0.0f;
  double q = (double)cell_clip / (double)cs;
  d->quantized_cell_clip = (int16_t)(q < -32768.0 ? -32768.0 : q > 32767.0 ? 32767.0 : q);
  if (d->is_int16 ? !lstm_layout_int16(pc, node, d) : !lstm_fold_int8(pc, node, d)) return false;
  fx_sigmoid_nodes_i16(d->sigmoid_nodes);
  node->kernel = d->is_int16 ? "ta_lstm_s16" : "ta_lstm_s8";
  d->tier = LSTM_PORTABLE;
  if (!d->is_int16 && LSTM_TIERS_ENABLED && pc->platform && lstm_tier_supported(d))
    d->tier = pc->platform->mve ? LSTM_MVE : pc->platform->dsp ? LSTM_DSP : LSTM_PORTABLE;
  d->small_sums = d->tier != LSTM_PORTABLE && lstm_small_sums(d);
  if (d->tier == LSTM_DSP && !lstm_reorder_dsp(pc, node, d)) return false;
  if (d->tier != LSTM_PORTABLE) node->kernel = d->tier == LSTM_MVE ? "ta_lstm_s8_mve" : "ta_lstm_s8_dsp";
  return true;
}

static bool lstm_prepare_f32(PrepareCtx *pc, Node *node, LstmData *d, float cell_clip) {
  const Model *m = pc->model;
  if (!lstm_expect_types(pc, node, TT_FLOAT32, TT_FLOAT32, TT_FLOAT32, TT_FLOAT32)) return false;
  d->weights_f32 = arena_calloc(pc->arena, lstm_weight_count(d), sizeof(float));
  d->bias_f32 = arena_calloc(pc->arena, (size_t)d->state_size * 4u, sizeof(float));
  if (!d->weights_f32 || !d->bias_f32) return op_error(pc, node, "out of memory");
  for (int g = 0; g < GATES; g++) {
    const Tensor *w_in = node_input(m, node, LSTM_W_IN + g), *w_rec = node_input(m, node, LSTM_W_REC + g);
    const Tensor *bias = node_input(m, node, LSTM_BIAS + g);
    for (int32_t j = 0; j < d->state_size; j++) {
      for (int32_t k = 0; k < d->input_size; k++)
        d->weights_f32[lstm_weight_index(d, j, g, false, k)] = const_f32(w_in, (int64_t)j * d->input_size + k);
      for (int32_t k = 0; k < d->state_size; k++)
        d->weights_f32[lstm_weight_index(d, j, g, true, k)] = const_f32(w_rec, (int64_t)j * d->state_size + k);
      d->bias_f32[(size_t)j * 4u + (size_t)g] = const_f32(bias, j);
    }
  }
  d->cell_clip = cell_clip;
  node->kernel = "ta_lstm_f32";
  return true;
}

static bool lstm_prepare(PrepareCtx *pc, Node *node) {
  if (!lstm_check_inputs(pc, node) || !op_expect_options(pc, node, OPTS_UNIDIRECTIONAL_SEQUENCE_LSTM)) return false;
  int activation = node->opts.lstm.activation;
  float cell_clip = node->opts.lstm.cell_clip;
  bool time_major = node->opts.lstm.time_major;
  if (activation != ACT_TANH)
    return op_error(pc, node, "cell gate activation %d is not supported (only TANH, as TFLM)", activation);
  if (!(cell_clip >= 0.0f) || isinf(cell_clip))
    return op_error(pc, node, "cell_clip %g must be a finite value >= 0", (double)cell_clip);
  LstmData *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  if (!lstm_check_shapes(pc, node, time_major, d)) return false;
  const Tensor *in = node_input(pc->model, node, LSTM_IN);
  bool ok;
  if (in->type == TT_INT8 || in->type == TT_INT16)
    ok = lstm_prepare_int8(pc, node, d, cell_clip);
  else if (in->type == TT_FLOAT32)
    ok = lstm_prepare_f32(pc, node, d, cell_clip);
  else
    return op_error(pc, node, "%s has dtype %s; the LSTM supports int8, int16 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type));
  if (!ok) return false;
  node->op_data = d;
  node->families[0] = in->type == TT_FLOAT32 ? "lstm_f32" : d->tier == LSTM_MVE ? "lstm_mve"
                                                         : d->tier == LSTM_DSP ? "lstm_dsp" : "lstm";
  node->macs = (int64_t)d->sequences * d->rows * d->time_steps * 4 * d->state_size *
               ((int64_t)d->input_size + d->state_size);
  return true;
}

static void lstm_emit_sizes(EmitCtx *ec, const LstmData *d) {
  em_decl(ec, "  .sequences = %d, .rows = %d, .time_steps = %d, .input_size = %d, .state_size = %d,", (int)d->sequences,
          (int)d->rows, (int)d->time_steps, (int)d->input_size, (int)d->state_size);
}

static void lstm_emit_gate_array(EmitCtx *ec, const char *field, const int32_t *v) {
  em_decl(ec, "  .%s = {%d, %d, %d, %d},", field, (int)v[0], (int)v[1], (int)v[2], (int)v[3]);
}

static void lstm_emit_int8(EmitCtx *ec, const Node *node, const LstmData *d) {
  const char *name = em_op_name(ec);
  const char *weights = em_table_i8(ec, "weights", d->weights_s8, lstm_weight_count(d));
  const char *bias = d->is_int16 ? em_table_i64(ec, "bias", d->bias_s16, (size_t)d->state_size * 4u)
                                 : em_table_i32(ec, "bias", d->bias_s8, (size_t)d->state_size * 8u);
  const char *nodes = em_table_i16(ec, "sigmoid_table", d->sigmoid_nodes, 256);
  em_decl(ec, "static const %s_params_t %s_params = {", d->tier == LSTM_PORTABLE ? node->kernel : "ta_lstm_s8_tier",
          name);
  lstm_emit_sizes(ec, d);
  em_decl(ec, "  .weights = %s, .bias = %s, .sigmoid_table = %s,", weights, bias, nodes);
  lstm_emit_gate_array(ec, "in_multiplier", d->in_mult);
  lstm_emit_gate_array(ec, "in_shift", d->in_shift);
  lstm_emit_gate_array(ec, "rec_multiplier", d->rec_mult);
  lstm_emit_gate_array(ec, "rec_shift", d->rec_shift);
  if (d->is_int16) /* zero points are 0: no hidden zero point field */
    em_decl(ec, "  .forget_multiplier = %d, .forget_shift = %d,\n"
                "  .update_multiplier = %d, .update_shift = %d,\n"
                "  .hidden_multiplier = %d, .hidden_shift = %d,\n"
                "  .cell_tanh_multiplier = %d, .cell_tanh_shift = %d,\n"
                "  .clip_cell = %d, .cell_clip = %d,\n};",
            (int)d->forget_mult, (int)d->forget_shift, (int)d->update_mult, (int)d->update_shift, (int)d->hidden_mult,
            (int)d->hidden_shift, (int)d->cell_tanh_mult, (int)d->cell_tanh_shift, (int)d->clip_cell,
            (int)d->quantized_cell_clip);
  else
  em_decl(ec, "  .forget_multiplier = %d, .forget_shift = %d,\n"
              "  .update_multiplier = %d, .update_shift = %d,\n"
              "  .hidden_multiplier = %d, .hidden_shift = %d, .hidden_zero_point = %d,\n"
              "  .cell_tanh_multiplier = %d, .cell_tanh_shift = %d,\n"
              "  .clip_cell = %d, .cell_clip = %d,%s\n};",
          (int)d->forget_mult, (int)d->forget_shift, (int)d->update_mult, (int)d->update_shift, (int)d->hidden_mult,
          (int)d->hidden_shift, (int)d->hidden_zp, (int)d->cell_tanh_mult, (int)d->cell_tanh_shift, (int)d->clip_cell,
          (int)d->quantized_cell_clip,
          d->tier == LSTM_PORTABLE ? "" : d->small_sums ? "\n  .small_sums = 1," : "\n  .small_sums = 0,");
  em_call(ec, node->kernel, 5, em_desc(ec, "params"), em_tensor(ec, node->in[LSTM_IN]),
          em_tensor(ec, node->in[LSTM_HIDDEN]), em_tensor(ec, node->in[LSTM_CELL]), em_tensor(ec, node->out[0]));
}

/* A C float literal that round-trips (9 significant digits), e.g. "8.0f". */
static const char *lstm_float_literal(char *buf, size_t cap, float v) {
  snprintf(buf, cap, "%.9g", (double)v);
  if (!strpbrk(buf, ".eEn")) strncat(buf, ".0", cap - strlen(buf) - 1);
  strncat(buf, "f", cap - strlen(buf) - 1);
  return buf;
}

static void lstm_emit_f32(EmitCtx *ec, const Node *node, const LstmData *d) {
  const char *name = em_op_name(ec);
  const char *weights = em_table_f32(ec, "weights", d->weights_f32, lstm_weight_count(d));
  const char *bias = em_table_f32(ec, "bias", d->bias_f32, (size_t)d->state_size * 4u);
  em_decl(ec, "static const ta_lstm_f32_params_t %s_params = {", name);
  lstm_emit_sizes(ec, d);
  char clip[48];
  em_decl(ec, "  .weights = %s, .bias = %s,\n  .cell_clip = %s,\n};", weights, bias,
          lstm_float_literal(clip, sizeof clip, d->cell_clip));
  em_call(ec, "ta_lstm_f32", 5, em_desc(ec, "params"), em_tensor(ec, node->in[LSTM_IN]),
          em_tensor(ec, node->in[LSTM_HIDDEN]), em_tensor(ec, node->in[LSTM_CELL]), em_tensor(ec, node->out[0]));
}

static void lstm_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const LstmData *d = node->op_data;
  if (node_input(m, node, LSTM_IN)->type != TT_FLOAT32)
    lstm_emit_int8(ec, node, d);
  else
    lstm_emit_f32(ec, node, d);
}

/* The state this operator owns starts from its initial value at every init. */
static void lstm_emit_init(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  em_reset_state(ec, node->in[LSTM_HIDDEN]);
  em_reset_state(ec, node->in[LSTM_CELL]);
}

const OpDef op_unidirectional_sequence_lstm = {
    .name = "UNIDIRECTIONAL_SEQUENCE_LSTM",
    .builtin_code = 44,
    /* Mutates its hidden and cell state tensors: neither pure nor reorderable. */
    .capabilities = CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8 (int16 cell state), int16x8 (int64 biases, int16 cell state), float32",
    .constraints = "standard LSTM only (no CIFG, peephole, projection, layer norm); cell gate TANH; constant "
                   "per-tensor weights; int8 cell state scale a power of two as TFLM assumes",
    .prepare = lstm_prepare,
    .emit = lstm_emit,
    .emit_init = lstm_emit_init,
};
