/* Built-in platforms. Sizes are what a model may use, from the vendors' data
 * sheets (Ambiq Apollo family) and the QEMU machines' memory maps (generic cores). */
#include "platform.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define KiB(x) ((uint64_t)(x) * 1024u)
#define MiB(x) ((uint64_t)(x) * 1024u * 1024u)

static const char *const mem_names[MEM_COUNT] = {"ITCM", "DTCM", "SRAM", "MRAM", "PSRAM"};

const char *mem_name(MemType m) { return m >= 0 && m < MEM_COUNT ? mem_names[m] : "NONE"; }

MemType mem_parse(const char *s) {
  for (int i = 0; i < MEM_COUNT; i++)
    if (strcasecmp(s, mem_names[i]) == 0) return (MemType)i;
  return MEM_NONE;
}

static Memory ram(uint64_t size, bool exec) { return (Memory){true, size, true, true, exec, false}; }
static Memory nvm(uint64_t size) { return (Memory){true, size, true, false, true, true}; }

typedef struct Builtin {
  const char *name, *cpu;
  bool dsp, mve;
  uint64_t itcm, dtcm, sram, mram, psram;
  uint32_t mhz, lp_mhz; /* highest and low-power-mode core clocks */
} Builtin;

/* Apollo3 Blue Plus: 2 MB flash (the image memory, typed MRAM here), 768 KB SRAM of
 * which 64 KB TCM. Apollo4 Plus: 2 MB MRAM, 384 KB TCM + 2.5 MB SRAM, PSRAM on the
 * EVB. Apollo4 Lite: 2 MB MRAM, 384 KB TCM + 1 MB SRAM. Apollo510: 4 MB MRAM, 256 KB
 * ITCM, 512 KB DTCM, 3 MB SRAM, PSRAM on the EVB. Generic cores follow QEMU's
 * mps2-an386 (Cortex-M4) and mps3-an547 (Cortex-M55) maps.
 * heliaAOT's board names (its platform.name values, the neuralSPOT/NSX board list) map
 * to their SoC: apollo4p_blue_kbr_evb and apollo4p_blue_kxr_evb carry an Apollo4 Blue
 * Plus (the Apollo4 Plus memories), apollo4l_blue_evb an Apollo4 Blue Lite (the Apollo4
 * Lite memories), apollo510b_evb an Apollo510B (the Apollo510 memories). PSRAM is listed
 * only where the EVB is documented to carry it: the Blue boards' BSPs declare none.
 * Clocks, from Ambiq's product pages and data sheets: Apollo3 Blue Plus 48 MHz, 96 MHz
 * with TurboSPOT (burst mode); Apollo4 Plus / Lite (and their Blue parts) 192 MHz in
 * high-performance mode, 96 MHz in low-power mode; Apollo510 (and Apollo510B) 250 MHz in
 * high-performance mode, 96 MHz in low-power mode. The generic cores take the Ambiq part
 * of their core (Cortex-M4: Apollo4, Cortex-M55: Apollo510); the host is estimated as a
 * Cortex-M4 (cost_model.h). */
static const Builtin builtins[] = {
    {"host", "host", false, false, MiB(64), MiB(256), MiB(1024), MiB(1024), MiB(1024), 192, 96},
    {"cortex-m4", "cortex-m4", true, false, 0, 0, MiB(4), MiB(4), MiB(16), 192, 96},
    {"cortex-m55", "cortex-m55", true, true, KiB(512), KiB(512), MiB(2), MiB(8), MiB(16), 250, 96},
    {"apollo3p_evb", "cortex-m4", true, false, 0, KiB(64), KiB(704), MiB(2), 0, 96, 48},
    {"apollo4p_evb", "cortex-m4", true, false, 0, KiB(384), KiB(2560), MiB(2), MiB(16), 192, 96},
    {"apollo4l_evb", "cortex-m4", true, false, 0, KiB(384), MiB(1), MiB(2), 0, 192, 96},
    {"apollo510_evb", "cortex-m55", true, true, KiB(256), KiB(512), MiB(3), MiB(4), MiB(32), 250, 96},
    {"apollo4p_blue_kbr_evb", "cortex-m4", true, false, 0, KiB(384), KiB(2560), MiB(2), 0, 192, 96},
    {"apollo4p_blue_kxr_evb", "cortex-m4", true, false, 0, KiB(384), KiB(2560), MiB(2), 0, 192, 96},
    {"apollo4l_blue_evb", "cortex-m4", true, false, 0, KiB(384), MiB(1), MiB(2), 0, 192, 96},
    {"apollo510b_evb", "cortex-m55", true, true, KiB(256), KiB(512), MiB(3), MiB(4), 0, 250, 96},
};

int platform_builtin_count(void) { return (int)(sizeof builtins / sizeof builtins[0]); }
const char *platform_builtin_name(int i) { return i >= 0 && i < platform_builtin_count() ? builtins[i].name : NULL; }

static const Builtin *find_builtin(const char *name) {
  for (int i = 0; i < platform_builtin_count(); i++)
    if (!strcmp(builtins[i].name, name)) return &builtins[i];
  return NULL;
}

void platform_finish(Platform *p) {
  p->n_fast = 0;
  static const MemType speed[] = {MEM_DTCM, MEM_SRAM, MEM_PSRAM, MEM_ITCM};
  for (size_t i = 0; i < sizeof speed / sizeof speed[0]; i++)
    if (p->mem[speed[i]].present && p->mem[speed[i]].writable) p->fast_order[p->n_fast++] = speed[i];
  p->constant_home = MEM_NONE;
  static const MemType homes[] = {MEM_MRAM, MEM_PSRAM, MEM_SRAM, MEM_DTCM};
  for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++)
    if (p->mem[homes[i]].present && p->mem[homes[i]].non_volatile) {
      p->constant_home = homes[i];
      break;
    }
  if (p->constant_home == MEM_NONE)
    for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++)
      if (p->mem[homes[i]].present) {
        p->constant_home = homes[i];
        break;
      }
  if (p->alignment < 4) p->alignment = 16;
  if (p->clock_hz == 0) { /* a custom platform without a clock: its generic core's */
    const Builtin *g = find_builtin(p->mve || !strcmp(p->cpu, "cortex-m55") ? "cortex-m55" : "cortex-m4");
    p->clock_hz = g->mhz * 1000000u;
    p->lp_clock_hz = g->lp_mhz * 1000000u;
  }
}

double platform_cycles_to_ms(const Platform *p, double cycles) {
  return p->clock_hz ? cycles * 1000.0 / (double)p->clock_hz : 0.0;
}

bool platform_builtin(const char *name, Platform *out) {
  const Builtin *b = find_builtin(name);
  if (!b) return false;
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", b->name);
  snprintf(out->cpu, sizeof out->cpu, "%s", b->cpu);
  out->dsp = b->dsp;
  out->mve = b->mve;
  if (b->itcm) out->mem[MEM_ITCM] = ram(b->itcm, true);
  if (b->dtcm) out->mem[MEM_DTCM] = ram(b->dtcm, false);
  if (b->sram) out->mem[MEM_SRAM] = ram(b->sram, true);
  if (b->mram) out->mem[MEM_MRAM] = nvm(b->mram);
  if (b->psram) out->mem[MEM_PSRAM] = ram(b->psram, true);
  out->alignment = 16;
  out->clock_hz = b->mhz * 1000000u;
  out->lp_clock_hz = b->lp_mhz * 1000000u;
  platform_finish(out);
  return true;
}
