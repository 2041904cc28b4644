/* BATCH_MATMUL: out = op(lhs) x op(rhs) per broadcast batch, op = optional transpose;
 * int8, int16 (zero points 0, int64 accumulator as TFLite Micro) and float32. */
#include "../ir/quant.h"
#include "op.h"

enum { BMM_RANK = 5 };              /* operands are viewed as 3 batch dims + a matrix */

typedef struct BmmData {
  TensorType type;
  int32_t batch[3], lhs_stride[3], rhs_stride[3];
  int32_t rows, cols, depth;
  int32_t lhs_row_step, lhs_depth_step, rhs_col_step, rhs_depth_step;
  int32_t lhs_offset, rhs_offset, output_offset;
  int32_t multiplier, shift;
} BmmData;

/* The tensor's shape right-aligned in BMM_RANK dims (leading 1s). */
static void bmm_extend(const Tensor *t, int32_t dims[BMM_RANK]) {
  for (int i = 0; i < BMM_RANK; i++) dims[i] = (int32_t)tensor_dim(t, i - BMM_RANK);
}

/* Element stride of batch dim i, or 0 when the operand broadcasts along it. */
static int32_t bmm_batch_stride(const int32_t dims[BMM_RANK], int i) {
  if (dims[i] == 1) return 0;
  int64_t s = 1;
  for (int k = i + 1; k < BMM_RANK; k++) s *= dims[k];
  return (int32_t)s;
}

/* int16 operands must be symmetric (zero point 0), as TFLite Micro's 16-bit path assumes. */
static bool bmm_check_quant(PrepareCtx *pc, const Node *node, const Tensor *t) {
  if (t->type == TT_FLOAT32) return true;
  if (!op_expect_quantized(pc, node, t)) return false;
  if (t->type == TT_INT16 && tensor_zero_point(t) != 0)
    return op_error(pc, node, "%s must have zero point 0 for int16 (has %d)", op_tensor_desc(pc, t),
                    (int)tensor_zero_point(t));
  return true;
}

static bool bmm_check_operand(PrepareCtx *pc, const Node *node, const Tensor *t, TensorType type) {
  if (!op_expect_type(pc, node, t, type) || !bmm_check_quant(pc, node, t)) return false;
  if (t->rank < 2 || t->rank > BMM_RANK || t->elems <= 0 || t->elems > INT32_MAX)
    return op_error(pc, node, "%s has shape %s; operands must be non-empty, rank 2 to 5", op_tensor_desc(pc, t),
                    tensor_shape_str(pc->arena, t));
  return true;
}

/* Batch broadcasting, matching inner dimensions and the expected output shape. */
static bool bmm_shapes(PrepareCtx *pc, const Node *node, const Tensor *lhs, const Tensor *rhs, const Tensor *out,
                       bool adj_x, bool adj_y, BmmData *d) {
  int32_t l[BMM_RANK], r[BMM_RANK];
  bmm_extend(lhs, l);
  bmm_extend(rhs, r);
  const int out_rank = lhs->rank > rhs->rank ? lhs->rank : rhs->rank;
  for (int i = 0; i < 3; i++) {
    if (l[i] != r[i] && l[i] != 1 && r[i] != 1)
      return op_error(pc, node, "batch dimensions of %s %s and %s %s do not broadcast", op_tensor_desc(pc, lhs),
                      tensor_shape_str(pc->arena, lhs), op_tensor_desc(pc, rhs), tensor_shape_str(pc->arena, rhs));
    d->batch[i] = l[i] > r[i] ? l[i] : r[i];
    d->lhs_stride[i] = bmm_batch_stride(l, i);
    d->rhs_stride[i] = bmm_batch_stride(r, i);
  }
  d->rows = adj_x ? l[4] : l[3];
  d->depth = adj_x ? l[3] : l[4];
  d->cols = adj_y ? r[3] : r[4];
  const int32_t rhs_depth = adj_y ? r[4] : r[3];
  if (rhs_depth != d->depth)
    return op_error(pc, node, "inner dimensions differ: %d in %s, %d in %s (adj_x %d, adj_y %d)", (int)d->depth,
                    op_tensor_desc(pc, lhs), (int)rhs_depth, op_tensor_desc(pc, rhs), adj_x, adj_y);
  bool out_ok = out->rank == out_rank && tensor_dim(out, -2) == d->rows && tensor_dim(out, -1) == d->cols;
  for (int i = BMM_RANK - out_rank; i < 3 && out_ok; i++) out_ok = tensor_dim(out, i - BMM_RANK) == d->batch[i];
  if (!out_ok)
    return op_error(pc, node, "%s has shape %s; expected rank %d ending in [%d,%d] with broadcast batch dims",
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out), out_rank, (int)d->rows, (int)d->cols);
  /* transposed operands are walked with swapped steps instead of being copied */
  d->lhs_row_step = adj_x ? 1 : l[4];
  d->lhs_depth_step = adj_x ? l[4] : 1;
  d->rhs_col_step = adj_y ? r[4] : 1;
  d->rhs_depth_step = adj_y ? 1 : r[4];
  return true;
}

static bool bmm_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, OPTS_BATCH_MATMUL)) return false;
  const Tensor *lhs = node_input(pc->model, node, 0);
  const Tensor *rhs = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (lhs->type != TT_INT8 && lhs->type != TT_INT16 && lhs->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; BATCH_MATMUL supports int8, int16 and float32", op_tensor_desc(pc, lhs),
                    tensor_type_name(lhs->type));
  if (!bmm_check_operand(pc, node, lhs, lhs->type) || !bmm_check_operand(pc, node, rhs, lhs->type)) return false;
  if (!op_expect_type(pc, node, out, lhs->type) || !bmm_check_quant(pc, node, out)) return false;
  BmmData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  const bool adj_x = node->opts.batch_matmul.adj_x;
  const bool adj_y = node->opts.batch_matmul.adj_y;
  if (!bmm_shapes(pc, node, lhs, rhs, out, adj_x, adj_y, d)) return false;
  d->type = lhs->type;
  d->lhs_offset = -tensor_zero_point(lhs);
  d->rhs_offset = -tensor_zero_point(rhs);
  d->output_offset = tensor_zero_point(out);
  if (lhs->type != TT_FLOAT32) {
    /* TFLM: the scale product is taken in float, the division in double. int8 applies
     * it with ta_requantize, int16 (int64 accumulator) with ta_requantize64. */
    const float product = tensor_scale(lhs) * tensor_scale(rhs);
    const QuantRange range = lhs->type == TT_INT16 ? QUANT_RANGE_INT64 : QUANT_RANGE_INT32;
    if (!op_quant_multiplier(pc, node, (double)product / (double)tensor_scale(out), range, &d->multiplier, &d->shift,
                             "lhs x rhs / output scale of tensor %d '%s', tensor %d '%s', tensor %d '%s'",
                             OP_TENSOR_ARG(lhs), OP_TENSOR_ARG(rhs), OP_TENSOR_ARG(out)))
      return false;
  }
  node->op_data = d;
  node->kernel = lhs->type == TT_INT8    ? "ta_batch_matmul_s8"
                 : lhs->type == TT_INT16 ? "ta_batch_matmul_s16"
                                         : "ta_batch_matmul_f32";
  node->families[0] = "batch_matmul";
  node->macs = (int64_t)d->batch[0] * d->batch[1] * d->batch[2] * d->rows * d->cols * d->depth;
  return true;
}

static void bmm_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const BmmData *d = node->op_data;
  const char *name = em_op_name(ec);
  em_decl(ec,
          "static const ta_batch_matmul_params_t %s_params = {\n"
          "  .batch = {%d, %d, %d}, .lhs_batch_stride = {%d, %d, %d}, .rhs_batch_stride = {%d, %d, %d},\n"
          "  .rows = %d, .cols = %d, .depth = %d,\n"
          "  .lhs_row_step = %d, .lhs_depth_step = %d, .rhs_col_step = %d, .rhs_depth_step = %d,\n"
          "  .lhs_offset = %d, .rhs_offset = %d, .output_offset = %d,\n"
          "  .multiplier = %d, .shift = %d, .act_min = %d, .act_max = %d,\n};",
          name, (int)d->batch[0], (int)d->batch[1], (int)d->batch[2], (int)d->lhs_stride[0], (int)d->lhs_stride[1],
          (int)d->lhs_stride[2], (int)d->rhs_stride[0], (int)d->rhs_stride[1], (int)d->rhs_stride[2], (int)d->rows,
          (int)d->cols, (int)d->depth, (int)d->lhs_row_step, (int)d->lhs_depth_step, (int)d->rhs_col_step,
          (int)d->rhs_depth_step, (int)d->lhs_offset, (int)d->rhs_offset, (int)d->output_offset, (int)d->multiplier,
          (int)d->shift, d->type == TT_INT16 ? -32768 : -128, d->type == TT_INT16 ? 32767 : 127);
  em_call(ec, node->kernel, 4, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->in[1]),
          em_tensor(ec, node->out[0]));
}

const OpDef op_batch_matmul = {
    .name = "BATCH_MATMUL",
    .builtin_code = 126,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, float32",
    .constraints = "rank 2 to 5, broadcast batch dims; adj_x / adj_y read in place; int16 needs zero points 0",
    .prepare = bmm_prepare,
    .emit = bmm_emit,
};
