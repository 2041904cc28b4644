/* Shared by SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND (runtime/kernels/ta_index.h):
 * 3-D or 4-D tensors, constant block shape and paddings / crops. */
#ifndef TINYAOT_SPACE_BATCH_H
#define TINYAOT_SPACE_BATCH_H
#include <stdbool.h>

#include "op.h"

/* prepare(): to_batch selects SPACE_TO_BATCH_ND (paddings) or BATCH_TO_SPACE_ND (crops). */
bool sb_prepare(PrepareCtx *pc, Node *node, bool to_batch);
/* emit(): the ta_space_batch_params_t and the kernel call. */
void sb_emit(EmitCtx *ec, const Model *m, const Node *node);

#endif
