/* Shared contract of MEAN, SUM and REDUCE_MAX (see reduce_common.h). */
#include "reduce_common.h"

#include "data_movement.h"

/* keep_dims (field 0) only changes the output's shape, which the model states and
 * the element count check below covers. */

/* Appends a loop, merging it into the previous one when that one steps over exactly
 * this loop's extent; single-iteration loops vanish. */
static void add_loop(int32_t *count, int32_t *stride, int *rank, int64_t n, int64_t step) {
  if (n == 1) return;
  if (*rank > 0 && stride[*rank - 1] == n * step) {
    count[*rank - 1] *= (int32_t)n;
    stride[*rank - 1] = (int32_t)step;
    return;
  }
  count[*rank] = (int32_t)n;
  stride[*rank] = (int32_t)step;
  (*rank)++;
}

/* Resolves negative axes and drops duplicates, as TFLite's ResolveAxis. */
static bool resolve_axes(PrepareCtx *pc, const Node *node, const Tensor *in, const ReducePlan *rp, bool *reduced) {
  for (int i = 0; i < rp->n_raw_axes; i++) {
    int axis = dm_axis(rp->raw_axes[i], in->rank);
    if (axis < 0)
      return op_error(pc, node, "axis %lld is outside the input's rank %d", (long long)rp->raw_axes[i], in->rank);
    reduced[axis] = true;
  }
  return true;
}

bool reduce_prepare_common(PrepareCtx *pc, Node *node, ReducePlan **plan) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, OPTS_REDUCER)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dense(pc, node, in, REDUCE_MAX_DIMS) || !dm_expect_dense(pc, node, out, TA_MAX_RANK) ||
      !op_expect_type(pc, node, out, in->type))
    return false;
  ReducePlan *rp = arena_alloc(pc->arena, sizeof *rp);
  if (!rp) return op_error(pc, node, "out of memory");
  if (!dm_const_ints(pc, node, node_input(pc->model, node, 1), "axis", false, REDUCE_MAX_DIMS, rp->raw_axes,
                     &rp->n_raw_axes))
    return false;
  bool reduced[REDUCE_MAX_DIMS] = {false};
  if (!resolve_axes(pc, node, in, rp, reduced)) return false;
  int64_t strides[REDUCE_MAX_DIMS], kept = 1, count = 1;
  dm_strides(in, strides);
  for (int d = 0; d < in->rank; d++) {
    if (reduced[d]) {
      add_loop(rp->inner_count, rp->inner_stride, &rp->inner_rank, in->dims[d], strides[d]);
      count *= in->dims[d];
    } else {
      add_loop(rp->outer_count, rp->outer_stride, &rp->outer_rank, in->dims[d], strides[d]);
      kept *= in->dims[d];
    }
  }
  if (kept != out->elems)
    return op_error(pc, node, "reducing %s over %s leaves %lld elements but %s has shape %s",
                    tensor_shape_str(pc->arena, in), dm_list_str(pc->arena, rp->raw_axes, rp->n_raw_axes),
                    (long long)kept, op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out));
  if (count > (1 << 23))
    return op_error(pc, node, "reduces %lld elements into one; more than 2^23 could overflow the int32 sum",
                    (long long)count);
  rp->reduce_count = (int32_t)count;
  node->op_data = rp;
  node->families[0] = "reduce";
  node->macs = in->elems;
  *plan = rp;
  return true;
}

bool reduce_expect_sum_bound(PrepareCtx *pc, const Node *node, const Tensor *in, const ReducePlan *rp) {
  if (in->type == TT_INT16 && rp->reduce_count > (1 << 16))
    return op_error(pc, node, "reduces %d int16 elements into one; more than 2^16 could overflow the int32 sum",
                    (int)rp->reduce_count);
  return true;
}

void reduce_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const ReducePlan *rp = node->op_data;
  char oc[128], os[128], ic[128], is[128];
  dm_fmt_list(oc, sizeof oc, rp->outer_count, rp->outer_rank);
  dm_fmt_list(os, sizeof os, rp->outer_stride, rp->outer_rank);
  dm_fmt_list(ic, sizeof ic, rp->inner_count, rp->inner_rank);
  dm_fmt_list(is, sizeof is, rp->inner_stride, rp->inner_rank);
  em_decl(ec,
          "static const ta_reduce_params_t %s_params = {\n  .outer_rank = %d,\n  .outer_count = {%s},\n"
          "  .outer_stride = {%s},\n  .inner_rank = %d,\n  .inner_count = {%s},\n  .inner_stride = {%s},\n"
          "  .reduce_count = %d,\n  .input_zero_point = %d,\n  .output_zero_point = %d,\n  .multiplier = %d,\n"
          "  .shift = %d,\n};",
          em_op_name(ec), rp->outer_rank, oc, os, rp->inner_rank, ic, is, (int)rp->reduce_count,
          (int)rp->input_zero_point, (int)rp->output_zero_point, (int)rp->multiplier, (int)rp->shift);
  em_call(ec, rp->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}
