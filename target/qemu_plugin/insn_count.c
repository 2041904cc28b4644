/* QEMU TCG plugin: counts the guest instructions executed between a start address
 * (first instruction counted) and a stop address (not counted), and among them the
 * Helium/MVE vector instructions and the low-overhead-loop end branches.
 *
 *   qemu-system-arm ... -plugin libinsn_count.so,start=0xADDR,stop=0xADDR,out=FILE
 *
 * Every instruction adds 1 to a running total by an inline operation (no helper
 * call); the start and stop instructions additionally take a snapshot of the totals.
 * A window is [start, stop): its counts are summed over all windows and written to
 * FILE at every stop (key=value lines). Exact and repeatable: the counts depend
 * only on the guest's control flow, never on timing.
 *
 * Per operator (make bench; bench/README.md), in two runs of the same image:
 *   learn:  ...,markers=ADDR:BYTES,body=ADDR:BYTES,context=ADDR:BYTES
 *     the harness's operator callback jumps to marker 2*op+state of the table at
 *     `markers`; a layer opens at the first instruction of the module's own code
 *     (`body`: model_run and the functions it notifies from) executed after a start
 *     marker and closes at the next such instruction that touches the model context
 *     (the module's test of its callback pointer, which the layer run then follows
 *     into the callback). Each layer is written with its op, its
 *     first and end addresses and its counts.
 *   replay: ...,layers=FILE (the learn run's output), in the run without callback
 *     the same layers open and close at those addresses, in the same order, so that
 *     the operators are counted in the very run that gives the total.
 * A layer counts [first, end): the operator's own code in the module and everything
 * it calls; the rest of the window is reported as outside the layers.
 *
 * Profile (bench/README.md, "Where the instructions go"): ...,profile=FILE writes
 * "ADDR COUNT" for every guest instruction address executed, from reset to exit
 * (whole-run counts, for finding the hot loops of a kernel with objdump).
 *
 * Cycles (docs/cycles.md): ...,core=m4|m55 adds the timing model of timing.h (an exec
 * callback per instruction with its decoded class; memory callbacks on loads/stores when
 * waits=LO-HI:N or cached=LO-HI:N regions are given, dcache=BYTES:WAYS:LINE, param=NAME:V);
 * the out file then has cycles= after insns= and each layer line a 7th field, its cycles.
 * Without core= none of this is registered. start=entry opens the window at the first
 * instruction executed (reset), stop=exit closes it when QEMU exits (whole-run windows).
 *
 * QEMU 7.2 does not install qemu-plugin.h, so the few API entry points used are
 * declared here, matching plugin API version 1. */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mve_classify.h"
#include "timing.h"

/* ---- QEMU plugin API, version 1 (the subset this plugin calls) ------------------ */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; /* only passed through */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef uint32_t qemu_plugin_meminfo_t;

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                                          void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op, void *ptr,
                                                uint64_t imm);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw, void *userdata);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

#define PLUGIN_EXPORT __attribute__((visibility("default")))
PLUGIN_EXPORT extern int qemu_plugin_version;
PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv);
PLUGIN_EXPORT int qemu_plugin_version = 1;

/* ---- counting ------------------------------------------------------------------- */
typedef struct Totals {
  uint64_t insns, mve, loop_ends, cycles; /* cycles: the timing model's (core=), else 0 */
} Totals;

static Totals running;      /* advanced inline by every executed instruction */
static Totals at_start;     /* snapshot when the current window opened */
static Totals in_windows;   /* sum over closed windows */
static uint64_t windows;
static bool window_open;
static uint64_t start_addr = UINT64_MAX, stop_addr = UINT64_MAX;
static const char *out_path;
static bool stop_at_exit;  /* stop=exit: the window closes when QEMU exits */
static bool start_at_entry; /* start=entry: the window opens at the first instruction translated (reset) */

static Totals minus(Totals a, Totals b) {
  Totals d = {a.insns - b.insns, a.mve - b.mve, a.loop_ends - b.loop_ends, a.cycles - b.cycles};
  return d;
}

/* ---- timing model (core=m4|m55; timing.h, docs/cycles.md) ------------------------ */
static bool timed, core_m55;
static tm_state tstate;
static tm_params tparams;

enum { MAX_REGIONS = 16 };
typedef struct Region {
  uint64_t lo, hi;  /* [lo, hi) */
  unsigned waits;   /* per access, or per line refill when cached */
  bool cached;
} Region;
static Region regions[MAX_REGIONS];
static size_t n_regions;
static tm_cache dcache;
static bool dcache_set;
static uint64_t window_misses, misses_at_start, window_branches, branches_at_start;

/* Decoded instructions, one per guest address, kept across retranslations. */
enum { DECODED_SLOTS = 1 << 16 };
static tm_insn **decoded;

static tm_insn *decoded_insn(uint32_t pc, uint16_t hw1, uint16_t hw2) {
  size_t i = (size_t)((pc >> 1) * 0x9E3779B1u) & (DECODED_SLOTS - 1);
  for (size_t n = 0; n < DECODED_SLOTS; n++, i = (i + 1) & (DECODED_SLOTS - 1)) {
    if (decoded[i] && decoded[i]->pc == pc) {
      tm_insn fresh = tm_decode(pc, hw1, hw2);
      if (fresh.hw1 != decoded[i]->hw1 || fresh.hw2 != decoded[i]->hw2) *decoded[i] = fresh; /* code rewritten */
      return decoded[i];
    }
    if (!decoded[i]) {
      tm_insn *d = malloc(sizeof *d);
      if (!d) return NULL;
      *d = tm_decode(pc, hw1, hw2);
      decoded[i] = d;
      return d;
    }
  }
  return NULL;
}

static void on_timed_insn(unsigned int vcpu, void *insn) {
  (void)vcpu;
  running.cycles = core_m55 ? tm_m55_step(&tstate, insn) : tm_m4_step(&tstate, insn);
}

static const Region *region_of(uint64_t addr) {
  for (size_t i = 0; i < n_regions; i++)
    if (addr >= regions[i].lo && addr < regions[i].hi) return &regions[i];
  return NULL;
}

static void on_timed_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *unused) {
  (void)vcpu;
  (void)info;
  (void)unused;
  const Region *r = region_of(vaddr);
  if (!r) return;
  if (r->cached && tm_cache_access(&dcache, (uint32_t)vaddr)) return;
  tm_mem_stall(&tstate, core_m55, r->waits);
}

static void write_timing_detail(FILE *f) {
  fprintf(f, "timing_branches_taken=%" PRIu64 "\ntiming_dcache_misses=%" PRIu64 "\n", window_branches,
          window_misses);
}

/* LO-HI:N (hex or decimal addresses, [LO, HI)) */
static bool parse_region(const char *text, bool cached) {
  char *end;
  Region r = {0, 0, 0, cached};
  r.lo = strtoull(text, &end, 0);
  if (end == text || *end != '-') return false;
  text = end + 1;
  r.hi = strtoull(text, &end, 0);
  if (end == text || *end != ':' || r.hi <= r.lo) return false;
  text = end + 1;
  r.waits = (unsigned)strtoul(text, &end, 0);
  if (end == text || *end || n_regions == MAX_REGIONS) return false;
  regions[n_regions++] = r;
  return true;
}

/* BYTES:WAYS:LINE */
static bool parse_dcache(const char *text) {
  unsigned v[3];
  char *end;
  for (int i = 0; i < 3; i++) {
    v[i] = (unsigned)strtoul(text, &end, 0);
    if (end == text || *end != (i < 2 ? ':' : '\0')) return false;
    text = end + 1;
  }
  dcache_set = true;
  return tm_cache_init(&dcache, v[0], v[1], v[2]);
}

/* param=NAME:VALUE overrides one timing parameter (for fitting; docs/cycles.md). */
static bool parse_param(const char *text) {
  static const struct {
    const char *name;
    size_t offset;
  } names[] = {{"branch_refill", offsetof(tm_params, branch_refill)}, {"div_cycles", offsetof(tm_params, div_cycles)},
               {"load_latency", offsetof(tm_params, load_latency)},   {"mul_latency", offsetof(tm_params, mul_latency)},
               {"red_latency", offsetof(tm_params, red_latency)},     {"vmul_latency", offsetof(tm_params, vmul_latency)},
               {"dual_issue", offsetof(tm_params, dual_issue)},       {"gather_rate", offsetof(tm_params, gather_rate)},
               {"load_alu_latency", offsetof(tm_params, load_alu_latency)},
               {"pred_beats", offsetof(tm_params, pred_beats)},       {"fetch_split", offsetof(tm_params, fetch_split)},
               {"it_fold_wide", offsetof(tm_params, it_fold_wide)}};
  const char *colon = strchr(text, ':');
  if (!colon) return false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strlen(names[i].name) == (size_t)(colon - text) && strncmp(text, names[i].name, (size_t)(colon - text)) == 0) {
      char *end;
      unsigned long v = strtoul(colon + 1, &end, 0);
      if (end == colon + 1 || *end) return false;
      if (strcmp(names[i].name, "gather_rate") == 0 && v == 0) return false;
      *(unsigned *)((char *)&tparams + names[i].offset) = (unsigned)v;
      return true;
    }
  }
  return false;
}

/* ---- layers (per operator) ------------------------------------------------------ */
typedef struct Range {
  uint64_t lo, hi; /* [lo, hi) */
} Range;

typedef struct Layer {
  int64_t op;
  uint64_t first, end; /* address of its first instruction, of the one after it */
  Totals counts;
} Layer;

enum { MAX_LAYERS = 4096 };
static enum { NO_LAYERS, LEARN, REPLAY } layer_mode;
static Layer layers[MAX_LAYERS];
static size_t n_layers;        /* learn: opened so far; replay: read from the file */
static size_t current;         /* the open layer, or (replay) the one expected next */
static bool layer_open;
static Totals at_layer_open;
static bool layers_broken;     /* a marker or a boundary out of order, a layer missing */
static Range markers, body, context;
static int64_t starting_op = -1; /* learn: start marker seen, layer not open yet */
static uint64_t body_pc;         /* learn: the module instruction executing */
static Totals at_body_insn;      /* learn: `running` at that instruction */

static void open_layer(uint64_t pc, Totals at) {
  layer_open = true;
  layers[current].first = pc;
  at_layer_open = at;
}

static void close_layer(uint64_t pc, Totals at) {
  layer_open = false;
  layers[current].end = pc;
  layers[current].counts = minus(at, at_layer_open);
}

/* learn: the harness's callback reached marker 2*op + state. */
static void on_marker(unsigned int vcpu, void *index) {
  (void)vcpu;
  int64_t op = (int64_t)((uintptr_t)index / 2);
  bool started = (uintptr_t)index % 2 == 0;
  if (!window_open) return;
  if (started) {
    if (layer_open || starting_op >= 0 || n_layers == MAX_LAYERS) layers_broken = true;
    starting_op = op;
  } else if (layer_open || starting_op >= 0 || n_layers == 0 || layers[n_layers - 1].op != op) {
    layers_broken = true; /* its layer should have closed at the module's callback test */
  }
}

/* learn: every instruction of the module's own code; the first after a start marker opens. */
static void on_body_insn(unsigned int vcpu, void *pc) {
  (void)vcpu;
  if (!window_open) return;
  body_pc = (uintptr_t)pc;
  at_body_insn = running;
  if (starting_op >= 0 && n_layers < MAX_LAYERS) {
    current = n_layers++;
    layers[current].op = starting_op;
    starting_op = -1;
    open_layer(body_pc, at_body_insn);
  }
}

/* learn: an instruction of the module's own code that touches the model context closes the layer
 * before that instruction (its snapshot was taken when it started). */
static void on_body_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *unused) {
  (void)vcpu;
  (void)info;
  (void)unused;
  if (layer_open && vaddr >= context.lo && vaddr < context.hi) close_layer(body_pc, at_body_insn);
}

/* replay: the first or end address of a layer; the expected one opens or closes
 * (both at once for a layer of no instructions). */
static void on_boundary(unsigned int vcpu, void *pc_) {
  (void)vcpu;
  uint64_t pc = (uintptr_t)pc_;
  if (!window_open || current >= n_layers) return;
  if (!layer_open && pc == layers[current].first) open_layer(pc, running);
  if (layer_open && pc == layers[current].end) {
    close_layer(pc, running);
    current++;
  }
}

static bool is_boundary(uint64_t pc) {
  for (size_t i = 0; i < n_layers; i++)
    if (layers[i].first == pc || layers[i].end == pc) return true;
  return false;
}

static bool layers_complete(void) {
  if (layers_broken || layer_open || starting_op >= 0) return false;
  return layer_mode == LEARN || current == n_layers;
}

static void write_layers(FILE *f) {
  uint64_t inside = 0, inside_cycles = 0;
  for (size_t i = 0; i < n_layers; i++) inside += layers[i].counts.insns, inside_cycles += layers[i].counts.cycles;
  fprintf(f, "layers=%zu\nlayers_complete=%d\nlayers_outside=%" PRIu64 "\n", n_layers, layers_complete(),
          in_windows.insns - inside);
  if (timed) fprintf(f, "layers_outside_cycles=%" PRIu64 "\n", in_windows.cycles - inside_cycles);
  for (size_t i = 0; i < n_layers; i++) {
    const Layer *l = &layers[i];
    fprintf(f, "layer.%zu=%" PRId64 " 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64, i, l->op,
            l->first, l->end, l->counts.insns, l->counts.mve, l->counts.loop_ends);
    if (timed) fprintf(f, " %" PRIu64, l->counts.cycles); /* 7th field, with core= only */
    fputc('\n', f);
  }
}

/* replay: the layers of a learn run's output, in order ("layer.I=OP FIRST END ..."). */
static bool read_layers(const char *path) {
  char line[256];
  FILE *f = fopen(path, "r");
  if (!f) return false;
  while (fgets(line, sizeof line, f) && n_layers < MAX_LAYERS) {
    Layer *l = &layers[n_layers];
    char *p = strchr(line, '=');
    if (strncmp(line, "layer.", 6) != 0 || !p) continue;
    l->op = strtoll(p + 1, &p, 10);
    l->first = strtoull(p, &p, 0);
    l->end = strtoull(p, &p, 0);
    n_layers++;
  }
  fclose(f);
  return true;
}

/* ---- profile (per instruction address) ------------------------------------------ */
enum { PROFILE_SLOTS = 1 << 17 }; /* open addressing; far more than any image's instructions */
typedef struct ProfileSlot {
  uint64_t pc, count; /* pc 0: empty (the vector table, never executed) */
} ProfileSlot;
static ProfileSlot *profile;
static const char *profile_path;

/* The counter of pc, claimed on first translation; NULL when the table is full. */
static uint64_t *profile_counter(uint64_t pc) {
  size_t i = (size_t)((pc >> 1) * 0x9E3779B1u) & (PROFILE_SLOTS - 1);
  for (size_t n = 0; n < PROFILE_SLOTS; n++, i = (i + 1) & (PROFILE_SLOTS - 1)) {
    if (profile[i].pc == pc) return &profile[i].count;
    if (profile[i].pc == 0) {
      profile[i].pc = pc;
      return &profile[i].count;
    }
  }
  return NULL;
}

static int by_pc(const void *a, const void *b) {
  const ProfileSlot *x = a, *y = b;
  return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static void write_profile(void) {
  FILE *f = profile_path ? fopen(profile_path, "w") : NULL;
  if (!f) return;
  qsort(profile, PROFILE_SLOTS, sizeof *profile, by_pc);
  for (size_t i = 0; i < PROFILE_SLOTS; i++)
    if (profile[i].pc && profile[i].count) fprintf(f, "0x%" PRIx64 " %" PRIu64 "\n", profile[i].pc, profile[i].count);
  fclose(f);
}

static void write_counts(void) {
  FILE *f = out_path ? fopen(out_path, "w") : NULL;
  if (!f) return;
  fprintf(f, "insns=%" PRIu64 "\n", in_windows.insns);
  if (timed) fprintf(f, "cycles=%" PRIu64 "\ncore=%s\n", in_windows.cycles, core_m55 ? "m55" : "m4");
  fprintf(f, "mve=%" PRIu64 "\nloop_ends=%" PRIu64 "\nwindows=%" PRIu64 "\n", in_windows.mve, in_windows.loop_ends,
          windows);
  if (timed) write_timing_detail(f);
  if (layer_mode != NO_LAYERS) write_layers(f);
  fclose(f);
}

/* Both markers see `running` at the same point of their own instruction (the
 * inline additions and this callback are ordered the same way for every
 * instruction), so stop - start is exactly the instructions in [start, stop). */
static void on_start(unsigned int vcpu, void *unused) {
  (void)vcpu;
  (void)unused;
  if (window_open) return;
  at_start = running;
  misses_at_start = dcache.misses;
  branches_at_start = tstate.branches_taken;
  window_open = true;
}

static void on_stop(unsigned int vcpu, void *unused) {
  (void)vcpu;
  (void)unused;
  if (!window_open) return;
  Totals d = minus(running, at_start);
  in_windows.insns += d.insns;
  in_windows.mve += d.mve;
  in_windows.loop_ends += d.loop_ends;
  in_windows.cycles += d.cycles;
  windows++;
  window_misses += dcache.misses - misses_at_start;
  window_branches += tstate.branches_taken - branches_at_start;
  if (layer_open || starting_op >= 0) layers_broken = true; /* a layer must end inside model_run */
  window_open = false;
  write_counts();
}

static void instrument_learn(struct qemu_plugin_insn *insn, uint64_t pc) {
  if (pc >= markers.lo && pc < markers.hi)
    qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
                                           (void *)(uintptr_t)((pc - markers.lo) / 2));
  if (pc >= body.lo && pc < body.hi) {
    qemu_plugin_register_vcpu_insn_exec_cb(insn, on_body_insn, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)pc);
    qemu_plugin_register_vcpu_mem_cb(insn, on_body_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
  }
}

/* The model's callback comes before the window and layer callbacks of the same instruction
 * (QEMU runs an instruction's callbacks in registration order), so that those snapshot
 * `running.cycles` at the issue of the instruction: a window's cycles are those from the
 * issue of its start instruction to the issue of its stop instruction. */
static void instrument_timing(struct qemu_plugin_insn *insn, uint64_t pc, const uint8_t *b) {
  uint16_t hw1 = (uint16_t)(b[0] | b[1] << 8), hw2 = 0;
  if (qemu_plugin_insn_size(insn) >= 4) hw2 = (uint16_t)(b[2] | b[3] << 8);
  tm_insn *d = decoded_insn((uint32_t)pc, hw1, hw2);
  if (!d) return;
  qemu_plugin_register_vcpu_insn_exec_cb(insn, on_timed_insn, QEMU_PLUGIN_CB_NO_REGS, d);
  bool memory = d->cls == TC_LOAD || d->cls == TC_STORE || d->cls == TC_LOADD || d->cls == TC_STORED ||
                d->cls == TC_LDM || d->cls == TC_STM || d->cls == TC_VFP_LOAD || d->cls == TC_VFP_STORE ||
                d->cls == TC_VFP_LDM || d->cls == TC_VFP_STM || d->cls == TC_MVE_LOAD || d->cls == TC_MVE_STORE ||
                (d->cls == TC_BRANCH && (d->flags & TF_WRITES_PC));
  if (memory && n_regions)
    qemu_plugin_register_vcpu_mem_cb(insn, on_timed_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t pc = qemu_plugin_insn_vaddr(insn);
    const uint8_t *b = qemu_plugin_insn_data(insn);
    uint16_t hw1 = (uint16_t)(b[0] | b[1] << 8);
    qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &running.insns, 1);
    if (timed) instrument_timing(insn, pc, b);
    uint64_t *slot = profile && pc ? profile_counter(pc) : NULL;
    if (slot) qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, slot, 1);
    /* Not `size == 4`: QEMU 7.2 appends the next instruction's first halfword to the
     * bytes of one that ends in the last 3 bytes of a 1 KiB page (it peeks whether the
     * next one crosses the page), so a 32-bit instruction there has 6 bytes. */
    if (qemu_plugin_insn_size(insn) >= 4 && thumb_is_32bit(hw1)) {
      uint16_t hw2 = (uint16_t)(b[2] | b[3] << 8);
      if (thumb_is_mve(hw1, hw2))
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &running.mve, 1);
      if (thumb_is_loop_end(hw1, hw2))
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &running.loop_ends, 1);
    }
    if (start_at_entry && i == 0) {
      start_addr = pc; /* the first translation block is the reset code */
      start_at_entry = false;
    }
    if (pc == start_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
    if (pc == stop_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop, QEMU_PLUGIN_CB_NO_REGS, NULL);
    if (layer_mode == LEARN) instrument_learn(insn, pc);
    if (layer_mode == REPLAY && is_boundary(pc))
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_boundary, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)pc);
  }
}

static void on_exit_qemu(qemu_plugin_id_t id, void *unused) {
  (void)id;
  (void)unused;
  if (stop_at_exit) on_stop(0, NULL);
  write_counts();
  write_profile();
}

/* Addresses may come straight from nm: the Thumb bit is dropped. */
static bool parse_address(const char *text, uint64_t *addr) {
  char *end;
  unsigned long long v = strtoull(text, &end, 0);
  if (end == text || *end) return false;
  *addr = v & ~1ull;
  return true;
}

/* ADDR:BYTES (nm -S gives both) -> [ADDR, ADDR + BYTES); turns layer learning on. */
static bool parse_range(const char *text, Range *r) {
  char *end;
  unsigned long long lo = strtoull(text, &end, 0), size;
  if (end == text || *end != ':') return false;
  text = end + 1;
  size = strtoull(text, &end, 0);
  if (end == text || *end) return false;
  r->lo = lo & ~1ull;
  r->hi = r->lo + size;
  layer_mode = LEARN;
  return true;
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
  (void)info;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    bool ok = true;
    if (strcmp(a, "start=entry") == 0) start_at_entry = true, start_addr = UINT64_MAX - 1;
    else if (strncmp(a, "start=", 6) == 0) ok = parse_address(a + 6, &start_addr);
    else if (strcmp(a, "stop=exit") == 0) stop_at_exit = true, stop_addr = UINT64_MAX - 1;
    else if (strncmp(a, "stop=", 5) == 0) ok = parse_address(a + 5, &stop_addr);
    else if (strncmp(a, "out=", 4) == 0) out_path = a + 4;
    else if (strncmp(a, "profile=", 8) == 0) {
      profile_path = a + 8;
      ok = (profile = calloc(PROFILE_SLOTS, sizeof *profile)) != NULL;
    }
    else if (strncmp(a, "markers=", 8) == 0) ok = parse_range(a + 8, &markers);
    else if (strncmp(a, "body=", 5) == 0) ok = parse_range(a + 5, &body);
    else if (strncmp(a, "context=", 8) == 0) ok = parse_range(a + 8, &context);
    else if (strncmp(a, "layers=", 7) == 0) {
      ok = read_layers(a + 7);
      layer_mode = REPLAY;
    } else if (strncmp(a, "core=", 5) == 0) {
      timed = true;
      core_m55 = strcmp(a + 5, "m55") == 0;
      ok = core_m55 || strcmp(a + 5, "m4") == 0;
      tparams = core_m55 ? tm_m55_defaults() : tm_m4_defaults();
    } else if (strncmp(a, "waits=", 6) == 0) ok = parse_region(a + 6, false);
    else if (strncmp(a, "cached=", 7) == 0) ok = parse_region(a + 7, true);
    else if (strncmp(a, "dcache=", 7) == 0) ok = parse_dcache(a + 7);
    else if (strncmp(a, "param=", 6) == 0) ok = timed && parse_param(a + 6);
    else ok = false;
    if (!ok) {
      fprintf(stderr, "insn_count: bad argument '%s' (expected start=ADDR, stop=ADDR, out=FILE; "
                      "profile=FILE; markers=, body=, context=ADDR:BYTES or layers=FILE; "
                      "core=m4|m55 then waits=LO-HI:N, cached=LO-HI:N, dcache=BYTES:WAYS:LINE, "
                      "param=NAME:VALUE)\n", a);
      return -1;
    }
  }
  if (start_addr == UINT64_MAX || stop_addr == UINT64_MAX || !out_path) {
    fprintf(stderr, "insn_count: start=, stop= and out= are required\n");
    return -1;
  }
  if (layer_mode == LEARN && (markers.hi == 0 || body.hi == 0 || context.hi == 0)) {
    fprintf(stderr, "insn_count: learning layers needs markers=, body= and context=\n");
    return -1;
  }
  if ((n_regions || dcache_set) && !timed) {
    fprintf(stderr, "insn_count: waits=, cached= and dcache= need core=\n");
    return -1;
  }
  if (timed) {
    bool any_cached = false;
    for (size_t i = 0; i < n_regions; i++) any_cached |= regions[i].cached;
    if (any_cached && !dcache_set && !tm_cache_init(&dcache, 65536, 4, 32)) return -1;
    if (!(decoded = calloc(DECODED_SLOTS, sizeof *decoded))) return -1;
    tm_init(&tstate, tparams);
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit_qemu, NULL);
  return 0;
}
