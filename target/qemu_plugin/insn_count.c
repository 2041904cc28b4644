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

/* ---- QEMU plugin API, version 1 (the subset this plugin calls) ------------------ */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; /* only passed through */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

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

#define PLUGIN_EXPORT __attribute__((visibility("default")))
PLUGIN_EXPORT extern int qemu_plugin_version;
PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv);
PLUGIN_EXPORT int qemu_plugin_version = 1;

/* ---- counting ------------------------------------------------------------------- */
typedef struct Totals {
  uint64_t insns, mve, loop_ends;
} Totals;

static Totals running;      /* advanced inline by every executed instruction */
static Totals at_start;     /* snapshot when the current window opened */
static Totals in_windows;   /* sum over closed windows */
static uint64_t windows;
static bool window_open;
static uint64_t start_addr = UINT64_MAX, stop_addr = UINT64_MAX;
static const char *out_path;

static void write_counts(void) {
  FILE *f = out_path ? fopen(out_path, "w") : NULL;
  if (!f) return;
  fprintf(f, "insns=%" PRIu64 "\nmve=%" PRIu64 "\nloop_ends=%" PRIu64 "\nwindows=%" PRIu64 "\n", in_windows.insns,
          in_windows.mve, in_windows.loop_ends, windows);
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
  window_open = true;
}

static void on_stop(unsigned int vcpu, void *unused) {
  (void)vcpu;
  (void)unused;
  if (!window_open) return;
  in_windows.insns += running.insns - at_start.insns;
  in_windows.mve += running.mve - at_start.mve;
  in_windows.loop_ends += running.loop_ends - at_start.loop_ends;
  windows++;
  window_open = false;
  write_counts();
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t pc = qemu_plugin_insn_vaddr(insn);
    qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &running.insns, 1);
    if (qemu_plugin_insn_size(insn) == 4) {
      const uint8_t *b = qemu_plugin_insn_data(insn);
      uint16_t hw1 = (uint16_t)(b[0] | b[1] << 8), hw2 = (uint16_t)(b[2] | b[3] << 8);
      if (thumb_is_mve(hw1, hw2))
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &running.mve, 1);
      if (thumb_is_loop_end(hw1, hw2))
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &running.loop_ends, 1);
    }
    if (pc == start_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
    if (pc == stop_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop, QEMU_PLUGIN_CB_NO_REGS, NULL);
  }
}

static void on_exit_qemu(qemu_plugin_id_t id, void *unused) {
  (void)id;
  (void)unused;
  write_counts();
}

/* Addresses may come straight from nm: the Thumb bit is dropped. */
static bool parse_address(const char *text, uint64_t *addr) {
  char *end;
  unsigned long long v = strtoull(text, &end, 0);
  if (end == text || *end) return false;
  *addr = v & ~1ull;
  return true;
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
  (void)info;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    bool ok = true;
    if (strncmp(a, "start=", 6) == 0) ok = parse_address(a + 6, &start_addr);
    else if (strncmp(a, "stop=", 5) == 0) ok = parse_address(a + 5, &stop_addr);
    else if (strncmp(a, "out=", 4) == 0) out_path = a + 4;
    else ok = false;
    if (!ok) {
      fprintf(stderr, "insn_count: bad argument '%s' (expected start=ADDR, stop=ADDR, out=FILE)\n", a);
      return -1;
    }
  }
  if (start_addr == UINT64_MAX || stop_addr == UINT64_MAX || !out_path) {
    fprintf(stderr, "insn_count: start=, stop= and out= are required\n");
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit_qemu, NULL);
  return 0;
}
