/* Heap accounting (convert --stats, the memory bound of docs/robustness.md): the arena
 * and text buffers count what they hold, and measuring text with a counting buffer
 * gives exactly the length that writing it produces. */
#include <math.h>
#include <string.h>

#include "common/arena.h"
#include "common/strbuf.h"
#include "emit/emit_values.h"
#include "unit.h"

static void arena_counts_its_blocks(UnitState *u) {
  Arena a;
  arena_init(&a);
  CHECK(u, a.heap.current == 0 && a.heap.peak == 0);
  CHECK(u, arena_alloc(&a, 100) != NULL);
  const size_t first = a.heap.current;
  CHECK(u, first > 100 && first < 8 * 1024); /* a small first block */
  CHECK(u, arena_alloc(&a, 1 << 20) != NULL);  /* a block of its own... */
  CHECK(u, a.heap.current >= first + (1 << 20) && a.heap.current < first + (1 << 20) + 1024);
  CHECK(u, arena_alloc(&a, 100) != NULL);      /* ...behind the current one, which still has room */
  CHECK(u, a.heap.current < first + (1 << 20) + 1024);
  const size_t peak = a.heap.peak;
  arena_free(&a);
  CHECK(u, a.heap.current == 0 && a.heap.peak == peak);
}

static void strbuf_counts_and_reserves(UnitState *u) {
  HeapStats h = {0, 0};
  StrBuf sb;
  sb_init_heap(&sb, &h);
  sb_append(&sb, "hello");
  CHECK(u, h.current == sb.cap && sb.cap >= 6);
  CHECK(u, sb_reserve_exact(&sb, 1000) && sb.cap == 5 + 1000 + 1);
  CHECK(u, h.current == sb.cap && h.peak >= 256 + 1006); /* old and new counted together while growing */
  char *z = sb_extend(&sb, 3);
  CHECK(u, z && z[0] == 0 && sb.len == 8 && strlen(sb_cstr(&sb)) == 5);
  sb_free(&sb);
  CHECK(u, h.current == 0);
  StrBuf count;
  sb_init_counting(&count);
  sb_printf(&count, "%d-%s", 42, "x");
  sb_append(&count, "abc");
  CHECK(u, count.len == 7 && count.data == NULL && !sb_reserve_exact(&count, 1));
}

/* emit_le_values / emit_bytes into a counting buffer add exactly what they write. */
static bool same_length(const uint8_t *bytes, size_t elems, TensorType type, size_t es) {
  StrBuf real, count;
  sb_init(&real);
  sb_init_counting(&count);
  emit_le_values(&real, bytes, elems, type);
  emit_le_values(&count, bytes, elems, type);
  bool ok = real.len == count.len;
  sb_free(&real);
  sb_init(&real);
  emit_bytes(&real, bytes, elems * es);
  sb_init_counting(&count);
  emit_bytes(&count, bytes, elems * es);
  ok = ok && real.len == count.len;
  sb_free(&real);
  return ok;
}

static void counting_matches_writing(UnitState *u) {
  uint8_t bytes[8 * 40];
  for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)(i * 37u + 11u);
  const TensorType types[] = {TT_INT8, TT_UINT8, TT_INT16, TT_INT32, TT_INT64, TT_FLOAT32};
  const size_t sizes[] = {1, 1, 2, 4, 8, 4};
  for (size_t t = 0; t < 6; t++)
    for (size_t n = 0; n <= 33; n += 11) CHECK(u, same_length(bytes, n, types[t], sizes[t]));
  const int64_t ints[] = {0, -1, 9, 10, -10, 127, -128, INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1, INT64_MIN,
                          INT64_MAX, -1234567890123LL};
  uint8_t le[sizeof ints];
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
    for (int b = 0; b < 8; b++) le[8 * i + (size_t)b] = (uint8_t)((uint64_t)ints[i] >> (8 * b));
  CHECK(u, same_length(le, sizeof ints / sizeof ints[0], TT_INT64, 8));
  const float floats[] = {0.0f, -0.0f, 1.0f, -1.5f, 0.1f, 1e-45f, -1e-40f, 3.4e38f, 1024.0f, 0.75f, INFINITY,
                          -INFINITY, NAN, 1e-38f};
  uint8_t lf[sizeof floats];
  for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
    uint32_t x;
    memcpy(&x, &floats[i], 4);
    for (int b = 0; b < 4; b++) lf[4 * i + (size_t)b] = (uint8_t)(x >> (8 * b));
  }
  CHECK(u, same_length(lf, sizeof floats / sizeof floats[0], TT_FLOAT32, 4));
  int32_t i32[] = {INT32_MIN, INT32_MAX, -7, 0};
  uint8_t l32[sizeof i32];
  for (size_t i = 0; i < 4; i++)
    for (int b = 0; b < 4; b++) l32[4 * i + (size_t)b] = (uint8_t)((uint32_t)i32[i] >> (8 * b));
  CHECK(u, same_length(l32, 4, TT_INT32, 4));
}

const UnitTest heap_tests[] = {
    {"heap/arena_counts_its_blocks", arena_counts_its_blocks},
    {"heap/strbuf_counts_and_reserves", strbuf_counts_and_reserves},
    {"heap/counting_matches_writing", counting_matches_writing},
    {NULL, NULL},
};
