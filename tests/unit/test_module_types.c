/* Module types (src/export): the type names, the archive paths, and the zip writer read
 * back independently here (central directory, local headers, CRC-32 and raw inflate with
 * zlib) against the bytes the folder writer would write. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, access */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "export/export.h"
#include "export/export_glue.h"
#include "unit.h"

static void test_type_names(UnitState *u) {
  ModuleType t = MODULE_TYPE_CMAKE;
  CHECK(u, export_module_type(NULL, &t) && t == MODULE_TYPE_DEFAULT);
  CHECK(u, export_module_type("neuralspot", &t) && t == MODULE_TYPE_NEURALSPOT);
  CHECK(u, export_module_type("zephyr", &t) && t == MODULE_TYPE_ZEPHYR);
  CHECK(u, export_module_type("cmake", &t) && t == MODULE_TYPE_CMAKE);
  CHECK(u, export_module_type("nsx", &t) && t == MODULE_TYPE_NSX);
  CHECK(u, export_module_type("CMSIS_PACK", &t) && t == MODULE_TYPE_CMSIS_PACK); /* as the config accepts it */
  CHECK(u, !export_module_type("arduino", &t));
  CHECK(u, !export_module_type("", &t));
  CHECK(u, !export_module_type("cmsis", &t));
}

static void test_archive_paths(UnitState *u) {
  CHECK(u, export_is_archive("out/x.pack"));
  CHECK(u, export_is_archive("x.zip"));
  CHECK(u, !export_is_archive("out/x"));
  CHECK(u, !export_is_archive("out.pack/x"));
  CHECK(u, !export_is_archive("x.packs"));
  CHECK(u, !export_is_archive(NULL));
}

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | rd16(p + 2) << 16; }

static uint8_t *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *b = malloc(1 << 20);
  *n = b ? fread(b, 1, 1 << 20, f) : 0;
  fclose(f);
  return b;
}

/* Inflates a raw deflate stream of `packed` bytes into exactly `size` bytes. */
static bool inflate_raw(const uint8_t *in, size_t packed, uint8_t *out, size_t size) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK) return false;
  z.next_in = (uint8_t *)in;
  z.avail_in = (uInt)packed;
  z.next_out = out;
  z.avail_out = (uInt)size;
  int rc = inflate(&z, Z_FINISH);
  bool ok = rc == Z_STREAM_END && z.total_out == size;
  inflateEnd(&z);
  return ok;
}

/* Checks member i of the archive `zip` (central entry at *cd) against the module file. */
static void check_member(UnitState *u, const uint8_t *zip, size_t n, size_t *cd, const ModuleFile *f,
                         const char *prefix, int *deflated, int *stored) {
  const uint8_t *c = zip + *cd;
  CHECK(u, *cd + 46 <= n && rd32(c) == 0x02014b50u);
  if (*cd + 46 > n || rd32(c) != 0x02014b50u) return;
  uint32_t method = rd16(c + 10), crc = rd32(c + 16), packed = rd32(c + 20), size = rd32(c + 24);
  uint32_t name_len = rd16(c + 28), extra = rd16(c + 30), comment = rd16(c + 32), off = rd32(c + 42);
  char want[512];
  snprintf(want, sizeof want, "%s%s", prefix, f->path);
  CHECK(u, name_len == strlen(want) && memcmp(c + 46, want, name_len) == 0);
  *cd += 46 + name_len + extra + comment;
  size_t len = 0;
  char *bytes = export_stamped(f, &len);
  CHECK(u, bytes != NULL && size == len);
  CHECK(u, crc == (uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)bytes, (uInt)len));
  const uint8_t *l = zip + off;
  CHECK(u, off + 30 <= n && rd32(l) == 0x04034b50u && rd16(l + 8) == method && rd32(l + 14) == crc);
  const uint8_t *data = l + 30 + rd16(l + 26) + rd16(l + 28);
  CHECK(u, (size_t)(data - zip) + packed <= n);
  uint8_t *out = malloc(len + 1);
  if (method == 8) {
    (*deflated)++;
    CHECK(u, out && inflate_raw(data, packed, out, len) && memcmp(out, bytes, len) == 0);
  } else {
    (*stored)++;
    CHECK(u, method == 0 && packed == len && memcmp(data, bytes, len) == 0);
  }
  free(out);
  free(bytes);
}

/* Every member read back: names (<name>/ in a .zip), stored or deflated bytes equal to the
 * folder's, CRC-32 right, the end record's count and directory offset consistent. */
static void test_zip_round_trip(UnitState *u) {
  Arena a;
  arena_init(&a);
  Module mod;
  memset(&mod, 0, sizeof mod);
  mod.name = "rt";
  StrBuf *big = module_add_file(&mod, &a, "src/rt_model.c");
  for (int i = 0; big && i < 400; i++) sb_printf(big, "static const int table_%d[] = {%d, %d, %d};\n", i, i, i * 3, i * 7);
  StrBuf *tiny = module_add_file(&mod, &a, "README.md");
  if (tiny) sb_append(tiny, "x");
  module_add_file(&mod, &a, "includes-api/empty.h");
  StrBuf *bin = module_add_file(&mod, &a, "data/rt_const_mram.bin");
  for (int i = 0; bin && i < 256; i++) {
    char byte = (char)(i * 151 + 7);
    sb_appendn(bin, &byte, 1);
  }
  char path[] = "/tmp/tinyaot-unit-zip-XXXXXX";
  int fd = mkstemp(path);
  CHECK(u, fd >= 0);
  if (fd >= 0) close(fd);
  char zpath[64];
  snprintf(zpath, sizeof zpath, "%s.zip", path);
  Diag d;
  diag_init(&d, "unit");
  CHECK(u, export_write_archive(&mod, zpath, &d));
  size_t n = 0;
  uint8_t *zip = read_all(zpath, &n);
  CHECK(u, zip != NULL && n > 22);
  if (zip && n > 22) {
    const uint8_t *e = zip + n - 22; /* no archive comment: the end record closes the file */
    CHECK(u, rd32(e) == 0x06054b50u && rd16(e + 10) == (uint32_t)mod.n_files);
    size_t cd = rd32(e + 16);
    CHECK(u, cd + rd32(e + 12) == n - 22);
    int deflated = 0, stored = 0;
    for (int i = 0; i < mod.n_files && cd < n; i++) check_member(u, zip, n, &cd, &mod.files[i], "rt/", &deflated, &stored);
    CHECK(u, deflated >= 1 && stored >= 1); /* the table compresses; "x" does not */
  }
  free(zip);
  remove(zpath);
  remove(path);
  module_free(&mod);
  arena_free(&a);
}

/* An archive that cannot be written leaves nothing behind. */
static void test_zip_unwritable(UnitState *u) {
  Arena a;
  arena_init(&a);
  Module mod;
  memset(&mod, 0, sizeof mod);
  mod.name = "rt";
  StrBuf *f = module_add_file(&mod, &a, "README.md");
  if (f) sb_append(f, "hello\n");
  Diag d;
  diag_init(&d, "unit");
  CHECK(u, !export_write_archive(&mod, "/nonexistent-dir-tinyaot/x.pack", &d));
  CHECK(u, access("/nonexistent-dir-tinyaot/x.pack.tmp", F_OK) != 0);
  module_free(&mod);
  arena_free(&a);
}

/* The CMSIS pack identity: Vendor.Name.Version.pack (semantic version) or --model.version. */
static bool identity(const char *path, const char *version, Glue *g, Arena *a, Module *mod) {
  memset(mod, 0, sizeof *mod);
  mod->name = "net";
  mod->meta_version = version;
  memset(g, 0, sizeof *g);
  g->mod = mod;
  g->a = a;
  Diag d;
  diag_init(&d, "unit");
  return glue_pack_identity(g, path, &d);
}

static void test_pack_identity(UnitState *u) {
  Arena a;
  arena_init(&a);
  Module mod;
  Glue g;
  CHECK(u, identity(NULL, NULL, &g, &a, &mod) && strcmp(g.pack_vendor, "tinyaot") == 0 &&
               strcmp(g.pack_name, "net") == 0 && strcmp(g.pack_version, "1.0.0") == 0);
  CHECK(u, identity(NULL, "v2.0.1", &g, &a, &mod) && strcmp(g.pack_version, "2.0.1") == 0);
  CHECK(u, identity("out/My_Co.kws-net.10.0.3-rc.1+b7.pack", NULL, &g, &a, &mod) && strcmp(g.pack_vendor, "My_Co") == 0 &&
               strcmp(g.pack_name, "kws-net") == 0 && strcmp(g.pack_version, "10.0.3-rc.1+b7") == 0);
  CHECK(u, identity("A.b.1.2.3.pack", "1.2.3", &g, &a, &mod));
  CHECK(u, !identity("A.b.1.2.3.pack", "1.2.4", &g, &a, &mod)); /* the name and --model.version disagree */
  CHECK(u, !identity(NULL, "1.2", &g, &a, &mod));
  CHECK(u, !identity(NULL, "latest", &g, &a, &mod));
  static const char *const bad[] = {"x.pack", "A.b.pack", "A.b.1.2.pack", "A.b.1.2.3.4.pack", "A.b.01.2.3.pack",
                                    ".b.1.2.3.pack", "A..1.2.3.pack", "A.b c.1.2.3.pack", "A.b.1.2.3-.pack",
                                    "A.b.1.2.x.pack", NULL};
  for (int i = 0; bad[i]; i++) CHECK(u, !identity(bad[i], NULL, &g, &a, &mod));
  arena_free(&a);
}

const UnitTest module_types_tests[] = {
    {"module_pack_identity", test_pack_identity},
    {"module_type_names", test_type_names},
    {"module_archive_paths", test_archive_paths},
    {"module_zip_round_trip", test_zip_round_trip},
    {"module_zip_unwritable", test_zip_unwritable},
    {NULL, NULL},
};
