/* Compares an output file with its golden as the corpus manifest says:
 *   compare exact GOLDEN ACTUAL     every byte equal
 *   compare float32 GOLDEN ACTUAL   per float32 element: equal values (same-signed
 *                                   infinities too), NaN where the golden is NaN, or
 *                                   finite and |a-b| <= 1e-5*max(1,|b|); an infinity
 *                                   against a finite value or the other infinity differs
 * Prints the first mismatch; exit 0 when equal, 1 when not, 2 on usage/IO error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, long *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc((size_t)*size + 1);
  if (buf && fread(buf, 1, (size_t)*size, f) != (size_t)*size) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

/* x (actual) matches y (golden): equal (+inf == +inf, -0 == 0), both NaN, or both finite
 * within 1e-5*max(1,|y|). inf - inf is NaN, so the tolerance alone rejected equal infinities. */
static int float_close(float x, float y) {
  if (x == y) return 1;
  if (isnan(y)) return isnan(x);
  if (!isfinite(x) || !isfinite(y)) return 0;
  float tol = 1e-5f * (fabsf(y) > 1.f ? fabsf(y) : 1.f);
  return fabsf(x - y) <= tol;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "exact") && strcmp(argv[1], "float32"))) {
    fprintf(stderr, "usage: compare exact|float32 GOLDEN ACTUAL\n");
    return 2;
  }
  long gs = 0, as = 0;
  unsigned char *g = slurp(argv[2], &gs), *a = slurp(argv[3], &as);
  if (!g || !a) {
    fprintf(stderr, "cannot read %s\n", g ? argv[3] : argv[2]);
    return 2;
  }
  int rc = 0;
  if (gs != as) {
    printf("size %ld != golden %ld", as, gs);
    rc = 1;
  } else if (strcmp(argv[1], "exact") == 0) {
    long bad = 0, first = -1;
    for (long i = 0; i < gs; i++)
      if (g[i] != a[i]) {
        if (first < 0) first = i;
        bad++;
      }
    if (bad) {
      printf("%ld of %ld bytes differ; first at byte %ld: got %d want %d", bad, gs, first, (signed char)a[first],
             (signed char)g[first]);
      rc = 1;
    }
  } else {
    long n = gs / 4, bad = 0, first = -1;
    for (long i = 0; i < n; i++) {
      float x, y;
      memcpy(&x, a + 4 * i, 4);
      memcpy(&y, g + 4 * i, 4);
      if (!float_close(x, y)) {
        if (first < 0) first = i;
        bad++;
      }
    }
    if (bad) {
      float x, y;
      memcpy(&x, a + 4 * first, 4);
      memcpy(&y, g + 4 * first, 4);
      printf("%ld of %ld floats out of tolerance; first at %ld: got %.9g want %.9g", bad, n, first, (double)x, (double)y);
      rc = 1;
    }
  }
  free(g);
  free(a);
  return rc;
}
