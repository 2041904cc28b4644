/* DEPTH_TO_SPACE: moves blocks of channels into block_size x block_size spatial
 * tiles, as a six-loop strided copy over the output. */
#include "data_movement.h"

enum { DEPTH_TO_SPACE_OPTIONS = 94, OPT_BLOCK_SIZE = 0 };

static const TensorType depth_to_space_types[] = {TT_INT8};

static bool depth_to_space_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, DEPTH_TO_SPACE_OPTIONS)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, depth_to_space_types, 1, "") || !op_expect_type(pc, node, out, in->type) ||
      !dm_expect_dense(pc, node, in, 4) || !dm_expect_dense(pc, node, out, 4))
    return false;
  const int64_t b = fb_i32(&node->options, OPT_BLOCK_SIZE, 0);
  if (in->rank != 4 || out->rank != 4) return op_error(pc, node, "input and output must be 4D (NHWC)");
  const int64_t n = in->dims[0], h = in->dims[1], w = in->dims[2], c = in->dims[3];
  if (b < 1 || c % (b * b) != 0)
    return op_error(pc, node, "block_size %lld must be >= 1 and divide the depth %lld twice", (long long)b, (long long)c);
  const int64_t oc = c / (b * b);
  if (out->dims[0] != n || out->dims[1] != h * b || out->dims[2] != w * b || out->dims[3] != oc)
    return op_error(pc, node, "%s has shape %s; block size %lld turns %s into [%lld,%lld,%lld,%lld]",
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out), (long long)b,
                    tensor_shape_str(pc->arena, in), (long long)n, (long long)(h * b), (long long)(w * b),
                    (long long)oc);
  /* out[n][y*b+dy][x*b+dx][k] = in[n][y][x][(dy*b+dx)*oc+k]: loops n, y, dy, x, dx, k. */
  const int64_t count[6] = {n, h, b, w, b, oc};
  const int64_t stride[6] = {h * w * c, w * c, b * oc, c, oc, 1};
  StridedCopy *sc = arena_alloc(pc->arena, sizeof *sc);
  if (!sc) return op_error(pc, node, "out of memory");
  if (!dm_plan_strided_copy(pc, node, sc, 6, count, stride, 0, in, out)) return false;
  node->op_data = sc;
  node->kernel = "ta_strided_copy";
  node->families[0] = "strided_copy";
  return true;
}

const OpDef op_depth_to_space = {
    .name = "DEPTH_TO_SPACE",
    .builtin_code = 5,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "4D NHWC",
    .prepare = depth_to_space_prepare,
    .emit = dm_emit_strided_copy,
};
