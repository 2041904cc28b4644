/* DEPTH_TO_SPACE: moves blocks of channels into block_size x block_size spatial
 * tiles, as a six-loop strided copy over the output. */
#include "data_movement.h"

static const TensorType depth_to_space_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

static bool depth_to_space_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  int64_t b;
  if (!dm_block_io(pc, node, OPTS_DEPTH_TO_SPACE, depth_to_space_types, DM_COUNT(depth_to_space_types), &in, &out,
                   &b))
    return false;
  const int64_t n = in->dims[0], h = in->dims[1], w = in->dims[2], c = in->dims[3];
  if (b < 1 || c % (b * b) != 0)
    return op_error(pc, node, "block_size %lld must be >= 1 and divide the depth %lld twice", (long long)b, (long long)c);
  const int64_t oc = c / (b * b);
  const int64_t expect[4] = {n, h * b, w * b, oc};
  if (!dm_expect_block_shape(pc, node, in, out, b, expect)) return false;
  /* out[n][y*b+dy][x*b+dx][k] = in[n][y][x][(dy*b+dx)*oc+k]: loops n, y, dy, x, dx, k. */
  const int64_t count[6] = {n, h, b, w, b, oc};
  const int64_t stride[6] = {h * w * c, w * c, b * oc, c, oc, 1};
  return dm_prepare_strided_copy(pc, node, 6, count, stride, 0, in, out);
}

const OpDef op_depth_to_space = {
    .name = "DEPTH_TO_SPACE",
    .builtin_code = 5,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "4D NHWC",
    .prepare = depth_to_space_prepare,
    .emit = dm_emit_strided_copy,
};
