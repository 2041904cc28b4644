/* SPACE_TO_BATCH_ND: block rearrangement between space and batch (space_batch.h,
 * runtime/kernels/ta_index.h). */
#include "fill_common.h"
#include "space_batch.h"

static bool space_to_batch_nd_prepare(PrepareCtx *pc, Node *node) { return sb_prepare(pc, node, true); }

const OpDef op_space_to_batch_nd = {
    .name = "SPACE_TO_BATCH_ND",
    .builtin_code = 38,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool",
    .constraints = "3-D or 4-D; constant block shape and paddings; the padding holds zero bytes, not the zero point (TFLite Micro)",
    .prepare = space_to_batch_nd_prepare,
    .emit = sb_emit,
};
