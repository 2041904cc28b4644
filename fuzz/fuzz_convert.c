/* libFuzzer target: .tflite bytes -> the whole module in memory (load, transform,
 * resolve, plan, emit, export; nothing is written to disk) or a one-line error (issue 7).
 * fuzz-seeds: tflite
 * Besides the sanitizers, it checks that a failure has a one-line message, that a
 * success produced files, and the memory bound of docs/robustness.md. The input's length
 * picks the platform (host, Cortex-M4, Cortex-M55), so that the compile-time planners of
 * the DSP and MVE kernel tiers (re-laid weights, border classes, tables) are fuzzed too. */
#include <stdint.h>
#include <string.h>

#include "cli/pipeline.h"
#include "fuzz_common.h"

static size_t module_bytes(const Module *mod) {
  size_t total = 0;
  for (int i = 0; i < mod->n_files; i++) total += mod->files[i].text.cap;
  return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ConvertOptions opt = {0};
  opt.model_path = "fuzz.tflite";
  opt.model_bytes = data;
  opt.model_size = size;
  opt.name = "fuzz";
  static const char *const platforms[3] = {"host", "cortex-m4", "cortex-m55"};
  opt.platform = platforms[size % 3];
  Compilation c;
  memset(&c, 0, sizeof c);
  arena_init(&c.arena);
  Diag d;
  diag_init(&d, opt.model_path);
  if (pipeline_compile(&c, &opt, &d))
    FUZZ_CHECK(c.module.n_files > 0);
  else
    fuzz_check_message(&d);
  fuzz_check_memory(c.arena.used_total + module_bytes(&c.module), size, "compiler");
  pipeline_free(&c);
  return 0;
}
