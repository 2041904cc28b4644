/* SPACE_TO_DEPTH: gathers block_size x block_size spatial tiles into channels, as a
 * six-loop strided copy over the output. */
#include "data_movement.h"

static const TensorType space_to_depth_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_INT64, TT_UINT8, TT_BOOL, TT_FLOAT32};

static bool space_to_depth_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  int64_t b;
  if (!dm_block_io(pc, node, OPTS_SPACE_TO_DEPTH, space_to_depth_types, DM_COUNT(space_to_depth_types), &in, &out,
                   &b))
    return false;
  const int64_t n = in->dims[0], h = in->dims[1], w = in->dims[2], c = in->dims[3];
  if (b < 1 || h % b != 0 || w % b != 0)
    return op_error(pc, node, "block_size %lld must be >= 1 and divide height %lld and width %lld", (long long)b,
                    (long long)h, (long long)w);
  const int64_t oh = h / b, ow = w / b;
  const int64_t expect[4] = {n, oh, ow, c * b * b};
  if (!dm_expect_block_shape(pc, node, in, out, b, expect)) return false;
  /* out[n][y][x][(dy*b+dx)*c+k] = in[n][y*b+dy][x*b+dx][k]: loops n, y, x, dy, dx, k. */
  const int64_t count[6] = {n, oh, ow, b, b, c};
  const int64_t stride[6] = {h * w * c, b * w * c, b * c, w * c, c, 1};
  return dm_prepare_strided_copy(pc, node, 6, count, stride, 0, in, out);
}

const OpDef op_space_to_depth = {
    .name = "SPACE_TO_DEPTH",
    .builtin_code = 26,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, int64, uint8, bool, float32",
    .constraints = "4D NHWC",
    .prepare = space_to_depth_prepare,
    .emit = dm_emit_strided_copy,
};
