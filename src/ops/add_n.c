/* ADD_N: the sum of n >= 2 same-shape tensors; float32 and int8 (inputs sharing one
 * quantization). TFLite Micro's int8 sum starts from the rescaled -zero point of the
 * inputs instead of 0, so a non-zero input zero point shifts every output by it; we
 * compute the same (runtime/kernels/ta_accumulate.h). */
#include "accumulate.h"
#include "elementwise.h"
#include "op.h"

typedef struct AddNData {
  TensorType type;
  int64_t size;
  AccumS8 q;
} AddNData;

static bool add_n_prepare(PrepareCtx *pc, Node *node) {
  if (!op_expect_io(pc, node, 2, node->n_in > 2 ? node->n_in : 2, 1) || !op_expect_options(pc, node, OPTS_ADD_N))
    return false;
  const Tensor *first = node_input(pc->model, node, 0), *out = node_output(pc->model, node, 0);
  if (out->type != TT_FLOAT32 && out->type != TT_INT8)
    return op_error(pc, node, "%s has dtype %s; ADD_N supports int8 and float32", op_tensor_desc(pc, out),
                    tensor_type_name(out->type));
  for (int i = 0; i < node->n_in; i++) {
    const Tensor *in = node_input(pc->model, node, i);
    if (!in) return op_error(pc, node, "input %d is omitted", i);
    if (!op_expect_type(pc, node, in, out->type) || !ew_expect_unary_shape(pc, node, in, out)) return false;
    if (in->rank != out->rank)
      return op_error(pc, node, "%s has shape %s, the output %s", op_tensor_desc(pc, in),
                      tensor_shape_str(pc->arena, in), tensor_shape_str(pc->arena, out));
    for (int d = 0; d < in->rank; d++)
      if (in->dims[d] != out->dims[d])
        return op_error(pc, node, "%s has shape %s, the output %s", op_tensor_desc(pc, in),
                        tensor_shape_str(pc->arena, in), tensor_shape_str(pc->arena, out));
    if (out->type == TT_INT8 && i > 0 && !ew_expect_same_quant(pc, node, first, in)) return false;
  }
  AddNData *d = arena_calloc(pc->arena, 1, sizeof *d);
  if (!d) return op_error(pc, node, "out of memory");
  d->type = out->type;
  d->size = out->elems;
  if (out->type == TT_INT8 && !accum_prepare_s8(pc, node, first, out, &d->q)) return false;
  node->op_data = d;
  node->kernel = out->type == TT_INT8 ? "ta_add_n_s8" : "ta_add_n_f32";
  node->families[0] = "accumulate";
  node->macs = 0;
  return true;
}

/* The inputs are passed as a local array of pointers, as CONCATENATION does. */
static void add_n_emit(EmitCtx *ec, const Model *m, const Node *node) {
  (void)m;
  const AddNData *d = node->op_data;
  if (d->size == 0) return;
  const char *name = em_op_name(ec);
  const char *ctype = d->type == TT_INT8 ? "int8_t" : "float";
  if (d->type == TT_INT8) {
    char q[512];
    accum_s8_init(q, sizeof q, &d->q);
    em_decl(ec, "static const ta_accum_s8_t %s_q = %s;", name, q);
  }
  em_body(ec, "{");
  em_body(ec, "  const %s *const inputs[%d] = {", ctype, node->n_in);
  for (int i = 0; i < node->n_in; i++)
    em_body(ec, "    %s%s", em_tensor(ec, node->in[i]), i + 1 < node->n_in ? "," : "");
  em_body(ec, "  };");
  if (d->type == TT_INT8)
    em_body(ec, "  ta_add_n_s8(&%s_q, %lld, %d, inputs, %s);", name, (long long)d->size, node->n_in,
            em_tensor(ec, node->out[0]));
  else
    em_body(ec, "  ta_add_n_f32(%lld, %d, inputs, %s);", (long long)d->size, node->n_in, em_tensor(ec, node->out[0]));
  em_body(ec, "}");
}

const OpDef op_add_n = {
    .name = "ADD_N",
    .builtin_code = 106,
    .capabilities = CAP_STATELESS | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE,
    .scratch_usage = SCRATCH_NO_CTX,
    .dtypes = "int8, float32",
    .constraints = "2 or more same-shape inputs; int8 inputs share one quantization, and the sum starts at the "
                   "rescaled -zero point as in TFLite Micro (a non-zero input zero point is counted n + 1 times)",
    .prepare = add_n_prepare,
    .emit = add_n_emit,
};
