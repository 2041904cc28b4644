/* --profile: the module reads a cycle counter around every operator into
 * <prefix>_profile[] and prints it with <prefix>_profile_print (README, "Per-operator
 * cycles"). Nothing here is emitted without the option, so a module without it is
 * byte-identical to one from a compiler that has no such option. */
#include <string.h>

#include "emit_internal.h"

bool profile_rows(const Model *m, const Lowered *low, Arena *a, ProfileRows *pr) {
  memset(pr, 0, sizeof *pr);
  pr->max_op = -1;
  for (int k = 0; k < m->n_nodes; k++)
    if (m->nodes[k].index > pr->max_op) pr->max_op = m->nodes[k].index;
  const size_t n_ops = (size_t)(pr->max_op + 1);
  const char **name_of = arena_calloc(a, n_ops + 1, sizeof *name_of); /* by operator index; NULL: no code */
  pr->ops = arena_calloc(a, n_ops + 1, sizeof *pr->ops);
  pr->names = arena_calloc(a, n_ops + 1, sizeof *pr->names);
  if (!name_of || !pr->ops || !pr->names) return false;
  /* the callback's operators: those whose layer runs code (the bands of one operator share a row) */
  for (int k = 0; k < m->n_nodes; k++)
    if (low[k].fn && m->nodes[k].index >= 0) name_of[m->nodes[k].index] = m->nodes[k].opname;
  for (size_t op = 0; op < n_ops; op++)
    if (name_of[op]) {
      pr->ops[pr->n] = (int32_t)op;
      pr->names[pr->n++] = name_of[op];
    }
  return true;
}

/* An operator name as a C string literal's contents (a custom operator's name is the model's). */
static void append_name(StrBuf *c, const char *name) {
  for (const char *q = name ? name : "?"; *q; q++) {
    const char ch = *q;
    const bool plain = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                       ch == ' ' || ch == '\'';
    sb_printf(c, "%c", plain ? ch : '?');
  }
}

void emit_profile_header(const Module *mod, const ProfileRows *pr, StrBuf *h) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  sb_printf(h, "/* ---- per-operator cycles (--profile; README, \"Per-operator cycles\") ----\n"
               " * init enables the core's cycle counter after checking that it is there: DWT CYCCNT on\n"
               " * Armv7-M and Armv8-M Mainline (Cortex-M4), the PMU cycle counter on Armv8.1-M\n"
               " * (Cortex-M55), clock() elsewhere (the host: processor-time ticks, CLOCKS_PER_SEC a\n"
               " * second). init must run privileged on a Cortex-M. Define %s_PROFILE_CYCLES() (an\n"
               " * expression giving a uint32_t count) to use another clock. Every run fills\n"
               " * %s_profile[]: a row per operator that runs code (as the callback reports them), by\n"
               " * operator index, with the cycles between the operator's start and end (outside the\n"
               " * callback). Without a counter (QEMU has none) the cycles stay 0 and\n"
               " * %s_profile_counter is \"none\". */\n",
            P, pf, pf);
  sb_printf(h, "typedef struct {\n  int32_t op;        /* the model's operator index (the callback's op_id) */\n"
               "  const char *name;  /* its operator, e.g. \"CONV_2D\" */\n"
               "  uint32_t cycles;   /* in the last run */\n} %s_profile_entry_t;\n",
            pf);
  sb_printf(h, "#define %s_PROFILE_ENTRIES %d\nextern %s_profile_entry_t %s_profile[%d]; /* %s */\n", P, pr->n, pf, pf,
            pr->n ? pr->n : 1, pr->n ? "by operator index" : "no operator runs code: one unused row");
  sb_printf(h, "/* Cycles of the whole last run (%s_model_run's entry to its return, callbacks included). */\n"
               "extern uint32_t %s_profile_run_cycles;\n"
               "/* After init: \"DWT CYCCNT\", \"PMU CCNTR\", \"clock()\", \"%s_PROFILE_CYCLES()\" or \"none\". */\n"
               "extern const char *%s_profile_counter;\n",
            pf, pf, P, pf);
  sb_printf(h, "/* Writes the last run's table through print, one line per call, each ending in a\n"
               " * newline (fputs to a stream or a UART write fits): a title, a column header, a row per\n"
               " * entry (operator index, name, cycles, share of the operators' sum), the sum, the run. */\n"
               "void %s_profile_print(void (*print)(const char *line));\n\n",
            pf);
}

/* The counter: chosen by the compiler's target macros, so one host module profiles on any core. */
static void emit_counter(const Module *mod, StrBuf *c) {
  const char *P = mod->PREFIX;
  sb_printf(c, "#if defined(%s_PROFILE_CYCLES)\n#define %s_PROFILE_COUNTER \"%s_PROFILE_CYCLES()\"\n"
               "static int %s_profile_start_counter(void) { return 1; }\n",
            P, P, P, mod->prefix);
  sb_printf(c, "#elif defined(__ARM_ARCH_8_1M_MAIN__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_7M__) || \\\n"
               "    defined(__ARM_ARCH_8M_MAIN__)\n"
               "/* DEMCR.TRCENA (bit 24) powers the DWT and the PMU; a core without them (QEMU) reads 0 back. */\n"
               "#define %s_DEMCR (*(volatile uint32_t *)0xE000EDFCu)\n", P);
  sb_printf(c, "#if defined(__ARM_ARCH_8_1M_MAIN__)\n"
               "/* Armv8.1-M PMU: PMU_TYPE.CC (bit 14) says the cycle counter is there, PMU_CTRL.E (bit 0)\n"
               " * enables the PMU, PMU_CNTENSET.C (bit 31) the cycle counter PMU_CCNTR. */\n"
               "#define %s_PMU_CCNTR (*(volatile uint32_t *)0xE000307Cu)\n"
               "#define %s_PMU_CNTENSET (*(volatile uint32_t *)0xE0003C00u)\n"
               "#define %s_PMU_CTRL (*(volatile uint32_t *)0xE0003E04u)\n"
               "#define %s_PMU_TYPE (*(volatile uint32_t *)0xE0003E08u)\n"
               "#define %s_PROFILE_COUNTER \"PMU CCNTR\"\n#define %s_PROFILE_CYCLES() %s_PMU_CCNTR\n",
            P, P, P, P, P, P, P);
  sb_printf(c, "static int %s_profile_start_counter(void) {\n  %s_DEMCR |= 1u << 24;\n"
               "  if ((%s_DEMCR & (1u << 24)) == 0u || (%s_PMU_TYPE & (1u << 14)) == 0u) return 0;\n"
               "  %s_PMU_CTRL |= 1u;\n  %s_PMU_CNTENSET = 1u << 31;\n  return (%s_PMU_CNTENSET & (1u << 31)) != 0u;\n}\n",
            mod->prefix, P, P, P, P, P, P);
  sb_printf(c, "#else\n"
               "/* DWT: DWT_CTRL.NOCYCCNT (bit 25) says there is no CYCCNT, DWT_CTRL.CYCCNTENA (bit 0) starts it. */\n"
               "#define %s_DWT_CTRL (*(volatile uint32_t *)0xE0001000u)\n"
               "#define %s_DWT_CYCCNT (*(volatile uint32_t *)0xE0001004u)\n"
               "#define %s_PROFILE_COUNTER \"DWT CYCCNT\"\n#define %s_PROFILE_CYCLES() %s_DWT_CYCCNT\n",
            P, P, P, P, P);
  sb_printf(c, "static int %s_profile_start_counter(void) {\n  %s_DEMCR |= 1u << 24;\n"
               "  if ((%s_DEMCR & (1u << 24)) == 0u || (%s_DWT_CTRL & (1u << 25)) != 0u) return 0;\n"
               "  %s_DWT_CTRL |= 1u;\n  return (%s_DWT_CTRL & 1u) != 0u;\n}\n#endif\n",
            mod->prefix, P, P, P, P, P);
  sb_printf(c, "#elif defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'\n"
               "/* Armv6-M, Armv8-M Baseline: no cycle counter */\n#define %s_PROFILE_COUNTER \"none\"\n"
               "#define %s_PROFILE_CYCLES() 0u\nstatic int %s_profile_start_counter(void) { return 0; }\n",
            P, P, mod->prefix);
  sb_printf(c, "#else\n#include <time.h>\n#define %s_PROFILE_COUNTER \"clock()\"\n"
               "#define %s_PROFILE_CYCLES() ((uint32_t)clock())\n"
               "static int %s_profile_start_counter(void) { return clock() != (clock_t)-1; }\n#endif\n\n",
            P, P, mod->prefix);
}

static void emit_table(const Module *mod, const ProfileRows *pr, StrBuf *c) {
  const char *pf = mod->prefix;
  sb_printf(c, "%s_profile_entry_t %s_profile[%d] = {\n", pf, pf, pr->n ? pr->n : 1);
  for (int i = 0; i < pr->n; i++) {
    sb_printf(c, "  {%d, \"", (int)pr->ops[i]);
    append_name(c, pr->names[i]);
    sb_append(c, "\", 0u},\n");
  }
  if (!pr->n) sb_append(c, "  {-1, \"\", 0u}, /* no operator runs code */\n");
  sb_append(c, "};\n");
  /* operator index -> row: the callback's op_id is sparse (folded PADs, dropped QUANTIZEs) */
  const int n_ops = pr->max_op + 1;
  sb_printf(c, "static const int32_t %s_profile_row[%d] = {", pf, n_ops > 0 ? n_ops : 1);
  for (int op = 0, row = 0; op < (n_ops > 0 ? n_ops : 1); op++) {
    const bool has = row < pr->n && pr->ops[row] == op;
    sb_printf(c, "%s%s%d", op ? "," : "", op % 16 ? " " : "\n  ", has ? row : -1);
    row += has;
  }
  sb_printf(c, "\n};\nuint32_t %s_profile_run_cycles;\nconst char *%s_profile_counter = \"none\";\n"
               "static int %s_profile_on;\nstatic uint32_t %s_profile_t0, %s_profile_run_t0;\n\n",
            pf, pf, pf, pf, pf);
}

static void emit_runtime(const Module *mod, const ProfileRows *pr, StrBuf *c) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  const int n_ops = pr->max_op + 1;
  sb_printf(c, "static void %s_profile_enable(void) {\n  %s_profile_on = %s_profile_start_counter();\n"
               "  %s_profile_counter = %s_profile_on ? %s_PROFILE_COUNTER : \"none\";\n}\n\n",
            pf, pf, pf, pf, pf, P);
  sb_printf(c, "static uint32_t %s_profile_now(void) { return %s_profile_on ? (uint32_t)(%s_PROFILE_CYCLES()) : 0u; }\n\n",
            pf, pf, P);
  sb_printf(c, "static void %s_profile_begin_run(void) {\n  int32_t i;\n  for (i = 0; i < %s_PROFILE_ENTRIES; i++) %s_profile[i].cycles = 0u;\n"
               "  %s_profile_run_t0 = %s_profile_now();\n}\n\n",
            pf, P, pf, pf, pf);
  sb_printf(c, "static void %s_profile_end_run(void) { %s_profile_run_cycles = %s_profile_now() - %s_profile_run_t0; }\n\n",
            pf, pf, pf, pf);
  /* the counter wraps at 2^32: unsigned differences stay right across one wrap */
  sb_printf(c, "static void %s_profile_stop(int32_t op) {\n  const uint32_t t = %s_profile_now();\n"
               "  if (op >= 0 && op < %d && %s_profile_row[op] >= 0) %s_profile[%s_profile_row[op]].cycles += t - %s_profile_t0;\n}\n\n",
            pf, pf, n_ops > 0 ? n_ops : 1, pf, pf, pf, pf);
}

/* The print hook formats integers itself: no stdio on a bare-metal target. */
static void emit_print(const Module *mod, StrBuf *c) {
  const char *pf = mod->prefix, *P = mod->PREFIX;
  sb_printf(c, "/* Appends s to line[*n], at most to column cap (no NUL). */\n"
               "static void %s_profile_put(char *line, int *n, int cap, const char *s) {\n"
               "  while (*s && *n < cap) line[(*n)++] = *s++;\n}\n\n",
            pf);
  sb_printf(c, "/* Appends v right-aligned in width columns (a dot before the last `point` digits). */\n"
               "static void %s_profile_num(char *line, int *n, uint64_t v, int width, int point) {\n"
               "  char d[24];\n  int k = 0;\n"
               "  do {\n    if (point > 0 && k == point) d[k++] = '.';\n    d[k++] = (char)('0' + (int)(v %% 10u));\n    v /= 10u;\n"
               "  } while (v != 0u || (point > 0 && k <= point));\n"
               "  while (width-- > k) line[(*n)++] = ' ';\n  while (k > 0) line[(*n)++] = d[--k];\n}\n\n",
            pf);
  sb_printf(c, "static void %s_profile_line(void (*print)(const char *line), int32_t op, const char *name, uint64_t cycles,\n"
               "                             uint64_t sum) {\n"
               "  char line[96];\n  int n = 0;\n"
               "  if (op >= 0) %s_profile_num(line, &n, (uint64_t)op, 5, 0);\n  else %s_profile_put(line, &n, 5, \"     \");\n"
               "  line[n++] = ' ';\n  %s_profile_put(line, &n, 38, name);\n  while (n < 38) line[n++] = ' ';\n"
               "  %s_profile_num(line, &n, cycles, 12, 0);\n"
               "  if (sum != 0u) %s_profile_num(line, &n, (cycles * 1000u + sum / 2u) / sum, 7, 1);\n"
               "  line[n++] = '\\n';\n  line[n] = '\\0';\n  print(line);\n}\n\n",
            pf, pf, pf, pf, pf, pf);
  sb_printf(c, "void %s_profile_print(void (*print)(const char *line)) {\n"
               "  char line[96];\n  int n = 0;\n  int32_t i;\n  uint64_t sum = 0u;\n"
               "  for (i = 0; i < %s_PROFILE_ENTRIES; i++) sum += %s_profile[i].cycles;\n"
               "  %s_profile_put(line, &n, 80, \"%s profile, counter \");\n"
               "  %s_profile_put(line, &n, 94, %s_profile_counter);\n  line[n++] = '\\n';\n  line[n] = '\\0';\n  print(line);\n",
            pf, P, pf, pf, pf, pf, pf);
  /* the column titles, at the widths of the rows (_profile_line) */
  sb_printf(c, "  print(\"%5s %-32s%12s%7s\\n\");\n", "op", "operator", "cycles", "%");
  sb_printf(c, "  for (i = 0; i < %s_PROFILE_ENTRIES; i++)\n"
               "    %s_profile_line(print, %s_profile[i].op, %s_profile[i].name, %s_profile[i].cycles, sum);\n"
               "  %s_profile_line(print, -1, \"operators\", sum, 0u);\n"
               "  %s_profile_line(print, -1, \"run\", %s_profile_run_cycles, 0u);\n}\n\n",
            P, pf, pf, pf, pf, pf, pf, pf);
}

void emit_profile_source(const Module *mod, const ProfileRows *pr, StrBuf *c) {
  sb_append(c, "/* ---- per-operator cycles (--profile, see the header) ---- */\n");
  emit_counter(mod, c);
  emit_table(mod, pr, c);
  emit_runtime(mod, pr, c);
  emit_print(mod, c);
}
