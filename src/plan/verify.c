/* The plan verifier: written independently of the planner, trusts nothing it set
 * except the final offsets, arena indices and lifetimes. */
#include "plan.h"

#include "../ops/op.h"
#include "../ir/storage.h"

/* ---- in-place steps --------------------------------------------------------- */

/* Lowest and end of the input bytes one output pixel's window reads (every tap inside
 * the image); lo = INT64_MAX when it reads none. */
static void window_bytes(const InplaceAccess *a, int64_t q, int64_t *lo, int64_t *hi) {
  const int32_t oy = (int32_t)(q / a->out_w), ox = (int32_t)(q % a->out_w);
  *lo = INT64_MAX;
  *hi = INT64_MIN;
  for (int32_t ky = 0; ky < a->k_h; ky++) {
    const int32_t iy = oy * a->stride_h - a->pad_top + ky * a->dil_h;
    if (iy < 0 || iy >= a->in_h) continue;
    for (int32_t kx = 0; kx < a->k_w; kx++) {
      const int32_t ix = ox * a->stride_w - a->pad_left + kx * a->dil_w;
      if (ix < 0 || ix >= a->in_w) continue;
      const int64_t b = ((int64_t)iy * a->in_w + ix) * a->in_px;
      if (b < *lo) *lo = b;
      if (b + a->in_px > *hi) *hi = b + a->in_px;
    }
  }
}

/* Runs the operator's declared access order over the planned bytes: when output pixel q
 * is written (at delta + q * out_px, in the input's byte coordinates), no pixel whose
 * window the kernel may still read (from q - group + 1, or q's row start) reads a byte
 * of it. */
static bool simulate_inplace(const Model *m, const InplaceAccess *a, int64_t delta) {
  const int64_t n = (int64_t)a->out_h * a->out_w;
  if (n <= 0 || a->group < 0) return false;
  HeapStats *h = &m->arena->heap;
  const size_t bytes = sizeof(int64_t) * 2 * (size_t)(n + 1);
  int64_t *lo = heap_alloc(h, bytes);
  if (!lo) return false;
  int64_t *hi = lo + n + 1;
  lo[n] = INT64_MAX;
  hi[n] = INT64_MIN;
  for (int64_t q = n - 1; q >= 0; q--) { /* from q on: the lowest byte read, the end of the highest */
    int64_t l, e;
    window_bytes(a, q, &l, &e);
    lo[q] = l < lo[q + 1] ? l : lo[q + 1];
    hi[q] = e > hi[q + 1] ? e : hi[q + 1];
  }
  bool ok = true;
  for (int64_t q = 0; q < n && ok; q++) {
    const int64_t from = a->row_groups ? q - q % a->out_w : (q - a->group + 1 < 0 ? 0 : q - a->group + 1);
    const int64_t w0 = delta + q * a->out_px, w1 = w0 + a->out_px;
    ok = lo[from] == INT64_MAX || w1 <= lo[from] || w0 >= hi[from];
  }
  heap_free(h, lo, bytes);
  return ok;
}

/* Tensors a and b share bytes while both live: allowed only when one dies at step k and
 * the other is the output of operator k running in place, which its kernel writes
 * elsewhere (checked by check_inplace) and which is moved into place after the kernel. */
static bool moved_after(const Model *m, const Tensor *a, const Tensor *b) {
  const Tensor *x = a->last_use == b->first_use ? a : b, *y = x == a ? b : a;
  const int32_t k = x->last_use;
  if (y->first_use != k || k < 0 || k >= m->n_nodes || x->is_output || x->is_variable) return false;
  const Node *n = &m->nodes[k];
  if (!n->inplace || n->n_out < 1 || n->out[0] < 0 || tensor_storage(m, n->out[0]) != y->id) return false;
  const Tensor *in = &m->tensors[tensor_storage(m, n->in[n->inplace_input])];
  /* written in place directly (no temporary): only over that input */
  if ((int64_t)y->offset == (int64_t)in->offset + n->inplace_delta) return x == in;
  return true;
}

/* Every operator running in place: its contract holds for these tensors and offsets
 * (simulated byte by byte), and its temporary output region lies in the arena, clear
 * of every other tensor live at that step. */
static bool check_inplace(const Model *m, const Plan *p, Diag *d) {
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    if (!n->inplace) continue;
    if (!n->def || !n->def->inplace || n->inplace_input < 0 || n->inplace_input >= n->n_in || n->n_out < 1 ||
        n->in[n->inplace_input] < 0 || n->out[0] < 0)
      return diag_error(d, "internal error: operator %d (%s) runs in place without a contract", (int)n->index, n->opname);
    const Tensor *x = &m->tensors[tensor_storage(m, n->in[n->inplace_input])];
    const Tensor *y = &m->tensors[tensor_storage(m, n->out[0])];
    int uses = 0;
    for (int i = 0; i < n->n_in; i++)
      if (n->in[i] >= 0 && tensor_storage(m, n->in[i]) == x->id) uses++;
    for (int o = 0; o < n->n_out; o++)
      if (n->out[o] >= 0 && tensor_storage(m, n->out[o]) == x->id) uses++;
    InplaceAccess acc;
    bool ok = uses == 1 && x->last_use == k && y->first_use == k && !x->is_output && !x->is_variable &&
              plan_needs_storage(m, x->id) && plan_needs_storage(m, y->id) && x->arena == y->arena &&
              n->def->inplace(m, n, n->inplace_input, &acc) &&
              (int64_t)acc.in_h * acc.in_w * acc.in_px == (int64_t)x->bytes &&
              (int64_t)acc.out_h * acc.out_w * acc.out_px == (int64_t)y->bytes && acc.out_w >= 1;
    const int64_t t = (int64_t)x->offset + n->inplace_delta;
    ok = ok && t >= 0 && t % PLAN_ALIGN == 0 && (uint64_t)t + y->bytes <= p->arenas[x->arena].size &&
         simulate_inplace(m, &acc, n->inplace_delta);
    if (!ok)
      return diag_error(d, "internal error: operator %d (%s) writes over tensor %d '%s' where its kernel's in-place contract does not allow it",
                        (int)n->index, n->opname, (int)x->id, x->name);
    for (int i = 0; i < m->n_tensors; i++) {
      const Tensor *z = &m->tensors[i];
      if (z == x || z == y || !plan_needs_storage(m, i) || z->arena != x->arena || z->first_use > k || z->last_use < k)
        continue;
      if ((int64_t)z->offset < t + (int64_t)y->bytes && t < (int64_t)(z->offset + z->bytes) && z->bytes && y->bytes)
        return diag_error(d, "internal error: operator %d (%s) writes its output in place over tensor %d '%s', live at that step",
                          (int)n->index, n->opname, (int)z->id, z->name);
    }
  }
  return true;
}

static bool check_tensors(const Model *m, const Plan *p, Diag *d) {
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *a = &m->tensors[i];
    if (!plan_needs_storage(m, i)) continue;
    if (a->arena < 0 || a->arena >= p->n_arenas)
      return diag_error(d, "internal error: plan left tensor %d '%s' without an arena", a->id, a->name);
    const PlanArena *ar = &p->arenas[a->arena];
    if (ar->role != AR_SCRATCH && ar->role != AR_PERSISTENT)
      return diag_error(d, "internal error: tensor %d '%s' placed in a %s arena", a->id, a->name, arena_role_name(ar->role));
    if (a->offset > ar->size || a->bytes > ar->size - a->offset)
      return diag_error(d, "internal error: tensor %d '%s' (%zu bytes at %zu) overruns arena %s (%zu bytes)", a->id,
                        a->name, a->bytes, a->offset, ar->name, ar->size);
    if (a->offset % PLAN_ALIGN)
      return diag_error(d, "internal error: tensor %d '%s' is misaligned at offset %zu", a->id, a->name, a->offset);
    for (int j = i + 1; j < m->n_tensors; j++) {
      const Tensor *b = &m->tensors[j];
      if (!plan_needs_storage(m, j) || b->arena != a->arena) continue;
      bool live_together = a->first_use <= b->last_use && b->first_use <= a->last_use;
      bool bytes_overlap = a->offset < b->offset + b->bytes && b->offset < a->offset + a->bytes;
      if (live_together && bytes_overlap && a->bytes && b->bytes && !moved_after(m, a, b))
        return diag_error(d, "internal error: plan overlaps tensor %d '%s' and tensor %d '%s' in arena %s", a->id,
                          a->name, b->id, b->name, ar->name);
    }
  }
  return true;
}

static bool check_constants(const Plan *p, Diag *d) {
  for (int i = 0; i < p->n_consts; i++) {
    const ConstItem *a = &p->consts[i];
    if (a->residency == RES_DIRECT) {
      if (a->arena != -1 || a->runtime != a->source)
        return diag_error(d, "internal error: direct constant %s has a runtime copy", a->what);
      continue;
    }
    if (a->arena < 0 || a->arena >= p->n_arenas)
      return diag_error(d, "internal error: constant %s has no arena", a->what);
    const PlanArena *ar = &p->arenas[a->arena];
    if (ar->memory != a->runtime || (ar->role != AR_PINNED && ar->role != AR_STREAM))
      return diag_error(d, "internal error: constant %s is in arena %s, not in %s", a->what, ar->name, mem_name(a->runtime));
    if (a->offset > ar->size || a->size > ar->size - a->offset)
      return diag_error(d, "internal error: constant %s overruns arena %s", a->what, ar->name);
    for (int j = i + 1; j < p->n_consts; j++) {
      const ConstItem *b = &p->consts[j];
      if (b->arena != a->arena) continue;
      bool live_together = ar->role == AR_PINNED || (a->first_reader <= b->last_reader && b->first_reader <= a->last_reader);
      bool overlap = a->offset < b->offset + b->size && b->offset < a->offset + a->size;
      if (live_together && overlap && a->size && b->size)
        return diag_error(d, "internal error: constants %s and %s overlap in arena %s", a->what, b->what, ar->name);
    }
  }
  return true;
}

/* The schedule (node order, possibly reordered) reads every activation after it is
 * written, and an operator that is not REORDERABLE keeps its place relative to all
 * others (everything before it in the model runs before it, and nothing after). */
static bool check_schedule(const Model *m, Diag *d) {
  bool *written = arena_calloc(m->arena, (size_t)m->n_tensors + 1, sizeof(bool));
  int32_t *suffix_min = arena_calloc(m->arena, (size_t)m->n_nodes + 1, sizeof(int32_t));
  if (!written || !suffix_min) return diag_error(d, "out of memory while verifying the plan");
  for (int i = 0; i < m->n_inputs; i++) written[tensor_storage(m, m->inputs[i])] = true;
  for (int i = 0; i < m->n_tensors; i++)
    if (m->tensors[i].is_variable || tensor_is_const(&m->tensors[i])) written[i] = true;
  suffix_min[m->n_nodes] = INT32_MAX;
  for (int k = m->n_nodes - 1; k >= 0; k--)
    suffix_min[k] = m->nodes[k].index < suffix_min[k + 1] ? m->nodes[k].index : suffix_min[k + 1];
  int32_t prefix_max = -1;
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    for (int i = 0; i < n->n_in; i++)
      if (n->in[i] >= 0 && !written[tensor_storage(m, n->in[i])])
        return diag_error(d, "internal error: schedule runs operator %d (%s) before its input tensor %d is written",
                          (int)n->index, n->opname, (int)n->in[i]);
    for (int o = 0; o < n->n_out; o++) written[tensor_storage(m, n->out[o])] = true;
    bool fixed = !n->def || !(n->def->capabilities & CAP_REORDERABLE);
    if (fixed && (prefix_max > n->index || suffix_min[k + 1] < n->index))
      return diag_error(d, "internal error: schedule moves operators across operator %d (%s), which is not REORDERABLE",
                        (int)n->index, n->opname);
    if (n->index > prefix_max) prefix_max = n->index;
  }
  return true;
}

/* ---- views (patch bands, plan/patch.c) ------------------------------------------ */

/* Byte range [*lo, *lo + bytes) of tensor id inside its storage tensor. */
static int32_t view_range(const Model *m, int32_t id, int64_t *lo) {
  *lo = 0;
  int32_t s = id;
  for (int hops = 0; s >= 0 && m->tensors[s].alias_of >= 0 && hops < m->n_tensors; hops++) {
    *lo += (int64_t)m->tensors[s].alias_offset;
    s = m->tensors[s].alias_of;
  }
  return s;
}

/* Tensor `id` (a view or a whole tensor) was written whole before position k: its bytes
 * are covered by the outputs of earlier operators (a model input counts as written). */
static bool written_before(const Model *m, int32_t id, int k) {
  int64_t lo, cur;
  const int32_t s = view_range(m, id, &lo);
  const int64_t hi = lo + (int64_t)m->tensors[id].bytes;
  for (int i = 0; i < m->n_inputs; i++)
    if (tensor_storage(m, m->inputs[i]) == s) return true;
  for (cur = lo; cur < hi;) {
    int64_t next = cur;
    for (int j = 0; j < k && next == cur; j++)
      for (int o = 0; o < m->nodes[j].n_out; o++) {
        int64_t w0;
        const int32_t out = m->nodes[j].out[o];
        if (out < 0 || view_range(m, out, &w0) != s) continue;
        const int64_t w1 = w0 + (int64_t)m->tensors[out].bytes;
        if (w0 <= cur && cur < w1) next = w1;
      }
    if (next == cur) return false;
    cur = next;
  }
  return true;
}

/* Every view lies inside its storage tensor; a tensor written by rows (several operators
 * writing views of it) is read only where earlier operators wrote it, and no two of its
 * writers write the same byte (nothing overwritten after being read). */
static bool check_views(const Model *m, Diag *d) {
  for (int i = 0; i < m->n_tensors; i++) {
    const Tensor *t = &m->tensors[i];
    if (t->alias_of < 0 || t->alias_offset == 0) continue;
    int64_t lo;
    const int32_t s = view_range(m, i, &lo);
    if (s < 0 || lo < 0 || lo + (int64_t)t->bytes > (int64_t)m->tensors[s].bytes)
      return diag_error(d, "internal error: view tensor %d '%s' lies outside its storage tensor %d", i, t->name, (int)s);
  }
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    if (!n->patched) continue;
    for (int i = 0; i < n->n_in; i++)
      if (n->in[i] >= 0 && !tensor_is_const(&m->tensors[n->in[i]]) && !written_before(m, n->in[i], k))
        return diag_error(d, "internal error: band operator %d (%s, band %d) reads bytes of tensor %d no operator wrote before",
                          (int)n->index, n->opname, (int)n->band, (int)n->in[i]);
    for (int j = 0; j < k; j++) /* disjoint writers */
      for (int o = 0; o < m->nodes[j].n_out; o++) {
        int64_t a0, b0;
        const int32_t x = m->nodes[j].out[o], y = n->out[0];
        if (x < 0 || y < 0 || view_range(m, x, &a0) != view_range(m, y, &b0)) continue;
        if (a0 < b0 + (int64_t)m->tensors[y].bytes && b0 < a0 + (int64_t)m->tensors[x].bytes)
          return diag_error(d, "internal error: band operator %d (%s, band %d) overwrites bytes of tensor %d written before",
                            (int)n->index, n->opname, (int)n->band, (int)y);
      }
  }
  /* the readers of a tensor written by rows read it only once every row is written */
  bool *by_rows = arena_calloc(m->arena, (size_t)m->n_tensors + 1, sizeof(bool));
  if (!by_rows) return diag_error(d, "out of memory while verifying the plan");
  for (int k = 0; k < m->n_nodes; k++)
    if (m->nodes[k].patched && m->nodes[k].n_out > 0 && m->nodes[k].out[0] >= 0 &&
        m->tensors[m->nodes[k].out[0]].alias_of >= 0)
      by_rows[tensor_storage(m, m->nodes[k].out[0])] = true;
  for (int k = 0; k < m->n_nodes; k++)
    for (int i = 0; i < m->nodes[k].n_in; i++) {
      const int32_t x = m->nodes[k].in[i];
      if (x >= 0 && !m->nodes[k].patched && by_rows[tensor_storage(m, x)] && !written_before(m, x, k))
        return diag_error(d, "internal error: operator %d (%s) reads tensor %d before every band wrote it",
                          (int)m->nodes[k].index, m->nodes[k].opname, (int)x);
    }
  return true;
}

/* ---- slicing operators run as views (transform/slice_views.c) ------------------- */

static bool is_slicing_code(int32_t c) { return c == 45 || c == 49 || c == 65 || c == 88 || c == 102; }

/* A slicing operator that runs no code: each output lies inside its input's bytes, in the
 * input's storage (not a constant or state), no operator at or after it writes that
 * storage (a view reads the bytes when its readers run, not when the copy would have),
 * and no operator binding subgraphs to its inputs reads a view. */
static bool check_slice_views(const Model *m, Diag *d) {
  for (int k = 0; k < m->n_nodes; k++) {
    const Node *n = &m->nodes[k];
    if (!n->is_alias || !is_slicing_code(n->builtin_code)) continue;
    const int32_t x = n->n_in > 1 && n->builtin_code == 49 ? n->in[1] : n->n_in > 0 ? n->in[0] : -1;
    int64_t x0 = 0;
    const int32_t s = x >= 0 ? view_range(m, x, &x0) : -1;
    bool ok = s >= 0 && !tensor_is_const(&m->tensors[s]) && !m->tensors[s].is_variable;
    for (int o = 0; ok && o < n->n_out; o++) {
      int64_t y0;
      const int32_t y = n->out[o];
      ok = y >= 0 && view_range(m, y, &y0) == s && y0 >= x0 &&
           y0 + (int64_t)m->tensors[y].bytes <= x0 + (int64_t)m->tensors[x].bytes && !m->tensors[y].is_output;
      for (int j = 0; ok && j < m->n_nodes; j++) {
        const Node *r = &m->nodes[j];
        const bool binds = r->builtin_code == 118 || r->builtin_code == 119 || r->builtin_code == 129;
        for (int i = 0; ok && binds && i < r->n_in; i++) ok = r->in[i] != y;
      }
    }
    for (int j = k; ok && j < m->n_nodes; j++)
      for (int o = 0; ok && o < m->nodes[j].n_out; o++)
        ok = m->nodes[j].out[o] < 0 || m->nodes[j].is_alias || /* an alias writes nothing */
             tensor_storage(m, m->nodes[j].out[o]) != s;
    if (!ok)
      return diag_error(d, "internal error: operator %d (%s) runs as views of tensor %d where its bytes may change or "
                        "lie elsewhere before its outputs are read", (int)n->index, n->opname, (int)x);
  }
  return true;
}

bool plan_verify(const Model *m, const Plan *p, Diag *d) {
  for (int i = 0; i < p->n_arenas; i++)
    if (p->arenas[i].memory == MEM_NONE)
      return diag_error(d, "internal error: arena %s has no memory", p->arenas[i].name);
  return check_schedule(m, d) && check_tensors(m, p, d) && check_inplace(m, p, d) && check_views(m, d) &&
         check_slice_views(m, d) && check_constants(p, d);
}
