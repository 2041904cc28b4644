/* libFuzzer target: YAML configuration text -> Config or a one-line error (issue 7).
 * fuzz-seeds: yaml
 * fuzz-options: -close_fd_mask=2
 * (stderr closed: the parser warns about every unknown key; sanitizer reports still show,
 * run the target on an artifact to see a failed check's message.)
 * A parsed configuration is then checked against every built-in platform and its own
 * custom platform, as `convert --config` does. */
#include <stdint.h>
#include <string.h>

#include "config/config.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Arena a;
  arena_init(&a);
  Config c;
  config_defaults(&c);
  Diag d;
  diag_init(&d, "fuzz.yaml");
  if (config_parse(&a, "fuzz.yaml", (const char *)data, size, &c, &d)) {
    for (int i = 0; i < platform_builtin_count(); i++) {
      Platform p;
      if (!platform_builtin(platform_builtin_name(i), &p)) continue;
      Diag pd;
      diag_init(&pd, "fuzz.yaml");
      if (!config_check_rules(&c, &p, &pd)) fuzz_check_message(&pd);
    }
    if (c.has_custom_platform) {
      Diag pd;
      diag_init(&pd, "fuzz.yaml");
      if (!config_check_rules(&c, &c.custom_platform, &pd)) fuzz_check_message(&pd);
    }
  } else {
    fuzz_check_message(&d);
  }
  fuzz_check_memory(a.used_total, size, "config arena");
  arena_free(&a);
  return 0;
}
