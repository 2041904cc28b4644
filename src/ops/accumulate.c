/* The int8 rescaling of ADD_N and CUMSUM; see accumulate.h. */
#include "accumulate.h"

#include <stdio.h>

#include "../ir/quant.h"
#include "elementwise.h"

enum { ACCUM_LEFT_SHIFT = 20 };

bool accum_prepare_s8(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out, AccumS8 *q) {
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out)) return false;
  q->input_offset = -tensor_zero_point(in);
  q->out_offset = tensor_zero_point(out);
  q->left_shift = ACCUM_LEFT_SHIFT;
  const double twice_scale = 2.0 * (double)tensor_scale(in);
  const double m_in = (double)tensor_scale(in) / twice_scale;
  const double m_out = twice_scale / ((double)(1 << ACCUM_LEFT_SHIFT) * (double)tensor_scale(out));
  if (!ew_multiplier_below_one(pc, node, m_in, "input", &q->input_multiplier, &q->input_shift) ||
      !ew_multiplier_below_one(pc, node, m_out, "output", &q->out_multiplier, &q->out_shift))
    return false;
  if (!quant_activation_range(ACT_NONE, TT_INT8, tensor_scale(out), q->out_offset, &q->act_min, &q->act_max))
    return op_error(pc, node, "cannot compute the activation range");
  return true;
}

void accum_s8_init(char *buf, size_t cap, const AccumS8 *q) {
  snprintf(buf, cap,
           "{.input_offset = %ld, .left_shift = %ld, .input_multiplier = %ld, .input_shift = %ld,\n"
           "   .out_multiplier = %ld, .out_shift = %ld, .out_offset = %ld, .act_min = %ld, .act_max = %ld}",
           (long)q->input_offset, (long)q->left_shift, (long)q->input_multiplier, (long)q->input_shift,
           (long)q->out_multiplier, (long)q->out_shift, (long)q->out_offset, (long)q->act_min, (long)q->act_max);
}
