/* tinyaot platforms: the built-in platforms, their cores and memories. */
#include <stdio.h>
#include <string.h>

#include "../platform/platform.h"
#include "commands.h"

static void size_text(char *buf, size_t cap, uint64_t bytes) {
  if (bytes == 0) snprintf(buf, cap, "-");
  else if (bytes % (1024 * 1024) == 0) snprintf(buf, cap, "%llu MiB", (unsigned long long)(bytes >> 20));
  else snprintf(buf, cap, "%llu KiB", (unsigned long long)(bytes >> 10));
}

int cmd_platforms(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    puts("usage: tinyaot platforms\n\nLists the built-in platforms: core, capabilities and the size of each memory a\n"
         "model may use. Activations go to the first writable memory with room in the order\n"
         "DTCM, SRAM, PSRAM, ITCM; constants stay in the non-volatile memory (MRAM) unless a\n"
         "rule says otherwise. MHz: the core clock estimated cycles are turned into\n"
         "milliseconds at (the part's highest published clock), LP: its low-power-mode\n"
         "clock (docs/memory.md \"Clocks\"). A config file may define a custom platform.");
    return 0;
  }
  printf("%-21s %-11s %-9s", "platform", "core", "features");
  for (int m = 0; m < MEM_COUNT; m++) printf(" %9s", mem_name((MemType)m));
  printf(" %5s %5s\n", "MHz", "LP");
  for (int i = 0; i < platform_builtin_count(); i++) {
    Platform p;
    platform_builtin(platform_builtin_name(i), &p);
    char feat[16];
    snprintf(feat, sizeof feat, "%s%s%s", p.dsp ? "dsp" : "", p.dsp && p.mve ? "," : "", p.mve ? "mve" : "");
    printf("%-21s %-11s %-9s", p.name, p.cpu, feat[0] ? feat : "-");
    for (int m = 0; m < MEM_COUNT; m++) {
      char sz[24];
      size_text(sz, sizeof sz, p.mem[m].present ? p.mem[m].size : 0);
      printf(" %9s", sz);
    }
    printf(" %5u %5u\n", (unsigned)(p.clock_hz / 1000000u), (unsigned)(p.lp_clock_hz / 1000000u));
  }
  return 0;
}
