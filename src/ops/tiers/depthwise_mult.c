/* The depth-multiplier tiers of int8 DEPTHWISE_CONV_2D (multiplier > 1, one input channel
 * or more): ta_depthwise_conv_mult_dsp_s8 on Cortex-M4, ta_depthwise_conv_mult_mve_s8 on
 * Cortex-M55 (runtime/kernels/ta_depthwise_conv_mult_{dsp,mve}.h). Both take the
 * portable kernel's folded bias and requantisation tables and reordered int8 weights
 * (DSP: ta_depthwise_conv_mult_contract.h; MVE: channel-major). */
#include "depthwise_tier.h"
#include "../../../runtime/kernels/ta_depthwise_conv_mult_contract.h"

/* Both kernels: right shifts of at most 31 (VRSHL, the DSP requantisation), no multiplier
 * INT32_MIN (the DSP's doubling high multiply does not saturate), and the window gathered
 * on the stack (DSP: every pixel, MVE: border pixels): at most TA_DW_MULT_MAX_TAPS taps. */
static bool dw_mult_fits(const DwData *d) {
  const int64_t taps = (int64_t)d->h.k * d->w.k;
  if (taps < 1 || taps > TA_DW_MULT_MAX_TAPS) return false;
  for (int32_t c = 0; c < d->out_c; c++)
    if (dw_right_shift(d, c) > 31 || d->q.multiplier[c] == INT32_MIN) return false;
  return true;
}

/* Taps per channel in the DSP layout: rounded up to a whole group. */
static int32_t dw_mult_padded_taps(const DwData *d) {
  const int32_t g = TA_DW_MULT_TAP_GROUP;
  return (d->h.k * d->w.k + g - 1) / g * g;
}

/* DSP weights [in_c][block][group][channel][4], the multiplier's last channels one by one
 * [group][4] (ta_depthwise_conv_mult_contract.h); padded taps hold 0. */
static bool dw_mult_dsp_weights(PrepareCtx *pc, DwData *d, const Tensor *filter) {
  const int8_t *w = (const int8_t *)filter->data;
  const int32_t taps = d->h.k * d->w.k, padded = dw_mult_padded_taps(d), dm = d->multiplier;
  const int32_t blocks = dm / TA_DW_MULT_CH_BLOCK;
  d->t.weights_n = (size_t)d->out_c * padded;
  if (d->t.weights_n > DW_MAX_TABLE || !(d->t.weights8 = arena_calloc(pc->arena, d->t.weights_n, 1))) return false;
  for (int32_t ic = 0; ic < d->in_c; ic++)
    for (int32_t m = 0; m < dm; m++) {
      const int32_t c = ic * dm + m, b = m / TA_DW_MULT_CH_BLOCK;
      int8_t *base = d->t.weights8 + (size_t)ic * dm * padded;
      for (int32_t t = 0; t < taps; t++) {
        const int32_t g = t / TA_DW_MULT_TAP_GROUP, r = t % TA_DW_MULT_TAP_GROUP;
        const size_t at = b < blocks ? (size_t)b * TA_DW_MULT_CH_BLOCK * padded +
                                           ((size_t)g * TA_DW_MULT_CH_BLOCK + m % TA_DW_MULT_CH_BLOCK) * 4 + r
                                     : (size_t)m * padded + (size_t)g * 4 + r;
        base[at] = w[(size_t)t * d->out_c + c];
      }
    }
  return true;
}

/* MVE weights [out_c][k_h * k_w]: the filter transposed. */
static bool dw_mult_mve_weights(PrepareCtx *pc, DwData *d, const Tensor *filter) {
  const int8_t *w = (const int8_t *)filter->data;
  const int32_t taps = d->h.k * d->w.k;
  d->t.weights_n = (size_t)d->out_c * taps;
  if (d->t.weights_n > DW_MAX_TABLE || !(d->t.weights8 = arena_calloc(pc->arena, d->t.weights_n, 1))) return false;
  for (int32_t c = 0; c < d->out_c; c++)
    for (int32_t t = 0; t < taps; t++) d->t.weights8[(size_t)c * taps + t] = w[(size_t)t * d->out_c + c];
  return true;
}

bool depthwise_mult_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, bool dsp) {
  if (!dw_mult_fits(d)) return false;
  return dsp ? dw_mult_dsp_weights(pc, d, filter) : dw_mult_mve_weights(pc, d, filter);
}

void depthwise_mult_emit(EmitCtx *ec, const Node *node, const DwData *d) {
  const char *name = em_op_name(ec);
  const bool dsp = d->tier == DW_TIER_MULT_DSP;
  const char *kind = dsp ? "dsp" : "mve";
  const char *weights = em_table_i8_from(ec, "weights", EM_FROM_WEIGHTS, d->t.weights8, d->t.weights_n);
  const char *bias = em_table_i32_from(ec, "folded_bias", EM_FROM_BIAS, d->folded_bias, (size_t)d->out_c);
  const char *mult = em_table_i32(ec, "multiplier", d->q.multiplier, (size_t)d->out_c);
  const char *shift = em_table_i32(ec, "shift", d->q.shift, (size_t)d->out_c);
  em_decl(ec,
          "static const ta_depthwise_conv_mult_%s_params_t %s_params = {\n"
          "  .batches = %d,\n  .in_h = %d, .in_w = %d, .in_c = %d,\n  .out_h = %d, .out_w = %d, .out_c = %d,\n"
          "  .multiplier = %d,\n  .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,\n"
          "  .dil_h = %d, .dil_w = %d,\n  .pad_h = %d, .pad_w = %d,\n"
          "  .input_zero_point = %d,\n  .output_zero_point = %d,\n  .act_min = %d, .act_max = %d,\n"
          "  .weights = %s,\n  .bias = %s,\n  .quant_mult = %s,\n  .quant_shift = %s,\n};",
          kind, name, (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->in_c, (int)d->h.out, (int)d->w.out,
          (int)d->out_c, (int)d->multiplier, (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride,
          (int)d->h.dil, (int)d->w.dil, (int)d->h.pad, (int)d->w.pad, (int)d->input_zero_point,
          (int)d->output_zero_point, (int)d->q.act_min, (int)d->q.act_max, weights, bias, mult, shift);
  /* literals: the call is kept by name for the module's descriptor table */
  if (node->inplace) /* written over the dying input pixel by pixel, then moved */
    em_call(ec, dsp ? "ta_depthwise_conv_mult_dsp_s8_inplace" : "ta_depthwise_conv_mult_mve_s8_inplace", 5,
            em_desc(ec, "params"), em_tensor(ec, node->in[0]), conv_inplace_temp(ec, node),
            em_tensor(ec, node->out[0]), em_int(ec, (int64_t)d->h.out * d->w.out * d->out_c));
  else
    em_call(ec, dsp ? "ta_depthwise_conv_mult_dsp_s8" : "ta_depthwise_conv_mult_mve_s8", 3, em_desc(ec, "params"),
            em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}
