/* RESIZE_NEAREST_NEIGHBOR: the source row and column of every output pixel are
 * computed here, in float exactly as TFLite does (align_corners rounds, otherwise
 * floor; half_pixel_centers samples at +0.5), and emitted as offset tables. */
#include <math.h>

#include "data_movement.h"


static const TensorType resize_nearest_types[] = {TT_INT8, TT_INT16, TT_FLOAT32};

typedef struct NearestPlan {
  int32_t batches, out_h, out_w, pixel_bytes, in_batch_bytes;
  int32_t *row_offset, *col_offset;
} NearestPlan;

/* TFLite's GetNearestNeighbor, evaluated in single precision. */
static int32_t nearest_source(int32_t value, int32_t in_size, int32_t out_size, bool align_corners, bool half_pixel) {
  const float scale = (align_corners && out_size > 1) ? (float)(in_size - 1) / (float)(out_size - 1)
                                                      : (float)in_size / (float)out_size;
  const float offset = half_pixel ? 0.5f : 0.0f;
  const float pos = ((float)value + offset) * scale;
  int32_t src = align_corners ? (int32_t)roundf(pos) : (int32_t)floorf(pos);
  if (src > in_size - 1) src = in_size - 1;
  if (half_pixel && src < 0) src = 0;
  return src;
}

static bool resize_nearest_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  if (!dm_resize_io(pc, node, OPTS_RESIZE_NEAREST_NEIGHBOR, resize_nearest_types, DM_COUNT(resize_nearest_types), &in, &out)) return false;
  const bool align = node->opts.resize.align_corners;
  const bool half = node->opts.resize.half_pixel_centers;
  const int32_t in_h = in->dims[1], in_w = in->dims[2], depth = in->dims[3];
  const int32_t elem = (int32_t)tensor_type_size(in->type);
  NearestPlan *np = arena_alloc(pc->arena, sizeof *np);
  if (!np) return op_error(pc, node, "out of memory");
  np->batches = in->dims[0];
  np->out_h = out->dims[1];
  np->out_w = out->dims[2];
  np->pixel_bytes = depth * elem;
  np->in_batch_bytes = in_h * in_w * depth * elem;
  np->row_offset = arena_calloc(pc->arena, (size_t)np->out_h, sizeof(int32_t));
  np->col_offset = arena_calloc(pc->arena, (size_t)np->out_w, sizeof(int32_t));
  if (!np->row_offset || !np->col_offset) return op_error(pc, node, "out of memory");
  for (int32_t y = 0; y < np->out_h; y++)
    np->row_offset[y] = nearest_source(y, in_h, np->out_h, align, half) * in_w * depth * elem;
  for (int32_t x = 0; x < np->out_w; x++)
    np->col_offset[x] = nearest_source(x, in_w, np->out_w, align, half) * depth * elem;
  node->op_data = np;
  node->kernel = "ta_resize_nearest";
  node->families[0] = "resize";
  return true;
}

static void resize_nearest_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const NearestPlan *np = node->op_data;
  const char *rows = em_table_i32(ec, "row_offset", np->row_offset, (size_t)np->out_h);
  const char *cols = em_table_i32(ec, "col_offset", np->col_offset, (size_t)np->out_w);
  em_decl(ec,
          "static const ta_resize_nearest_params_t %s_params = {\n  .batches = %d,\n  .out_height = %d,\n"
          "  .out_width = %d,\n  .pixel_bytes = %d,\n  .in_batch_bytes = %d,\n  .row_offset = %s,\n"
          "  .col_offset = %s,\n};",
          em_op_name(ec), (int)np->batches, (int)np->out_h, (int)np->out_w, (int)np->pixel_bytes,
          (int)np->in_batch_bytes, rows, cols);
  em_call(ec, "ta_resize_nearest", 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_resize_nearest_neighbor = {
    .name = "RESIZE_NEAREST_NEIGHBOR",
    .builtin_code = 97,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "4D NHWC; constant size",
    .prepare = resize_nearest_prepare,
    .emit = resize_nearest_emit,
};
