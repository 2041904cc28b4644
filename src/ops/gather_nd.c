/* GATHER_ND: slices of params addressed by the index tuples in the last dimension of
 * indices (int32 or int64, constant or read at run time); output shape
 * indices.shape[:-1] + params.shape[depth:]. Bytes are copied: a quantized output
 * shares params' quantization. */
#include <stdio.h>

#include "broadcast_walk.h"
#include "elementwise.h"
#include "fill_common.h"

typedef struct GatherNdData {
  int32_t n_slices, depth, slice_bytes;
  int32_t dims[TA_MAX_RANK], strides[TA_MAX_RANK];
} GatherNdData;

static bool gather_nd_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *params = node_input(pc->model, node, 0), *indices = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!fill_copyable_type(params->type))
    return op_error(pc, node, "%s has dtype %s; GATHER_ND supports float32, int8, int16, int32, int64, uint8, bool",
                    op_tensor_desc(pc, params), tensor_type_name(params->type));
  if (!op_expect_type(pc, node, out, params->type)) return false;
  if (params->n_quant > 0 && !ew_expect_same_quant(pc, node, params, out)) return false;
  if (indices->type != TT_INT32 && indices->type != TT_INT64)
    return op_error(pc, node, "%s (the indices) has dtype %s; GATHER_ND takes int32 or int64",
                    op_tensor_desc(pc, indices), tensor_type_name(indices->type));
  if (indices->rank < 1) return op_error(pc, node, "%s (the indices) must have rank >= 1", op_tensor_desc(pc, indices));
  const int depth = (int)tensor_dim(indices, -1);
  if (depth < 1 || depth > params->rank)
    return op_error(pc, node, "index depth %d outside 1..%d (the rank of params)", depth, params->rank);
  /* output shape: indices.shape[:-1] + params.shape[depth:] */
  bool match = out->rank == indices->rank - 1 + params->rank - depth;
  for (int k = 0; match && k < indices->rank - 1; k++) match = out->dims[k] == indices->dims[k];
  for (int k = depth; match && k < params->rank; k++) match = out->dims[indices->rank - 1 + k - depth] == params->dims[k];
  if (!match)
    return op_error(pc, node, "%s has shape %s, expected indices %s without its last dimension followed by params %s "
                    "from dimension %d", op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out),
                    tensor_shape_str(pc->arena, indices), tensor_shape_str(pc->arena, params), depth);
  GatherNdData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  int64_t slice = 1;
  for (int k = depth; k < params->rank; k++) slice *= params->dims[k];
  int64_t step = 1;
  for (int k = depth - 1; k >= 0; k--) {
    d->dims[k] = params->dims[k];
    d->strides[k] = (int32_t)step;
    step *= params->dims[k];
  }
  d->depth = depth;
  d->n_slices = (int32_t)(indices->elems / depth);
  d->slice_bytes = (int32_t)(slice * (int64_t)tensor_type_size(params->type));
  node->op_data = d;
  node->kernel = indices->type == TT_INT32 ? "ta_gather_nd_i32" : "ta_gather_nd_i64";
  node->families[0] = "index";
  return true;
}

static void gather_nd_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const GatherNdData *d = node->op_data;
  if (node_output(m, node, 0)->elems == 0) return;
  char dims[160], strides[160];
  bw_list(dims, sizeof dims, d->dims, d->depth);
  bw_list(strides, sizeof strides, d->strides, d->depth);
  em_decl(ec,
          "static const ta_gather_nd_params_t %s_params = {.n_slices = %ld, .depth = %ld, .slice_bytes = %ld, "
          ".dims = %s, .strides = %s};",
          em_op_name(ec), (long)d->n_slices, (long)d->depth, (long)d->slice_bytes, dims, strides);
  em_call(ec, node->kernel, 4, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->in[1]),
          em_tensor(ec, node->out[0]));
}

const OpDef op_gather_nd = {
    .name = "GATHER_ND",
    .builtin_code = 107,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool; indices int32, int64",
    .constraints = "an index outside params (TFLite Micro stops with an error) gives a zero slice",
    .prepare = gather_nd_prepare,
    .emit = gather_nd_emit,
};
