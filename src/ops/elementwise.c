/* Helpers shared by the elementwise operators; see elementwise.h. */
#include "elementwise.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../ir/quant.h"
#include "addsub_flat.h"
#include "addsub_s16_dsp.h"
#include "fixed_point.h"

/* ---- broadcasting ---------------------------------------------------------------- */

/* Dimension d of t's shape left-padded with ones to `rank` dimensions. */
static int64_t padded_dim(const Tensor *t, int rank, int d) {
  const int k = d - (rank - t->rank);
  return k < 0 ? 1 : t->dims[k];
}

/* Element strides of t padded to `rank`, 0 where t has extent 1 but out does not. */
static void input_strides(const Tensor *t, int rank, const int64_t *out_dims, int64_t *strides) {
  int64_t step = 1;
  for (int d = rank - 1; d >= 0; d--) {
    const int64_t extent = padded_dim(t, rank, d);
    strides[d] = extent == 1 && out_dims[d] != 1 ? 0 : step;
    step *= extent;
  }
}

static bool check_shape(PrepareCtx *pc, const Node *node, const Tensor *t) {
  for (int d = 0; d < t->rank; d++)
    if (t->dims[d] < 0)
      return op_error(pc, node, "%s has a negative dimension", op_tensor_desc(pc, t));
  if (t->elems > INT32_MAX)
    return op_error(pc, node, "%s has more than 2^31-1 elements", op_tensor_desc(pc, t));
  return true;
}

/* Drops extent-1 dimensions and merges neighbours both inputs step through
 * contiguously (outer stride = inner stride * inner extent, broadcast included). */
static int merge_dims(int rank, const int64_t *dims, const int64_t *s1, const int64_t *s2, int64_t *md,
                      int64_t *m1, int64_t *m2) {
  int n = 0;
  for (int d = 0; d < rank; d++) {
    if (dims[d] == 1) continue;
    if (n > 0 && m1[n - 1] == s1[d] * dims[d] && m2[n - 1] == s2[d] * dims[d]) {
      md[n - 1] *= dims[d];
      m1[n - 1] = s1[d];
      m2[n - 1] = s2[d];
      continue;
    }
    md[n] = dims[d];
    m1[n] = s1[d];
    m2[n] = s2[d];
    n++;
  }
  if (n == 0) { /* a single element */
    md[0] = 1;
    m1[0] = m2[0] = 0;
    n = 1;
  }
  return n;
}

bool ew_broadcast(PrepareCtx *pc, const Node *node, const Tensor *a, const Tensor *b, const Tensor *out,
                  EwBcast *bc) {
  if (!check_shape(pc, node, a) || !check_shape(pc, node, b) || !check_shape(pc, node, out)) return false;
  const int rank = a->rank > b->rank ? a->rank : b->rank;
  int64_t dims[TA_MAX_RANK] = {0};
  for (int d = 0; d < rank; d++) {
    const int64_t da = padded_dim(a, rank, d), db = padded_dim(b, rank, d);
    if (da != db && da != 1 && db != 1)
      return op_error(pc, node, "shapes %s and %s do not broadcast (dimension %d: %lld vs %lld)",
                      tensor_shape_str(pc->arena, a), tensor_shape_str(pc->arena, b), d, (long long)da,
                      (long long)db);
    dims[d] = da == 1 ? db : da;
  }
  bool match = out->rank == rank;
  for (int d = 0; match && d < rank; d++) match = out->dims[d] == dims[d];
  if (!match)
    return op_error(pc, node, "%s has shape %s, expected the broadcast of %s and %s", op_tensor_desc(pc, out),
                    tensor_shape_str(pc->arena, out), tensor_shape_str(pc->arena, a),
                    tensor_shape_str(pc->arena, b));
  memset(bc, 0, sizeof *bc);
  if (out->elems == 0) return true; /* rank 0: nothing to compute */
  int64_t s1[TA_MAX_RANK], s2[TA_MAX_RANK], md[TA_MAX_RANK], m1[TA_MAX_RANK], m2[TA_MAX_RANK];
  input_strides(a, rank, dims, s1);
  input_strides(b, rank, dims, s2);
  const int n = merge_dims(rank, dims, s1, s2, md, m1, m2);
  if (n > EW_MAX_BCAST_RANK)
    return op_error(pc, node, "broadcasting %s with %s needs %d loops, at most %d are supported",
                    tensor_shape_str(pc->arena, a), tensor_shape_str(pc->arena, b), n, EW_MAX_BCAST_RANK);
  bc->rank = n;
  for (int d = 0; d < n; d++) {
    bc->dims[d] = (int32_t)md[d];
    bc->stride1[d] = (int32_t)m1[d];
    bc->stride2[d] = (int32_t)m2[d];
  }
  return true;
}

static size_t int_list(char *buf, size_t cap, const int32_t *v, int n) {
  size_t len = 0;
  for (int i = 0; i < n && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, i ? ", %ld" : "%ld", (long)v[i]);
  return len < cap ? len : cap;
}

void ew_bcast_init(char *buf, size_t cap, const EwBcast *bc) {
  char d[128], s1[128], s2[128];
  int_list(d, sizeof d, bc->dims, bc->rank);
  int_list(s1, sizeof s1, bc->stride1, bc->rank);
  int_list(s2, sizeof s2, bc->stride2, bc->rank);
  snprintf(buf, cap, "{.rank = %d, .dims = {%s}, .stride1 = {%s}, .stride2 = {%s}}", bc->rank, d, s1, s2);
}

/* ---- options and quantization ------------------------------------------------------ */

bool ew_fused_activation(PrepareCtx *pc, const Node *node, int *act) {
  *act = options_fused_activation(&node->opts);
  if (*act == ACT_NONE || *act == ACT_RELU || *act == ACT_RELU_N1_TO_1 || *act == ACT_RELU6) return true;
  return op_error(pc, node, "fused activation %d is not supported (NONE, RELU, RELU_N1_TO_1, RELU6 are)", *act);
}

static bool type_limits(TensorType type, int32_t *lo, int32_t *hi) {
  switch (type) {
    case TT_INT8: *lo = -128; *hi = 127; return true;
    case TT_UINT8: *lo = 0; *hi = 255; return true;
    case TT_INT16: *lo = -32768; *hi = 32767; return true;
    case TT_INT32: *lo = INT32_MIN; *hi = INT32_MAX; return true;
    default: return false;
  }
}

bool ew_expect_quant(PrepareCtx *pc, const Node *node, const Tensor *t) {
  if (t->n_quant != 1 || !(t->scale[0] > 0.f) || !isfinite(t->scale[0]))
    return op_error(pc, node, "%s needs one per-tensor quantization scale > 0", op_tensor_desc(pc, t));
  int32_t lo, hi;
  if (!type_limits(t->type, &lo, &hi))
    return op_error(pc, node, "%s: dtype %s is not a quantized type", op_tensor_desc(pc, t), tensor_type_name(t->type));
  if (t->zero_point[0] < lo || t->zero_point[0] > hi)
    return op_error(pc, node, "%s has zero point %lld outside the %s range", op_tensor_desc(pc, t),
                    (long long)t->zero_point[0], tensor_type_name(t->type));
  return true;
}

bool ew_expect_symmetric(PrepareCtx *pc, const Node *node, const Tensor *t) {
  if (!ew_expect_quant(pc, node, t)) return false;
  if (t->zero_point[0] != 0)
    return op_error(pc, node, "%s must have zero point 0 for %s (has %lld)", op_tensor_desc(pc, t),
                    tensor_type_name(t->type), (long long)t->zero_point[0]);
  return true;
}

bool ew_expect_unary_shape(PrepareCtx *pc, const Node *node, const Tensor *in, const Tensor *out) {
  if (!check_shape(pc, node, in) || !check_shape(pc, node, out)) return false;
  if (in->elems != out->elems || !tensor_same_shape(in, out))
    return op_error(pc, node, "%s has shape %s but %s has %s", op_tensor_desc(pc, in), tensor_shape_str(pc->arena, in),
                    op_tensor_desc(pc, out), tensor_shape_str(pc->arena, out));
  return true;
}

bool ew_expect_same_quant(PrepareCtx *pc, const Node *node, const Tensor *a, const Tensor *b) {
  if (tensor_scale(a) != tensor_scale(b) || tensor_zero_point(a) != tensor_zero_point(b))
    return op_error(pc, node, "%s and %s must share scale and zero point (TFLite compares raw values)",
                    op_tensor_desc(pc, a), op_tensor_desc(pc, b));
  return true;
}

bool ew_multiplier_below_one(PrepareCtx *pc, const Node *node, double m, const char *what, int32_t *q,
                             int32_t *shift) {
  if (!(m > 0.0 && m < 1.0))
    return op_error(pc, node, "%s rescale factor %g is outside (0, 1)", what, m);
  return op_quant_multiplier(pc, node, m, QUANT_RANGE_BELOW_ONE, q, shift, "%s", what);
}

bool ew_multiplier(PrepareCtx *pc, const Node *node, double m, const char *what, int32_t *q, int32_t *shift) {
  return op_quant_multiplier(pc, node, m, QUANT_RANGE_INT32, q, shift, "%s", what);
}

void ew_float_literal(char *buf, size_t cap, float f) {
  if (isinf(f)) f = f > 0 ? FLT_MAX : -FLT_MAX;
  snprintf(buf, cap, "%.9g", (double)f);
  if (!strpbrk(buf, ".eEn")) strncat(buf, ".0", cap - strlen(buf) - 1);
  strncat(buf, "f", cap - strlen(buf) - 1);
}

void ew_emit_binary_call(EmitCtx *ec, const Node *node, const char *descriptor) {
  em_call(ec, node->kernel, 4, em_desc(ec, descriptor), em_tensor(ec, node->in[0]), em_tensor(ec, node->in[1]),
          em_tensor(ec, node->out[0]));
}

/* ---- binary arithmetic ------------------------------------------------------------- */

/* Set to 0 to keep int8 ADD / SUB on the broadcasting kernels (e.g. to bisect a mismatch). */
#define ADDSUB_FLAT_ENABLED 1

/* Both inputs walk the output contiguously: one run, unit steps. */
static bool same_shape_walk(const EwBcast *bc) {
  return bc->rank == 1 && bc->stride1[0] == 1 && bc->stride2[0] == 1;
}

/* int8 ADD / SUB of same-shape inputs: the folded flat kernel of the platform's tier
 * when an exact plan exists; otherwise the node keeps the broadcasting kernel. */
static void try_addsub_flat(PrepareCtx *pc, Node *node, EwArith *d, bool subtract) {
  if (!ADDSUB_FLAT_ENABLED || !same_shape_walk(&d->bc)) return;
  AddFlatPlan *plan = arena_alloc(pc->arena, sizeof *plan);
  if (!plan) return;
  const bool mve = pc->platform && pc->platform->mve;
  if (!addsub_flat_plan(d, subtract, mve ? ADDFLAT_MVE : ADDFLAT_SCALAR, plan)) return;
  d->flat = plan;
  node->kernel = mve ? "ta_addsub_s8_flat_mve" : "ta_addsub_s8_flat";
  node->families[0] = "addsub_flat";
}

/* Set to 0 to keep int16 ADD / SUB on the broadcasting kernels on MVE targets. */
#define ADDSUB_S16_MVE_ENABLED 1

/* int16 ADD / SUB of same-shape inputs on an MVE target: ta_addsub_s16_mve.h, which
 * needs zero input offsets and shifts inside what its VRSHL / VSHL amounts express. */
static void try_addsub_s16_mve(PrepareCtx *pc, Node *node, const EwArith *d, bool subtract) {
  if (!ADDSUB_S16_MVE_ENABLED || !pc->platform || !pc->platform->mve || !same_shape_walk(&d->bc)) return;
  if (d->in1_offset != 0 || d->in2_offset != 0 || d->left_shift < 0 || d->left_shift > 31) return;
  if (d->in1_shift > 0 || d->in1_shift < -31 || d->in2_shift > 0 || d->in2_shift < -31) return;
  if (d->out_shift > 31 || d->out_shift < -31) return;
  node->kernel = subtract ? "ta_sub_s16_mve" : "ta_add_s16_mve";
  node->families[1] = "addsub_s16_mve";
}

/* Set to 0 to keep int16 ADD / SUB on the broadcasting kernels on DSP targets. */
#define ADDSUB_S16_DSP_ENABLED 1

/* int16 ADD / SUB of same-shape inputs on a DSP (not MVE) target: ta_addsub_s16_dsp.h,
 * where its exactness conditions hold (addsub_s16_dsp.h). */
static void try_addsub_s16_dsp(PrepareCtx *pc, Node *node, const EwArith *d, bool subtract) {
  if (!ADDSUB_S16_DSP_ENABLED || !pc->platform || !pc->platform->dsp || pc->platform->mve) return;
  if (!same_shape_walk(&d->bc) || !addsub_s16_dsp_fits(d, subtract)) return;
  node->kernel = subtract ? "ta_sub_s16_dsp" : "ta_add_s16_dsp";
  node->families[1] = "addsub_s16_dsp";
}

bool ew_arith_prepare(PrepareCtx *pc, Node *node, const EwArithOp *op) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, op->options)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (out->type != TT_INT8 && out->type != TT_INT16 && out->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; %s supports int8, int16 and float32", op_tensor_desc(pc, out),
                    tensor_type_name(out->type), op->name);
  if (!op_expect_type(pc, node, a, out->type) || !op_expect_type(pc, node, b, out->type)) return false;
  EwArith *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  int act;
  if (!ew_fused_activation(pc, node, &act) || !ew_broadcast(pc, node, a, b, out, &d->bc))
    return false;
  d->type = out->type;
  d->params = op->params;
  if (out->type == TT_FLOAT32) {
    quant_activation_range_f32(act, &d->act_min_f, &d->act_max_f);
  } else if (!op->prepare_quantized(pc, node, d, act, a, b, out)) {
    return false;
  }
  node->op_data = d;
  node->kernel = out->type == TT_INT8 ? op->kernel_s8 : out->type == TT_INT16 ? op->kernel_s16 : op->kernel_f32;
  node->families[0] = "elementwise";
  node->macs = op->macs_per_element ? out->elems : 0;
  if (out->type == TT_INT8 && op->flat_sign != 0) try_addsub_flat(pc, node, d, op->flat_sign < 0);
  if (out->type == TT_INT16 && op->flat_sign != 0) try_addsub_s16_mve(pc, node, d, op->flat_sign < 0);
  if (out->type == TT_INT16 && op->flat_sign != 0) try_addsub_s16_dsp(pc, node, d, op->flat_sign < 0);
  return true;
}

/* The flat kernel's descriptor, table and call; the table input goes first. */
static void emit_addsub_flat(EmitCtx *ec, const Node *node, const EwArith *d) {
  const AddFlatPlan *f = d->flat;
  const char *table = em_table_i32(ec, "table", f->table, 256);
  em_decl(ec,
          "static const ta_addsub_flat_params_t %s_params = {\n  .size = %ld,\n  .table = %s,\n  .lin_mult = %ld,\n"
          "  .out_mult = %ld, .out_add = %ld, .out_shift = %ld,\n  .act_min = %ld, .act_max = %ld,\n};",
          em_op_name(ec), (long)d->bc.dims[0], table, (long)f->lin_mult, (long)f->out_mult, (long)f->out_add,
          (long)f->out_shift, (long)f->act_min, (long)f->act_max);
  const int32_t table_in = node->in[f->swap ? 1 : 0], affine_in = node->in[f->swap ? 0 : 1];
  em_call(ec, node->kernel, 4, em_desc(ec, "params"), em_tensor(ec, table_in), em_tensor(ec, affine_in),
          em_tensor(ec, node->out[0]));
}

void ew_arith_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const EwArith *d = node->op_data;
  (void)m;
  if (d->bc.rank == 0) return; /* empty output */
  if (d->flat) {
    emit_addsub_flat(ec, node, d);
    return;
  }
  char bc[512];
  ew_bcast_init(bc, sizeof bc, &d->bc);
  if (d->type == TT_FLOAT32) {
    char lo[32], hi[32];
    ew_float_literal(lo, sizeof lo, d->act_min_f);
    ew_float_literal(hi, sizeof hi, d->act_max_f);
    em_decl(ec, "static const ta_arith_f32_params_t %s_params = {\n  .bc = %s,\n  .act_min = %s, .act_max = %s,\n};",
            em_op_name(ec), bc, lo, hi);
  } else if (d->params == EW_MUL_PARAMS) {
    em_decl(ec,
            "static const ta_mul_params_t %s_params = {\n  .bc = %s,\n"
            "  .in1_offset = %d, .in2_offset = %d,\n"
            "  .out_multiplier = %d, .out_shift = %d, .out_offset = %d,\n"
            "  .act_min = %d, .act_max = %d,\n};",
            em_op_name(ec), bc, d->in1_offset, d->in2_offset, d->out_multiplier, d->out_shift, d->out_offset,
            d->act_min, d->act_max);
  } else {
    em_decl(ec,
            "static const ta_addsub_params_t %s_params = {\n  .bc = %s,\n"
            "  .in1_offset = %d, .in2_offset = %d,\n"
            "  .in1_multiplier = %d, .in1_shift = %d,\n"
            "  .in2_multiplier = %d, .in2_shift = %d,\n"
            "  .left_shift = %d,\n"
            "  .out_multiplier = %d, .out_shift = %d, .out_offset = %d,\n"
            "  .act_min = %d, .act_max = %d,\n};",
            em_op_name(ec), bc, d->in1_offset, d->in2_offset, d->in1_multiplier, d->in1_shift, d->in2_multiplier,
            d->in2_shift, d->left_shift, d->out_multiplier, d->out_shift, d->out_offset, d->act_min, d->act_max);
  }
  ew_emit_binary_call(ec, node, "params");
}

bool ew_input_multipliers(PrepareCtx *pc, const Node *node, EwArith *d, double m1, double m2) {
  return ew_multiplier_below_one(pc, node, m1, "input 1", &d->in1_multiplier, &d->in1_shift) &&
         ew_multiplier_below_one(pc, node, m2, "input 2", &d->in2_multiplier, &d->in2_shift);
}

/* Both inputs are brought to 2 * max(scale1, scale2) after a left shift of 20 bits
 * (int8) or 15 (int16) that keeps precision; the sum or difference is then rescaled
 * to the output. */
bool ew_addsub_quantized(PrepareCtx *pc, Node *node, EwArith *d, int act, const Tensor *a, const Tensor *b,
                         const Tensor *out, bool single_precision) {
  if (!ew_expect_quant(pc, node, a) || !ew_expect_quant(pc, node, b) || !ew_expect_quant(pc, node, out))
    return false;
  d->in1_offset = -tensor_zero_point(a);
  d->in2_offset = -tensor_zero_point(b);
  d->out_offset = tensor_zero_point(out);
  d->left_shift = out->type == TT_INT16 ? 15 : 20;
  double m1, m2, m_out;
  if (single_precision) { /* each quotient rounded to float before widening */
    const float twice_max = 2.0f * fmaxf(tensor_scale(a), tensor_scale(b));
    const float out_scale = (float)(1 << d->left_shift) * tensor_scale(out);
    m1 = (double)(tensor_scale(a) / twice_max);
    m2 = (double)(tensor_scale(b) / twice_max);
    m_out = (double)(twice_max / out_scale);
  } else {
    const double twice_max = 2.0 * (double)fmaxf(tensor_scale(a), tensor_scale(b));
    const double out_scale = (double)(1 << d->left_shift) * (double)tensor_scale(out);
    m1 = (double)tensor_scale(a) / twice_max;
    m2 = (double)tensor_scale(b) / twice_max;
    m_out = twice_max / out_scale;
  }
  if (!ew_input_multipliers(pc, node, d, m1, m2) ||
      !ew_multiplier_below_one(pc, node, m_out, "output", &d->out_multiplier, &d->out_shift))
    return false;
  if (!quant_activation_range(act, out->type, tensor_scale(out), d->out_offset, &d->act_min, &d->act_max))
    return op_error(pc, node, "cannot compute the activation range");
  return true;
}

/* ---- MAXIMUM, MINIMUM ---------------------------------------------------------------- */

bool ew_raw_compare_prepare(PrepareCtx *pc, Node *node, const char *name, uint8_t options, const char *kernel) {
  if (!op_expect_io(pc, node, 2, 2, 1) || !op_expect_options(pc, node, options)) return false;
  const Tensor *a = node_input(pc->model, node, 0), *b = node_input(pc->model, node, 1);
  const Tensor *out = node_output(pc->model, node, 0);
  if (out->type != TT_INT8)
    return op_error(pc, node, "%s has dtype %s; %s supports int8", op_tensor_desc(pc, out),
                    tensor_type_name(out->type), name);
  if (!op_expect_type(pc, node, a, TT_INT8) || !op_expect_type(pc, node, b, TT_INT8) ||
      !ew_expect_quant(pc, node, out) || !ew_expect_same_quant(pc, node, a, out) ||
      !ew_expect_same_quant(pc, node, b, out))
    return false;
  EwBcast *bc = arena_alloc(pc->arena, sizeof *bc);
  if (!bc) return op_error(pc, node, "out of memory");
  if (!ew_broadcast(pc, node, a, b, out, bc)) return false;
  node->op_data = bc;
  node->kernel = kernel;
  node->families[0] = "elementwise";
  node->macs = 0;
  return true;
}

void ew_raw_compare_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const EwBcast *bc = node->op_data;
  (void)m;
  if (bc->rank == 0) return; /* empty output */
  char init[512];
  ew_bcast_init(init, sizeof init, bc);
  em_decl(ec, "static const ta_bcast_t %s_bc = %s;", em_op_name(ec), init);
  ew_emit_binary_call(ec, node, "bc");
}

/* ---- unary operators ----------------------------------------------------------------- */

EwUnary *ew_unary_new(PrepareCtx *pc, Node *node, EwUnaryKind kind, const Tensor *in, const char *kernel) {
  EwUnary *u = arena_alloc(pc->arena, sizeof *u);
  if (!u) {
    op_error(pc, node, "out of memory");
    return NULL;
  }
  u->kind = kind;
  u->size = in->elems;
  u->uint8_input = in->type == TT_UINT8;
  node->op_data = u;
  node->macs = 0;
  switch (kind) {
    case EW_LUT8:
      node->kernel = u->uint8_input ? "ta_lut_u8_s8" : "ta_lut_s8";
      node->families[0] = "lut";
      break;
    case EW_SIGMOID16:
      node->kernel = kernel;
      node->families[0] = "activation";
      break;
    case EW_PLAIN_F32:
      node->kernel = kernel;
      node->families[0] = "activation_f32";
      break;
  }
  return u;
}

int32_t ew_lut_input(const EwUnary *u, int b) { return u->uint8_input ? b : (int32_t)(int8_t)(uint8_t)b; }

/* TFLite's CheckedLog2: log2 in float, "a power of two" within 1e-3. */
static bool checked_log2(float x, int *log2_rounded) {
  const float x_log2 = logf(x) * (1.0f / logf(2.0f));
  const float rounded = roundf(x_log2);
  *log2_rounded = (int)rounded;
  return fabsf(x_log2 - rounded) < 1e-3f;
}

bool ew_sigmoid16_rescale(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out, bool is_tanh,
                          EwUnary *u) {
  if (!ew_expect_symmetric(pc, node, in) || !ew_expect_symmetric(pc, node, out)) return false;
  int out_log2;
  if (!checked_log2(tensor_scale(out), &out_log2) || out_log2 != -15)
    return op_error(pc, node, "%s must have scale 2^-15 (has %g)", op_tensor_desc(pc, out), tensor_scale(out));
  /* The table wants the input in units of 1/(3 * 4096) (tanh: doubled inside). A
   * power-of-two scale of 2^-12 (tanh also 2^-13) is a plain multiply by 3 << s. */
  int in_log2;
  const bool pot = checked_log2(tensor_scale(in), &in_log2);
  const int pot_shift = 12 + in_log2;
  if (pot && (pot_shift == 0 || (is_tanh && pot_shift == 1))) {
    u->multiplier = 3 << pot_shift;
    u->shift = 0;
    return true;
  }
  double multiplier = (double)tensor_scale(in) * 4096.0 * 3.0;
  int shift = 0;
  while (multiplier <= 32767.0 / 2.0 && shift <= 30) {
    shift++;
    multiplier *= 2.0;
  }
  if (multiplier > 32767.0)
    return op_error(pc, node, "%s scale %g is too large for the int16 kernel", op_tensor_desc(pc, in),
                    tensor_scale(in));
  u->multiplier = (int32_t)multiplier;
  u->shift = shift;
  return true;
}

/* int8: the input is rescaled to Q4.27 (inputs beyond +-radius saturate) and the
 * Q0.31 result rounded to the output's steps and offset by its zero point.
 * Evaluated here for all 256 input bytes. */
static bool sigmoid_tabulate_int8(PrepareCtx *pc, Node *node, const Tensor *in, const Tensor *out,
                                  const EwSigmoidOp *op, EwUnary *u) {
  if (!ew_expect_quant(pc, node, in) || !ew_expect_quant(pc, node, out)) return false;
  if (tensor_zero_point(out) != op->out_zero_point_s8 || tensor_scale(out) != op->out_scale_s8)
    return op_error(pc, node, "%s must have scale %s and zero point %d (TFLite's fixed int8 %s output)",
                    op_tensor_desc(pc, out), op->out_scale_text, (int)op->out_zero_point_s8, op->function);
  int shift;
  const double q = frexp((double)tensor_scale(in) * (double)(1 << 27), &shift);
  const double multiplier = round(q * 2147483648.0);
  if (shift < 0 || multiplier >= 2147483648.0)
    return op_error(pc, node, "%s scale %g is outside the int8 %s's range", op_tensor_desc(pc, in),
                    tensor_scale(in), op->function);
  const int32_t radius = (int32_t)floor(ldexp(15.0, 27 - shift)); /* 15 * 2^27 / 2^shift */
  const int32_t zero_point = tensor_zero_point(in);
  for (int b = 0; b < 256; b++) {
    const int32_t x = ew_lut_input(u, b) - zero_point;
    int32_t y;
    if (x <= -radius) {
      y = -128;
    } else if (x >= radius) {
      y = 127;
    } else {
      const int32_t x_q4 = fx_requantize(x, (int32_t)multiplier, shift);
      y = fx_rdbpot(op->q4_to_q31(x_q4), op->result_shift) + op->out_zero_point_s8;
      y = y < -128 ? -128 : y > 127 ? 127 : y;
    }
    u->table[b] = (int8_t)y;
  }
  return true;
}

bool ew_sigmoid_prepare(PrepareCtx *pc, Node *node, const EwSigmoidOp *op) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  const Tensor *in = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (in->type != TT_INT8 && in->type != TT_INT16 && in->type != TT_FLOAT32)
    return op_error(pc, node, "%s has dtype %s; %s supports int8, int16 and float32", op_tensor_desc(pc, in),
                    tensor_type_name(in->type), op->name);
  if (!op_expect_type(pc, node, out, in->type) || !ew_expect_unary_shape(pc, node, in, out)) return false;
  switch (in->type) {
    case TT_INT8: {
      EwUnary *u = ew_unary_new(pc, node, EW_LUT8, in, NULL);
      return u && sigmoid_tabulate_int8(pc, node, in, out, op, u);
    }
    case TT_INT16: {
      EwUnary *u = ew_unary_new(pc, node, EW_SIGMOID16, in, op->kernel_s16);
      return u && ew_sigmoid16_rescale(pc, node, in, out, op->is_tanh, u);
    }
    default:
      return ew_unary_new(pc, node, EW_PLAIN_F32, in, op->kernel_f32) != NULL;
  }
}

void ew_unary_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const EwUnary *u = node->op_data;
  (void)m;
  if (u->size == 0) return;
  const char *name = em_op_name(ec);
  switch (u->kind) {
    case EW_LUT8: {
      const char *table = em_table_i8(ec, "lut", u->table, 256);
      em_decl(ec, "static const ta_lut8_params_t %s_params = {.size = %lld, .table = %s};", name,
              (long long)u->size, table);
      em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
      break;
    }
    case EW_SIGMOID16: {
      int16_t values[256]; /* TFLite's sigmoid nodes minus 32768, the kernel's int16 form */
      fx_sigmoid_nodes_i16(values);
      const char *table = em_table_i16(ec, "sigmoid_table", values, 256);
      em_decl(ec,
              "static const ta_sigmoid16_params_t %s_params = {\n  .size = %lld, .multiplier = %d, .shift = %d,\n"
              "  .table = %s,\n};",
              name, (long long)u->size, u->multiplier, u->shift, table);
      em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
      break;
    }
    case EW_PLAIN_F32:
      em_call(ec, node->kernel, 3, em_int(ec, u->size), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
      break;
  }
}
