/* The int16x8 Cortex-M4 (DSP) tier of DEPTHWISE_CONV_2D, depth multiplier 1: ta_depthwise_conv_s16_dsp
 * (runtime/kernels/ta_depthwise_conv_s16_dsp.h). Its tables come from dw_s16_dsp_plan, with the
 * requantisation it shares with the int16x8 matrix tier (gemm_s16_dsp.c). */
#include "depthwise_tier.h"
#include "../../../runtime/kernels/ta_s16_dsp_contract.h"

bool depthwise_s16_dsp_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, const Tensor *bias) {
  if (d->kernel == DW_S16 && d->multiplier == 1 && gemm_s16_dsp_available(pc->platform) &&
      d->input_zero_point == 0 && d->output_zero_point == 0 && (!bias || tensor_is_const(bias)))
    return dw_s16_dsp_plan(pc->arena, d->out_c, d->h.k * d->w.k, (const int8_t *)filter->data, bias,
                           d->q.multiplier, d->q.shift, d->q.act_min, d->q.act_max, &d->s16dsp);
  return true;
}

/* The int16x8 Cortex-M4 tier: geometry, requantisation and widened weights. */
void depthwise_s16_dsp_emit(EmitCtx *ec, const Node *node, const DwData *d) {
  const char *name = em_op_name(ec);
  const char *q = s16_requant_emit(ec, &d->s16dsp->q, TA_S16_DSP_DW_BASE);
  em_decl(ec,
          "static const ta_depthwise_s16_dsp_params_t %s_dw16 = {\n  .batches = %d, .in_h = %d, .in_w = %d,"
          " .channels = %d,\n  .out_h = %d, .out_w = %d, .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,"
          " .dil_h = %d, .dil_w = %d, .pad_h = %d, .pad_w = %d,\n  .q = %s,\n};",
          name, (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->out_c, (int)d->h.out, (int)d->w.out,
          (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil,
          (int)d->h.pad, (int)d->w.pad, q);
  /* the border windows of a padded 3x3 filter as whole-pixel blocks */
  if (d->h.k == 3 && d->w.k == 3 && (d->h.pad > 0 || d->w.pad > 0) && d->out_c >= 4 && d->s16dsp->q.hi &&
      (d->s16dsp->q.act_max == 32767 && (d->s16dsp->q.act_min == 0 || d->s16dsp->q.act_min == -32768)))
    em_kernel_variants(ec, "TA_S16_DSP_VARIANTS", TA_S16_DSP_MASK(TA_S16_DSP_BIT_DW_EDGE));
  const char *weights = em_table_i32(ec, "dw16_weights", d->s16dsp->w32, d->s16dsp->n_w32);
  em_call(ec, "ta_depthwise_conv_s16_dsp", 4, em_desc(ec, "dw16"), em_tensor(ec, node->in[0]), weights,
          em_tensor(ec, node->out[0]));
}
