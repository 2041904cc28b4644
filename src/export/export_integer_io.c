/* report.json "integer_io" and report.md's paragraph on --integer-io: what
 * transform/integer_io.c recorded in Model.integer_io_from. */
#include "export_integer_io.h"

#include <stdio.h>

#include "../ir/quant.h"
#include "../ir/rewrites.h"

static void json_side(const Model *m, StrBuf *js, const char *which, const int32_t *ids, int n, int base) {
  sb_printf(js, "\"%s\": [", which);
  bool first = true;
  for (int i = 0; i < n; i++) {
    const int32_t was = rewrite_integer_io_from(m, base + i);
    if (was < 0) continue;
    const Tensor *t = &m->tensors[ids[i]];
    char scale[48];
    snprintf(scale, sizeof scale, "%.9g", (double)tensor_scale(t));
    sb_printf(js, "%s{\"index\": %d, \"tensor\": %d, \"name\": ", first ? "" : ", ", i, (int)t->id);
    sb_append_json_string(js, t->name);
    sb_printf(js, ", \"dtype\": \"%s\", \"scale\": %s, \"zero_point\": %d, \"replaces_tensor\": %d, \"replaces_dtype\": \"%s\"}",
              tensor_type_name(t->type), scale, (int)tensor_zero_point(t), (int)was,
              tensor_type_name(m->tensors[was].type));
    first = false;
  }
  sb_append(js, "]");
}

void integer_io_report_json(const Model *m, StrBuf *js) {
  if (!m->integer_io_from) return; /* without --integer-io the report stays as it was */
  sb_append(js, ",\n  \"integer_io\": {");
  json_side(m, js, "inputs", m->inputs, m->n_inputs, 0);
  sb_append(js, ", ");
  json_side(m, js, "outputs", m->outputs, m->n_outputs, m->n_inputs);
  sb_append(js, "}");
}

static void md_side(const Model *m, StrBuf *md, const char *which, const int32_t *ids, int n, int base) {
  for (int i = 0; i < n; i++) {
    const int32_t was = rewrite_integer_io_from(m, base + i);
    if (was < 0) continue;
    const Tensor *t = &m->tensors[ids[i]], *f = &m->tensors[was];
    sb_printf(md, "| %s %d | %d '%s' %s %s | scale %.9g, zero point %d | %d '%s' %s |\n", which, i, (int)t->id, t->name,
              tensor_type_name(t->type), tensor_shape_str(m->arena, t), (double)tensor_scale(t),
              (int)tensor_zero_point(t), (int)f->id, f->name, tensor_type_name(f->type));
  }
}

void integer_io_report_md(const Model *m, StrBuf *md) {
  if (!m->integer_io_from) return;
  sb_append(md, "Integer I/O (--integer-io): the application passes integers where the model file has float "
                "(quantize: q = round(x / scale) + zero point, half away from zero, clamped; dequantize: "
                "(q - zero point) * scale).\n\n| I/O | tensor now | quantization | float tensor replaced |\n"
                "|---|---|---|---|\n");
  md_side(m, md, "input", m->inputs, m->n_inputs, 0);
  md_side(m, md, "output", m->outputs, m->n_outputs, m->n_inputs);
  sb_append(md, "\n");
}
