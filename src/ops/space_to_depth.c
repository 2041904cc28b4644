/* SPACE_TO_DEPTH: gathers block_size x block_size spatial tiles into channels, as a
 * six-loop strided copy over the output. */
#include "data_movement.h"

enum { SPACE_TO_DEPTH_OPTIONS = 19, OPT_BLOCK_SIZE = 0 };

static const TensorType space_to_depth_types[] = {TT_INT8};

static bool space_to_depth_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 1, 1, 1) || !op_expect_options(pc, node, SPACE_TO_DEPTH_OPTIONS)) return false;
  const Tensor *in = node_input(pc->model, node, 0);
  const Tensor *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, space_to_depth_types, 1, "") || !op_expect_type(pc, node, out, in->type) ||
      !dm_expect_dense(pc, node, in, 4) || !dm_expect_dense(pc, node, out, 4))
    return false;
  const int64_t b = fb_i32(&node->options, OPT_BLOCK_SIZE, 0);
  if (in->rank != 4 || out->rank != 4) return op_error(pc, node, "input and output must be 4D (NHWC)");
  const int64_t n = in->dims[0], h = in->dims[1], w = in->dims[2], c = in->dims[3];
  if (b < 1 || h % b != 0 || w % b != 0)
    return op_error(pc, node, "block_size %lld must be >= 1 and divide height %lld and width %lld", (long long)b,
                    (long long)h, (long long)w);
  const int64_t oh = h / b, ow = w / b;
  if (out->dims[0] != n || out->dims[1] != oh || out->dims[2] != ow || out->dims[3] != c * b * b)
    return op_error(pc, node, "%s has shape %s; block size %lld turns %s into [%lld,%lld,%lld,%lld]",
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out), (long long)b,
                    tensor_shape_str(pc->arena, in), (long long)n, (long long)oh, (long long)ow, (long long)(c * b * b));
  /* out[n][y][x][(dy*b+dx)*c+k] = in[n][y*b+dy][x*b+dx][k]: loops n, y, x, dy, dx, k. */
  const int64_t count[6] = {n, oh, ow, b, b, c};
  const int64_t stride[6] = {h * w * c, b * w * c, b * c, w * c, c, 1};
  StridedCopy *sc = arena_alloc(pc->arena, sizeof *sc);
  if (!sc) return op_error(pc, node, "out of memory");
  if (!dm_plan_strided_copy(pc, node, sc, 6, count, stride, 0, in, out)) return false;
  node->op_data = sc;
  node->kernel = "ta_strided_copy";
  node->families[0] = "strided_copy";
  return true;
}

const OpDef op_space_to_depth = {
    .name = "SPACE_TO_DEPTH",
    .builtin_code = 26,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8",
    .constraints = "4D NHWC",
    .prepare = space_to_depth_prepare,
    .emit = dm_emit_strided_copy,
};
