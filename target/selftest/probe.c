/* probe: init binds the single input and output to one 16-byte buffer (output = input). */
#include "probe_model.h"

static uint32_t probe_buffer[4];

int32_t probe_model_init(probe_model_context_t *ctx) {
  ctx->inputs[0].data = probe_buffer;
  ctx->inputs[0].size = sizeof probe_buffer;
  ctx->outputs[0] = ctx->inputs[0];
  ctx->callback = 0;
  ctx->user_data = 0;
  return 0;
}
