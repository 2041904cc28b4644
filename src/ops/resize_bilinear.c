/* RESIZE_BILINEAR. int8: TFLite's integer resize; source positions are in 1/1024
 * pixel units. float32: TFLite's float resize (scales and positions in single
 * precision). Either way the two neighbours and the weight of the far one are
 * computed here for every output row and column and emitted as tables. */
#include <math.h>

#include "data_movement.h"

enum { MAX_EXTENT = 1 << 20 }; /* keeps 1024 * extent inside int32, as TFLite's scale needs */

static const TensorType resize_bilinear_types[] = {TT_INT8, TT_FLOAT32};

typedef struct BilinearPlan {
  TensorType type;
  int32_t batches, out_h, out_w, channels, in_batch_bytes;
  int32_t *y0, *y1, *dy, *x0, *x1, *dx;
  float *fdy, *fdx; /* float32: the far neighbour's weights */
} BilinearPlan;

/* float32, as TFLite's ComputeInterpolationValues: the source position in float,
 * its floor (not below 0) and ceiling (not past the end), and the position minus
 * the lower index as the far neighbour's weight; indices times `unit` elements. */
static void axis_tables_f32(int32_t in_size, int32_t out_size, bool align, bool half, int32_t unit, int32_t *lo,
                            int32_t *hi, float *w) {
  const float scale = align && out_size > 1 ? (float)(in_size - 1) / (float)(out_size - 1)
                                            : (float)in_size / (float)out_size;
  for (int32_t v = 0; v < out_size; v++) {
    const float pos = half ? ((float)v + 0.5f) * scale - 0.5f : (float)v * scale;
    int32_t a = (int32_t)floorf(pos), b = (int32_t)ceilf(pos);
    if (a < 0) a = 0;
    if (b > in_size - 1) b = in_size - 1;
    lo[v] = a * unit;
    hi[v] = b * unit;
    w[v] = pos - (float)a;
  }
}

/* The 1/1024-unit scale between input and output extents (rounded division). */
static int32_t scale_10(int32_t in_size, int32_t out_size, bool align_corners) {
  if (align_corners && out_size > 1) return ((1 << 10) * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1);
  return ((1 << 10) * in_size + out_size / 2) / out_size;
}

/* For every output index: the lower and upper source index (times `unit` bytes) and
 * the upper one's weight, as TFLite's ComputeInterpolationValuesInteger. */
static bool axis_tables(PrepareCtx *pc, const Node *node, int32_t in_size, int32_t out_size, bool align, bool half,
                        int32_t unit, int32_t *lo, int32_t *hi, int32_t *w) {
  const int32_t scale = scale_10(in_size, out_size, align);
  for (int32_t v = 0; v < out_size; v++) {
    const int64_t pos64 = half ? (int64_t)v * scale + scale / 2 - (1 << 9) : (int64_t)v * scale;
    if (pos64 > INT32_MAX - (1 << 10))
      return op_error(pc, node, "output index %d is too far for TFLite's 32-bit position arithmetic", (int)v);
    const int32_t pos = (int32_t)pos64;
    int32_t a = pos / (1 << 10), b = (pos + (1 << 10) - 1) / (1 << 10);
    if (a < 0) a = 0;
    if (b > in_size - 1) b = in_size - 1;
    if (a > in_size - 1)
      return op_error(pc, node, "output index %d maps past the input's last index %d", (int)v, (int)(in_size - 1));
    lo[v] = a * unit;
    hi[v] = b * unit;
    w[v] = pos - (1 << 10) * a;
  }
  return true;
}

static bool alloc_tables(PrepareCtx *pc, BilinearPlan *bp) {
  int32_t **rows[3] = {&bp->y0, &bp->y1, &bp->dy}, **cols[3] = {&bp->x0, &bp->x1, &bp->dx};
  for (int i = 0; i < 3; i++) {
    *rows[i] = arena_calloc(pc->arena, (size_t)bp->out_h, sizeof(int32_t));
    *cols[i] = arena_calloc(pc->arena, (size_t)bp->out_w, sizeof(int32_t));
    if (!*rows[i] || !*cols[i]) return false;
  }
  return true;
}

static bool resize_bilinear_prepare(PrepareCtx *pc, Node *node) {
  const Tensor *in, *out;
  if (!dm_resize_io(pc, node, OPTS_RESIZE_BILINEAR, resize_bilinear_types, DM_COUNT(resize_bilinear_types), &in,
                    &out))
    return false;
  const bool align = node->opts.resize.align_corners;
  const bool half = node->opts.resize.half_pixel_centers;
  if (align && half) return op_error(pc, node, "align_corners and half_pixel_centers cannot both be set");
  for (int d = 1; d <= 2; d++)
    if (in->dims[d] >= MAX_EXTENT || out->dims[d] >= MAX_EXTENT)
      return op_error(pc, node, "spatial extents must stay below %d", MAX_EXTENT);
  BilinearPlan *bp = arena_alloc(pc->arena, sizeof *bp);
  if (!bp) return op_error(pc, node, "out of memory");
  bp->batches = in->dims[0];
  bp->out_h = out->dims[1];
  bp->out_w = out->dims[2];
  bp->channels = in->dims[3];
  bp->in_batch_bytes = in->dims[1] * in->dims[2] * in->dims[3];
  if (!alloc_tables(pc, bp)) return op_error(pc, node, "out of memory");
  bp->type = in->type;
  if (in->type == TT_FLOAT32) {
    bp->fdy = arena_calloc(pc->arena, (size_t)bp->out_h, sizeof(float));
    bp->fdx = arena_calloc(pc->arena, (size_t)bp->out_w, sizeof(float));
    if (!bp->fdy || !bp->fdx) return op_error(pc, node, "out of memory");
    axis_tables_f32(in->dims[1], bp->out_h, align, half, in->dims[2] * in->dims[3], bp->y0, bp->y1, bp->fdy);
    axis_tables_f32(in->dims[2], bp->out_w, align, half, in->dims[3], bp->x0, bp->x1, bp->fdx);
    node->op_data = bp;
    node->kernel = "ta_resize_bilinear_f32";
    node->families[0] = "resize";
    node->macs = 4 * out->elems;
    return true;
  }
  if (!axis_tables(pc, node, in->dims[1], bp->out_h, align, half, in->dims[2] * in->dims[3], bp->y0, bp->y1, bp->dy) ||
      !axis_tables(pc, node, in->dims[2], bp->out_w, align, half, in->dims[3], bp->x0, bp->x1, bp->dx))
    return false;
  node->op_data = bp;
  node->kernel = "ta_resize_bilinear_s8";
  node->families[0] = "resize";
  node->macs = 4 * out->elems;
  return true;
}

static void resize_bilinear_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const BilinearPlan *bp = node->op_data;
  const size_t h = (size_t)bp->out_h, w = (size_t)bp->out_w;
  const char *y0 = em_table_i32(ec, "y0", bp->y0, h), *y1 = em_table_i32(ec, "y1", bp->y1, h);
  const char *x0 = em_table_i32(ec, "x0", bp->x0, w), *x1 = em_table_i32(ec, "x1", bp->x1, w);
  const bool f32 = bp->type == TT_FLOAT32;
  const char *dy = f32 ? em_table_f32(ec, "dy", bp->fdy, h) : em_table_i32(ec, "dy", bp->dy, h);
  const char *dx = f32 ? em_table_f32(ec, "dx", bp->fdx, w) : em_table_i32(ec, "dx", bp->dx, w);
  em_decl(ec,
          "static const %s %s_params = {\n  .batches = %d,\n  .out_height = %d,\n"
          "  .out_width = %d,\n  .channels = %d,\n  .in_batch_bytes = %d,\n  .y0 = %s,\n  .y1 = %s,\n  .dy = %s,\n"
          "  .x0 = %s,\n  .x1 = %s,\n  .dx = %s,\n};",
          f32 ? "ta_resize_bilinear_f32_params_t" : "ta_resize_bilinear_params_t", em_op_name(ec), (int)bp->batches,
          (int)bp->out_h, (int)bp->out_w, (int)bp->channels, (int)bp->in_batch_bytes,
          y0, y1, dy, x0, x1, dx);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_resize_bilinear = {
    .name = "RESIZE_BILINEAR",
    .builtin_code = 23,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "4D NHWC; constant size; not both align_corners and half_pixel_centers",
    .prepare = resize_bilinear_prepare,
    .emit = resize_bilinear_emit,
};
