/* A deterministic clock for tests/suites/profile.sh: forced into the module's sources
 * (-include), it defines the module's clock hook PROF_PROFILE_CYCLES(), so every read of
 * the counter advances it by PROF_STEP and each operator measures exactly PROF_STEP per
 * band (one read when it starts, one when it ends: the callback runs outside). */
#ifndef PROF_STEP_CLOCK_H
#define PROF_STEP_CLOCK_H
#include <stdint.h>
#define PROF_STEP 1000u
#define PROF_PROFILE_CYCLES() prof_step_clock()
static inline uint32_t prof_step_clock(void) {
  static uint32_t now;
  return now += PROF_STEP;
}
#endif
