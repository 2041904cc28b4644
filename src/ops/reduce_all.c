/* REDUCE_ALL: logical AND of a bool tensor over constant axes (keep_dims or not: the
 * output's static shape must be the input's with those axes removed or set to 1). */
#include <stdio.h>

#include "broadcast_walk.h"
#include "comparison.h"

typedef struct ReduceAllData {
  int rank;
  int32_t dims[TA_MAX_RANK];
  int32_t out_stride[TA_MAX_RANK];
  int64_t out_size;
} ReduceAllData;

/* Marks the reduced axes from the constant axes tensor (negative axes count from the end). */
static bool reduced_axes(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *axes, bool *reduced) {
  if (axes->type != TT_INT32 && axes->type != TT_INT64)
    return op_error(pc, node, "%s (the axes) has dtype %s; REDUCE_ALL takes int32 or int64", op_tensor_desc(pc, axes),
                    tensor_type_name(axes->type));
  if (!tensor_is_const(axes))
    return op_error(pc, node, "%s (the axes) must be constant", op_tensor_desc(pc, axes));
  for (int64_t i = 0; i < axes->elems; i++) {
    int64_t a = axes->type == TT_INT32 ? const_i32(axes, i) : const_i64(axes, i);
    if (a < 0) a += in->rank;
    if (a < 0 || a >= in->rank)
      return op_error(pc, node, "axis %lld is outside the input's rank %d", (long long)a, in->rank);
    reduced[a] = true;
  }
  return true;
}

/* The output is the input with the reduced axes dropped or kept as 1. */
static bool check_output_shape(PrepareCtx *pc, Node *node, const Tensor *in, const bool *reduced, const Tensor *out) {
  int32_t kept[TA_MAX_RANK], n_kept = 0;
  for (int k = 0; k < in->rank; k++)
    if (!reduced[k]) kept[n_kept++] = in->dims[k];
  bool dropped = out->rank == n_kept, ones = out->rank == in->rank;
  for (int k = 0; dropped && k < n_kept; k++) dropped = out->dims[k] == kept[k];
  for (int k = 0; ones && k < in->rank; k++) ones = out->dims[k] == (reduced[k] ? 1 : in->dims[k]);
  if (!dropped && !ones)
    return op_error(pc, node, "%s has shape %s, not the input %s reduced over the axes", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in));
  return true;
}

static bool reduce_all_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *axes = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!op_expect_type(pc, node, in, TT_BOOL) || !op_expect_type(pc, node, out, TT_BOOL)) return false;
  bool reduced[TA_MAX_RANK] = {false};
  if (!reduced_axes(pc, node, in, axes, reduced) || !check_output_shape(pc, node, in, reduced, out)) return false;
  ReduceAllData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  /* output steps of the input dimensions, then extent-1 dimensions dropped and runs merged */
  int64_t step = 1, steps[TA_MAX_RANK];
  for (int k = in->rank - 1; k >= 0; k--) {
    steps[k] = reduced[k] ? 0 : step;
    if (!reduced[k]) step *= in->dims[k];
  }
  for (int k = 0; k < in->rank; k++) {
    if (in->dims[k] == 1) continue;
    if (d->rank > 0 && d->out_stride[d->rank - 1] == steps[k] * in->dims[k]) {
      d->dims[d->rank - 1] *= in->dims[k];
      d->out_stride[d->rank - 1] = (int32_t)steps[k];
      continue;
    }
    d->dims[d->rank] = in->dims[k];
    d->out_stride[d->rank] = (int32_t)steps[k];
    d->rank++;
  }
  if (d->rank == 0) { /* one element */
    d->dims[0] = 1;
    d->rank = 1;
  }
  d->out_size = out->elems;
  node->op_data = d;
  node->kernel = "ta_reduce_all";
  node->families[0] = "compare";
  node->families[1] = "elementwise"; /* ta_compare.h includes it */
  return true;
}

static void reduce_all_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const ReduceAllData *d = node->op_data;
  const Tensor *in = node_input(m, node, 0);
  if (d->out_size == 0) return;
  char dims[160], stride[160];
  bw_list(dims, sizeof dims, d->dims, d->rank);
  bw_list(stride, sizeof stride, d->out_stride, d->rank);
  em_decl(ec, "static const ta_reduce_all_params_t %s_params = {.rank = %d, .out_size = %lld, .dims = %s, .out_stride = %s};",
          em_op_name(ec), in->elems == 0 ? 0 : d->rank, /* rank 0: every output true */ (long long)d->out_size, dims, stride);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_reduce_all = {
    .name = "REDUCE_ALL",
    .builtin_code = 140,
    .capabilities = CMP_CAPABILITIES,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "bool",
    .constraints = "constant axes; keep_dims or not (read from the output's static shape)",
    .prepare = reduce_all_prepare,
    .emit = reduce_all_emit,
};
