/* BATCH_TO_SPACE_ND: block rearrangement between space and batch (space_batch.h,
 * runtime/kernels/ta_index.h). */
#include "fill_common.h"
#include "space_batch.h"

static bool batch_to_space_nd_prepare(PrepareCtx *pc, Node *node) { return sb_prepare(pc, node, false); }

const OpDef op_batch_to_space_nd = {
    .name = "BATCH_TO_SPACE_ND",
    .builtin_code = 37,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool",
    .constraints = "3-D or 4-D; constant block shape and crops",
    .prepare = batch_to_space_nd_prepare,
    .emit = sb_emit,
};
