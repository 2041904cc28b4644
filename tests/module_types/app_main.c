/* A minimal application for the module-type builds: one init and one inference through
 * the module's public API, linked into a program the way each ecosystem would. The
 * header and prefix come from the build: -DMODEL_HEADER="x_model.h" -DMODEL_PREFIX=x. */
#include MODEL_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define API(name) CAT(MODEL_PREFIX, name)

int main(void) {
  static API(_model_context_t) ctx;
  if (API(_model_init)(&ctx) != 0) return 1;
  return API(_model_run)(&ctx) != 0;
}
