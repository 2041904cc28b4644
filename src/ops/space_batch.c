#include "space_batch.h"

#include "elementwise.h"
#include "fill_common.h"

typedef struct SpaceBatchData {
  int64_t in_batch, in_h, in_w, out_batch, out_h, out_w, block_h, block_w, top, left, depth_bytes;
} SpaceBatchData;

static int64_t const_int(const Tensor *t, int64_t i) { return t->type == TT_INT32 ? const_i32(t, i) : const_i64(t, i); }

static bool const_ints(PrepareCtx *pc, Node *node, const Tensor *t, int64_t n, const char *what) {
  if ((t->type != TT_INT32 && t->type != TT_INT64) || !tensor_is_const(t) || t->elems != n)
    return op_error(pc, node, "%s (%s) must be a constant int32 / int64 tensor of %lld values", op_tensor_desc(pc, t),
                    what, (long long)n);
  return true;
}

bool sb_prepare(PrepareCtx *pc, Node *node, bool to_batch) {
  const char *name = to_batch ? "SPACE_TO_BATCH_ND" : "BATCH_TO_SPACE_ND";
  if (!op_expect_io(pc, node, 3, 3, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *block = node_input(pc->model, node, 1);
  const Tensor *edges = node_input(pc->model, node, 2), *out = node_output(pc->model, node, 0);
  if (!fill_copyable_type(in->type))
    return op_error(pc, node, "%s has dtype %s; %s supports float32, int8, int16, int32, int64, uint8, bool",
                    op_tensor_desc(pc, in), tensor_type_name(in->type), name);
  if (!op_expect_type(pc, node, out, in->type)) return false;
  if (in->n_quant > 0 && !ew_expect_same_quant(pc, node, in, out)) return false;
  if ((in->rank != 3 && in->rank != 4) || out->rank != in->rank)
    return op_error(pc, node, "input %s and output %s: %s supports rank 3 and 4", tensor_shape_str(pc->arena, in),
                    tensor_shape_str(pc->arena, out), name);
  const int spatial = in->rank - 2;
  if (!const_ints(pc, node, block, spatial, "the block shape") ||
      !const_ints(pc, node, edges, 2 * spatial, to_batch ? "the paddings" : "the crops"))
    return false;
  SpaceBatchData d = {0};
  d.in_batch = in->dims[0];
  d.in_h = in->dims[1];
  d.in_w = spatial == 2 ? in->dims[2] : 1;
  d.block_h = const_int(block, 0);
  d.block_w = spatial == 2 ? const_int(block, 1) : 1;
  d.top = const_int(edges, 0);
  const int64_t bottom = const_int(edges, 1);
  d.left = spatial == 2 ? const_int(edges, 2) : 0;
  const int64_t right = spatial == 2 ? const_int(edges, 3) : 0;
  if (d.block_h < 1 || d.block_w < 1 || d.block_h > 65536 || d.block_w > 65536 || d.top < 0 || bottom < 0 ||
      d.left < 0 || right < 0 || d.top > 65536 || bottom > 65536 || d.left > 65536 || right > 65536)
    return op_error(pc, node, "block shape or %s out of range", to_batch ? "paddings" : "crops");
  const int64_t blocks = d.block_h * d.block_w;
  int64_t expect[4];
  if (to_batch) {
    const int64_t ph = d.in_h + d.top + bottom, pw = d.in_w + d.left + right;
    if (ph % d.block_h || pw % d.block_w)
      return op_error(pc, node, "padded extents %lld x %lld are not multiples of the block %lld x %lld", (long long)ph,
                      (long long)pw, (long long)d.block_h, (long long)d.block_w);
    d.out_batch = d.in_batch * blocks, d.out_h = ph / d.block_h, d.out_w = pw / d.block_w;
  } else {
    if (d.in_batch % blocks) return op_error(pc, node, "batch %lld is not a multiple of the block's %lld cells",
                                             (long long)d.in_batch, (long long)blocks);
    d.out_batch = d.in_batch / blocks, d.out_h = d.in_h * d.block_h - d.top - bottom;
    d.out_w = d.in_w * d.block_w - d.left - right;
  }
  expect[0] = d.out_batch, expect[1] = d.out_h;
  expect[2] = spatial == 2 ? d.out_w : in->dims[2];
  expect[3] = spatial == 2 ? in->dims[3] : 0;
  bool match = true;
  for (int k = 0; k < in->rank; k++) match = match && out->dims[k] == expect[k];
  if (!match)
    return op_error(pc, node, "%s has shape %s, which does not follow from the input %s, the block and the %s",
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, in),
                    to_batch ? "paddings" : "crops");
  d.depth_bytes = tensor_dim(in, -1) * (int64_t)tensor_type_size(in->type);
  SpaceBatchData *keep = arena_alloc(pc->arena, sizeof *keep);
  if (!keep) return op_error(pc, node, "out of memory");
  *keep = d;
  node->op_data = keep;
  node->kernel = to_batch ? "ta_space_to_batch_nd" : "ta_batch_to_space_nd";
  node->families[0] = "index";
  return true;
}

void sb_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const SpaceBatchData *d = node->op_data;
  if (node_output(m, node, 0)->elems == 0) return;
  em_decl(ec,
          "static const ta_space_batch_params_t %s_params = {.in_batch = %lld, .in_h = %lld, .in_w = %lld,\n"
          "  .out_batch = %lld, .out_h = %lld, .out_w = %lld, .block_h = %lld, .block_w = %lld, .top = %lld,\n"
          "  .left = %lld, .depth_bytes = %lld};",
          em_op_name(ec), (long long)d->in_batch, (long long)d->in_h, (long long)d->in_w, (long long)d->out_batch,
          (long long)d->out_h, (long long)d->out_w, (long long)d->block_h, (long long)d->block_w, (long long)d->top,
          (long long)d->left, (long long)d->depth_bytes);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}
