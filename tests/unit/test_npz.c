/* The .npz reader (src/config/npz.c): stored and deflated members, dtype/shape parsing,
 * and hostile archives (every truncation, every single-byte change) never crash. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/npz.h"
#include "unit.h"

typedef struct ZipOut {
  uint8_t b[4096];
  size_t n;
} ZipOut;

static void put16(ZipOut *z, uint32_t v) {
  z->b[z->n++] = (uint8_t)v;
  z->b[z->n++] = (uint8_t)(v >> 8);
}
static void put32(ZipOut *z, uint32_t v) {
  put16(z, v & 0xFFFFu);
  put16(z, v >> 16);
}
static void put(ZipOut *z, const void *p, size_t n) {
  memcpy(z->b + z->n, p, n);
  z->n += n;
}

/* A .npy image: header dict padded to 64 bytes, then the data. */
static size_t make_npy(uint8_t *out, const char *descr, const char *shape, const void *data, size_t n) {
  char dict[128];
  int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape);
  size_t hlen = (size_t)len + 1;
  while ((10 + hlen) % 64) hlen++;
  memcpy(out, "\x93NUMPY\x01\x00", 8);
  out[8] = (uint8_t)hlen, out[9] = (uint8_t)(hlen >> 8);
  memset(out + 10, ' ', hlen);
  memcpy(out + 10, dict, (size_t)len);
  out[10 + hlen - 1] = '\n';
  memcpy(out + 10 + hlen, data, n);
  return 10 + hlen + n;
}

/* One-member zip archive; deflate: raw deflate through zlib. */
static void make_zip(ZipOut *z, const char *name, const uint8_t *member, size_t n, bool use_deflate) {
  uint8_t packed[2048];
  size_t psize = n;
  const uint8_t *data = member;
  if (use_deflate) {
    z_stream s;
    memset(&s, 0, sizeof s);
    deflateInit2(&s, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    s.next_in = (Bytef *)(uintptr_t)member;
    s.avail_in = (uInt)n;
    s.next_out = packed;
    s.avail_out = sizeof packed;
    deflate(&s, Z_FINISH);
    psize = sizeof packed - s.avail_out;
    deflateEnd(&s);
    data = packed;
  }
  uint32_t crc = (uint32_t)crc32(0L, member, (uInt)n);
  size_t nlen = strlen(name);
  z->n = 0;
  put32(z, 0x04034b50u), put16(z, 20), put16(z, 0), put16(z, use_deflate ? 8 : 0), put32(z, 0);
  put32(z, crc), put32(z, (uint32_t)psize), put32(z, (uint32_t)n), put16(z, (uint32_t)nlen), put16(z, 0);
  put(z, name, nlen);
  put(z, data, psize);
  size_t cd = z->n;
  put32(z, 0x02014b50u), put16(z, 20), put16(z, 20), put16(z, 0), put16(z, use_deflate ? 8 : 0), put32(z, 0);
  put32(z, crc), put32(z, (uint32_t)psize), put32(z, (uint32_t)n), put16(z, (uint32_t)nlen), put16(z, 0);
  put16(z, 0), put16(z, 0), put16(z, 0), put32(z, 0), put32(z, 0);
  put(z, name, nlen);
  size_t cd_size = z->n - cd;
  put32(z, 0x06054b50u), put16(z, 0), put16(z, 0), put16(z, 1), put16(z, 1);
  put32(z, (uint32_t)cd_size), put32(z, (uint32_t)cd), put16(z, 0);
}

static const int16_t values[6] = {1, -2, 300, -400, 5, 32767};

static bool parse(const ZipOut *z, Npz *npz) {
  Arena a;
  arena_init(&a);
  Diag d;
  diag_init(&d, "test.npz");
  bool ok = npz_parse(z->b, z->n, "test.npz", &a, npz, &d);
  if (ok) { /* copy what the checks read before the arena goes */
    const NpzArray *arr = npz_find(npz, "output_0");
    ok = arr && arr->itemsize == 2 && arr->elems == 6 && memcmp(arr->data, values, sizeof values) == 0;
  }
  arena_free(&a);
  return ok;
}

static void test_npz_members(UnitState *u) {
  uint8_t npy[512];
  size_t n = make_npy(npy, "<i2", "(2, 3)", values, sizeof values);
  for (int use_deflate = 0; use_deflate < 2; use_deflate++) {
    ZipOut z;
    make_zip(&z, "output_0.npy", npy, n, use_deflate);
    Arena a;
    arena_init(&a);
    Diag d;
    diag_init(&d, "t");
    Npz *npz = calloc(1, sizeof *npz);
    CHECK(u, npz && npz_parse(z.b, z.n, "t.npz", &a, npz, &d));
    const NpzArray *arr = npz ? npz_find(npz, "output_0") : NULL;
    CHECK(u, arr && arr->kind == 'i' && arr->itemsize == 2 && arr->rank == 2 && arr->shape[0] == 2 &&
                 arr->shape[1] == 3 && arr->elems == 6 && memcmp(arr->data, values, sizeof values) == 0);
    free(npz);
    arena_free(&a);
  }
}

static void test_npz_refuses(UnitState *u) {
  static const struct {
    const char *descr, *shape;
  } bad[] = {{">i2", "(6,)"}, {"<c8", "(6,)"}, {"<i2", "(7,)"}, {"<i2", "(99999999999999,)"}, {"<i2", "6"}};
  Npz *npz = calloc(1, sizeof *npz);
  for (size_t i = 0; npz && i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t npy[512];
    size_t n = make_npy(npy, bad[i].descr, bad[i].shape, values, sizeof values);
    ZipOut z;
    make_zip(&z, "output_0.npy", npy, n, false);
    CHECK(u, !parse(&z, npz));
  }
  free(npz);
}

/* Hostile archives: every prefix and every single-byte change of a valid one is either
 * parsed or refused, never read out of bounds (make test-asan runs this under ASan). */
static void test_npz_hostile(UnitState *u) {
  uint8_t npy[512];
  size_t n = make_npy(npy, "<i2", "(6,)", values, sizeof values);
  Npz *npz = calloc(1, sizeof *npz);
  for (int use_deflate = 0; npz && use_deflate < 2; use_deflate++) {
    ZipOut good, z;
    make_zip(&good, "output_0.npy", npy, n, use_deflate);
    CHECK(u, parse(&good, npz));
    int accepted = 0;
    for (size_t len = 0; len < good.n; len++) {
      z = good;
      z.n = len;
      accepted += parse(&z, npz);
    }
    CHECK(u, accepted == 0);
    for (size_t at = 0; at < good.n; at++) {
      z = good;
      z.b[at] ^= 0xA5;
      (void)parse(&z, npz); /* either outcome, no crash */
    }
  }
  free(npz);
}

/* A deflated member may not claim more than deflate's 1032:1 (no allocation for it). */
static void test_npz_bomb_claim(UnitState *u) {
  uint8_t npy[512];
  size_t n = make_npy(npy, "<i2", "(6,)", values, sizeof values);
  ZipOut z;
  make_zip(&z, "output_0.npy", npy, n, true);
  size_t cd = z.n - 22 - 46 - strlen("output_0.npy");
  const uint32_t claim = 200u << 20;
  for (int k = 0; k < 4; k++) z.b[22 + k] = (uint8_t)(claim >> (8 * k)), z.b[cd + 24 + k] = (uint8_t)(claim >> (8 * k));
  Arena a;
  arena_init(&a);
  Diag d;
  diag_init(&d, "t");
  Npz *npz = calloc(1, sizeof *npz);
  CHECK(u, npz && !npz_parse(z.b, z.n, "t.npz", &a, npz, &d) && strstr(d.msg, "more than deflate allows"));
  CHECK(u, a.used_total < (1u << 20));
  free(npz);
  arena_free(&a);
}

const UnitTest npz_tests[] = {
    {"npz_bomb_claim", test_npz_bomb_claim},
    {"npz_members", test_npz_members},
    {"npz_refuses", test_npz_refuses},
    {"npz_hostile", test_npz_hostile},
    {NULL, NULL},
};
