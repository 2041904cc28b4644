/* Stateful models in a shared-scratch group (tests/suites/multi_model.sh): kws,
 * keyword_svdf_int16in and mnist_lstm_int8 converted together with --shared-scratch; after
 * the three inits, kws runs first (over the whole shared scratch), then each stateful model
 * runs its golden case 0 (computed by TFLite Micro from the reset state), kws between and
 * after; all exact. (These two models' case-0 outputs do not change on a repeated run, so
 * the suite also checks with nm that their state arenas are their own objects.) Host
 * program (golden_state.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "keyword_svdf_int16in_model.h"
#include "kws_model.h"
#include "mnist_lstm_int8_model.h"

extern const uint8_t kws_in0[], kws_out0[], svdf_in0[], svdf_out0[], lstm_in0[], lstm_out0[];
extern const uint32_t kws_in0_size, kws_out0_size, svdf_in0_size, svdf_out0_size, lstm_in0_size, lstm_out0_size;

static kws_model_context_t kws;
static keyword_svdf_int16in_model_context_t svdf;
static mnist_lstm_int8_model_context_t lstm;

#define RUN_ONE(P, ctx, G)                                                                            \
  do {                                                                                                \
    if (ctx.inputs[0].size != G##_in0_size || ctx.outputs[0].size != G##_out0_size) {                 \
      printf(#P ": sizes differ from the golden case\n");                                             \
      return 1;                                                                                       \
    }                                                                                                 \
    memcpy(ctx.inputs[0].data, G##_in0, G##_in0_size);                                                \
    if (P##_model_run(&ctx) != 0 || memcmp(ctx.outputs[0].data, G##_out0, G##_out0_size) != 0) {      \
      printf(#P ": run failed or output differs from the golden\n");                                  \
      return 1;                                                                                       \
    }                                                                                                 \
  } while (0)

int main(void) {
  if (kws_model_init(&kws) != 0 || keyword_svdf_int16in_model_init(&svdf) != 0 || mnist_lstm_int8_model_init(&lstm) != 0) {
    printf("init failed\n");
    return 1;
  }
  RUN_ONE(kws, kws, kws);
  RUN_ONE(keyword_svdf_int16in, svdf, svdf);
  RUN_ONE(kws, kws, kws);
  RUN_ONE(mnist_lstm_int8, lstm, lstm);
  RUN_ONE(kws, kws, kws);
  printf("state: all exact\n");
  return 0;
}
