/* CMSIS-Pack glue (<vendor>.<name>.pdsc) and the zip archive (.pack / .zip module paths).
 * The archive is a plain zip: local headers, deflated (zlib, raw) or stored members, the
 * central directory and its end record; no zip64, so a module stays under 4 GiB. */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "export_glue.h"

const char glue_pack_vendor[] = "tinyaot";
const char glue_pack_version[] = "1.0.0";

void glue_release_time(int *year, int *month, int *day, int *hour, int *minute, int *second) {
  time_t t = time(NULL);
  const char *epoch = getenv("SOURCE_DATE_EPOCH");
  if (epoch && *epoch) {
    char *end = NULL;
    long long v = strtoll(epoch, &end, 10);
    if (end && !*end && v >= 315532800LL && v < 4102444800LL) t = (time_t)v; /* 1980..2100: what zip can date */
  }
  struct tm tm;
  if (!gmtime_r(&t, &tm)) memset(&tm, 0, sizeof tm);
  if (tm.tm_year < 80) tm.tm_year = 80, tm.tm_mon = 0, tm.tm_mday = 1;
  *year = tm.tm_year + 1900, *month = tm.tm_mon + 1, *day = tm.tm_mday;
  *hour = tm.tm_hour, *minute = tm.tm_min, *second = tm.tm_sec;
}

static void xml_text(StrBuf *sb, const char *s) {
  for (; *s; s++) {
    if (*s == '<') sb_append(sb, "&lt;");
    else if (*s == '>') sb_append(sb, "&gt;");
    else if (*s == '&') sb_append(sb, "&amp;");
    else if (*s == '"') sb_append(sb, "&quot;");
    else sb_appendn(sb, s, 1);
  }
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The pdsc file category of a module file, or NULL for files the pack leaves out of the
 * component (reports, build glue). */
static const char *pack_category(const Glue *g, const char *path) {
  size_t api = strlen(g->api_dir);
  if (strncmp(path, g->api_dir, api) == 0 && path[api] == '/') return "header";
  if (strncmp(path, "src/", 4) == 0) return ends_with(path, ".c") ? "source" : ends_with(path, ".h") ? "header" : "other";
  if (strncmp(path, "data/", 5) == 0) return "other";
  if (strcmp(path, "README.md") == 0 || strcmp(path, "LICENSE") == 0) return "doc";
  return NULL;
}

/* Dcore of the platform's CPU for the component's condition (none for the host). */
static const char *pack_core(const Platform *pf) {
  if (strcmp(pf->cpu, "cortex-m4") == 0) return "Cortex-M4";
  if (strcmp(pf->cpu, "cortex-m55") == 0) return "Cortex-M55";
  return NULL;
}

/* A CMSIS-Pack vendor or pack name: letters, digits, '-' and '_' (no dots: they separate
 * the fields of the file name). */
static bool pack_word(const char *s, size_t n) {
  if (n == 0) return false;
  for (size_t i = 0; i < n; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_')) return false;
  return true;
}

/* One number of a semantic version: digits, no leading zero (but "0"). */
static const char *semver_number(const char *s) {
  if (!isdigit((unsigned char)*s) || (s[0] == '0' && isdigit((unsigned char)s[1]))) return NULL;
  while (isdigit((unsigned char)*s)) s++;
  return s;
}

/* MAJOR.MINOR.PATCH[-pre][+build], as CMSIS-Pack versions are. */
static bool semver(const char *s) {
  for (int k = 0; k < 3; k++) {
    if (!(s = semver_number(s))) return false;
    if (k < 2 && *s++ != '.') return false;
  }
  if (*s == '-' || *s == '+') {
    if (!s[1]) return false;
    for (s++; *s; s++)
      if (!(isalnum((unsigned char)*s) || *s == '.' || *s == '-' || *s == '+')) return false;
  }
  return *s == 0;
}

/* --model.version: heliaAOT writes "v1.0.0"; the pack takes the version without the v. */
static const char *model_pack_version(const Module *mod) {
  const char *v = mod->meta_version;
  if (v && (*v == 'v' || *v == 'V')) v++;
  return v;
}

bool glue_pack_identity(Glue *g, const char *pack_path, Diag *d) {
  const Module *mod = g->mod;
  const char *mv = model_pack_version(mod);
  g->pack_vendor = glue_pack_vendor;
  g->pack_name = mod->name;
  g->pack_version = glue_pack_version;
  if (mv && !semver(mv))
    return diag_error(d, "--model.version '%s' is not a version MAJOR.MINOR.PATCH, as a CMSIS pack's must be", mod->meta_version);
  if (mv) g->pack_version = mv;
  if (!pack_path) return true;
  const char *base = strrchr(pack_path, '/');
  base = base ? base + 1 : pack_path;
  const size_t len = strlen(base) - 5; /* without ".pack" */
  const char *dot1 = memchr(base, '.', len);
  const char *dot2 = dot1 ? memchr(dot1 + 1, '.', len - (size_t)(dot1 + 1 - base)) : NULL;
  const char *version = dot2 ? arena_strndup(g->a, dot2 + 1, len - (size_t)(dot2 + 1 - base)) : NULL;
  if (!dot2 || !pack_word(base, (size_t)(dot1 - base)) || !pack_word(dot1 + 1, (size_t)(dot2 - dot1 - 1)) ||
      !version || !semver(version))
    return diag_error(d, "module.path %s: a CMSIS pack file is named Vendor.Name.Version.pack (e.g. %s.%s.%s.pack; "
                         "vendor and name of letters, digits, - and _, the version MAJOR.MINOR.PATCH)",
                      pack_path, glue_pack_vendor, mod->name, g->pack_version);
  if (mv && strcmp(mv, version) != 0)
    return diag_error(d, "module.path %s names version %s but --model.version is %s: give one, or the same", pack_path,
                      version, mod->meta_version);
  g->pack_vendor = arena_strndup(g->a, base, (size_t)(dot1 - base));
  g->pack_name = arena_strndup(g->a, dot1 + 1, (size_t)(dot2 - dot1 - 1));
  g->pack_version = version;
  if (!g->pack_vendor || !g->pack_name) return diag_error(d, "out of memory");
  return true;
}

void glue_pack(Glue *g) {
  const Module *mod = g->mod;
  int y, mo, d, h, mi, s;
  glue_release_time(&y, &mo, &d, &h, &mi, &s);
  /* The module's own files, listed before the pdsc is added. */
  int n_listed = mod->n_files;
  StrBuf *sb = glue_file(g, arena_printf(g->a, "%s.%s.pdsc", g->pack_vendor, g->pack_name));
  if (!sb) return;
  const char *core = pack_core(&g->p->platform);
  sb_append(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<package schemaVersion=\"1.7.7\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema-instance\" "
                "xs:noNamespaceSchemaLocation=\"https://raw.githubusercontent.com/Open-CMSIS-Pack/Open-CMSIS-Pack-Spec/v1.7.7/schema/PACK.xsd\">\n");
  sb_printf(sb, "  <vendor>%s</vendor>\n  <name>%s", g->pack_vendor, g->pack_name);
  sb_append(sb, "</name>\n  <description>Inference module generated by tinyaot from ");
  xml_text(sb, mod->source);
  sb_printf(sb, " for platform %s (self-contained: its kernels are in src/).</description>\n"
                "  <url></url>\n  <license>LICENSE</license>\n  <releases>\n    <release version=\"%s\" date=\"%04d-%02d-%02d\">Generated by tinyaot.</release>\n"
                "  </releases>\n  <keywords>\n    <keyword>tinyaot</keyword>\n    <keyword>neural network</keyword>\n  </keywords>\n",
            g->p->platform.name, g->pack_version, y, mo, d);
  if (core)
    sb_printf(sb, "  <conditions>\n    <condition id=\"%s\">\n      <description>The core the module was generated for</description>\n"
                  "      <require Dcore=\"%s\"/>\n    </condition>\n  </conditions>\n",
              core, core);
  sb_printf(sb, "  <components>\n    <component Cclass=\"Machine Learning\" Cgroup=\"");
  xml_text(sb, mod->name);
  sb_printf(sb, "\" Cversion=\"%s\"", g->pack_version);
  if (core) sb_printf(sb, " condition=\"%s\"", core);
  sb_printf(sb, ">\n      <description>tinyaot inference module (%s_model_init, %s_model_run)</description>\n      <files>\n"
                "        <file category=\"include\" name=\"%s/\"/>\n",
            mod->prefix, mod->prefix, g->api_dir);
  for (int i = 0; i < n_listed; i++) {
    const char *cat = pack_category(g, mod->files[i].path);
    if (!cat) continue;
    sb_printf(sb, "        <file category=\"%s\" name=\"", cat);
    xml_text(sb, mod->files[i].path);
    sb_append(sb, "\"/>\n");
  }
  sb_append(sb, "      </files>\n    </component>\n  </components>\n</package>\n");
}

/* ---- the zip archive ------------------------------------------------------ */

bool export_is_archive(const char *path) { return path && (ends_with(path, ".pack") || ends_with(path, ".zip")); }

static void put16(StrBuf *sb, unsigned v) {
  unsigned char b[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
  sb_appendn(sb, (const char *)b, 2);
}

static void put32(StrBuf *sb, uint32_t v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
  sb_appendn(sb, (const char *)b, 4);
}

/* One member as it goes into the archive. */
typedef struct ZipMember {
  const char *name;
  uint32_t crc, size, packed, offset;
  unsigned method; /* 0 stored, 8 deflated */
} ZipMember;

/* Raw deflate of `len` bytes into `out` (sized by deflateBound); returns the packed size,
 * or 0 when deflating does not pay (the member is stored). */
static size_t deflate_raw(const unsigned char *data, size_t len, unsigned char *out, size_t cap) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
  z.next_in = (unsigned char *)data;
  z.avail_in = (uInt)len;
  z.next_out = out;
  z.avail_out = (uInt)cap;
  int rc = deflate(&z, Z_FINISH);
  size_t packed = z.total_out;
  deflateEnd(&z);
  return rc == Z_STREAM_END && packed < len ? packed : 0;
}

/* Local header + data of one member, appended to `zip`. */
static bool zip_add(StrBuf *zip, ZipMember *m, const unsigned char *data, size_t len, unsigned dos_time,
                    unsigned dos_date) {
  m->crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)len);
  m->size = (uint32_t)len;
  m->offset = (uint32_t)zip->len;
  size_t cap = deflateBound(NULL, (uLong)len);
  unsigned char *packed = malloc(cap ? cap : 1);
  if (!packed) return false;
  size_t n = len ? deflate_raw(data, len, packed, cap) : 0;
  m->method = n ? 8 : 0;
  m->packed = n ? (uint32_t)n : (uint32_t)len;
  put32(zip, 0x04034b50);
  put16(zip, 20), put16(zip, 0), put16(zip, m->method), put16(zip, dos_time), put16(zip, dos_date);
  put32(zip, m->crc), put32(zip, m->packed), put32(zip, m->size);
  put16(zip, (unsigned)strlen(m->name)), put16(zip, 0);
  sb_append(zip, m->name);
  sb_appendn(zip, n ? (const char *)packed : (const char *)data, m->packed);
  free(packed);
  return !zip->oom;
}

static void zip_central(StrBuf *zip, const ZipMember *ms, int n, unsigned dos_time, unsigned dos_date) {
  uint32_t start = (uint32_t)zip->len;
  for (int i = 0; i < n; i++) {
    const ZipMember *m = &ms[i];
    put32(zip, 0x02014b50);
    put16(zip, 0x0314), put16(zip, 20), put16(zip, 0), put16(zip, m->method); /* made by: Unix, zip 2.0 */
    put16(zip, dos_time), put16(zip, dos_date);
    put32(zip, m->crc), put32(zip, m->packed), put32(zip, m->size);
    put16(zip, (unsigned)strlen(m->name)), put16(zip, 0), put16(zip, 0), put16(zip, 0), put16(zip, 0);
    put32(zip, 0100644u << 16); /* external attributes: a regular file, rw-r--r-- */
    put32(zip, m->offset);
    sb_append(zip, m->name);
  }
  uint32_t size = (uint32_t)zip->len - start;
  put32(zip, 0x06054b50);
  put16(zip, 0), put16(zip, 0), put16(zip, (unsigned)n), put16(zip, (unsigned)n);
  put32(zip, size), put32(zip, start), put16(zip, 0);
}

static bool write_whole(const char *path, const StrBuf *sb) {
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(sb->data, 1, sb->len, f) == sb->len;
  if (f && fclose(f) != 0) ok = false;
  return ok;
}

bool export_write_archive(const Module *mod, const char *path, Diag *d) {
  int y, mo, day, h, mi, s;
  glue_release_time(&y, &mo, &day, &h, &mi, &s);
  unsigned dos_time = (unsigned)(h << 11 | mi << 5 | s / 2), dos_date = (unsigned)((y - 1980) << 9 | mo << 5 | day);
  const bool wrap = ends_with(path, ".zip"); /* .zip wraps the tree in <name>/; .pack has it at the root */
  ZipMember members[MODULE_MAX_FILES];
  char names[MODULE_MAX_FILES][512];
  StrBuf zip;
  sb_init(&zip);
  bool ok = true;
  for (int i = 0; ok && i < mod->n_files; i++) {
    size_t len = 0;
    char *bytes = export_stamped(&mod->files[i], &len); /* as the folder would hold it */
    int n = snprintf(names[i], sizeof names[i], "%s%s%s", wrap ? mod->name : "", wrap ? "/" : "", mod->files[i].path);
    if (!bytes || n < 0 || (size_t)n >= sizeof names[i] || len > 0xFFFFFFF0u) {
      free(bytes);
      sb_free(&zip);
      return diag_error(d, "%s: member %s does not fit a zip archive (or out of memory)", path, mod->files[i].path);
    }
    members[i].name = names[i];
    ok = zip_add(&zip, &members[i], (const unsigned char *)bytes, len, dos_time, dos_date) && zip.len < 0xFFFF0000u;
    free(bytes);
  }
  if (ok) zip_central(&zip, members, mod->n_files, dos_time, dos_date);
  if (!ok || zip.oom || zip.len > 0xFFFFFFFFu) {
    sb_free(&zip);
    return diag_error(d, "%s: out of memory or over 4 GiB while building the archive", path);
  }
  /* All or nothing: a temporary file beside the target, renamed over it. */
  char tmp[4096];
  int n = snprintf(tmp, sizeof tmp, "%s.tmp", path);
  bool wrote = n > 0 && (size_t)n < sizeof tmp && write_whole(tmp, &zip);
  int err = errno;
  sb_free(&zip);
  if (!wrote || rename(tmp, path) != 0) {
    if (wrote) err = errno;
    remove(tmp);
    return diag_error(d, "cannot write %s: %s", path, strerror(err));
  }
  return true;
}
