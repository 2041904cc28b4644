/* Writing the module into a folder: all or nothing, and never over the user's files.
 *
 * The folder keeps a manifest (.tinyaot-manifest) of the files tinyaot wrote there, each
 * with a hash of its content. A conversion
 *  - refuses a non-empty folder without a manifest, unless forced (then it writes beside
 *    the files there);
 *  - never overwrites or deletes a file the manifest does not list (forced or not);
 *  - refuses when a file it wrote before was edited since (forced: an edited file the new
 *    module does not need is kept and becomes the user's);
 *  - writes every new file to a temporary name first, then renames them into place,
 *    removes the previous conversion's files the new one does not write, and writes the
 *    new manifest. On a write error the temporary files are removed and the folder is
 *    as it was. */
#define _XOPEN_SOURCE 700 /* lstat, strdup */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"

#define MANIFEST ".tinyaot-manifest"
#define TMP_SUFFIX ".tinyaot-new"

typedef struct Entry {
  char *path; /* relative to the folder */
  uint64_t hash;
} Entry;

typedef struct List {
  Entry *e;
  int n, cap;
} List;

static bool list_add(List *l, const char *path, uint64_t hash) {
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 64;
    Entry *e = realloc(l->e, sizeof *e * (size_t)cap);
    if (!e) return false;
    l->e = e;
    l->cap = cap;
  }
  char *copy = strdup(path);
  if (!copy) return false;
  l->e[l->n++] = (Entry){copy, hash};
  return true;
}

static void list_free(List *l) {
  for (int i = 0; i < l->n; i++) free(l->e[i].path);
  free(l->e);
  *l = (List){0};
}

static int list_find(const List *l, const char *path) {
  for (int i = 0; i < l->n; i++)
    if (strcmp(l->e[i].path, path) == 0) return i;
  return -1;
}

static int cmp_entry(const void *a, const void *b) {
  return strcmp(((const Entry *)a)->path, ((const Entry *)b)->path);
}

/* FNV-1a, 64 bits: detects edits of a generated file (not a security checksum). */
static uint64_t hash_bytes(const char *p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)p[i]) * 1099511628211ULL;
  return h;
}

static bool hash_file(const char *path, uint64_t *h) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  uint64_t x = 1469598103934665603ULL;
  int ch;
  while ((ch = getc(f)) != EOF) x = (x ^ (uint8_t)ch) * 1099511628211ULL;
  bool ok = !ferror(f);
  fclose(f);
  *h = x;
  return ok;
}

static bool make_dirs(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    int rc = mkdir(path, 0755);
    *p = '/';
    if (rc != 0 && errno != EEXIST) return false;
  }
  return mkdir(path, 0755) == 0 || errno == EEXIST;
}

/* Every file (and symbolic link) under dir/rel, relative paths, into out. */
static bool walk(const char *dir, const char *rel, List *out, int depth) {
  char path[4096];
  snprintf(path, sizeof path, "%s%s%s", dir, *rel ? "/" : "", rel);
  DIR *dp = opendir(path);
  if (!dp) return false;
  bool ok = true;
  struct dirent *de;
  while (ok && (de = readdir(dp)) != NULL) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    char sub[4096], full[4096];
    int n1 = snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
    int n2 = snprintf(full, sizeof full, "%s/%s", dir, sub);
    if (n1 < 0 || (size_t)n1 >= sizeof sub || n2 < 0 || (size_t)n2 >= sizeof full) continue;
    struct stat st;
    if (lstat(full, &st) != 0) continue;
    if (S_ISDIR(st.st_mode) && depth < 32) ok = walk(dir, sub, out, depth + 1);
    else if (!S_ISDIR(st.st_mode)) ok = list_add(out, sub, 0);
  }
  closedir(dp);
  return ok;
}

static bool folder_is_empty(const char *dir) {
  DIR *dp = opendir(dir);
  if (!dp) return true;
  struct dirent *de;
  bool empty = true;
  while (empty && (de = readdir(dp)) != NULL) empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
  closedir(dp);
  return empty;
}

/* Reads "HASH PATH" lines; false (with a message) for a damaged manifest. */
static bool read_manifest(const char *dir, const char *manifest, List *m, bool *present, Diag *d) {
  char path[4096], line[4200];
  snprintf(path, sizeof path, "%s/%s", dir, manifest);
  FILE *f = fopen(path, "r");
  *present = f != NULL;
  if (!f) return true;
  int no = 0;
  bool ok = true;
  while (ok && fgets(line, sizeof line, f)) {
    no++;
    line[strcspn(line, "\n")] = 0;
    if (line[0] == '#' || line[0] == 0) continue;
    char *end;
    uint64_t h = strtoull(line, &end, 16);
    if (end != line + 16 || *end != ' ' || !end[1] || strstr(end + 1, "..") || end[1] == '/')
      ok = diag_error(d, "%s line %d is damaged; restore it, or remove it if the folder holds only tinyaot's files",
                      path, no);
    else ok = list_add(m, end + 1, h) || diag_error(d, "out of memory");
  }
  fclose(f);
  return ok;
}

/* "a, b, c and N more" from the first entries of a sorted list. */
static void name_some(const List *l, char *buf, size_t size) {
  buf[0] = 0;
  for (int i = 0; i < l->n && i < 3; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", i ? ", " : "", l->e[i].path);
  }
  if (l->n > 3) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, " and %d more", l->n - 3);
  }
}

/* The checks before anything is written: fills `stale` with the previous conversion's
 * unchanged files that the new module does not write, `keep_edited` with edited ones kept
 * (forced). False with a message when the conversion must not touch the folder. */
static bool check_folder(const ModuleFile *files, int n_files, const char *dir, const char *manifest, bool force,
                         const List *old, bool has_manifest, List *stale, Diag *d) {
  List all = {0}, foreign = {0};
  bool ok = walk(dir, "", &all, 0) || diag_error(d, "cannot read the output folder %s", dir);
  for (int i = 0; ok && i < all.n; i++)
    if (strcmp(all.e[i].path, manifest) != 0 && list_find(old, all.e[i].path) < 0)
      ok = list_add(&foreign, all.e[i].path, 0) || diag_error(d, "out of memory");
  if (foreign.n) qsort(foreign.e, (size_t)foreign.n, sizeof *foreign.e, cmp_entry);
  char some[512];
  if (ok && !has_manifest && !force && !folder_is_empty(dir)) {
    name_some(&foreign, some, sizeof some);
    ok = diag_error(d, "output folder %s is not empty and holds no tinyaot manifest (%s); choose an empty folder, "
                       "or --force to write beside these files (they are kept)", dir, foreign.n ? some : "folders only");
  }
  /* Never over a file tinyaot did not write, even forced. */
  for (int i = 0; ok && i < n_files; i++)
    if (list_find(&foreign, files[i].path) >= 0)
      ok = diag_error(d, "%s/%s exists and was not written by tinyaot, which would write that name: move the file away "
                         "or choose another output folder", dir, files[i].path);
  for (int i = 0; ok && i < old->n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, old->e[i].path);
    uint64_t h;
    if (!hash_file(path, &h)) continue; /* gone already */
    bool needed = false;
    for (int k = 0; k < n_files && !needed; k++) needed = strcmp(files[k].path, old->e[i].path) == 0;
    if (h != old->e[i].hash) {
      if (needed || !force)
        ok = diag_error(d, "%s was changed since tinyaot wrote it; move it away (or restore it) and convert again%s",
                        path, needed ? "" : ", or --force to keep it as your file");
      continue;
    }
    if (!needed) ok = list_add(stale, old->e[i].path, 0) || diag_error(d, "out of memory");
  }
  list_free(&all);
  list_free(&foreign);
  return ok;
}

static void remove_temps(const ModuleFile *files, const char *dir, int upto) {
  char path[4096];
  for (int i = 0; i < upto; i++) {
    snprintf(path, sizeof path, "%s/%s" TMP_SUFFIX, dir, files[i].path);
    remove(path);
  }
}

/* Writes file i as <path>.tinyaot-new; its hash goes to *hash. */
static bool write_temp(const ModuleFile *files, int i, const char *dir, uint64_t *hash, Diag *d) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s" TMP_SUFFIX, dir, files[i].path);
  if (n < 0 || (size_t)n >= sizeof path) return diag_error(d, "output path too long: %s", dir);
  char *slash = strrchr(path, '/');
  *slash = 0;
  bool ok = make_dirs(path);
  *slash = '/';
  size_t len = 0;
  char *bytes = export_stamped(&files[i], &len);
  int fd = ok && bytes ? open(path, O_WRONLY | O_CREAT | O_EXCL, 0644) : -1;
  int err = errno;
  if (fd < 0) {
    free(bytes);
    if (err == EEXIST) return diag_error(d, "%s exists (left by an interrupted conversion?); remove it", path);
    return diag_error(d, "cannot write %s: %s", path, strerror(err));
  }
  FILE *f = fdopen(fd, "wb");
  bool wrote = f && fwrite(bytes, 1, len, f) == len;
  err = errno;
  if (f ? fclose(f) != 0 : close(fd) != 0) wrote = false;
  *hash = hash_bytes(bytes, len);
  free(bytes);
  if (!wrote) {
    remove(path);
    return diag_error(d, "cannot write %s: %s", path, strerror(err));
  }
  return true;
}

/* Removes dir/rel and then each parent folder it leaves empty (below dir). */
static void remove_stale(const char *dir, const char *rel) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  if (remove(path) != 0) return;
  size_t base = strlen(dir);
  for (char *s = strrchr(path, '/'); s && (size_t)(s - path) > base; s = strrchr(path, '/')) {
    *s = 0;
    if (rmdir(path) != 0) break;
  }
}

static bool write_manifest(const ModuleFile *files, int n_files, const char *dir, const char *manifest,
                           const uint64_t *hashes, Diag *d) {
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/%s", dir, manifest);
  snprintf(tmp, sizeof tmp, "%s" TMP_SUFFIX, path);
  FILE *f = fopen(tmp, "w");
  if (!f) return diag_error(d, "cannot write %s: %s", tmp, strerror(errno));
  fprintf(f, "# Files tinyaot wrote into this folder, with an FNV-1a hash of each: a re-conversion\n"
             "# replaces these (if unchanged) and never touches any other file. Do not edit.\n");
  for (int i = 0; i < n_files; i++) fprintf(f, "%016llx %s\n", (unsigned long long)hashes[i], files[i].path);
  bool ok = !ferror(f);
  if (fclose(f) != 0) ok = false;
  if (!ok || rename(tmp, path) != 0) {
    remove(tmp);
    return diag_error(d, "cannot write %s", path);
  }
  return true;
}

static bool contains(const char *hay, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= n; i++)
    if (hay[i] == needle[0] && memcmp(hay + i, needle, k) == 0) return true;
  return false;
}

/* An existing archive is replaced only when tinyaot wrote it: a zip whose member names
 * (stored uncompressed) include a module's report.json and <name>_model.h. */
static bool tinyaot_archive(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      char *b = cap < (1u << 30) ? realloc(buf, cap = cap ? 2 * cap : 1 << 16) : NULL;
      if (!b) break;
      buf = b;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    if (got == 0) break;
    n += got;
  }
  fclose(f);
  bool ours = buf && n > 4 && memcmp(buf, "PK\003\004", 4) == 0 && contains(buf, n, "report.json") &&
              contains(buf, n, "_model.h");
  free(buf);
  return ours;
}

bool export_write_module(const Module *mod, const char *dir, bool force, Diag *d) {
  if (!dir || !*dir) return diag_error(d, "the output folder name is empty");
  if (export_is_archive(dir)) { /* .pack/.zip: export_pack.c */
    struct stat ast;
    if (lstat(dir, &ast) == 0 && (!S_ISREG(ast.st_mode) || !tinyaot_archive(dir)))
      return diag_error(d, "%s exists and is not an archive tinyaot wrote; move it away or choose another name", dir);
    return export_write_archive(mod, dir, d);
  }
  return export_write_files(mod->files, mod->n_files, dir, MANIFEST, force, d);
}

bool export_write_files(const ModuleFile *files, int n_files, const char *dir, const char *manifest, bool force,
                        Diag *d) {
  struct stat st;
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) return diag_error(d, "output %s exists and is not a folder", dir);
  char mk[4096];
  snprintf(mk, sizeof mk, "%s", dir);
  if (!make_dirs(mk)) return diag_error(d, "cannot create the output folder %s: %s", dir, strerror(errno));
  List old = {0}, stale = {0};
  bool has_manifest = false;
  bool ok = read_manifest(dir, manifest, &old, &has_manifest, d) &&
            check_folder(files, n_files, dir, manifest, force, &old, has_manifest, &stale, d);
  uint64_t *hashes = ok ? calloc((size_t)n_files + 1, sizeof *hashes) : NULL;
  if (ok && !hashes) ok = diag_error(d, "out of memory");
  int written = 0;
  for (; ok && written < n_files; written++)
    if (!write_temp(files, written, dir, &hashes[written], d)) ok = false;
  if (!ok) remove_temps(files, dir, written);
  for (int i = 0; ok && i < n_files; i++) {
    char from[4200], to[4096];
    snprintf(to, sizeof to, "%s/%s", dir, files[i].path);
    snprintf(from, sizeof from, "%s" TMP_SUFFIX, to);
    if (rename(from, to) != 0) {
      ok = diag_error(d, "cannot write %s: %s", to, strerror(errno));
      remove_temps(files, dir, n_files);
    }
  }
  for (int i = 0; ok && i < stale.n; i++) remove_stale(dir, stale.e[i].path);
  if (ok) ok = write_manifest(files, n_files, dir, manifest, hashes, d);
  free(hashes);
  list_free(&old);
  list_free(&stale);
  return ok;
}

bool export_write(const Module *mod, const char *dir, Diag *d) { return export_write_module(mod, dir, false, d); }
