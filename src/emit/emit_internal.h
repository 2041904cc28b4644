/* What the module writer (emit_module.c) and the operator API (emit_api.c) share:
 * each operator's lowered code, and the pass that produces it. */
#ifndef TINYAOT_EMIT_INTERNAL_H
#define TINYAOT_EMIT_INTERNAL_H
#include "emit.h"

typedef struct Lowered {
  StrBuf decls, body;
  StrBuf init;            /* statements of the operator's init (state it owns) */
  bool has_init;          /* the operator defines emit_init */
  const char *fn;         /* layer function name, NULL for aliases */
  /* The structured call (em_call), when the body is exactly that call. */
  const char *kernel;
  int n_args;
  const char **args, **types;
  int calls;              /* em_call count */
  bool unstructured;      /* em_body was used */
  bool bad_arg;           /* an em_call argument of unknown type */
  int group, row;         /* interned: group index and row in its call table; -1 */
} Lowered;

/* Runs every operator's emit (and emit_init) against the API into low[0..n_nodes),
 * registering the constants and tables their code reads in p->consts; state_reset[t]
 * is set for each variable tensor an operator's init resets. */
bool emit_lower(Model *m, Plan *p, Module *mod, Lowered *low, bool *state_reset, Diag *d);

/* --profile (emit_profile.c): the operators <prefix>_profile[] has a row for, those whose
 * layer runs code, by ascending operator index; max_op is the largest index of any node. */
typedef struct ProfileRows {
  int n;
  int32_t *ops;
  const char **names;
  int32_t max_op;
} ProfileRows;

bool profile_rows(const Model *m, const Lowered *low, Arena *a, ProfileRows *pr);
/* The profile's declarations in <name>_model.h, and its counter, table and print hook in
 * <name>_model.c (before <prefix>_notify, which reads the counter). */
void emit_profile_header(const Module *mod, const ProfileRows *pr, StrBuf *h);
void emit_profile_source(const Module *mod, const ProfileRows *pr, StrBuf *c);

#endif
