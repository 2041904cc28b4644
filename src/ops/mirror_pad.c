/* MIRROR_PAD: pads by mirroring the input (REFLECT leaves the edge out, SYMMETRIC
 * repeats it) with constant paddings; int8, int16, int32 and float32 (values are
 * copied, so quantized tensors keep their quantization). */
#include "data_movement.h"

enum { MIRROR_PAD_MAX_DIMS = 6 }; /* TA_PAD_MAX_DIMS */

static const TensorType mirror_pad_types[] = {TT_INT8, TT_INT16, TT_INT32, TT_FLOAT32};

typedef struct MirrorPadPlan {
  int rank;
  int32_t out_dims[MIRROR_PAD_MAX_DIMS], in_dims[MIRROR_PAD_MAX_DIMS], before[MIRROR_PAD_MAX_DIMS];
  int32_t offset, elem_bytes;
} MirrorPadPlan;

/* REFLECT may pad at most dim - 1 on each side, SYMMETRIC at most dim (the mirror
 * must stay inside the input). */
static bool read_mirror_paddings(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out,
                                 MirrorPadPlan *mp) {
  int64_t pads[2 * MIRROR_PAD_MAX_DIMS];
  int n = 0;
  const Tensor *paddings = node_input(pc->model, node, 1);
  if (!dm_const_ints(pc, node, paddings, "paddings", true, 2 * MIRROR_PAD_MAX_DIMS, pads, &n)) return false;
  if (n != 2 * in->rank || out->rank != in->rank)
    return op_error(pc, node, "paddings (%s) must hold 2 values per dimension of %s (rank %d)",
                    op_tensor_desc(pc, paddings), op_tensor_desc(pc, in), in->rank);
  for (int d = 0; d < in->rank; d++) {
    const int64_t lo = pads[2 * d], hi = pads[2 * d + 1], limit = in->dims[d] - mp->offset;
    if (lo < 0 || hi < 0 || lo > limit || hi > limit)
      return op_error(pc, node, "paddings %s: dimension %d of %s allows 0..%lld in %s mode",
                      dm_list_str(pc->arena, pads, n), d, op_tensor_desc(pc, in), (long long)limit,
                      mp->offset ? "REFLECT" : "SYMMETRIC");
    if (in->dims[d] + lo + hi != out->dims[d])
      return op_error(pc, node, "padding %s by %s gives a different shape than %s (%s)",
                      tensor_shape_str(pc->arena, in), dm_list_str(pc->arena, pads, n), op_tensor_desc(pc, out),
                      tensor_shape_str(pc->arena, out));
    mp->in_dims[d] = in->dims[d];
    mp->out_dims[d] = out->dims[d];
    mp->before[d] = (int32_t)lo;
  }
  mp->rank = in->rank;
  return true;
}

static bool mirror_pad_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, OPTS_MIRROR_PAD)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (!dm_expect_dtype(pc, node, in, mirror_pad_types, DM_COUNT(mirror_pad_types), "") ||
      !op_expect_type(pc, node, out, in->type) || !dm_expect_same_quant(pc, node, in, out) ||
      !dm_expect_dense(pc, node, in, MIRROR_PAD_MAX_DIMS) || !dm_expect_dense(pc, node, out, MIRROR_PAD_MAX_DIMS))
    return false;
  if (in->rank < 1) return op_error(pc, node, "%s is a scalar; nothing to pad", op_tensor_desc(pc, in));
  const int mode = node->opts.mirror_pad.mode;
  if (mode != OPT_MIRROR_REFLECT && mode != OPT_MIRROR_SYMMETRIC)
    return op_error(pc, node, "mirror mode %d is neither REFLECT (0) nor SYMMETRIC (1)", mode);
  MirrorPadPlan *mp = arena_calloc(pc->arena, 1, sizeof *mp);
  if (!mp) return op_error(pc, node, "out of memory");
  mp->offset = mode == OPT_MIRROR_REFLECT ? 1 : 0;
  mp->elem_bytes = (int32_t)tensor_type_size(in->type);
  if (!read_mirror_paddings(pc, node, in, out, mp)) return false;
  node->op_data = mp;
  node->kernel = "ta_mirror_pad";
  node->families[0] = "pad";
  node->macs = 0;
  return true;
}

static void mirror_pad_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const MirrorPadPlan *mp = node->op_data;
  char out_dims[128], in_dims[128], before[128];
  dm_fmt_list(out_dims, sizeof out_dims, mp->out_dims, mp->rank);
  dm_fmt_list(in_dims, sizeof in_dims, mp->in_dims, mp->rank);
  dm_fmt_list(before, sizeof before, mp->before, mp->rank);
  em_decl(ec,
          "static const ta_mirror_pad_params_t %s_params = {\n  .rank = %d,\n  .out_dims = {%s},\n  .in_dims = {%s},\n"
          "  .before = {%s},\n  .offset = %d,\n  .elem_bytes = %d,\n};",
          em_op_name(ec), mp->rank, out_dims, in_dims, before, (int)mp->offset, (int)mp->elem_bytes);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

const OpDef op_mirror_pad = {
    .name = "MIRROR_PAD",
    .builtin_code = 100,
    .capabilities = CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, int16, int32, float32",
    .constraints = "constant paddings (REFLECT: at most dim - 1 per side, SYMMETRIC: at most dim); input and "
                   "output quantized alike; rank <= 6",
    .prepare = mirror_pad_prepare,
    .emit = mirror_pad_emit,
};
