/* Host platform of the test applications: app IN_DIR OUT_DIR reads IN_DIR/in<i>.bin,
 * runs app_main and writes OUT_DIR/out<i>.bin. */
#include <stdio.h>
#include <stdlib.h>

#include "app_io.h"

enum { MAX_IO = 8 };
static unsigned char *inputs[MAX_IO];
static size_t input_sizes[MAX_IO];
static const char *out_dir;

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *b = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
      free(b);
      b = NULL;
    }
    *size = (size_t)n;
  }
  fclose(f);
  return b;
}

const void *app_input(int i, size_t *size) {
  if (i < 0 || i >= MAX_IO || !inputs[i]) return NULL;
  *size = input_sizes[i];
  return inputs[i];
}

int app_output(int i, const void *data, size_t size) {
  char path[4096];
  FILE *f;
  int ok;
  snprintf(path, sizeof path, "%s/out%d.bin", out_dir, i);
  f = fopen(path, "wb");
  if (!f) return -1;
  ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok ? 0 : -1;
}

int main(int argc, char **argv) {
  int i, rc;
  if (argc != 3) {
    fprintf(stderr, "usage: %s IN_DIR OUT_DIR\n", argv[0]);
    return 2;
  }
  out_dir = argv[2];
  for (i = 0; i < MAX_IO; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/in%d.bin", argv[1], i);
    inputs[i] = read_file(path, &input_sizes[i]);
  }
  rc = app_main();
  if (rc != 0) fprintf(stderr, "app_main failed: %d\n", rc);
  return rc == 0 ? 0 : 1;
}
