/* DYNAMIC_UPDATE_SLICE: the operand with the update written at start indices (int32
 * or int64, constant or read at run time), each clamped to [0, operand extent - update
 * extent] as TFLite Micro does. Bytes are copied: operand, update and output share one
 * quantization. */
#include <stdio.h>

#include "broadcast_walk.h"
#include "elementwise.h"
#include "fill_common.h"

static bool dynamic_update_slice_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 3, 3, 1)) return false;
  const Tensor *operand = node_input(pc->model, node, 0), *update = node_input(pc->model, node, 1);
  const Tensor *start = node_input(pc->model, node, 2), *out = node_output(pc->model, node, 0);
  if (!fill_copyable_type(operand->type))
    return op_error(pc, node,
                    "%s has dtype %s; DYNAMIC_UPDATE_SLICE supports float32, int8, int16, int32, int64, uint8, bool",
                    op_tensor_desc(pc, operand), tensor_type_name(operand->type));
  if (!op_expect_type(pc, node, update, operand->type) || !op_expect_type(pc, node, out, operand->type)) return false;
  if (operand->n_quant > 0 &&
      (!ew_expect_same_quant(pc, node, operand, out) || !ew_expect_same_quant(pc, node, update, out)))
    return false;
  if (!tensor_same_shape(operand, out))
    return op_error(pc, node, "%s has shape %s, expected the operand's %s", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, operand));
  if (start->type != TT_INT32 && start->type != TT_INT64)
    return op_error(pc, node, "%s (the start indices) has dtype %s; int32 or int64 expected",
                    op_tensor_desc(pc, start), tensor_type_name(start->type));
  if (operand->rank < 1 || update->rank != operand->rank || start->elems != operand->rank)
    return op_error(pc, node, "operand %s, update %s and %lld start indices do not have one rank",
                    tensor_shape_str(pc->arena, operand), tensor_shape_str(pc->arena, update), (long long)start->elems);
  for (int k = 0; k < operand->rank; k++)
    if (update->dims[k] > operand->dims[k])
      return op_error(pc, node, "update %s is larger than the operand %s in dimension %d",
                      tensor_shape_str(pc->arena, update), tensor_shape_str(pc->arena, operand), k);
  node->kernel = start->type == TT_INT32 ? "ta_dynamic_update_slice_i32" : "ta_dynamic_update_slice_i64";
  node->families[0] = "index";
  return true;
}

static void dynamic_update_slice_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *operand = node_input(m, node, 0), *update = node_input(m, node, 1);
  if (operand->elems == 0) return;
  char od[160], ud[160];
  bw_list(od, sizeof od, operand->dims, operand->rank);
  bw_list(ud, sizeof ud, update->dims, update->rank);
  em_decl(ec,
          "static const ta_dynamic_update_slice_params_t %s_params = {.rank = %d, .elem_size = %d, "
          ".operand_bytes = %lld, .operand_dims = %s, .update_dims = %s};",
          em_op_name(ec), operand->rank, (int)tensor_type_size(operand->type), (long long)operand->bytes, od, ud);
  em_call(ec, node->kernel, 5, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->in[1]),
          em_tensor(ec, node->in[2]), em_tensor(ec, node->out[0]));
}

const OpDef op_dynamic_update_slice = {
    .name = "DYNAMIC_UPDATE_SLICE",
    .builtin_code = 151,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool; start indices int32, int64",
    .constraints = "start indices clamped so the update fits (TFLite Micro)",
    .prepare = dynamic_update_slice_prepare,
    .emit = dynamic_update_slice_emit,
};
