/* probe: a stand-in module with the tinyaot API whose probe_model_run executes a known
 * number of instructions (probe_run.S), to check the harness and the instruction counter. */
#ifndef PROBE_MODEL_H
#define PROBE_MODEL_H
#include <stdint.h>

typedef struct {
  void *data;
  uint32_t size;
} probe_tensor_t;

typedef struct {
  probe_tensor_t inputs[1];
  probe_tensor_t outputs[1];
  void *callback;
  void *user_data;
} probe_model_context_t;

int32_t probe_model_init(probe_model_context_t *ctx);
int32_t probe_model_run(probe_model_context_t *ctx);

#endif
