/* transform: graph rewrites that keep TFLite numerics bit for bit. */
#ifndef TINYAOT_TRANSFORM_H
#define TINYAOT_TRANSFORM_H
#include <stdbool.h>

#include "../common/diag.h"
#include "../ir/ir.h"

typedef struct TransformOptions {
  bool alias_reshapes; /* RESHAPE / SQUEEZE / EXPAND_DIMS share their input's storage */
} TransformOptions;

bool transform_model(Model *m, const TransformOptions *opt, Diag *d);
/* The tensor whose storage `id` uses (follows alias chains). */
int32_t tensor_storage(const Model *m, int32_t id);

#endif
