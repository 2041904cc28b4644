/* The int16x8 Cortex-M55 (MVE) tier of DEPTHWISE_CONV_2D, depth multiplier 1: ta_depthwise_conv_s16_mve
 * (runtime/kernels/ta_depthwise_conv_s16_mve.h). Its tables come from dw_s16_mve_plan, with the
 * requantisation it shares with the int16x8 matrix tier (gemm_s16_mve.c). */
#include "depthwise_tier.h"

bool depthwise_s16_mve_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, const Tensor *bias) {
  if (d->kernel == DW_S16 && d->multiplier == 1 && gemm_s16_mve_available(pc->platform) &&
      d->input_zero_point == 0 && d->output_zero_point == 0 && (!bias || tensor_is_const(bias)))
    return dw_s16_mve_plan(pc->arena, d->out_c, d->h.k * d->w.k, (const int8_t *)filter->data, bias,
                           d->q.multiplier, d->q.shift, &d->s16mve);
  return true;
}

/* The int16x8 Cortex-M55 tier: geometry, the per-block requantisation table and the
 * filter re-laid per block of 8 channels. */
void depthwise_s16_mve_emit(EmitCtx *ec, const Node *node, const DwData *d) {
  const char *name = em_op_name(ec);
  const char *rq = em_table_i32(ec, "dw16m_rq", d->s16mve->rq, d->s16mve->n_rq);
  const char *general =
      d->s16mve->general ? em_table_i32(ec, "dw16m_general", d->s16mve->general, (size_t)d->out_c * 4) : "NULL";
  const char *wide =
      d->s16mve->wide ? em_table_i32(ec, "dw16m_wide", d->s16mve->wide, (size_t)(d->out_c + 7) / 8 * 32) : "NULL";
  em_decl(ec,
          "static const ta_depthwise_s16_mve_params_t %s_dw16m = {\n  .batches = %d, .in_h = %d, .in_w = %d,"
          " .channels = %d,\n  .out_h = %d, .out_w = %d, .k_h = %d, .k_w = %d,\n  .stride_h = %d, .stride_w = %d,"
          " .dil_h = %d, .dil_w = %d, .pad_h = %d, .pad_w = %d,\n  .rq = %s, .act_min = %d, .act_max = %d,"
          " .general = %s,\n  .wide = %s,\n};",
          name, (int)d->batches, (int)d->h.in, (int)d->w.in, (int)d->out_c, (int)d->h.out, (int)d->w.out,
          (int)d->h.k, (int)d->w.k, (int)d->h.stride, (int)d->w.stride, (int)d->h.dil, (int)d->w.dil,
          (int)d->h.pad, (int)d->w.pad, rq, (int)d->q.act_min, (int)d->q.act_max, general, wide);
  const char *weights = em_table_i8_from(ec, "dw16m_weights", EM_FROM_WEIGHTS, d->s16mve->w8, d->s16mve->n_w8);
  em_call(ec, "ta_depthwise_conv_s16_mve", 4, em_desc(ec, "dw16m"), em_tensor(ec, node->in[0]), weights,
          em_tensor(ec, node->out[0]));
}
