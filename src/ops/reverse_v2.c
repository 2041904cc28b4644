/* REVERSE_V2: the input with the constant axes reversed, any fixed-size dtype (bytes
 * are copied). Runs through ta_broadcast_to's strided walk: a reversed dimension
 * starts at its last element and steps backwards. */
#include <stdio.h>

#include "broadcast_walk.h"
#include "fill_common.h"

typedef struct ReverseData {
  int rank;
  int32_t start;
  int32_t dims[TA_MAX_RANK];
  int32_t stride[TA_MAX_RANK];
} ReverseData;

static bool reversed_axes(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *axes, bool *rev) {
  if (axes->type != TT_INT32 && axes->type != TT_INT64)
    return op_error(pc, node, "%s (the axes) has dtype %s; REVERSE_V2 takes int32 or int64", op_tensor_desc(pc, axes),
                    tensor_type_name(axes->type));
  if (!tensor_is_const(axes)) return op_error(pc, node, "%s (the axes) must be constant", op_tensor_desc(pc, axes));
  for (int64_t i = 0; i < axes->elems; i++) {
    int64_t a = axes->type == TT_INT32 ? const_i32(axes, i) : const_i64(axes, i);
    if (a < 0) a += in->rank;
    if (a < 0 || a >= in->rank)
      return op_error(pc, node, "axis %lld is outside the input's rank %d", (long long)a, in->rank);
    rev[a] = true;
  }
  return true;
}

static bool reverse_v2_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *axes = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!fill_copyable_type(in->type))
    return op_error(pc, node, "%s has dtype %s; REVERSE_V2 supports float32, int8, int16, int32, int64, uint8, bool",
                    op_tensor_desc(pc, in), tensor_type_name(in->type));
  if (!op_expect_type(pc, node, out, in->type)) return false;
  if (!tensor_same_shape(in, out))
    return op_error(pc, node, "%s has shape %s, expected the input's %s", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in));
  bool rev[TA_MAX_RANK] = {false};
  if (!reversed_axes(pc, node, in, axes, rev)) return false;
  ReverseData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  int64_t step = 1, steps[TA_MAX_RANK], start = 0;
  for (int k = in->rank - 1; k >= 0; k--) {
    steps[k] = rev[k] ? -step : step;
    if (rev[k]) start += step * (in->dims[k] - 1);
    step *= in->dims[k];
  }
  for (int k = 0; k < in->rank; k++) { /* drop extent-1 dimensions, merge runs */
    if (in->dims[k] == 1) continue;
    if (d->rank > 0 && d->stride[d->rank - 1] == steps[k] * in->dims[k]) {
      d->dims[d->rank - 1] *= in->dims[k];
      d->stride[d->rank - 1] = (int32_t)steps[k];
      continue;
    }
    d->dims[d->rank] = in->dims[k];
    d->stride[d->rank] = (int32_t)steps[k];
    d->rank++;
  }
  if (d->rank == 0) {
    d->dims[0] = 1;
    d->stride[0] = 1;
    d->rank = 1;
  }
  d->start = (int32_t)start;
  node->op_data = d;
  node->kernel = "ta_broadcast_to";
  node->families[0] = "fill";
  return true;
}

static void reverse_v2_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const ReverseData *d = node->op_data;
  const Tensor *out = node_output(m, node, 0);
  if (out->elems == 0) return;
  char dims[160], stride[160];
  bw_list(dims, sizeof dims, d->dims, d->rank);
  bw_list(stride, sizeof stride, d->stride, d->rank);
  em_decl(ec,
          "static const ta_broadcast_params_t %s_params = {.rank = %d, .elem_size = %d, .start = %ld, .dims = %s, "
          ".stride = %s};",
          em_op_name(ec), d->rank, (int)tensor_type_size(out->type), (long)d->start, dims, stride);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_reverse_v2 = {
    .name = "REVERSE_V2",
    .builtin_code = 105,
    .capabilities = FILL_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "float32, int8, int16, int32, int64, uint8, bool",
    .constraints = "constant axes",
    .prepare = reverse_v2_prepare,
    .emit = reverse_v2_emit,
};
