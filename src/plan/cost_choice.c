#include "cost_choice.h"

#include <string.h>

#include "../common/strbuf.h"

static int readers_of(const Model *m, int32_t tensor) {
  int n = 0;
  for (int k = 0; k < m->n_nodes; k++)
    for (int i = 0; i < m->nodes[k].n_in; i++)
      if (m->nodes[k].in[i] == tensor) n++;
  return n;
}

static bool emitted(const Plan *p, int32_t tensor) {
  for (int i = 0; i < p->n_consts; i++)
    if (p->consts[i].tensor_id == tensor) return true;
  return false;
}

static void add_mem(uint64_t bytes[MEM_COUNT], const ConstItem *k) {
  if (k->source >= 0 && k->source < MEM_COUNT) bytes[k->source] += k->size;
  if (k->residency == RES_PIN && k->runtime >= 0 && k->runtime < MEM_COUNT && k->runtime != k->source)
    bytes[k->runtime] += k->size;
}

/* The tier's constants: the tables it derived, and the model constants only it reads
 * that the module stores (a tier that re-lays its weights no longer stores them). */
static void fast_bytes(const Model *m, const Plan *p, const Node *n, uint64_t bytes[MEM_COUNT]) {
  memset(bytes, 0, sizeof(uint64_t) * MEM_COUNT);
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *k = &p->consts[i];
    bool mine = k->tensor_id == -1 && k->op_index == n->index;
    for (int j = 0; !mine && k->tensor_id >= 0 && j < n->n_in; j++)
      mine = n->in[j] == k->tensor_id && readers_of(m, k->tensor_id) == 1;
    if (mine) add_mem(bytes, k);
  }
}

/* The portable kernel's constants: its model constants read in place (the bias as its
 * folded copy, the same size) and a multiplier and a shift per output channel. An
 * estimate, the module is not emitted for it. */
static uint64_t port_bytes(const Model *m, const Plan *fast_plan, const Node *n) {
  uint64_t b = 0;
  for (int j = 0; j < n->n_in; j++) {
    const Tensor *t = node_input(m, n, j);
    if (!t || !tensor_is_const(t)) continue;
    if (readers_of(m, t->id) == 1 || !emitted(fast_plan, t->id)) b += t->bytes;
  }
  const Tensor *o = node_output(m, n, 0);
  if (o && o->rank > 0 && (n->macs > 0)) b += 8u * (uint64_t)(o->dims[o->rank - 1] > 0 ? o->dims[o->rank - 1] : 1);
  return b;
}

static const Node *node_by_index(const Model *m, int32_t index) {
  for (int k = 0; k < m->n_nodes; k++)
    if (m->nodes[k].index == index) return &m->nodes[k];
  return NULL;
}

static CostOp *find_op(CostChoice *cc, int32_t index) {
  for (int i = 0; i < cc->n_ops; i++)
    if (cc->ops[i].index == index) return &cc->ops[i];
  return NULL;
}

static void copy_fams(const char *dst[COST_MAX_FAMILIES], const Node *n) {
  for (int i = 0; i < COST_MAX_FAMILIES; i++) dst[i] = n->families[i];
}

bool cost_choice_build(Arena *a, CostCore core, const Model *fast, const Plan *fast_plan, const Model *port,
                       CostChoice *cc, Diag *d) {
  memset(cc, 0, sizeof *cc);
  cc->core = core;
  cc->ops = arena_calloc(a, (size_t)fast->n_nodes + 1, sizeof *cc->ops);
  cc->fixed_fam = arena_calloc(a, (size_t)fast->n_nodes * COST_MAX_FAMILIES + 1, sizeof *cc->fixed_fam);
  if (!cc->ops || !cc->fixed_fam) return diag_error(d, "out of memory");
  /* matched by operator index: the attempt may hold rewrites the plain load lacks (row
   * bands of --memory.optimize max copy an operator under its index) */
  for (int k = 0; k < fast->n_nodes; k++) {
    const Node *f = &fast->nodes[k];
    const Node *q = node_by_index(port, f->index);
    const bool tiered = q && f->kernel && q->kernel && strcmp(f->kernel, q->kernel) != 0;
    if (!tiered) {
      for (int i = 0; i < COST_MAX_FAMILIES; i++)
        if (f->families[i]) cc->fixed_fam[cc->n_fixed++] = f->families[i];
      continue;
    }
    CostOp *o = find_op(cc, f->index);
    if (o) { /* another row band of the same operator: its instructions add up */
      o->fast_instr += cost_node_estimate(fast, f, cc->core);
      continue;
    }
    o = &cc->ops[cc->n_ops++];
    o->index = f->index;
    o->fast_instr = cost_node_estimate(fast, f, cc->core);
    o->port_instr = cost_node_estimate(port, q, cc->core);
    fast_bytes(fast, fast_plan, f, o->fast_bytes);
    o->port_bytes = port_bytes(fast, fast_plan, f);
    copy_fams(o->fast_fam, f);
    copy_fams(o->port_fam, q);
  }
  return true;
}

/* ---- moves ---------------------------------------------------------------------------- */

static bool is_portable(const bool *portable, int n_index, int32_t index) {
  return index >= 0 && index < n_index && portable[index];
}

static bool in_move(const CostMove *mv, int op) {
  for (int i = 0; i < mv->n; i++)
    if (mv->ops[i] == op) return true;
  return false;
}

static bool has_family(const char *const fams[COST_MAX_FAMILIES], const char *fam) {
  for (int i = 0; i < COST_MAX_FAMILIES; i++)
    if (fams[i] && !strcmp(fams[i], fam)) return true;
  return false;
}

/* Does any operator use `fam`, before (after = false) or after the move? */
static bool family_used(const CostChoice *cc, const bool *portable, int n_index, const CostMove *mv, bool after,
                        const char *fam) {
  for (int i = 0; i < cc->n_fixed; i++)
    if (!strcmp(cc->fixed_fam[i], fam)) return true;
  for (int i = 0; i < cc->n_ops; i++) {
    const CostOp *o = &cc->ops[i];
    const bool port = is_portable(portable, n_index, o->index) || (after && in_move(mv, i));
    if (has_family(port ? o->port_fam : o->fast_fam, fam)) return true;
  }
  return false;
}

/* Is `fam` among the families of the move's operators before i (so already counted)? */
static bool seen_before(const CostChoice *cc, const CostMove *mv, int i, const char *fam, bool port) {
  for (int j = 0; j < i; j++) {
    const CostOp *b = &cc->ops[mv->ops[j]];
    if (has_family(port ? b->port_fam : b->fast_fam, fam)) return true;
  }
  return false;
}

/* Fills lost / table_bytes / code_bytes of the move's operators: a tier family no
 * operator uses after the move frees its code, a portable family nobody used before
 * costs its code (each family once). */
static void score(const CostChoice *cc, const bool *portable, int n_index, MemType mem, CostMove *mv) {
  mv->lost = 0.0;
  mv->table_bytes = mv->code_bytes = 0;
  for (int i = 0; i < mv->n; i++) {
    const CostOp *o = &cc->ops[mv->ops[i]];
    mv->lost += o->port_instr - o->fast_instr;
    uint64_t fast = 0;
    for (int m = 0; m < MEM_COUNT; m++)
      if (mem == MEM_NONE || m == (int)mem) fast += o->fast_bytes[m];
    /* the portable tables live where the tier's did */
    const uint64_t port = fast > 0 || mem == MEM_NONE ? o->port_bytes : 0;
    mv->table_bytes += (int64_t)fast - (int64_t)port;
    for (int f = 0; f < COST_MAX_FAMILIES; f++) {
      const char *ff = o->fast_fam[f], *pf = o->port_fam[f];
      if (ff && !seen_before(cc, mv, i, ff, false) && !family_used(cc, portable, n_index, mv, true, ff))
        mv->code_bytes += cost_family_code_bytes(cc->core, ff);
      if (pf && !seen_before(cc, mv, i, pf, true) && !family_used(cc, portable, n_index, mv, false, pf))
        mv->code_bytes -= cost_family_code_bytes(cc->core, pf);
    }
  }
}

/* Instructions lost per byte freed; moves that free nothing rank last. */
static double ratio(const CostMove *mv, bool count_code) {
  const int64_t bytes = mv->table_bytes + (count_code ? mv->code_bytes : 0);
  if (bytes <= 0) return -1.0;
  return mv->lost / (double)bytes;
}

static bool better(const CostMove *a, const CostMove *b, bool count_code) {
  const double ra = ratio(a, count_code), rb = ratio(b, count_code);
  if (ra < 0) return false;
  if (rb < 0) return true;
  return ra < rb;
}

bool cost_best_move(const CostChoice *cc, const bool *portable, int n_index, MemType mem, bool need_tables, Arena *a,
                    CostMove *best) {
  int32_t *buf = arena_alloc(a, sizeof *buf * (size_t)(cc->n_ops + 1) * 2);
  if (!buf) return false;
  CostMove cand = {.ops = buf};
  *best = (CostMove){.ops = buf + cc->n_ops + 1};
  bool found = false;
  const bool count_code = true;
  for (int i = 0; i < cc->n_ops; i++) {
    const CostOp *o = &cc->ops[i];
    if (is_portable(portable, n_index, o->index)) continue;
    /* this operator alone */
    cand.n = 1;
    cand.ops[0] = i;
    score(cc, portable, n_index, mem, &cand);
    if (ratio(&cand, count_code) >= 0 && (!need_tables || cand.table_bytes > 0) && (!found || better(&cand, best, count_code))) {
      best->n = cand.n, best->lost = cand.lost, best->table_bytes = cand.table_bytes, best->code_bytes = cand.code_bytes;
      memcpy(best->ops, cand.ops, sizeof *cand.ops * (size_t)cand.n);
      found = true;
    }
    /* every remaining tier user of its first family, which then leaves the module */
    if (!o->fast_fam[0]) continue;
    cand.n = 0;
    for (int j = 0; j < cc->n_ops; j++)
      if (!is_portable(portable, n_index, cc->ops[j].index) && has_family(cc->ops[j].fast_fam, o->fast_fam[0]))
        cand.ops[cand.n++] = j;
    if (cand.n < 2 || cand.ops[0] != i) continue; /* each group once, from its first member */
    score(cc, portable, n_index, mem, &cand);
    if (ratio(&cand, count_code) >= 0 && (!need_tables || cand.table_bytes > 0) && (!found || better(&cand, best, count_code))) {
      best->n = cand.n, best->lost = cand.lost, best->table_bytes = cand.table_bytes, best->code_bytes = cand.code_bytes;
      memcpy(best->ops, cand.ops, sizeof *cand.ops * (size_t)cand.n);
      found = true;
    }
  }
  return found;
}

static void apply(const CostChoice *cc, const CostMove *mv, bool *portable, int n_index) {
  for (int i = 0; i < mv->n; i++) {
    const int32_t index = cc->ops[mv->ops[i]].index;
    if (index >= 0 && index < n_index) portable[index] = true;
  }
}

int cost_balance(const CostChoice *cc, double instr_per_byte, bool *portable, int n_index, Arena *a) {
  int moved = 0;
  CostMove mv;
  while (cost_best_move(cc, portable, n_index, MEM_NONE, false, a, &mv)) {
    const double r = ratio(&mv, true);
    if (r >= instr_per_byte) break;
    apply(cc, &mv, portable, n_index);
    moved += mv.n;
  }
  return moved;
}

bool cost_trade(const CostChoice *cc, MemType mem, uint64_t excess, bool *portable, int n_index, Arena *a) {
  int64_t freed = 0;
  CostMove mv;
  while (freed < (int64_t)excess && cost_best_move(cc, portable, n_index, mem, true, a, &mv)) {
    apply(cc, &mv, portable, n_index);
    freed += mv.table_bytes;
  }
  return freed > 0;
}

const char *cost_choice_json(const CostChoice *cc, const bool *portable, int n_index, MemType mem, Arena *a) {
  StrBuf sb;
  sb_init_heap(&sb, &a->heap);
  sb_printf(&sb, "{\"core\": \"%s\", \"memory\": \"%s\", \"candidates\": [", cost_core_name(cc->core),
            mem == MEM_NONE ? "all" : mem_name(mem));
  for (int i = 0; i < cc->n_ops; i++) {
    const CostOp *o = &cc->ops[i];
    int32_t one = i;
    CostMove mv = {.n = 1, .ops = &one};
    /* scored as the first move, against the all-tier module */
    bool *none = arena_calloc(a, (size_t)n_index + 1, sizeof *none);
    if (none) score(cc, none, n_index, mem, &mv);
    sb_printf(&sb, "%s\n      {\"index\": %d, \"tier_instructions\": %.0f, \"portable_instructions\": %.0f, "
                   "\"table_bytes_freed\": %lld, \"code_bytes_freed\": %lld, \"portable\": %s}",
              i ? "," : "", (int)o->index, o->fast_instr, o->port_instr, (long long)mv.table_bytes,
              (long long)mv.code_bytes, is_portable(portable, n_index, o->index) ? "true" : "false");
  }
  sb_append(&sb, "]}");
  const char *s = arena_strdup(a, sb.data ? sb.data : "{}");
  sb_free(&sb);
  return s;
}
