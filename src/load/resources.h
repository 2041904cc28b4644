/* Subgraph references (IF, WHILE, CALL_ONCE) and resource variables, checked and
 * lowered once every subgraph is loaded. */
#ifndef TINYAOT_RESOURCES_H
#define TINYAOT_RESOURCES_H
#include <stdbool.h>

#include "../common/diag.h"
#include "../ir/ir.h"

enum {
  BUILTIN_IF = 118,
  BUILTIN_WHILE = 119,
  BUILTIN_CALL_ONCE = 129,
  BUILTIN_VAR_HANDLE = 142,
  BUILTIN_READ_VARIABLE = 143,
  BUILTIN_ASSIGN_VARIABLE = 144,
};

/* Checks that every subgraph index of the main graph's IF/WHILE/CALL_ONCE operators
 * names another subgraph, that those subgraphs hold no control flow or resource
 * operators themselves (so references can neither nest nor form cycles), and lowers
 * resource variables: each variable becomes one persistent tensor of the main graph
 * (is_variable), its initial value the constant its CALL_ONCE init subgraph assigns,
 * evaluated here at compile time (Tensor.data); READ_VARIABLE / ASSIGN_VARIABLE then
 * read / write that tensor, VAR_HANDLE and CALL_ONCE keep no inputs or outputs.
 * Everything else is refused with a one-line message naming the operator. */
bool lower_subgraph_references(Model *m, Diag *d);

#endif
