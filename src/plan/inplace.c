/* In-place execution (issue 17 item 3): an operator whose kernel declares an in-place
 * contract (InplaceAccess, src/ops/op.h) may write its output over the input it reads
 * for the last time. The output is placed `delta` bytes from that input (delta <= 0: it
 * starts at or before the input), the largest multiple of the alignment for which no
 * output byte lands on an input byte a later window still reads. Tied tensors form
 * chains placed as one unit; the plan keeps the untied placement when it is as small.
 * The plan verifier checks the result independently (verify.c). */
#include "inplace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/op.h"
#include "../ir/storage.h"

static size_t align_up(size_t x) { return (x + PLAN_ALIGN - 1) / PLAN_ALIGN * PLAN_ALIGN; }

/* First tap of a window inside [0, size), or -1 when every tap is padding. */
static int32_t first_inside(int32_t start, int32_t dil, int32_t k, int32_t size) {
  for (int32_t t = 0; t < k; t++) {
    int32_t i = start + t * dil;
    if (i >= 0 && i < size) return i;
  }
  return -1;
}

int64_t inplace_max_delta(HeapStats *h, const InplaceAccess *a) {
  const int64_t n = (int64_t)a->out_h * a->out_w;
  if (n <= 0 || a->out_w <= 0) return INT64_MAX;
  const size_t bytes = sizeof(int64_t) * (size_t)(n + 1);
  int64_t *suffix = heap_alloc(h, bytes);
  if (!suffix) return INT64_MIN;
  /* suffix[q]: the lowest input byte read by any output pixel >= q */
  suffix[n] = INT64_MAX;
  for (int64_t q = n - 1; q >= 0; q--) {
    int32_t oy = (int32_t)(q / a->out_w), ox = (int32_t)(q % a->out_w);
    int32_t iy = first_inside(oy * a->stride_h - a->pad_top, a->dil_h, a->k_h, a->in_h);
    int32_t ix = first_inside(ox * a->stride_w - a->pad_left, a->dil_w, a->k_w, a->in_w);
    int64_t lo = iy < 0 || ix < 0 ? INT64_MAX : ((int64_t)iy * a->in_w + ix) * a->in_px;
    suffix[q] = lo < suffix[q + 1] ? lo : suffix[q + 1];
  }
  int64_t bound = INT64_MAX;
  for (int64_t q = 0; q < n; q++) {
    int64_t start = a->row_groups ? q / a->out_w * a->out_w : (q - a->group + 1 > 0 ? q - a->group + 1 : 0);
    if (suffix[start] == INT64_MAX) continue;
    int64_t b = suffix[start] - (q + 1) * a->out_px;
    if (b < bound) bound = b;
  }
  heap_free(h, suffix, bytes);
  return bound;
}

bool inplace_pair(const Model *m, int k, int *input, InplaceAccess *acc) {
  const Node *n = &m->nodes[k];
  if (!n->def || !n->def->inplace || n->is_alias || n->n_out < 1 || n->out[0] < 0) return false;
  const int32_t out = tensor_storage(m, n->out[0]);
  const Tensor *y = &m->tensors[out];
  if (!plan_needs_storage(m, out) || y->first_use != k || y->is_variable) return false;
  for (int i = 0; i < n->n_in; i++) {
    if (n->in[i] < 0) continue;
    const int32_t in = tensor_storage(m, n->in[i]);
    const Tensor *x = &m->tensors[in];
    if (in == out || !plan_needs_storage(m, in) || x->last_use != k || x->is_output || x->is_variable) continue;
    bool twice = false;
    for (int j = 0; j < n->n_in; j++)
      if (j != i && n->in[j] >= 0 && tensor_storage(m, n->in[j]) == in) twice = true;
    for (int o = 0; o < n->n_out; o++)
      if (n->out[o] >= 0 && tensor_storage(m, n->out[o]) == in) twice = true;
    if (twice || !n->def->inplace(m, n, i, acc)) continue;
    /* the contract must describe these very tensors */
    if ((int64_t)acc->in_h * acc->in_w * acc->in_px != (int64_t)x->bytes ||
        (int64_t)acc->out_h * acc->out_w * acc->out_px != (int64_t)y->bytes || acc->group < 0)
      continue;
    *input = i;
    return true;
  }
  return false;
}

/* ---- placement of tied chains ------------------------------------------------ */

typedef struct Member {
  int32_t key, first, last;
  size_t bytes;
  int64_t rel;     /* offset from the group's base */
  int group;
  size_t offset;
} Member;

typedef struct Group {
  int first_member, n_members;
  size_t extent;
  int32_t first;
} Group;

static bool time_overlap(const Member *a, const Member *b) { return a->first <= b->last && b->first <= a->last; }
static bool byte_overlap(int64_t a0, size_t an, int64_t b0, size_t bn) {
  return a0 < b0 + (int64_t)align_up(bn) && b0 < a0 + (int64_t)align_up(an);
}

/* True when `c` (to join group c->group) meets a member of that group other than
 * `skip1`/`skip2` in time and in bytes. */
static bool clashes(const Member *mem, int nm, const Member *c, int skip1, int skip2) {
  for (int j = 0; j < nm; j++)
    if (j != skip1 && j != skip2 && mem[j].group == c->group && time_overlap(c, &mem[j]) &&
        byte_overlap(c->rel, c->bytes, mem[j].rel, mem[j].bytes))
      return true;
  return false;
}

/* Builds the placement units of the arena's tensors iv[0..n) (lifetimes in half steps:
 * an in-place output is moved into place after its kernel, at 2k + 1) and, for each node
 * that may run in place, the temporary output region tied to its dying input. mem holds
 * the members sorted by group; returns the number of groups, or -1 on OOM. */
static int build_groups(Model *m, const InplaceInterval *iv, int n, const bool *no_move, Member *mem, Group *gr,
                        int *n_ties, bool *direct, int *n_members) {
  HeapStats *h = &m->arena->heap;
  const size_t ibytes = sizeof(int) * (size_t)(m->n_tensors + 1);
  int *slot = heap_alloc(h, ibytes); /* tensor id -> index in iv, or -1 */
  if (!slot) return -1;
  for (int i = 0; i < m->n_tensors; i++) slot[i] = -1;
  for (int i = 0; i < n; i++) slot[iv[i].key] = i;
  int nm = 0, n_groups = 0;
  for (int i = 0; i < n; i++) /* every tensor starts as its own group */
    mem[nm++] = (Member){iv[i].key, 2 * iv[i].first, 2 * iv[i].last, iv[i].bytes, 0, i, 0};
  n_groups = n;
  *n_ties = 0;
  for (int k = 0; k < m->n_nodes; k++) {
    int input;
    InplaceAccess acc;
    if (!inplace_pair(m, k, &input, &acc)) continue;
    int xi = slot[tensor_storage(m, m->nodes[k].in[input])], yi = slot[tensor_storage(m, m->nodes[k].out[0])];
    if (xi < 0 || yi < 0 || mem[yi].group != yi) continue;
    int64_t bound = inplace_max_delta(h, &acc);
    if (bound == INT64_MIN || (bound < 0 && (!acc.moves || no_move[k])) || (acc.slower && no_move[k])) continue;
    const int g = mem[xi].group;
    if (bound >= 0) {
      /* direct: the kernel writes the output at the input's own offset */
      Member y = mem[yi];
      y.rel = mem[xi].rel;
      y.group = g;
      if (clashes(mem, nm, &y, xi, yi)) continue;
      mem[yi] = y;
      direct[k] = true;
      (*n_ties)++;
      continue;
    }
    /* moved: the kernel writes a temporary T at the input + d, then T moves to the output */
    const int64_t d = -(int64_t)align_up((size_t)(-bound));
    int64_t lo = d < 0 ? d : 0, hi = (int64_t)align_up(iv[xi].bytes);
    if (d + (int64_t)align_up(iv[yi].bytes) > hi) hi = d + (int64_t)align_up(iv[yi].bytes);
    if ((size_t)(hi - lo) >= align_up(iv[xi].bytes) + align_up(iv[yi].bytes)) continue; /* saves nothing */
    Member t = {-1 - k, 2 * k, 2 * k, iv[yi].bytes, mem[xi].rel + d, g, 0};
    if (clashes(mem, nm, &t, xi, -1)) continue;
    if (t.rel < 0) { /* the group grows downwards: shift it */
      const int64_t up = -t.rel;
      for (int j = 0; j < nm; j++)
        if (mem[j].group == g) mem[j].rel += up;
      t.rel = 0;
    }
    mem[yi].first = 2 * k + 1; /* moved into place after the kernel */
    mem[nm++] = t;
    (*n_ties)++;
  }
  heap_free(h, slot, ibytes);
  /* members grouped: member i < n is group i; temporaries join their input's group */
  Member *sorted = heap_alloc(h, sizeof(Member) * (size_t)(nm + 1));
  if (!sorted) return -1;
  int at = 0;
  for (int g = 0; g < n_groups; g++) {
    gr[g] = (Group){at, 0, 0, INT32_MAX};
    for (int j = 0; j < nm; j++)
      if (mem[j].group == g) {
        sorted[at++] = mem[j];
        size_t end = (size_t)mem[j].rel + align_up(mem[j].bytes);
        if (end > gr[g].extent) gr[g].extent = end;
        if (mem[j].first < gr[g].first) gr[g].first = mem[j].first;
      }
    gr[g].n_members = at - gr[g].first_member;
  }
  memcpy(mem, sorted, sizeof(Member) * (size_t)nm);
  *n_members = nm;
  heap_free(h, sorted, sizeof(Member) * (size_t)(nm + 1));
  return n_groups;
}

/* Lowest base for group g clear of every placed member it meets in time: from 0, each
 * clash moves the base just past the member it hit (the base only grows, so it ends). */
static size_t fit_group(const Member *mem, const Group *g, const bool *placed, int n) {
  int64_t base = 0;
  for (;;) {
    int64_t next = base;
    for (int i = g->first_member; i < g->first_member + g->n_members && next == base; i++)
      for (int j = 0; j < n; j++)
        if (placed[j] && time_overlap(&mem[i], &mem[j]) &&
            byte_overlap(base + mem[i].rel, mem[i].bytes, (int64_t)mem[j].offset, mem[j].bytes)) {
          next = (int64_t)(mem[j].offset + align_up(mem[j].bytes)) - mem[i].rel;
          break;
        }
    if (next == base) return (size_t)base;
    base = next > base ? next : base + PLAN_ALIGN;
  }
}

static int g_cmp_extent(const void *x, const void *y) {
  const Group *a = x, *b = y;
  if (a->extent != b->extent) return a->extent > b->extent ? -1 : 1;
  if (a->first != b->first) return a->first < b->first ? -1 : 1;
  return a->first_member < b->first_member ? -1 : a->first_member > b->first_member;
}

static int g_cmp_first(const void *x, const void *y) {
  const Group *a = x, *b = y;
  if (a->first != b->first) return a->first < b->first ? -1 : 1;
  return g_cmp_extent(x, y);
}

/* One ordering of the groups, first fit; returns the arena size or SIZE_MAX. */
static size_t place_groups(HeapStats *h, Member *mem, int n, Group *gr, int n_groups) {
  const size_t pb = sizeof(bool) * (size_t)(n + 1);
  bool *placed = heap_alloc(h, pb);
  if (!placed) return SIZE_MAX;
  memset(placed, 0, pb);
  size_t size = 0;
  for (int gi = 0; gi < n_groups; gi++) {
    const Group *g = &gr[gi];
    size_t base = fit_group(mem, g, placed, n);
    for (int i = g->first_member; i < g->first_member + g->n_members; i++) {
      mem[i].offset = base + (size_t)mem[i].rel;
      placed[i] = true;
      if (mem[i].offset + align_up(mem[i].bytes) > size) size = mem[i].offset + align_up(mem[i].bytes);
    }
  }
  heap_free(h, placed, pb);
  return size;
}

/* Moves each moved output's group onto its temporary where that fits (nothing else live
 * there, inside the arena): the move then copies nothing. Never grows the arena. */
static void snap_outputs(const Model *m, Member *mem, int nm, size_t size) {
  for (int k = 0; k < m->n_nodes; k++) {
    int t = -1, y = -1;
    const int32_t out = m->nodes[k].n_out > 0 && m->nodes[k].out[0] >= 0 ? tensor_storage(m, m->nodes[k].out[0]) : -1;
    for (int i = 0; i < nm; i++) {
      if (mem[i].key == -1 - k) t = i;
      if (mem[i].key == out) y = i;
    }
    if (t < 0 || y < 0 || mem[t].offset == mem[y].offset) continue;
    const int64_t shift = (int64_t)mem[t].offset - (int64_t)mem[y].offset;
    const int g = mem[y].group;
    bool ok = true;
    for (int i = 0; i < nm && ok; i++) {
      if (mem[i].group != g) continue;
      const int64_t at = (int64_t)mem[i].offset + shift;
      ok = at >= 0 && (uint64_t)at + align_up(mem[i].bytes) <= size;
      for (int j = 0; j < nm && ok; j++)
        if (mem[j].group != g && time_overlap(&mem[i], &mem[j]) &&
            byte_overlap(at, mem[i].bytes, (int64_t)mem[j].offset, mem[j].bytes))
          ok = false;
    }
    if (!ok) continue;
    for (int i = 0; i < nm; i++)
      if (mem[i].group == g) mem[i].offset = (size_t)((int64_t)mem[i].offset + shift);
  }
}

/* One placement with every tie that saves bytes except the moves no_move[k] forbids;
 * sets unsnapped[k] for each moved output that could not stay on its temporary (its move
 * copies bytes). */
static size_t place_once(Model *m, InplaceInterval *iv, int n, const bool *no_move, bool *unsnapped, int *n_ties) {
  HeapStats *h = &m->arena->heap;
  *n_ties = 0;
  if (n <= 0) return SIZE_MAX;
  const int cap = n + m->n_nodes + 1;
  const size_t mb = sizeof(Member) * (size_t)cap, gb = sizeof(Group) * (size_t)cap;
  Member *mem = heap_alloc(h, mb), *best = heap_alloc(h, mb);
  Group *gr = heap_alloc(h, gb);
  size_t best_size = SIZE_MAX;
  const size_t db = sizeof(bool) * (size_t)(m->n_nodes + 1);
  bool *direct = heap_alloc(h, db);
  if (direct) memset(direct, 0, db);
  int nm = 0;
  int n_groups = mem && best && gr && direct ? build_groups(m, iv, n, no_move, mem, gr, n_ties, direct, &nm) : -1;
  if (n_groups > 0 && *n_ties > 0) {
    int (*const orders[2])(const void *, const void *) = {g_cmp_extent, g_cmp_first};
    for (int o = 0; o < 2; o++) {
      qsort(gr, (size_t)n_groups, sizeof *gr, orders[o]);
      size_t s = place_groups(h, mem, nm, gr, n_groups);
      if (s < best_size) {
        best_size = s;
        memcpy(best, mem, sizeof(Member) * (size_t)nm);
      }
    }
    if (best_size != SIZE_MAX) {
      snap_outputs(m, best, nm, best_size);
      for (int i = 0; i < nm; i++) {
        const Member *b = &best[i];
        if (b->key >= 0) {
          for (int j = 0; j < n; j++)
            if (iv[j].key == b->key) iv[j].offset = b->offset;
          continue;
        }
        Node *node = &m->nodes[-1 - b->key];
        int input;
        InplaceAccess acc;
        if (!inplace_pair(m, -1 - b->key, &input, &acc)) continue;
        node->inplace = true;
        node->inplace_input = input;
        node->inplace_delta = (int64_t)b->offset; /* absolute for now: made relative below */
        const int32_t out = tensor_storage(m, node->out[0]);
        for (int j = 0; j < nm; j++)
          if (best[j].key == out && best[j].offset != b->offset) unsnapped[-1 - b->key] = true;
      }
      for (int k = 0; k < m->n_nodes; k++) {
        Node *node = &m->nodes[k];
        int input;
        InplaceAccess acc;
        if (direct[k] && inplace_pair(m, k, &input, &acc)) { /* at the input's own offset */
          node->inplace = true;
          node->inplace_input = input;
          node->inplace_delta = 0;
          continue;
        }
        if (!node->inplace) continue;
        const int32_t x = tensor_storage(m, node->in[node->inplace_input]);
        for (int j = 0; j < n; j++)
          if (iv[j].key == x) node->inplace_delta -= (int64_t)iv[j].offset;
      }
    }
  }
  heap_free(h, mem, mb);
  heap_free(h, best, mb);
  heap_free(h, gr, gb);
  heap_free(h, direct, db);
  return best_size;
}

/* Clears the in-place decisions place_once made (before another attempt). */
static void forget_ties(Model *m, const InplaceInterval *iv, int n) {
  for (int k = 0; k < m->n_nodes; k++) {
    Node *node = &m->nodes[k];
    if (node->n_out < 1 || node->out[0] < 0) continue;
    const int32_t out = tensor_storage(m, node->out[0]);
    for (int j = 0; j < n; j++)
      if (iv[j].key == out) node->inplace = false;
  }
}

/* The rounds above forbid every unsnapped tie at once, also those that only failed to
 * snap because other ties crowded them (vww on Cortex-M55: the MVE depthwise ties, none
 * free, displaced the free ones of its first convolution and 1x1 expansion, and the
 * default arena stayed at 55,296 bytes where Cortex-M4, without those ties, reached
 * 46,080). So each forbidden tie, in schedule order, is tried again with the ties kept so
 * far, and kept when every tie of the placement stays free and the arena does not grow.
 * Ends with the placement of the kept set applied; returns its size. */
static size_t readmit_free_ties(Model *m, InplaceInterval *iv, int n, bool *no_move, bool *unsnapped, size_t size,
                                int *n_ties) {
  const size_t bb = sizeof(bool) * (size_t)(m->n_nodes + 1);
  bool retried = false;
  for (int k = 0; k < m->n_nodes; k++) {
    int input;
    InplaceAccess acc;
    if (!no_move[k] || !inplace_pair(m, k, &input, &acc) || acc.slower) continue;
    no_move[k] = false;
    forget_ties(m, iv, n);
    memset(unsnapped, 0, bb);
    const size_t s = place_once(m, iv, n, no_move, unsnapped, n_ties);
    bool free = s != SIZE_MAX;
    for (int j = 0; free && j < m->n_nodes; j++) free = !unsnapped[j];
    if (free && s <= size) size = s;
    else no_move[k] = true;
    retried = true;
  }
  if (!retried) return size;
  forget_ties(m, iv, n); /* the kept set's placement, applied */
  memset(unsnapped, 0, bb);
  return place_once(m, iv, n, no_move, unsnapped, n_ties);
}

size_t inplace_place(Model *m, InplaceInterval *iv, int n, bool moves, int *n_ties) {
  HeapStats *h = &m->arena->heap;
  *n_ties = 0;
  const size_t bb = sizeof(bool) * (size_t)(m->n_nodes + 1);
  bool *no_move = heap_alloc(h, bb), *unsnapped = heap_alloc(h, bb);
  size_t size = SIZE_MAX;
  if (no_move && unsnapped) {
    memset(no_move, 0, bb);
    for (int k = 0; !moves && k < m->n_nodes; k++) { /* not free: slower even in place */
      int input;
      InplaceAccess acc;
      if (inplace_pair(m, k, &input, &acc) && acc.slower) no_move[k] = true;
    }
    /* Without `moves`, a moved tie stays only where its output ends on its temporary (the
     * wrapper then copies nothing: free); the others are forbidden one round at a time and
     * the arena placed again, until every move left is free. Each round forbids at least
     * one more operator, so this ends. */
    for (int round = 0; round <= m->n_nodes; round++) {
      memset(unsnapped, 0, bb);
      size = place_once(m, iv, n, no_move, unsnapped, n_ties);
      bool again = false;
      for (int k = 0; !moves && k < m->n_nodes; k++)
        if (unsnapped[k] && !no_move[k]) no_move[k] = again = true;
      if (!again || size == SIZE_MAX) break;
      forget_ties(m, iv, n);
      *n_ties = 0;
    }
    if (!moves) size = readmit_free_ties(m, iv, n, no_move, unsnapped, size, n_ties);
  }
  heap_free(h, no_move, bb);
  heap_free(h, unsnapped, bb);
  return size;
}
