/* Target platforms and their memories. */
#ifndef TINYAOT_PLATFORM_H
#define TINYAOT_PLATFORM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum MemType { MEM_ITCM, MEM_DTCM, MEM_SRAM, MEM_MRAM, MEM_PSRAM, MEM_COUNT, MEM_NONE = -1 } MemType;

typedef struct Memory {
  bool present;
  uint64_t size;      /* bytes available to the model */
  bool readable, writable, executable;
  bool non_volatile;  /* survives reset: holds the image (flash/MRAM) */
} Memory;

enum { PLATFORM_MAX_NAME = 48 };

typedef struct Platform {
  char name[PLATFORM_MAX_NAME];
  char cpu[24];                 /* "cortex-m4", "cortex-m55", "host" */
  bool dsp, mve;
  Memory mem[MEM_COUNT];
  MemType fast_order[MEM_COUNT]; /* preferred memories for activations, fastest first */
  int n_fast;
  MemType constant_home;        /* where the image keeps constants by default */
  uint32_t alignment;           /* minimum arena alignment */
  uint32_t clock_hz;            /* core clock that estimated cycles are turned into time at (the part's
                                   highest published clock; docs/memory.md "Clocks") */
  uint32_t lp_clock_hz;         /* the part's low-power-mode clock, for reference (0: none published) */
} Platform;

const char *mem_name(MemType m);            /* "DTCM" */
MemType mem_parse(const char *s);           /* case-insensitive; MEM_NONE if unknown */
bool platform_builtin(const char *name, Platform *out);
int platform_builtin_count(void);
const char *platform_builtin_name(int i);
/* Fills the defaults of a custom platform's unset fields (a clock: the generic core's). */
void platform_finish(Platform *p);
/* Milliseconds that `cycles` take at the platform's clock (0 without one). */
double platform_cycles_to_ms(const Platform *p, double cycles);

#endif
