/* What IF and WHILE share: a subgraph prepared as part of one operator of the main
 * graph. The subgraph's inputs take the storage of tensors the operator names (no
 * copy in), its operators are prepared with the operator's context, and every tensor
 * they touch becomes one of the operator's intermediates, so the planner keeps them
 * all live at the operator's position (the layer runs them in a block or a loop). */
#ifndef TINYAOT_SUBGRAPH_CALL_H
#define TINYAOT_SUBGRAPH_CALL_H
#include "op.h"

typedef struct LiveSet {
  int32_t *ids;
  int n, cap;
} LiveSet;

/* Prepares subgraph `index` for `outer`: its n_bind inputs share storage with the
 * tensors bind[] (same dtype and size required). Adds the tensors it touches to live. */
bool subgraph_prepare(PrepareCtx *pc, Node *outer, int32_t index, const int32_t *bind, int n_bind, LiveSet *live);
/* Checks that the subgraph's outputs match the tensors `to` (dtype and size). */
bool subgraph_check_outputs(PrepareCtx *pc, const Node *outer, int32_t index, const int32_t *to, int n_to);
/* Makes the collected tensors the operator's intermediates (for lifetimes). */
bool subgraph_set_live(PrepareCtx *pc, Node *outer, const LiveSet *live);
/* Emits every operator of the subgraph as blocks of the layer body. */
void subgraph_emit(EmitCtx *ec, const Model *m, int32_t index, const char *tag);
/* Emits memcpy(to[i], <subgraph output i>) for every output that is stored elsewhere. */
void subgraph_emit_copy_out(EmitCtx *ec, const Model *m, int32_t index, const int32_t *to);

#endif
