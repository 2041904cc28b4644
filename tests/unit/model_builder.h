/* Builds small .tflite models in memory for tests (a RESHAPE chain by default),
 * with knobs to corrupt them in specific ways. */
#ifndef TINYAOT_MODEL_BUILDER_H
#define TINYAOT_MODEL_BUILDER_H
#include <stddef.h>
#include <stdint.h>

typedef struct BuildSpec {
  const char *ident;        /* default "TFL3" */
  uint32_t version;         /* default 3 */
  int32_t in_dims[4];       /* input shape (rank 2), default {1, 8} */
  int32_t opcode_index;     /* default 0 */
  int32_t op_input;         /* default 0 */
  int32_t op_output;        /* default 1 */
  int32_t builtin;          /* default 22 (RESHAPE) */
  float scale;              /* default 0.5 */
  int n_scales;             /* default 1 */
  int const_bytes;          /* bytes in the constant buffer of tensor 2 (default 8 = correct) */
  int two_subgraphs;
} BuildSpec;

BuildSpec build_default(void);
/* Returns malloc'ed bytes; *len set. */
uint8_t *build_model(const BuildSpec *s, size_t *len);

#endif
