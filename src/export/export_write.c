/* Writing the module: all-or-nothing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"

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

static void remove_written(const Module *mod, const char *dir, int upto) {
  char path[4096];
  for (int i = 0; i < upto; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, mod->files[i].path);
    remove(path);
  }
}

bool export_write(const Module *mod, const char *dir, Diag *d) {
  char path[4096];
  for (int i = 0; i < mod->n_files; i++) {
    int n = snprintf(path, sizeof path, "%s/%s", dir, mod->files[i].path);
    if (n < 0 || (size_t)n >= sizeof path) {
      remove_written(mod, dir, i);
      return diag_error(d, "output path too long: %s", dir);
    }
    char *slash = strrchr(path, '/');
    *slash = 0;
    bool ok = make_dirs(path);
    *slash = '/';
    FILE *f = ok ? fopen(path, "wb") : NULL;
    size_t len = mod->files[i].text.len;
    bool wrote = f && fwrite(mod->files[i].text.data ? mod->files[i].text.data : "", 1, len, f) == len;
    if (f && fclose(f) != 0) wrote = false;
    if (!wrote) {
      int err = errno;
      remove(path);
      remove_written(mod, dir, i);
      return diag_error(d, "cannot write %s: %s", path, strerror(err));
    }
  }
  return true;
}
