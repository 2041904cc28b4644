/* load: .tflite bytes -> IR. Every offset, length, union tag and string is checked;
 * resource limits are enforced before anything is allocated from a size in the file. */
#ifndef TINYAOT_LOADER_H
#define TINYAOT_LOADER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../ir/ir.h"

/* Documented limits (docs/robustness.md). */
#define LOAD_MAX_FILE_BYTES ((size_t)1 << 30)   /* 1 GiB model file */
#define LOAD_MAX_TENSOR_BYTES ((size_t)1 << 30) /* 1 GiB per tensor */
#define LOAD_MAX_OPERATORS 100000
#define LOAD_MAX_TENSORS 1000000
#define LOAD_MAX_OP_IO 1024                     /* inputs/outputs per operator */

/* Reads a whole file into the arena. */
bool load_file(Arena *a, const char *path, const uint8_t **data, size_t *size, Diag *d);
/* Parses a model held in memory (the bytes must outlive the Model). */
bool load_model(Arena *a, const char *path, const uint8_t *data, size_t size, Model *m, Diag *d);

#endif
