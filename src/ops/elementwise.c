/* Helpers shared by the elementwise operators; see elementwise.h. */
#include "elementwise.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../resolve/quant.h"
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

bool ew_fused_activation(PrepareCtx *pc, const Node *node, int field, int *act) {
  *act = fb_i8(&node->options, field, ACT_NONE);
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
  quant_multiplier(m, q, shift);
  if (*shift > 0) return op_error(pc, node, "%s rescale factor %g rounds up to 1", what, m);
  return true;
}

void ew_float_literal(char *buf, size_t cap, float f) {
  if (isinf(f)) f = f > 0 ? FLT_MAX : -FLT_MAX;
  snprintf(buf, cap, "%.9g", (double)f);
  if (!strpbrk(buf, ".eEn")) strncat(buf, ".0", cap - strlen(buf) - 1);
  strncat(buf, "f", cap - strlen(buf) - 1);
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
      em_body(ec, "%s(&%s_params, %s, %s);", node->kernel, name, em_tensor(ec, node->in[0]),
              em_tensor(ec, node->out[0]));
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
      em_body(ec, "%s(&%s_params, %s, %s);", node->kernel, name, em_tensor(ec, node->in[0]),
              em_tensor(ec, node->out[0]));
      break;
    }
    case EW_PLAIN_F32:
      em_body(ec, "%s(%lld, %s, %s);", node->kernel, (long long)u->size, em_tensor(ec, node->in[0]),
              em_tensor(ec, node->out[0]));
      break;
  }
}
