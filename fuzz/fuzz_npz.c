/* libFuzzer target: .npz bytes (test.golden_data) -> arrays or a one-line error.
 * Seeds: fuzz/seeds/fuzz_npz/ (stored and deflated archives of a corpus case, written by
 * tests/helia_apps/make_npz.py). Every parsed array's bytes must lie where the reader
 * says (read in full here, so ASan sees any overrun), and its size must match its shape. */
#include <stdint.h>
#include <string.h>

#include "common/npz.h"
#include "fuzz_common.h"

static Npz npz; /* 256 array slots: too large for the fuzzer's stack budget */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Arena a;
  arena_init(&a);
  Diag d;
  diag_init(&d, "fuzz.npz");
  if (npz_parse(data, size, "fuzz.npz", &a, &npz, &d)) {
    for (int i = 0; i < npz.n; i++) {
      const NpzArray *arr = &npz.arrays[i];
      size_t elems = 1;
      for (int k = 0; k < arr->rank; k++) elems *= (size_t)arr->shape[k];
      FUZZ_CHECK(elems == arr->elems && arr->name && npz_find(&npz, arr->name) == arr);
      unsigned sum = 0;
      for (size_t b = 0; b < arr->elems * (size_t)arr->itemsize; b++) sum += arr->data[b];
      FUZZ_CHECK(sum != 0xFFFFFFFFu || arr->elems > 0);
    }
  } else {
    fuzz_check_message(&d);
  }
  /* deflate expands up to 1032:1, so the model bound (10x) does not apply: 1100x + fixed */
  FUZZ_CHECK(a.used_total <= FUZZ_MEMORY_FIXED + 1100 * size);
  arena_free(&a);
  return 0;
}
