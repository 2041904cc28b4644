/* Subgraph references and resource variables (see resources.h).
 *
 * Why the CALL_ONCE init subgraph is evaluated at compile time: streaming models use
 * it only to assign each variable its constant start value. TFLite Micro runs it on
 * the first invoke after init, so the state a fresh init leads to is exactly those
 * constants: the generated model_init copies them into the persistent arena, and the
 * module needs no subgraph interpreter. An init subgraph that computes anything is
 * refused. No step here recurses: referenced subgraphs may not reference others. */
#include "resources.h"

#include <string.h>



typedef struct Var {
  const char *container, *shared_name;
  int32_t state;            /* the main graph tensor that becomes the variable, -1 until seen */
  const Tensor *init;       /* constant the init subgraph assigns, or NULL */
  const Tensor *like;       /* first tensor giving the variable's dtype and shape */
  bool accessed;            /* the main graph read or assigned it already */
} Var;

typedef struct Lowering {
  Model *m;
  Diag *d;
  Var *vars;
  int n_vars;
  int32_t *var_of;          /* handle tensor id -> index in vars, -1 */
} Lowering;

static bool is_control_flow(int32_t code) {
  return code == BUILTIN_IF || code == BUILTIN_WHILE || code == BUILTIN_CALL_ONCE;
}

static bool is_resource_op(int32_t code) {
  return code == BUILTIN_VAR_HANDLE || code == BUILTIN_READ_VARIABLE || code == BUILTIN_ASSIGN_VARIABLE;
}

/* A subgraph index an operator of the main graph names. */
static bool check_index(const Lowering *lw, const Node *n, const char *field, int32_t index) {
  if (index == 0)
    return diag_error(lw->d, "operator %d (%s): %s is 0, the main graph itself (recursion is not supported)",
                      (int)n->index, n->opname, field);
  if (index < 0 || index >= lw->m->n_subgraphs)
    return diag_error(lw->d, "operator %d (%s): %s %d is out of range (the model has %d subgraphs)", (int)n->index,
                      n->opname, field, (int)index, lw->m->n_subgraphs);
  return true;
}

/* The subgraphs an IF or WHILE runs must be straight-line dataflow. */
static bool check_branch(const Lowering *lw, const Node *n, int32_t index) {
  const Subgraph *g = &lw->m->subgraphs[index];
  for (int k = 0; k < g->n_nodes; k++) {
    const Node *inner = &g->nodes[k];
    if (is_control_flow(inner->builtin_code) || is_resource_op(inner->builtin_code))
      return diag_error(lw->d, "operator %d (%s): subgraph %d runs operator %d (%s): control flow and resource "
                        "variables inside IF/WHILE subgraphs are not supported", (int)n->index, n->opname,
                        (int)index, k, inner->opname);
  }
  return true;
}

/* An IF/WHILE subgraph is compiled into its operator's layer, its inputs sharing that
 * operator's storage: so one operator, one role. */
static bool claim_subgraph(const Lowering *lw, const Node *n, const char *field, int32_t index, int32_t *user) {
  if (!check_index(lw, n, field, index) || !check_branch(lw, n, index)) return false;
  if (user[index] >= 0)
    return diag_error(lw->d, "operator %d (%s): %s %d is already run by operator %d: a subgraph may serve one IF/WHILE "
                      "role only", (int)n->index, n->opname, field, (int)index, (int)user[index]);
  user[index] = n->index;
  return true;
}

static bool check_references(const Lowering *lw) {
  const Model *m = lw->m;
  int32_t *user = arena_alloc(m->arena, sizeof(int32_t) * ((size_t)m->n_subgraphs + 1));
  if (!user) return diag_error(lw->d, "out of memory");
  for (int s = 0; s <= m->n_subgraphs; s++) user[s] = -1;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    if (n->builtin_code == BUILTIN_IF) {
      const IfOptions *o = &n->opts.if_;
      if (n->opts.kind != OPTS_IF) return diag_error(lw->d, "operator %d (IF): IfOptions missing", (int)n->index);
      if (!claim_subgraph(lw, n, "then_subgraph_index", o->then_subgraph_index, user) ||
          !claim_subgraph(lw, n, "else_subgraph_index", o->else_subgraph_index, user))
        return false;
    } else if (n->builtin_code == BUILTIN_WHILE) {
      const WhileOptions *o = &n->opts.while_;
      if (n->opts.kind != OPTS_WHILE) return diag_error(lw->d, "operator %d (WHILE): WhileOptions missing", (int)n->index);
      if (!claim_subgraph(lw, n, "cond_subgraph_index", o->cond_subgraph_index, user) ||
          !claim_subgraph(lw, n, "body_subgraph_index", o->body_subgraph_index, user))
        return false;
    } else if (n->builtin_code == BUILTIN_CALL_ONCE) {
      if (n->opts.kind != OPTS_CALL_ONCE)
        return diag_error(lw->d, "operator %d (CALL_ONCE): CallOnceOptions missing", (int)n->index);
      if (!check_index(lw, n, "init_subgraph_index", n->opts.call_once.init_subgraph_index)) return false;
    }
  }
  return true;
}

static int find_var(Lowering *lw, const Node *handle) {
  const VarHandleOptions *o = &handle->opts.var_handle;
  const char *container = handle->opts.kind == OPTS_VAR_HANDLE ? o->container : "";
  const char *shared = handle->opts.kind == OPTS_VAR_HANDLE ? o->shared_name : "";
  for (int i = 0; i < lw->n_vars; i++)
    if (strcmp(lw->vars[i].container, container) == 0 && strcmp(lw->vars[i].shared_name, shared) == 0) return i;
  Var *v = &lw->vars[lw->n_vars];
  *v = (Var){container, shared, -1, NULL, NULL, false};
  return lw->n_vars++;
}

/* Names a variable for messages: "resource variable 'name'". */
static const char *var_desc(const Lowering *lw, const Var *v) {
  return arena_printf(lw->m->arena, "resource variable '%s%s%s'", v->container, v->container[0] ? "/" : "",
                      v->shared_name);
}

/* A VAR_HANDLE: its output is the handle; handles with equal names are one variable. */
static bool bind_handle(Lowering *lw, const char *where, Node *n) {
  if (n->n_in != 0 || n->n_out != 1)
    return diag_error(lw->d, "%soperator %d (VAR_HANDLE): expected 0 inputs and 1 output, got %d and %d", where,
                      (int)n->index, n->n_in, n->n_out);
  const Tensor *h = &lw->m->tensors[n->out[0]];
  if (h->type != TT_RESOURCE)
    return diag_error(lw->d, "%soperator %d (VAR_HANDLE): output tensor %d '%s' is %s, not a resource", where,
                      (int)n->index, (int)h->id, h->name, tensor_type_name(h->type));
  lw->var_of[h->id] = find_var(lw, n);
  return true;
}

static Var *var_of_input(Lowering *lw, const char *where, const Node *n) {
  int32_t id = n->n_in > 0 ? n->in[0] : -1;
  if (id < 0 || lw->var_of[id] < 0) {
    diag_error(lw->d, "%soperator %d (%s): input 0 is not the output of a VAR_HANDLE", where, (int)n->index, n->opname);
    return NULL;
  }
  return &lw->vars[lw->var_of[id]];
}

/* Two tensors that must hold the same bytes of the same dtype. */
static bool check_like(Lowering *lw, const char *where, const Node *n, const Var *v, const Tensor *t) {
  const Tensor *like = v->like;
  if (!like || (like->type == t->type && like->elems == t->elems)) return true;
  return diag_error(lw->d, "%soperator %d (%s): tensor %d '%s' is %s %s but %s holds %s %s", where, (int)n->index,
                    n->opname, (int)t->id, t->name, tensor_type_name(t->type), tensor_shape_str(lw->m->arena, t),
                    var_desc(lw, v), tensor_type_name(like->type), tensor_shape_str(lw->m->arena, like));
}

/* Evaluates one CALL_ONCE init subgraph: VAR_HANDLE and ASSIGN_VARIABLE of constants. */
static bool evaluate_init(Lowering *lw, const Node *call) {
  int32_t index = call->opts.call_once.init_subgraph_index;
  Subgraph *g = &lw->m->subgraphs[index];
  const char *where = arena_printf(lw->m->arena, "subgraph %d (CALL_ONCE init of operator %d): ", (int)index,
                                   (int)call->index);
  if (!where) return diag_error(lw->d, "out of memory");
  for (int k = 0; k < g->n_nodes; k++) {
    Node *n = &g->nodes[k];
    if (n->builtin_code == BUILTIN_VAR_HANDLE) {
      if (!bind_handle(lw, where, n)) return false;
      continue;
    }
    if (n->builtin_code != BUILTIN_ASSIGN_VARIABLE)
      return diag_error(lw->d, "%soperator %d (%s): an init subgraph may only assign constants to variables "
                        "(VAR_HANDLE, ASSIGN_VARIABLE), which tinyaot evaluates at compile time", where, k, n->opname);
    if (n->n_in != 2 || n->n_out != 0)
      return diag_error(lw->d, "%soperator %d (ASSIGN_VARIABLE): expected 2 inputs and no output", where, k);
    Var *v = var_of_input(lw, where, n);
    if (!v) return false;
    const Tensor *value = n->in[1] >= 0 ? &lw->m->tensors[n->in[1]] : NULL;
    if (!value || !tensor_is_const(value))
      return diag_error(lw->d, "%soperator %d (ASSIGN_VARIABLE): the value assigned to %s is not a constant", where, k,
                        var_desc(lw, v));
    if (v->accessed)
      return diag_error(lw->d, "operator %d (CALL_ONCE): the main graph uses %s before this init subgraph assigns it",
                        (int)call->index, var_desc(lw, v));
    if (!check_like(lw, where, n, v, value)) return false;
    v->init = value;
    if (!v->like) v->like = value;
  }
  return true;
}

/* A READ_VARIABLE or ASSIGN_VARIABLE of the main graph. */
static bool bind_access(Lowering *lw, Node *n) {
  bool read = n->builtin_code == BUILTIN_READ_VARIABLE;
  if (read ? (n->n_in != 1 || n->n_out != 1) : (n->n_in != 2 || n->n_out != 0))
    return diag_error(lw->d, "operator %d (%s): expected %s, got %d inputs and %d outputs", (int)n->index, n->opname,
                      read ? "1 input and 1 output" : "2 inputs and no output", n->n_in, n->n_out);
  Var *v = var_of_input(lw, "", n);
  if (!v) return false;
  const Tensor *value = read ? &lw->m->tensors[n->out[0]] : n->in[1] >= 0 ? &lw->m->tensors[n->in[1]] : NULL;
  if (!value) return diag_error(lw->d, "operator %d (ASSIGN_VARIABLE): the value input is missing", (int)n->index);
  if (value->type == TT_RESOURCE)
    return diag_error(lw->d, "operator %d (%s): variables holding resource handles are not supported", (int)n->index,
                      n->opname);
  if (read && !v->init && !v->accessed)
    return diag_error(lw->d, "operator %d (READ_VARIABLE): %s is read before anything assigns it", (int)n->index,
                      var_desc(lw, v));
  if (!check_like(lw, "", n, v, value)) return false;
  if (!v->like) v->like = value;
  if (v->state < 0) v->state = n->in[0];
  v->accessed = true;
  return true;
}

/* The handle tensor that represents the variable takes its dtype, shape,
 * quantization and initial value, and becomes persistent state. */
static void materialize(Lowering *lw, const Var *v) {
  Tensor *t = &lw->m->tensors[v->state];
  const Tensor *like = v->like;
  t->type = like->type;
  t->rank = like->rank;
  memcpy(t->dims, like->dims, sizeof t->dims);
  t->elems = like->elems;
  t->bytes = like->bytes;
  t->n_quant = like->n_quant;
  t->scale = like->scale;
  t->zero_point = like->zero_point;
  t->quant_dim = like->quant_dim;
  t->is_variable = true;
  t->data = v->init ? v->init->data : NULL; /* a variable's data is its start value (emit_init) */
}

static bool lower_main_graph(Lowering *lw) {
  Model *m = lw->m;
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    bool ok = true;
    if (n->builtin_code == BUILTIN_VAR_HANDLE) ok = bind_handle(lw, "", n);
    else if (n->builtin_code == BUILTIN_CALL_ONCE) ok = evaluate_init(lw, n);
    else if (n->builtin_code == BUILTIN_READ_VARIABLE || n->builtin_code == BUILTIN_ASSIGN_VARIABLE)
      ok = bind_access(lw, n);
    if (!ok) return false;
  }
  for (int i = 0; i < lw->n_vars; i++)
    if (lw->vars[i].state >= 0) materialize(lw, &lw->vars[i]);
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    if (n->builtin_code == BUILTIN_VAR_HANDLE) {
      n->n_out = 0; /* the handle is resolved: nothing left to run */
    } else if (n->builtin_code == BUILTIN_READ_VARIABLE || n->builtin_code == BUILTIN_ASSIGN_VARIABLE) {
      n->in[0] = lw->vars[lw->var_of[n->in[0]]].state;
    }
  }
  return true;
}

/* A resource handle may only come out of VAR_HANDLE and go into READ_VARIABLE or
 * ASSIGN_VARIABLE (as input 0): anywhere else TFLite Micro would read a handle, and
 * after lowering it would silently read the variable's value instead. */
static bool handle_use_allowed(const Node *n, bool is_input, int slot) {
  if (!is_input) return n->builtin_code == BUILTIN_VAR_HANDLE;
  return slot == 0 && (n->builtin_code == BUILTIN_READ_VARIABLE || n->builtin_code == BUILTIN_ASSIGN_VARIABLE);
}

static bool check_handle_uses(const Lowering *lw) {
  const Model *m = lw->m;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    for (int i = 0; i < n->n_in + n->n_out; i++) {
      bool is_input = i < n->n_in;
      int slot = is_input ? i : i - n->n_in;
      int32_t id = is_input ? n->in[slot] : n->out[slot];
      if (id >= 0 && m->tensors[id].type == TT_RESOURCE && !handle_use_allowed(n, is_input, slot))
        return diag_error(lw->d, "operator %d (%s): %s %d is resource handle tensor %d '%s', which only VAR_HANDLE "
                          "writes and READ_VARIABLE / ASSIGN_VARIABLE read", (int)n->index, n->opname,
                          is_input ? "input" : "output", slot, (int)id, m->tensors[id].name);
    }
  }
  for (int i = 0; i < m->n_inputs + m->n_outputs; i++) {
    int32_t id = i < m->n_inputs ? m->inputs[i] : m->outputs[i - m->n_inputs];
    if (m->tensors[id].type == TT_RESOURCE)
      return diag_error(lw->d, "model %s tensor %d '%s' is a resource handle", i < m->n_inputs ? "input" : "output",
                        (int)id, m->tensors[id].name);
  }
  return true;
}

bool lower_subgraph_references(Model *m, Diag *d) {
  Lowering lw = {.m = m, .d = d};
  if (!check_references(&lw)) return false;
  int handles = 0;
  for (int s = 0; s < m->n_subgraphs; s++)
    for (int k = 0; k < m->subgraphs[s].n_nodes; k++) handles += m->subgraphs[s].nodes[k].builtin_code == BUILTIN_VAR_HANDLE;
  lw.vars = arena_calloc(m->arena, (size_t)handles + 1, sizeof(Var));
  lw.var_of = arena_alloc(m->arena, sizeof(int32_t) * ((size_t)m->n_model_tensors + 1));
  if (!lw.vars || !lw.var_of) return diag_error(d, "out of memory");
  for (int i = 0; i <= m->n_model_tensors; i++) lw.var_of[i] = -1;
  return check_handle_uses(&lw) && lower_main_graph(&lw);
}
