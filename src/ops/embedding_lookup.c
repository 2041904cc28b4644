/* EMBEDDING_LOOKUP: rows of a table (rank >= 2) picked by int32 ids. float32 and int8
 * tables copy rows; an int8 table with a float32 output is dequantized (zero point 0,
 * v * scale in single precision, as TFLite Micro's hybrid path). */
#include "elementwise.h"
#include "fill_common.h"

static bool embedding_lookup_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *ids = node_input(pc->model, node, 0), *table = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!op_expect_type(pc, node, ids, TT_INT32)) return false;
  if (ids->rank != 1) return op_error(pc, node, "%s (the ids) must be a vector", op_tensor_desc(pc, ids));
  if (table->type != TT_FLOAT32 && table->type != TT_INT8)
    return op_error(pc, node, "%s has dtype %s; EMBEDDING_LOOKUP supports float32 and int8 tables",
                    op_tensor_desc(pc, table), tensor_type_name(table->type));
  if (table->rank < 2) return op_error(pc, node, "%s (the table) must have rank >= 2", op_tensor_desc(pc, table));
  bool match = out->rank == table->rank && out->dims[0] == ids->dims[0];
  for (int k = 1; match && k < table->rank; k++) match = out->dims[k] == table->dims[k];
  if (!match)
    return op_error(pc, node, "%s has shape %s, expected %lld rows of the table %s", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), (long long)ids->elems, tensor_shape_str(pc->arena, table));
  if (table->type == TT_INT8 && out->type == TT_FLOAT32) {
    if (!ew_expect_quant(pc, node, table)) return false;
    if (tensor_zero_point(table) != 0)
      return op_error(pc, node, "%s has zero point %d; the int8 -> float32 lookup needs 0 (TFLite Micro)",
                      op_tensor_desc(pc, table), (int)tensor_zero_point(table));
    node->kernel = "ta_embedding_lookup_s8_f32";
  } else {
    if (!op_expect_type(pc, node, out, table->type)) return false;
    if (table->n_quant > 0 && !ew_expect_same_quant(pc, node, table, out)) return false;
    node->kernel = "ta_embedding_lookup";
  }
  node->families[0] = "index";
  return true;
}

static void embedding_lookup_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const Tensor *ids = node_input(m, node, 0), *table = node_input(m, node, 1), *out = node_output(m, node, 0);
  if (out->elems == 0 || table->dims[0] == 0) return;
  const int64_t row_len = table->elems / table->dims[0];
  if (table->type == TT_INT8 && out->type == TT_FLOAT32) {
    char scale[48];
    ew_float_literal(scale, sizeof scale, tensor_scale(table));
    em_call(ec, node->kernel, 7, em_int(ec, ids->elems), em_int(ec, table->dims[0]), em_int(ec, row_len),
            em_literal(ec, "float", scale), em_tensor(ec, node->in[0]), em_tensor(ec, node->in[1]),
            em_tensor(ec, node->out[0]));
    return;
  }
  em_call(ec, node->kernel, 6, em_int(ec, ids->elems), em_int(ec, table->dims[0]),
          em_int(ec, row_len * (int64_t)tensor_type_size(table->type)), em_tensor(ec, node->in[0]),
          em_tensor(ec, node->in[1]), em_tensor(ec, node->out[0]));
}

const OpDef op_embedding_lookup = {
    .name = "EMBEDDING_LOOKUP",
    .builtin_code = 7,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int8 table -> float32 output; ids int32",
    .constraints = "an id outside the table (TFLite Micro stops with an error) gives a zero row",
    .prepare = embedding_lookup_prepare,
    .emit = embedding_lookup_emit,
};
