/* .npz reader: the zip container (end-of-central-directory record, central directory,
 * local headers), CRC-checked members, zlib for deflated ones, then each .npy header. */
#include "npz.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

enum {
  EOCD_SIZE = 22,
  CENTRAL_SIZE = 46,
  LOCAL_SIZE = 30,
  MAX_FILE = 256 << 20,    /* archive bytes */
  MAX_MEMBER = 256 << 20,  /* one member, inflated */
  MAX_HEADER = 1 << 16,    /* .npy header text */
};

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | rd16(p + 2) << 16; }

/* The end-of-central-directory record: the last signature that fits, its comment included. */
static const uint8_t *find_eocd(const uint8_t *b, size_t size) {
  if (size < EOCD_SIZE) return NULL;
  size_t lowest = size > EOCD_SIZE + 0xFFFFu ? size - EOCD_SIZE - 0xFFFFu : 0;
  for (size_t at = size - EOCD_SIZE + 1; at-- > lowest;)
    if (rd32(b + at) == 0x06054b50u && at + EOCD_SIZE + rd16(b + at + 20) == size) return b + at;
  return NULL;
}

static bool inflate_member(const uint8_t *src, size_t n, uint8_t *dst, size_t out, Diag *d, const char *path,
                           const char *name) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) return diag_error(d, "%s: member '%s': cannot start zlib", path, name);
  zs.next_in = (Bytef *)(uintptr_t)src;
  zs.avail_in = (uInt)n;
  zs.next_out = dst;
  zs.avail_out = (uInt)out;
  int rc = inflate(&zs, Z_FINISH);
  size_t produced = out - zs.avail_out;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || produced != out)
    return diag_error(d, "%s: member '%s': corrupt deflate data (zlib %d, %zu of %zu bytes)", path, name, rc, produced,
                      out);
  return true;
}

/* dtype string of the header dict: byte order + kind + size, e.g. "<i4", "|i1". */
static bool parse_descr(const char *s, size_t len, NpzArray *arr) {
  if (len != 3 && len != 4) return false;
  char order = s[0], kind = s[1];
  int size = s[2] - '0';
  if (len == 4) return false; /* no 16-byte dtypes */
  if (kind != 'i' && kind != 'u' && kind != 'f' && kind != 'b') return false;
  if (size != 1 && size != 2 && size != 4 && size != 8) return false;
  if (kind == 'f' && size != 4 && size != 8) return false;
  if (kind == 'b' && size != 1) return false;
  if (order == '>' && size > 1) return false; /* big-endian data */
  if (order != '<' && order != '|' && order != '=' && order != '>') return false;
  arr->kind = kind;
  arr->itemsize = size;
  return true;
}

/* Finds 'key': in the header dict and returns the text after the colon. */
static const char *dict_value(const char *h, const char *key) {
  char quoted[32];
  snprintf(quoted, sizeof quoted, "'%s'", key);
  const char *k = strstr(h, quoted);
  if (!k) return NULL;
  k += strlen(quoted);
  while (*k == ' ') k++;
  if (*k != ':') return NULL;
  k++;
  while (*k == ' ') k++;
  return k;
}

static bool parse_shape(const char *v, NpzArray *arr) {
  if (!v || *v != '(') return false;
  v++;
  arr->rank = 0;
  size_t elems = 1;
  for (;;) {
    while (*v == ' ' || *v == ',') v++;
    if (*v == ')') break;
    if (*v < '0' || *v > '9' || arr->rank >= NPZ_MAX_RANK) return false;
    int64_t dim = 0;
    while (*v >= '0' && *v <= '9') {
      dim = dim * 10 + (*v++ - '0');
      if (dim > (int64_t)MAX_MEMBER) return false;
    }
    if (*v == 'L') v++; /* Python 2 longs */
    arr->shape[arr->rank++] = dim;
    if (dim && elems > (size_t)MAX_MEMBER / (size_t)dim) return false;
    elems *= (size_t)dim;
  }
  arr->elems = elems;
  return true;
}

/* One .npy image: magic, version, header dict, then exactly the array's bytes. */
static bool parse_npy(const uint8_t *b, size_t size, NpzArray *arr, Arena *a, Diag *d, const char *path) {
  const char *name = arr->name;
  static const uint8_t magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (size < 10 || memcmp(b, magic, 6) != 0) return diag_error(d, "%s: member '%s' is not a .npy array", path, name);
  unsigned major = b[6];
  size_t hlen, start;
  if (major == 1) hlen = rd16(b + 8), start = 10;
  else if (major == 2 || major == 3) {
    if (size < 12) return diag_error(d, "%s: member '%s': truncated .npy header", path, name);
    hlen = rd32(b + 8), start = 12;
  } else return diag_error(d, "%s: member '%s': .npy format version %u is not supported", path, name, major);
  if (hlen > MAX_HEADER || hlen > size - start) return diag_error(d, "%s: member '%s': truncated .npy header", path, name);
  char *h = arena_strndup(a, (const char *)b + start, hlen);
  if (!h) return diag_error(d, "out of memory");
  if (strlen(h) != hlen) return diag_error(d, "%s: member '%s': NUL byte in the .npy header", path, name);
  for (char *q = h; *q; q++) /* messages quote the header: keep them one line */
    if ((unsigned char)*q < 0x20 || (unsigned char)*q == 0x7f) *q = ' ';
  const char *descr = dict_value(h, "descr"), *fortran = dict_value(h, "fortran_order");
  const char *shape = dict_value(h, "shape");
  if (!descr || !fortran || !shape) return diag_error(d, "%s: member '%s': .npy header lacks descr, fortran_order or shape", path, name);
  const char *q = descr[0] == '\'' ? strchr(descr + 1, '\'') : NULL;
  if (!q || !parse_descr(descr + 1, (size_t)(q - descr - 1), arr))
    return diag_error(d, "%s: member '%s': unsupported dtype %.12s (little-endian bool/int/uint/float only)", path, name,
                      descr);
  if (!parse_shape(shape, arr)) return diag_error(d, "%s: member '%s': bad or oversized shape %.40s", path, name, shape);
  if (strncmp(fortran, "True", 4) == 0 && arr->rank > 1)
    return diag_error(d, "%s: member '%s': Fortran-order arrays are not supported", path, name);
  if (strncmp(fortran, "True", 4) != 0 && strncmp(fortran, "False", 5) != 0)
    return diag_error(d, "%s: member '%s': bad fortran_order", path, name);
  size_t want = arr->elems * (size_t)arr->itemsize;
  if (size - start - hlen != want)
    return diag_error(d, "%s: member '%s': %zu data bytes for a %zu-byte array", path, name, size - start - hlen, want);
  arr->data = b + start + hlen;
  return true;
}

/* One central-directory entry at *at: its member's bytes (inflated, CRC-checked), parsed. */
static bool read_member(const uint8_t *b, size_t size, size_t *at, size_t cd_end, Npz *z, Arena *a, Diag *d,
                        const char *path) {
  const uint8_t *c = b + *at;
  if (cd_end - *at < CENTRAL_SIZE || rd32(c) != 0x02014b50u)
    return diag_error(d, "%s: corrupt zip central directory (entry %d)", path, z->n);
  uint32_t flags = rd16(c + 8), method = rd16(c + 10), crc = rd32(c + 16);
  size_t csize = rd32(c + 20), usize = rd32(c + 24), nlen = rd16(c + 28);
  size_t xlen = rd16(c + 30), klen = rd16(c + 32), local = rd32(c + 42);
  if (cd_end - *at - CENTRAL_SIZE < nlen + xlen + klen) return diag_error(d, "%s: corrupt zip central directory", path);
  char *name = arena_strndup(a, (const char *)c + CENTRAL_SIZE, nlen);
  if (!name) return diag_error(d, "out of memory");
  *at += CENTRAL_SIZE + nlen + xlen + klen;
  for (size_t k = 0; k < nlen; k++) /* every message names the member: printable ASCII only */
    if ((unsigned char)name[k] < 0x20 || (unsigned char)name[k] >= 0x7f)
      return diag_error(d, "%s: central directory entry %d has a name with control or non-ASCII bytes", path, z->n);
  if (strlen(name) != nlen || nlen < 5 || strcmp(name + nlen - 4, ".npy") != 0)
    return diag_error(d, "%s: member '%.60s' is not a .npy array", path, name);
  name[nlen - 4] = '\0';
  if (flags & 1u) return diag_error(d, "%s: member '%s' is encrypted", path, name);
  if (csize == 0xFFFFFFFFu || usize == 0xFFFFFFFFu || local == 0xFFFFFFFFu)
    return diag_error(d, "%s: member '%s' uses zip64 (not supported)", path, name);
  if (method != 0 && method != 8)
    return diag_error(d, "%s: member '%s': compression method %u (only stored and deflate)", path, name, method);
  if (usize > MAX_MEMBER) return diag_error(d, "%s: member '%s' is larger than 256 MiB", path, name);
  if (local > size || size - local < LOCAL_SIZE || rd32(b + local) != 0x04034b50u)
    return diag_error(d, "%s: member '%s': bad local header offset", path, name);
  size_t data = local + LOCAL_SIZE + rd16(b + local + 26) + rd16(b + local + 28);
  if (data > size || size - data < csize) return diag_error(d, "%s: member '%s' is truncated", path, name);
  const uint8_t *bytes = b + data;
  /* deflate expands at most 1032:1; a larger claim would only make us allocate for nothing */
  if (method == 8 && usize / 1032u > csize + 1u)
    return diag_error(d, "%s: member '%s' claims %zu bytes from %zu compressed (more than deflate allows)", path, name,
                      usize, csize);
  if (method == 8) {
    uint8_t *out = arena_alloc(a, usize ? usize : 1);
    if (!out) return diag_error(d, "out of memory");
    if (!inflate_member(b + data, csize, out, usize, d, path, name)) return false;
    bytes = out;
  } else if (csize != usize) {
    return diag_error(d, "%s: member '%s': stored sizes differ (%zu, %zu)", path, name, csize, usize);
  }
  if ((uint32_t)crc32(0L, bytes, (uInt)usize) != crc) return diag_error(d, "%s: member '%s': CRC mismatch", path, name);
  if (npz_find(z, name)) return diag_error(d, "%s: member '%s' appears twice", path, name);
  NpzArray *arr = &z->arrays[z->n];
  memset(arr, 0, sizeof *arr);
  arr->name = name;
  if (!parse_npy(bytes, usize, arr, a, d, path)) return false;
  z->n++;
  return true;
}

bool npz_parse(const uint8_t *b, size_t size, const char *path, Arena *a, Npz *z, Diag *d) {
  memset(z, 0, sizeof *z);
  const uint8_t *e = find_eocd(b, size);
  if (!e) return diag_error(d, "%s: not a zip archive (.npz): no end-of-central-directory record", path);
  size_t entries = rd16(e + 10), cd_size = rd32(e + 12), cd_off = rd32(e + 16);
  if (rd16(e + 4) != 0 || rd16(e + 6) != 0 || rd16(e + 8) != entries)
    return diag_error(d, "%s: multi-disk zip archives are not supported", path);
  size_t eocd_at = (size_t)(e - b);
  if (cd_off > eocd_at || cd_size > eocd_at - cd_off) return diag_error(d, "%s: corrupt zip central directory bounds", path);
  if (entries > NPZ_MAX_ARRAYS) return diag_error(d, "%s: more than %d arrays", path, NPZ_MAX_ARRAYS);
  size_t at = cd_off, cd_end = cd_off + cd_size;
  for (size_t i = 0; i < entries; i++)
    if (!read_member(b, size, &at, cd_end, z, a, d, path)) return false;
  return true;
}

bool npz_read(const char *path, Arena *a, Npz *z, Diag *d) {
  FILE *f = fopen(path, "rb");
  if (!f) return diag_error(d, "cannot open golden data %s", path);
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
  if (n < 0 || n > MAX_FILE || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return diag_error(d, "%s: unreadable or larger than 256 MiB", path);
  }
  uint8_t *b = arena_alloc(a, (size_t)n + 1);
  bool ok = b && fread(b, 1, (size_t)n, f) == (size_t)n;
  fclose(f);
  if (!ok) return diag_error(d, "cannot read %s", path);
  return npz_parse(b, (size_t)n, path, a, z, d);
}

const NpzArray *npz_find(const Npz *z, const char *name) {
  for (int i = 0; i < z->n; i++)
    if (strcmp(z->arrays[i].name, name) == 0) return &z->arrays[i];
  return NULL;
}
