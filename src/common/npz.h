/* Reader for NumPy .npz archives (a zip of .npy arrays), as heliaAOT's test.golden_data
 * uses: stored or deflated members (inflated with zlib), .npy format 1.0-3.0, little-endian
 * or byte-sized dtypes, C order. The input is hostile: every offset and size is checked and
 * every failure is one line naming the file and the member. */
#ifndef TINYAOT_NPZ_H
#define TINYAOT_NPZ_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"

enum { NPZ_MAX_RANK = 8, NPZ_MAX_ARRAYS = 256 };

typedef struct NpzArray {
  const char *name;   /* member name without ".npy", e.g. "input_0" */
  char kind;          /* 'i' signed, 'u' unsigned, 'f' float, 'b' bool */
  int itemsize;       /* bytes per element: 1, 2, 4 or 8 */
  int rank;
  int64_t shape[NPZ_MAX_RANK];
  size_t elems;
  const uint8_t *data; /* elems * itemsize little-endian bytes (arena-owned) */
} NpzArray;

typedef struct Npz {
  int n;
  NpzArray arrays[NPZ_MAX_ARRAYS];
} Npz;

/* Parses an archive held in memory; `path` only names it in errors. */
bool npz_parse(const uint8_t *bytes, size_t size, const char *path, Arena *a, Npz *out, Diag *d);
/* Reads and parses a file (at most 256 MiB). */
bool npz_read(const char *path, Arena *a, Npz *out, Diag *d);
/* The array called `name`, or NULL. */
const NpzArray *npz_find(const Npz *z, const char *name);

#endif
