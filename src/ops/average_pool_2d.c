/* AVERAGE_POOL_2D: mean over each window clipped to the input, int8/int16/float32. */
#include "pool2d.h"

#include <string.h>
#include "../../runtime/kernels/ta_pooling_contract.h"

/* int8 on an MVE target sums 4 channels per vector (ta_pooling_mve.h); same arithmetic. */
static bool average_pool_2d_prepare(PrepareCtx *pc, Node *node) {
  if (!pool2d_prepare(pc, node, "ta_avg_pool")) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  if (in->type == TT_INT8 && pc->platform && pc->platform->mve) {
    node->kernel = "ta_avg_pool_s8_mve";
    node->families[0] = "pooling_mve";
    node->families[1] = "pooling";
  }
  return true;
}

/* int8 on the reference/DSP tier: TA_POOLING_VARIANTS names ta_avg_pool_s8's loop (ta_pooling.h):
 * TA_POOL_AVG_WORDS_BIT the channel-group loop (depth % 8 == 0, windows of 16 to 256 cells), else _GENERIC_BIT.
 * Smaller windows keep the generic loop's 252 bytes (vww's 3x3 would save 16.6k instructions
 * for 160 bytes more); kws's 25x5 window: 67.6k -> 15.6k. The MVE kernel's fallback is the generic bit. */
static void average_pool_2d_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const PoolData *d = node->op_data;
  if (d->type == TT_INT8) {
    const int32_t cells = d->filter_h * d->filter_w;
    const bool words = strcmp(node->kernel, "ta_avg_pool_s8") == 0 && d->depth % 8 == 0 && cells >= 16 &&
                       cells <= TA_POOL_AVG_WORDS_MAX_CELLS;
    em_kernel_variants(ec, "TA_POOLING_VARIANTS",
                       TA_POOL_MASK(words ? TA_POOL_AVG_WORDS_BIT : TA_POOL_AVG_GENERIC_BIT));
  }
  /* int16: the channel-group loop (depth % 8 == 0; kws_a16w8's 25x5 window 69.0k -> ~17k on M4) */
  if (d->type == TT_INT16 && d->depth % 8 == 0)
    em_kernel_variants(ec, "TA_POOLING_VARIANTS", TA_POOL_MASK(TA_POOL_AVG16_WORDS_BIT));
  pool2d_emit(ec, m, node);
}

const OpDef op_average_pool_2d = {
    .name = "AVERAGE_POOL_2D",
    .builtin_code = 1,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .cost_window = COST_WINDOW_POOL,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "4-D NHWC; input and output share quantization; SAME or VALID padding",
    .prepare = average_pool_2d_prepare,
    .emit = average_pool_2d_emit,
};
