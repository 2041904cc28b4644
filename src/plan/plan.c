/* Placement and offsets. Offsets: greedy by size (largest first), each tensor at the
 * lowest offset clear of every already-placed tensor whose lifetime overlaps; on
 * chain-shaped graphs this reaches the lower bound (ping-pong buffers). */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/storage.h"
#include "inplace.h"
#include "lifetimes.h"

static size_t align_up(size_t x) { return (x + PLAN_ALIGN - 1) / PLAN_ALIGN * PLAN_ALIGN; }

/* ---- offset assignment --------------------------------------------------- */

typedef InplaceInterval Interval;

typedef struct Placed {
  size_t start, end;
} Placed;

static int cmp_placed(const void *x, const void *y) {
  const Placed *a = x, *b = y;
  return a->start < b->start ? -1 : a->start > b->start;
}

/* Orderings tried by the offset assignment; the smallest arena wins. Each is total
 * (ties broken by key), so the result is deterministic. */
typedef enum Order { BY_SIZE, BY_FIRST_USE, BY_AREA, BY_LIFETIME, ORDER_COUNT } Order;

static int cmp_key(const Interval *a, const Interval *b) { return a->key < b->key ? -1 : a->key > b->key; }

static int cmp_size(const void *x, const void *y) {
  const Interval *a = x, *b = y;
  if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
  if (a->first != b->first) return a->first < b->first ? -1 : 1;
  return cmp_key(a, b);
}

static int cmp_first_use(const void *x, const void *y) {
  const Interval *a = x, *b = y;
  if (a->first != b->first) return a->first < b->first ? -1 : 1;
  if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
  return cmp_key(a, b);
}

static int cmp_area(const void *x, const void *y) {
  const Interval *a = x, *b = y;
  uint64_t sa = (uint64_t)a->bytes * (uint64_t)(a->last - a->first + 1);
  uint64_t sb = (uint64_t)b->bytes * (uint64_t)(b->last - b->first + 1);
  if (sa != sb) return sa > sb ? -1 : 1;
  return cmp_size(x, y);
}

static int cmp_lifetime(const void *x, const void *y) {
  const Interval *a = x, *b = y;
  int la = a->last - a->first, lb = b->last - b->first;
  if (la != lb) return la > lb ? -1 : 1;
  return cmp_size(x, y);
}

static int (*const orderings[ORDER_COUNT])(const void *, const void *) = {cmp_size, cmp_first_use, cmp_area,
                                                                         cmp_lifetime};

/* One ordering, first fit or best fit; returns the arena size, or SIZE_MAX on OOM. */
static size_t place_in_order(HeapStats *h, Interval *iv, int n, Order order, bool best_fit) {
  qsort(iv, (size_t)n, sizeof *iv, orderings[order]);
  const size_t busy_bytes = sizeof(Placed) * (size_t)(n + 1);
  Placed *busy = heap_alloc(h, busy_bytes);
  if (!busy) return SIZE_MAX;
  size_t size = 0;
  for (int i = 0; i < n; i++) {
    int nb = 0;
    for (int j = 0; j < i; j++)
      if (iv[i].first <= iv[j].last && iv[j].first <= iv[i].last)
        busy[nb++] = (Placed){iv[j].offset, iv[j].offset + align_up(iv[j].bytes)};
    qsort(busy, (size_t)nb, sizeof(Placed), cmp_placed);
    size_t need = align_up(iv[i].bytes), off = 0, best = SIZE_MAX, best_gap = SIZE_MAX;
    for (int j = 0; j <= nb; j++) {
      size_t gap_end = j < nb ? busy[j].start : SIZE_MAX;
      if (gap_end >= off + need) {
        size_t gap = gap_end - off;
        if (!best_fit) {
          best = off;
          break;
        }
        if (best == SIZE_MAX || gap < best_gap) {
          best_gap = gap;
          best = off;
        }
      }
      if (j < nb && busy[j].end > off) off = busy[j].end;
    }
    iv[i].offset = best;
    if (best + need > size) size = best + need;
  }
  heap_free(h, busy, busy_bytes);
  return size;
}

/* Tries every ordering with first fit and best fit; keeps the smallest arena. */
static size_t place_intervals(HeapStats *h, Interval *iv, int n) {
  const size_t bytes = sizeof(Interval) * (size_t)(n + 1);
  Interval *trial = heap_alloc(h, bytes);
  Interval *best = heap_alloc(h, bytes);
  if (!trial || !best) {
    heap_free(h, trial, bytes);
    heap_free(h, best, bytes);
    return SIZE_MAX;
  }
  size_t best_size = SIZE_MAX;
  for (int o = 0; o < ORDER_COUNT; o++)
    for (int fit = 0; fit < 2; fit++) {
      memcpy(trial, iv, sizeof(Interval) * (size_t)n);
      size_t sz = place_in_order(h, trial, n, (Order)o, fit == 1);
      if (sz < best_size) {
        best_size = sz;
        memcpy(best, trial, sizeof(Interval) * (size_t)n);
      }
    }
  if (best_size != SIZE_MAX) memcpy(iv, best, sizeof(Interval) * (size_t)n);
  heap_free(h, trial, bytes);
  heap_free(h, best, bytes);
  return best_size;
}

static size_t interval_lower_bound(const Interval *iv, int n, int n_steps) {
  size_t best = 0;
  for (int k = 0; k < (n_steps > 0 ? n_steps : 1); k++) {
    size_t live = 0;
    for (int i = 0; i < n; i++)
      if (iv[i].first <= k && k <= iv[i].last) live += align_up(iv[i].bytes);
    if (live > best) best = live;
  }
  return best;
}

/* Forgets the in-place decisions of the operators whose output lives in `arena`. */
static void clear_inplace(Model *m, int arena) {
  for (int k = 0; k < m->n_nodes; k++) {
    Node *n = &m->nodes[k];
    if (n->n_out > 0 && n->out[0] >= 0 && m->tensors[tensor_storage(m, n->out[0])].arena == arena) n->inplace = false;
  }
}

/* Lays out every activation tensor whose Tensor.arena is `arena`. */
static bool layout_arena(Model *m, Plan *p, int arena, Diag *d) {
  HeapStats *h = &m->arena->heap;
  const size_t iv_bytes = sizeof(Interval) * (size_t)(m->n_tensors + 1);
  Interval *iv = heap_alloc(h, iv_bytes);
  if (!iv) return diag_error(d, "out of memory while planning");
  int n = 0;
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (plan_needs_storage(m, i) && t->arena == arena) iv[n++] = (Interval){t->bytes, t->first_use, t->last_use, i, 0};
  }
  size_t size = place_intervals(h, iv, n);
  if (size == SIZE_MAX) {
    heap_free(h, iv, iv_bytes);
    return diag_error(d, "out of memory while planning");
  }
  int ties = 0;
  clear_inplace(m, arena);
  if (p->inplace && p->arenas[arena].role == AR_SCRATCH) {
    /* in-place execution, kept when it makes the arena smaller */
    Interval *tied = heap_alloc(h, iv_bytes);
    if (tied) {
      memcpy(tied, iv, sizeof(Interval) * (size_t)n);
      /* max mode keeps the free ties alone when they give the smaller arena */
      bool moves = p->inplace_moves;
      size_t s = inplace_place(m, tied, n, moves, &ties);
      if (moves) {
        clear_inplace(m, arena);
        const size_t free_only = inplace_place(m, tied, n, false, &ties);
        moves = s <= free_only;
        clear_inplace(m, arena);
        s = inplace_place(m, tied, n, moves, &ties);
      }
      if (s < size) {
        size = s;
        memcpy(iv, tied, sizeof(Interval) * (size_t)n);
      } else {
        ties = 0;
        clear_inplace(m, arena);
      }
      heap_free(h, tied, iv_bytes);
    }
  }
  for (int i = 0; i < n; i++) m->tensors[iv[i].key].offset = iv[i].offset;
  p->arenas[arena].size = size;
  p->arenas[arena].inplace_ties = ties;
  p->arenas[arena].lower_bound = interval_lower_bound(iv, n, m->n_nodes);
  p->arenas[arena].n_tensors = n;
  heap_free(h, iv, iv_bytes);
  return true;
}

/* ---- arenas --------------------------------------------------------------- */

static int find_arena(Plan *p, ArenaRole role, MemType mem) {
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].role == role && p->arenas[i].memory == mem) return i;
  return -1;
}

static int get_arena(Plan *p, Arena *a, ArenaRole role, MemType mem, Diag *d) {
  int i = find_arena(p, role, mem);
  if (i >= 0) return i;
  if (p->n_arenas >= PLAN_MAX_ARENAS) {
    diag_error(d, "internal error: too many arenas");
    return -1;
  }
  PlanArena *ar = &p->arenas[p->n_arenas];
  memset(ar, 0, sizeof *ar);
  ar->role = role;
  ar->memory = mem;
  ar->name = mem == MEM_NONE ? arena_role_name(role) : arena_printf(a, "%s_%s", arena_role_name(role), mem_name(mem));
  for (char *c = (char *)ar->name; *c; c++)
    if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
  return p->n_arenas++;
}

static int scratch_owner(const Model *m, int32_t id) {
  for (int k = 0; k < m->n_nodes; k++)
    if (m->nodes[k].scratch_tensor == id) return k;
  return -1;
}

/* The memory a rule (or operator rule) pins an activation to, or MEM_NONE. */
static bool activation_memory(Model *m, Plan *p, const Tensor *t, MemType *out, Diag *d) {
  RuleType kind = t->is_variable ? RULE_PERSISTENT : RULE_SCRATCH;
  TensorAttrs at = attrs_resolve(p->config, kind, t->is_scratch_buffer ? -1 : t->id);
  if (at.residency != RES_UNSET)
    return diag_error(d, "line %d: tensor %d '%s' is not a constant: residency applies to constants only",
                      at.line_residency, (int)t->id, t->name);
  if (at.dest_set)
    return diag_error(d, "line %d: tensor %d '%s' is not a constant: constant_destination_memory applies to constants only",
                      at.line_dest, (int)t->id, t->name);
  *out = at.memory_set ? at.memory : MEM_NONE;
  if (t->is_scratch_buffer) {
    int k = scratch_owner(m, t->id);
    MemType op_mem = k >= 0 ? config_operator_placement(p->config, m->nodes[k].index, m->nodes[k].opname, false) : MEM_NONE;
    if (op_mem != MEM_NONE) *out = op_mem;
  }
  if (*out != MEM_NONE && (!p->platform.mem[*out].present || !p->platform.mem[*out].writable))
    return diag_error(d, "line %d: tensor %d '%s' cannot live in %s: not a writable memory of platform %s",
                      at.line_memory, (int)t->id, t->name, mem_name(*out), p->platform.name);
  return true;
}

static void set_budgets(Plan *p) {
  for (int mi = 0; mi < MEM_COUNT; mi++) {
    p->budget[mi] = p->platform.mem[mi].present ? p->platform.mem[mi].size : 0;
    p->budget_line[mi] = 0;
  }
  for (int i = 0; p->config && i < p->config->n_constraints; i++) {
    const MemoryConstraint *c = &p->config->constraints[i];
    if (c->max_size < p->budget[c->mem]) {
      p->budget[c->mem] = c->max_size;
      p->budget_line[c->mem] = c->line;
    }
  }
}

bool plan_activations(Model *m, Plan *p, const Platform *platform, const Config *cfg, Diag *d) {
  return plan_activations_opt(m, p, platform, cfg, false, d);
}

bool plan_activations_opt(Model *m, Plan *p, const Platform *platform, const Config *cfg, bool inplace, Diag *d) {
  return plan_activations_mode(m, p, platform, cfg, inplace ? PLAN_INPLACE_ALL : PLAN_INPLACE_NONE, d);
}

/* Each operator's code section, decided here so emit needs nothing from the config. */
static bool place_code(const Model *m, Plan *p, Diag *d) {
  p->n_nodes = m->n_nodes;
  if (!m->n_nodes) return true;
  p->code_memory = arena_calloc(m->arena, (size_t)m->n_nodes, sizeof(MemType));
  if (!p->code_memory) return diag_error(d, "out of memory while planning");
  for (int k = 0; k < m->n_nodes; k++)
    p->code_memory[k] = config_operator_placement(p->config, m->nodes[k].index, m->nodes[k].opname, true);
  return true;
}

bool plan_activations_mode(Model *m, Plan *p, const Platform *platform, const Config *cfg, PlanInplace mode,
                           Diag *d) {
  memset(p, 0, sizeof *p);
  p->inplace = mode != PLAN_INPLACE_NONE;
  p->inplace_moves = mode == PLAN_INPLACE_ALL;
  p->platform = *platform;
  p->config = cfg;
  if (!place_code(m, p, d)) return false;
  set_budgets(p);
  plan_compute_lifetimes(m);
  for (int i = 0; i < m->n_tensors; i++) {
    Tensor *t = &m->tensors[i];
    t->role = t->is_variable ? ROLE_PERSISTENT : tensor_is_const(t) ? ROLE_CONSTANT : ROLE_SCRATCH;
    t->arena = -1;
  }
  for (int i = 0; i < m->n_tensors; i++) {
    Tensor *t = &m->tensors[i];
    if (!plan_needs_storage(m, i)) continue;
    MemType mem = MEM_NONE;
    if (!activation_memory(m, p, t, &mem, d)) return false;
    ArenaRole role = t->role == ROLE_PERSISTENT ? AR_PERSISTENT : AR_SCRATCH;
    t->arena = get_arena(p, m->arena, role, mem, d);
    if (t->arena < 0) return false;
  }
  for (int i = 0; i < p->n_arenas; i++)
    if (!layout_arena(m, p, i, d)) return false;
  p->lower_bound = plan_live_lower_bound(m);
  return true;
}

ConstItem *plan_add_const(Plan *p, Arena *a, int32_t tensor_id, int32_t op_index, int32_t reader) {
  if (p->n_consts == p->cap_consts) {
    int cap = p->cap_consts ? p->cap_consts * 2 : 64;
    ConstItem *n = arena_calloc(a, (size_t)cap, sizeof(ConstItem));
    if (!n) return NULL;
    if (p->n_consts) memcpy(n, p->consts, sizeof(ConstItem) * (size_t)p->n_consts);
    p->consts = n;
    p->cap_consts = cap;
  }
  ConstItem *c = &p->consts[p->n_consts++];
  memset(c, 0, sizeof *c);
  c->tensor_id = tensor_id;
  c->op_index = op_index;
  c->source_tensor = -1;
  c->first_reader = c->last_reader = reader;
  c->arena = -1;
  c->source = c->runtime = MEM_NONE;
  return c;
}

/* ---- constants --------------------------------------------------------------- */

static bool decide_residency(Plan *p, ConstItem *c, Diag *d) {
  /* a derived table takes the attributes of the model tensor it derives from */
  TensorAttrs at = attrs_resolve(p->config, RULE_CONSTANT, c->tensor_id >= 0 ? c->tensor_id : c->source_tensor);
  c->source = at.memory_set ? at.memory : p->platform.constant_home;
  if (c->source == MEM_NONE || !p->platform.mem[c->source].present)
    return diag_error(d, "line %d: %s cannot be stored in %s: platform %s has no such memory", at.line_memory, c->what,
                      mem_name(c->source), p->platform.name);
  c->runtime = c->source;
  c->residency = RES_DIRECT;
  c->rule_line = at.line_residency;
  if (at.residency == RES_PIN) {
    if (!at.dest_set)
      return diag_error(d, "line %d: %s: residency pin needs constant_destination_memory", at.line_residency, c->what);
    if (at.dest != c->source) {
      c->residency = RES_PIN;
      c->runtime = at.dest;
    }
  } else if (at.residency == RES_STREAM) {
    c->stream_requested = true;
    c->runtime = at.dest_set ? at.dest : (p->platform.n_fast ? p->platform.fast_order[0] : c->source);
  }
  return true;
}

static bool layout_pinned(Model *m, Plan *p, Diag *d) {
  for (int dest = 0; dest < MEM_COUNT; dest++) {
    size_t off = 0;
    int arena = -1;
    /* grouped by source memory so each (source, destination) pair is one blob */
    for (int src = 0; src < MEM_COUNT; src++)
      for (int i = 0; i < p->n_consts; i++) {
        ConstItem *c = &p->consts[i];
        if (c->residency != RES_PIN || c->runtime != dest || c->source != src) continue;
        if (arena < 0 && (arena = get_arena(p, m->arena, AR_PINNED, (MemType)dest, d)) < 0) return false;
        c->arena = arena;
        c->offset = off;
        off += align_up(c->size);
        p->arenas[arena].n_tensors++;
      }
    if (arena >= 0) p->arenas[arena].size = p->arenas[arena].lower_bound = off;
  }
  return true;
}

static uint64_t room(const Plan *p, MemType mem) { return p->budget[mem] > p->used[mem] ? p->budget[mem] - p->used[mem] : 0; }

/* Stream pools: a constant is scheduled into the pool of its runtime memory when the
 * pool, planned by lifetime like activations, still fits that memory's budget. */
static bool plan_streams(Model *m, Plan *p, Diag *d) {
  HeapStats *h = &m->arena->heap;
  const size_t iv_bytes = sizeof(Interval) * (size_t)(p->n_consts + 1);
  const size_t which_bytes = sizeof(int) * (size_t)(p->n_consts + 1);
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    Interval *iv = heap_alloc(h, iv_bytes);
    int *which = heap_alloc(h, which_bytes);
    if (!iv || !which) {
      heap_free(h, iv, iv_bytes);
      heap_free(h, which, which_bytes);
      return diag_error(d, "out of memory while planning");
    }
    int n = 0;
    size_t size = 0;
    for (int i = 0; i < p->n_consts; i++) {
      ConstItem *c = &p->consts[i];
      if (!c->stream_requested || c->runtime != mem) continue;
      iv[n] = (Interval){c->size, c->first_reader, c->last_reader, n, 0};
      which[n] = i;
      const size_t trial_bytes = sizeof(Interval) * (size_t)(n + 1);
      Interval *trial = heap_alloc(h, trial_bytes);
      if (!trial) {
        heap_free(h, iv, iv_bytes);
        heap_free(h, which, which_bytes);
        return diag_error(d, "out of memory while planning");
      }
      memcpy(trial, iv, trial_bytes);
      size_t s = place_intervals(h, trial, n + 1);
      heap_free(h, trial, trial_bytes);
      if (s <= room(p, (MemType)mem)) {
        n++;
        size = s;
      } else {
        c->runtime = c->source; /* no room: read in place */
      }
    }
    if (n > 0) {
      int arena = get_arena(p, m->arena, AR_STREAM, (MemType)mem, d);
      if (arena < 0) {
        heap_free(h, iv, iv_bytes);
        heap_free(h, which, which_bytes);
        return false;
      }
      place_intervals(h, iv, n);
      for (int j = 0; j < n; j++) {
        ConstItem *c = &p->consts[which[iv[j].key]];
        c->residency = RES_STREAM;
        c->arena = arena;
        c->offset = iv[j].offset;
      }
      p->arenas[arena].size = size;
      p->arenas[arena].lower_bound = interval_lower_bound(iv, n, m->n_nodes);
      p->arenas[arena].n_tensors = n;
      p->used[mem] += size;
    }
    heap_free(h, iv, iv_bytes);
    heap_free(h, which, which_bytes);
  }
  return true;
}

/* A tensor name for a one-line message: long names keep their start and end around
 * "..." so that the quotes around them are never cut. */
static const char *short_name(Arena *a, const char *name) {
  size_t len = strlen(name);
  if (len <= 60) return name;
  return arena_printf(a, "%.28s...%s", name, name + len - 28);
}

/* Largest items living in `mem`, for over-budget messages. */
static void largest_in(const Model *m, const Plan *p, MemType mem, char *out, size_t cap) {
  size_t best[3] = {0, 0, 0};
  const char *names[3] = {"", "", ""};
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (t->arena < 0 || !plan_needs_storage(m, i) || p->arenas[t->arena].memory != mem) continue;
    for (int k = 0; k < 3; k++)
      if (t->bytes > best[k]) {
        for (int j = 2; j > k; j--) best[j] = best[j - 1], names[j] = names[j - 1];
        best[k] = t->bytes;
        names[k] = arena_printf(m->arena, "tensor %d '%s' (%zu B)", (int)t->id, short_name(m->arena, t->name), t->bytes);
        break;
      }
  }
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *c = &p->consts[i];
    bool here = c->source == mem || (c->residency != RES_DIRECT && c->runtime == mem);
    if (!here) continue;
    for (int k = 0; k < 3; k++)
      if (c->size > best[k]) {
        for (int j = 2; j > k; j--) best[j] = best[j - 1], names[j] = names[j - 1];
        best[k] = c->size;
        names[k] = arena_printf(m->arena, "%s (%zu B)", short_name(m->arena, c->what), c->size);
        break;
      }
  }
  /* Whole entries only: one that does not fit is left out, never cut. */
  out[0] = 0;
  for (int k = 0; k < 3 && best[k]; k++) {
    if (!names[k]) break;
    size_t used = strlen(out), need = strlen(names[k]) + (k ? 2 : 0);
    if (used + need + 1 > cap) break;
    snprintf(out + used, cap - used, "%s%s", k ? ", " : "", names[k]);
  }
}

static bool over_budget(const Model *m, Plan *p, MemType mem, uint64_t need, Diag *d) {
  p->over = true; /* the pipeline may trade kernel tiers for bytes and retry */
  p->over_mem = mem;
  p->over_need = need;
  char big[512];
  largest_in(m, p, mem, big, sizeof big);
  char where[64];
  if (p->budget_line[mem]) snprintf(where, sizeof where, "the constraint at line %d", p->budget_line[mem]);
  else snprintf(where, sizeof where, "the size of %s on %s", mem_name(mem), p->platform.name);
  return diag_error(d, "memory %s over budget: needs %llu bytes, %s allows %llu; largest there: %s. Move tensors with a memory.tensors rule, or raise memory.constraints",
                    mem_name(mem), (unsigned long long)need, where, (unsigned long long)p->budget[mem],
                    big[0] ? big : "-");
}

/* Picks a memory for each activation arena no rule placed, fastest first. */
static bool choose_activation_memories(Model *m, Plan *p, Diag *d) {
  for (int i = 0; i < p->n_arenas; i++) {
    PlanArena *ar = &p->arenas[i];
    if (ar->memory != MEM_NONE) continue;
    MemType chosen = MEM_NONE;
    for (int k = 0; k < p->platform.n_fast && chosen == MEM_NONE; k++) {
      MemType mem = p->platform.fast_order[k];
      int other = find_arena(p, ar->role, mem);
      uint64_t extra = ar->size + (other >= 0 ? 0 : 0);
      if (extra <= room(p, mem)) chosen = mem;
    }
    if (chosen == MEM_NONE && p->platform.n_fast) { /* a budget failure: the pipeline may escalate */
      p->over = true;
      p->over_mem = p->platform.fast_order[0];
      p->over_need = p->used[p->over_mem] + ar->size;
    }
    if (chosen == MEM_NONE)
      return diag_error(d, "no memory of platform %s has room for the %zu-byte %s arena (largest free: %s %llu bytes)",
                        p->platform.name, ar->size, arena_role_name(ar->role),
                        p->platform.n_fast ? mem_name(p->platform.fast_order[0]) : "-",
                        p->platform.n_fast ? (unsigned long long)room(p, p->platform.fast_order[0]) : 0ULL);
    int other = find_arena(p, ar->role, chosen);
    if (other >= 0) {
      /* Merge into the arena a rule already put there: one arena per (memory, role). */
      p->used[chosen] -= p->arenas[other].size;
      for (int t = 0; t < m->n_tensors; t++)
        if (m->tensors[t].arena == i) m->tensors[t].arena = other;
      ar->size = 0;
      ar->n_tensors = 0;
      if (!layout_arena(m, p, other, d)) return false;
      p->used[chosen] += p->arenas[other].size;
    } else {
      ar->memory = chosen;
      ar->name = arena_printf(m->arena, "%s_%s", arena_role_name(ar->role), mem_name(chosen));
      for (char *c = (char *)ar->name; *c; c++)
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
      p->used[chosen] += ar->size;
    }
  }
  return true;
}

/* Drops arenas emptied by merging, keeping tensor indices consistent. */
static void compact_arenas(Model *m, Plan *p) {
  int map[PLAN_MAX_ARENAS], n = 0;
  for (int i = 0; i < p->n_arenas; i++) {
    bool keep = p->arenas[i].memory != MEM_NONE;
    map[i] = keep ? n : -1;
    if (keep) p->arenas[n++] = p->arenas[i];
  }
  p->n_arenas = n;
  for (int t = 0; t < m->n_tensors; t++)
    if (m->tensors[t].arena >= 0) m->tensors[t].arena = map[m->tensors[t].arena];
  for (int i = 0; i < p->n_consts; i++)
    if (p->consts[i].arena >= 0) p->consts[i].arena = map[p->consts[i].arena];
}

bool plan_finish(Model *m, Plan *p, Diag *d) {
  for (int i = 0; i < p->n_consts; i++)
    if (!decide_residency(p, &p->consts[i], d)) return false;
  if (!layout_pinned(m, p, d)) return false;
  memset(p->used, 0, sizeof p->used);
  p->constant_bytes = 0;
  for (int i = 0; i < p->n_consts; i++) {
    p->used[p->consts[i].source] += align_up(p->consts[i].size);
    p->constant_bytes += p->consts[i].size;
  }
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].memory != MEM_NONE && p->arenas[i].role != AR_STREAM) p->used[p->arenas[i].memory] += p->arenas[i].size;
  if (!choose_activation_memories(m, p, d)) return false;
  compact_arenas(m, p);
  if (!plan_streams(m, p, d)) return false;
  for (int mem = 0; mem < MEM_COUNT; mem++)
    if (p->used[mem] > p->budget[mem]) return over_budget(m, p, (MemType)mem, p->used[mem], d);
  return plan_verify(m, p, d);
}

size_t plan_live_lower_bound(const Model *m) {
  size_t best = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    size_t live = 0;
    for (int i = 0; i < m->n_tensors; i++) {
      const Tensor *t = &m->tensors[i];
      if (t->role == ROLE_SCRATCH && plan_needs_storage(m, i) && t->first_use <= k && k <= t->last_use)
        live += t->bytes;
    }
    if (live > best) best = live;
  }
  return best;
}
