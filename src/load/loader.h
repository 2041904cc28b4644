/* load: .tflite bytes -> IR. Every offset, length, union tag and string is checked;
 * resource limits are enforced before anything is allocated from a size in the file. */
#ifndef TINYAOT_LOADER_H
#define TINYAOT_LOADER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../ir/ir.h"

/* Documented limits (docs/robustness.md). The counts keep the planner's and the
 * emitter's worst case within the time and memory bounds; real models for
 * microcontrollers stay far below them. */
#define LOAD_MAX_FILE_BYTES ((size_t)1 << 30)   /* 1 GiB model file */
#define LOAD_MAX_TENSOR_BYTES ((size_t)1 << 30) /* 1 GiB per tensor */
#define LOAD_MAX_OPERATORS 8192
#define LOAD_MAX_TENSORS 32768
#define LOAD_MAX_SUBGRAPHS 256
#define LOAD_MAX_OP_IO IR_MAX_NODE_IO           /* inputs/outputs per operator */
#define LOAD_MAX_QUANT_PARAMS (1 << 20)         /* per-channel scales of one tensor */
/* FlatBuffers lets vectors and strings be shared: the loader refuses a file whose
 * operator lists, quantization vectors, names and constant buffers add up to more
 * bytes than the file holds, so that what it copies stays proportional to the file. */

/* Reads a whole file into the arena. */
bool load_file(Arena *a, const char *path, const uint8_t **data, size_t *size, Diag *d);
/* Parses a model held in memory (the bytes must outlive the Model). */
bool load_model(Arena *a, const char *path, const uint8_t *data, size_t size, Model *m, Diag *d);
/* TensorType INT4: n values packed two per byte, element 2i in the low nibble of byte i
 * and 2i+1 in the high nibble, each sign-extended from 4 bits; out[n] receives them. */
void load_unpack_int4(const uint8_t *packed, int64_t n, int8_t *out);

#endif
