/* Helpers of the unary math operators; see math_unary.h. */
#include "math_unary.h"

#include <stdio.h>

#include "fixed_point.h"

bool mu_expect_unary(PrepareCtx *pc, Node *node, const char *name, uint32_t allowed, const char *dtypes,
                     const Tensor **in, const Tensor **out) {
  if (!op_expect_io(pc, node, 1, 1, 1)) return false;
  *in = node_input(pc->model, node, 0);
  *out = node_output(pc->model, node, 0);
  if ((unsigned)(*in)->type >= 32u || !(allowed & MU_TYPE((*in)->type)))
    return op_error(pc, node, "%s has dtype %s; %s supports %s", op_tensor_desc(pc, *in),
                    tensor_type_name((*in)->type), name, dtypes);
  return op_expect_type(pc, node, *out, (*in)->type) && ew_expect_unary_shape(pc, node, *in, *out);
}

bool mu_float_map(PrepareCtx *pc, Node *node, const Tensor *in, const char *kernel) {
  if (!ew_unary_new(pc, node, EW_PLAIN_F32, in, kernel)) return false;
  node->families[0] = "math_f32";
  return true;
}

void mu_identity_multiplier(int32_t *multiplier, int32_t *shift) {
  *multiplier = (int32_t)1 << 30;
  *shift = 1;
}

MathS16 *mu_s16_new(PrepareCtx *pc, Node *node, const Tensor *in, const char *kernel) {
  MathS16 *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) {
    op_error(pc, node, "out of memory");
    return NULL;
  }
  d->size = in->elems;
  d->in_offset = d->out_offset = 0;
  mu_identity_multiplier(&d->pos_multiplier, &d->pos_shift);
  mu_identity_multiplier(&d->neg_multiplier, &d->neg_shift);
  d->act_min = -32768;
  d->act_max = 32767;
  d->raw = false;
  node->op_data = d;
  node->kernel = kernel;
  node->families[0] = "unary_s16";
  node->macs = 0;
  return d;
}

void mu_s16_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const MathS16 *d = node->op_data;
  (void)m;
  if (d->size == 0) return;
  if (d->raw) {
    em_call(ec, node->kernel, 3, em_int(ec, d->size), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
    return;
  }
  em_decl(ec,
          "static const ta_unary_s16_params_t %s_params = {\n  .size = %lld, .in_offset = %d, .out_offset = %d,\n"
          "  .pos_multiplier = %d, .pos_shift = %d,\n  .neg_multiplier = %d, .neg_shift = %d,\n"
          "  .act_min = %d, .act_max = %d,\n};",
          em_op_name(ec), (long long)d->size, d->in_offset, d->out_offset, d->pos_multiplier, d->pos_shift,
          d->neg_multiplier, d->neg_shift, d->act_min, d->act_max);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

typedef struct LeakyF32 {
  int64_t size;
  float alpha;
} LeakyF32;

bool mu_leaky_relu_f32(PrepareCtx *pc, Node *node, const Tensor *in, float alpha) {
  LeakyF32 *d = arena_alloc(pc->arena, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->size = in->elems;
  d->alpha = alpha;
  node->op_data = d;
  node->kernel = "ta_leaky_relu_f32";
  node->families[0] = "math_f32";
  node->macs = 0;
  return true;
}

void mu_leaky_relu_f32_emit(EmitCtx *ec, const Model *m, const Node *node) {
  const LeakyF32 *d = node->op_data;
  (void)m;
  if (d->size == 0) return;
  char alpha[48];
  ew_float_literal(alpha, sizeof alpha, d->alpha);
  em_decl(ec, "static const ta_leaky_relu_f32_params_t %s_params = {.size = %lld, .alpha = %s};", em_op_name(ec),
          (long long)d->size, alpha);
  em_call(ec, node->kernel, 3, em_desc(ec, "params"), em_tensor(ec, node->in[0]), em_tensor(ec, node->out[0]));
}

void mu_unary_emit(EmitCtx *ec, const Model *m, const Node *node) {
  if (node_input(m, node, 0)->type == TT_INT16)
    mu_s16_emit(ec, m, node);
  else
    ew_unary_emit(ec, m, node);
}

/* Leading zeros of a positive int32. */
static int leading_zeros(uint32_t v) {
  int n = 0;
  while (n < 32 && !(v & 0x80000000u)) {
    v <<= 1;
    n++;
  }
  return n;
}

void mu_inv_sqrt_multiplier(int32_t x, int32_t *multiplier, int32_t *shift) {
  if (x <= 1) {
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  /* Normalise x into [2^27, 2^29) by whole pairs of bits: shift counts them. */
  int32_t s = 11;
  while (x >= (1 << 29)) {
    x /= 4;
    s++;
  }
  const int pairs = (leading_zeros((uint32_t)x) - 1) / 2 - 1;
  s -= pairs;
  x = (int32_t)((uint32_t)x << (2 * pairs));
  /* In Q3.28: y <- 3/2 y - x/2 y^3, five times from y = 1. */
  const int32_t half_x = fx_rdbpot(x >> 1, 1);
  const int32_t three_halves = (1 << 28) + (1 << 27);
  int32_t y = 1 << 28;
  for (int i = 0; i < 5; i++) {
    const int32_t y3 = fx_mul_pot(fx_srdhm(fx_srdhm(y, y), y), 6);          /* Q9 -> Q3 */
    const int32_t diff = (int32_t)((uint32_t)fx_srdhm(three_halves, y) - (uint32_t)fx_srdhm(half_x, y3));
    y = fx_mul_pot(diff, 3);                                                   /* Q6 -> Q3 */
  }
  y = fx_srdhm(y, 1518500250); /* times sqrt(2) / 2 */
  if (s < 0) {
    y = (int32_t)((uint32_t)y << -s);
    s = 0;
  }
  *multiplier = y;
  *shift = -s;
}
