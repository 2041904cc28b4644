/* SELECT_V2: out = condition ? x : y elementwise, the three inputs broadcast to the
 * output shape (NumPy rules). Values are copied as they are, so x, y and the output
 * must share one quantization (TensorFlow Lite Micro copies raw values too). */
#include <stdio.h>

#include "broadcast_walk.h"
#include "elementwise.h"
#include "op.h"

enum { SELECT_MAX_LOOPS = 6 }; /* = TA_SELECT_MAX_RANK */

static bool select_v2_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 3, 3, 1)) return false;
  const Tensor *cond = node_input(pc->model, node, 0), *x = node_input(pc->model, node, 1);
  const Tensor *y = node_input(pc->model, node, 2), *out = node_output(pc->model, node, 0);
  if (!op_expect_type(pc, node, cond, TT_BOOL)) return false;
  switch (x->type) {
    case TT_FLOAT32: case TT_INT8: case TT_INT16: case TT_INT32: case TT_INT64: case TT_UINT8: case TT_BOOL: break;
    default:
      return op_error(pc, node, "%s has dtype %s; SELECT_V2 supports float32, int8, int16, int32, int64, uint8 and bool",
                      op_tensor_desc(pc, x), tensor_type_name(x->type));
  }
  if (!op_expect_type(pc, node, y, x->type) || !op_expect_type(pc, node, out, x->type)) return false;
  if (x->n_quant > 0 && (!ew_expect_same_quant(pc, node, x, out) || !ew_expect_same_quant(pc, node, y, out)))
    return false;
  BcWalk *w = arena_calloc(pc->arena, 1, sizeof *w);
  if (!w) return op_error(pc, node, "out of memory");
  const Tensor *ins[3] = {cond, x, y};
  if (!bw_build(pc, node, out, 3, ins, SELECT_MAX_LOOPS, w)) return false;
  node->op_data = w;
  node->kernel = "ta_select_v2";
  node->families[0] = "compare";
  node->families[1] = "elementwise"; /* ta_compare.h includes it */
  node->macs = 0;
  return true;
}

static void select_v2_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const BcWalk *w = node->op_data;
  const Tensor *out = node_output(m, node, 0);
  if (out->elems == 0) return;
  char dims[128], sc[128], sx[128], sy[128];
  bw_list(dims, sizeof dims, w->dims, w->rank);
  bw_list(sc, sizeof sc, w->stride[0], w->rank);
  bw_list(sx, sizeof sx, w->stride[1], w->rank);
  bw_list(sy, sizeof sy, w->stride[2], w->rank);
  em_decl(ec,
          "static const ta_select_params_t %s_params = {.rank = %d, .elem_size = %d, .dims = %s,\n"
          "  .cond_stride = %s, .x_stride = %s, .y_stride = %s};",
          em_op_name(ec), w->rank, (int)tensor_type_size(out->type), dims, sc, sx, sy);
  em_call(ec, node->kernel, 5, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->in[1]),
          em_tensor(ec, node->in[2]), em_tensor(ec, node->out[0]));
}

const OpDef op_select_v2 = {
    .name = "SELECT_V2",
    .builtin_code = 123,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool (condition bool)",
    .constraints = "condition, x and y broadcast to the output (NumPy rules), at most 6 loops; x, y and the output "
                   "share one quantization (values are copied, never rescaled)",
    .prepare = select_v2_prepare,
    .emit = select_v2_emit,
};
