/* The operator registry, built from op_list.h. */
#include <stddef.h>

#include "op.h"

#define X(sym) extern const OpDef op_##sym;
#include "op_list.h"
#undef X

static const OpDef *const op_table[] = {
#define X(sym) &op_##sym,
#include "op_list.h"
#undef X
};

int op_count(void) { return (int)(sizeof op_table / sizeof op_table[0]); }

const OpDef *op_at(int i) { return i >= 0 && i < op_count() ? op_table[i] : NULL; }

const OpDef *op_find(int32_t code) {
  for (int i = 0; i < op_count(); i++)
    if (op_table[i]->builtin_code == code) return op_table[i];
  return NULL;
}
