/* Checks shared by operator files. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../ir/quant.h"
#include "op.h"

bool op_error(PrepareCtx *pc, const Node *node, const char *fmt, ...) {
  char buf[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return diag_error(pc->diag, "operator %d (%s): %s", (int)node->index, node->opname, buf);
}

const char *op_tensor_desc(PrepareCtx *pc, const Tensor *t) {
  return arena_printf(pc->arena, "tensor %d '%s'", (int)t->id, t->name);
}

bool op_expect_io(PrepareCtx *pc, const Node *node, int min_in, int max_in, int n_out) {
  if (node->n_in < min_in || node->n_in > max_in)
    return op_error(pc, node, "expects %d..%d inputs, has %d", min_in, max_in, node->n_in);
  if (node->n_out != n_out) return op_error(pc, node, "expects %d outputs, has %d", n_out, node->n_out);
  for (int i = 0; i < min_in; i++)
    if (!node_input(pc->model, node, i)) return op_error(pc, node, "required input %d is missing", i);
  for (int i = 0; i < n_out; i++)
    if (!node_output(pc->model, node, i)) return op_error(pc, node, "output %d is missing", i);
  return true;
}

bool op_expect_options(PrepareCtx *pc, const Node *node, int kind) {
  /* The loader decoded the table by its own tag: a different kind means the file
   * describes another operator's options (an unknown tag decodes as OPTS_NONE). */
  if (node->opts.present && (int)node->opts.kind != kind)
    return op_error(pc, node, "builtin options have type %u, expected %u", node->opts.tag, (unsigned)kind);
  return true;
}

bool op_expect_type(PrepareCtx *pc, const Node *node, const Tensor *t, TensorType type) {
  if (t->type != type)
    return op_error(pc, node, "%s has dtype %s, expected %s", op_tensor_desc(pc, t), tensor_type_name(t->type),
                    tensor_type_name(type));
  return true;
}

bool op_expect_quantized(PrepareCtx *pc, const Node *node, const Tensor *t) {
  if (t->n_quant < 1 || !(t->scale[0] > 0.f))
    return op_error(pc, node, "%s needs a per-tensor quantization scale > 0", op_tensor_desc(pc, t));
  return true;
}

bool op_quant_multiplier(PrepareCtx *pc, const Node *node, double m, QuantRange range, int32_t *q, int32_t *shift,
                         const char *what_fmt, ...) {
  const QuantFit fit = quant_multiplier_fit(m, range, q, shift);
  if (fit == QUANT_FITS) return true;
  char what[512];
  va_list ap;
  va_start(ap, what_fmt);
  vsnprintf(what, sizeof what, what_fmt, ap);
  va_end(ap);
  if (fit == QUANT_NOT_FINITE) return op_error(pc, node, "rescale factor %g (%s) is not finite", m, what);
  return op_error(pc, node, "rescale factor %g (%s) needs a shift of %d; the %s takes shifts %d..%d", m, what,
                  (int)*shift, range.kernel, (int)range.min_shift, (int)range.max_shift);
}

void op_capability_text(uint32_t caps, const char *sep, char *buf, size_t cap) {
  static const struct {
    uint32_t bit;
    const char *name;
  } names[] = {{CAP_STATELESS, "STATELESS"},   {CAP_DESCRIPTOR_DRIVEN, "DESCRIPTOR_DRIVEN"},
               {CAP_SHARED_KERNEL, "SHARED_KERNEL"}, {CAP_STATIC_SCHEDULABLE, "STATIC_SCHEDULABLE"},
               {CAP_PURE, "PURE"},             {CAP_REORDERABLE, "REORDERABLE"}};
  if (cap == 0) return;
  buf[0] = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (caps & names[i].bit) {
      if (buf[0]) strncat(buf, sep, cap - strlen(buf) - 1);
      strncat(buf, names[i].name, cap - strlen(buf) - 1);
    }
  if (!buf[0]) snprintf(buf, cap, "NONE");
}

const char *op_scratch_usage_name(ScratchUsage u) {
  switch (u) {
    case SCRATCH_NO_CTX: return "no_ctx";
    case SCRATCH_IGNORED: return "ignored";
    case SCRATCH_REQUIRED: return "required";
    case SCRATCH_CONDITIONAL: return "conditional";
  }
  return "?";
}

static const char *node_config(const Model *m, const Node *n) {
  const Tensor *in = node_input(m, n, 0);
  const Tensor *out = node_output(m, n, 0);
  static const char none[] = "?";
  const char *ti = in ? tensor_type_name(in->type) : none;
  const char *to = out ? tensor_type_name(out->type) : none;
  return arena_printf(m->arena, "%s->%s, kernel %s", ti, to, n->kernel ? n->kernel : "?");
}

bool op_check_scratch(const Model *m, const Node *n, Diag *d) {
  const OpDef *def = n->def;
  bool needed = n->reads_scratch;
  const char *usage = op_scratch_usage_name(def->scratch_usage);
  switch (def->scratch_usage) {
    case SCRATCH_NO_CTX:
    case SCRATCH_IGNORED:
      if (needed)
        return diag_error(d, "internal error: operator %d (%s) declares scratch usage '%s' but its kernel reads scratch (%s)",
                          n->index, n->opname, usage, node_config(m, n));
      break;
    case SCRATCH_REQUIRED:
      if (!needed)
        return diag_error(d, "internal error: operator %d (%s) declares scratch usage 'required' but its kernel does not read scratch (%s)",
                          n->index, n->opname, node_config(m, n));
      break;
    case SCRATCH_CONDITIONAL:
      if (!def->scratch_needed)
        return diag_error(d, "internal error: operator %d (%s) declares 'conditional' scratch usage without a predicate",
                          n->index, n->opname);
      if (def->scratch_needed(m, n) != needed)
        return diag_error(d, "internal error: operator %d (%s): scratch predicate says %s but the kernel %s scratch (%s)",
                          n->index, n->opname, needed ? "no" : "yes", needed ? "reads" : "does not read",
                          node_config(m, n));
      break;
  }
  if (needed && n->scratch_bytes == 0)
    return diag_error(d, "internal error: operator %d (%s): kernel reads scratch but 0 bytes were sized (%s); refusing to emit a NULL scratch buffer",
                      n->index, n->opname, node_config(m, n));
  return true;
}
