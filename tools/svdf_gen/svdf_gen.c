/* int8 SVDF case generator (issue 32: the SVDF tiers' proof).
 *
 *   svdf_gen SEED OUTDIR SPEC...
 *
 * writes OUTDIR/model.tflite holding one independent SVDF per SPEC (input i and output i
 * belong to SVDF i) and OUTDIR/case_0/in<i>.bin, random int8 inputs. A SPEC is
 * "b,r,i,u,m[,zp]": batches, rank, input size, units, memory size, and zp 1 for a
 * non-zero state zero point. Every SVDF is TFLM's integer form with an int16 state:
 * int8 input and output, per-tensor int8 feature weights, int16 time weights and
 * state, an int32 bias of scale state x time weights. Scales are drawn so that the
 * state spreads from well inside to past the int16 range (saturation) and the outputs
 * from inside to past the int8 range; the time weights are sized so that a unit's sum
 * stays within int32. The same SEED and SPECs give the same bytes. Not part of the
 * compiler. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fbwriter.h"

enum { T_I32 = 2, T_I16 = 7, T_I8 = 9 };
enum { OP_SVDF = 27, OT_SVDF = 6 };
enum { MAX_SVDF = 32, MAX_T = MAX_SVDF * 6 };

typedef struct {
  int type, rank;
  int32_t dims[2];
  float scale;
  int64_t zp;
  void *data;
  size_t bytes;
  int variable;
  char name[32];
} Tensor;

typedef struct {
  Tensor t[MAX_T];
  int nt;
  int32_t in[MAX_SVDF][5], out[MAX_SVDF], rank[MAX_SVDF];
  int n;
  int32_t inputs[MAX_SVDF];
} Model;

static uint64_t rng_state;
static uint64_t next_u64(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int range(int lo, int hi) { return lo + (int)(next_u64() % (uint64_t)(hi - lo + 1)); }
static double unit(void) { return (double)(next_u64() >> 11) / 9007199254740992.0; }
static float log_uniform(double lo, double hi) { return (float)exp(log(lo) + (log(hi) - log(lo)) * unit()); }

static void *xmalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    fprintf(stderr, "svdf_gen: out of memory\n");
    exit(2);
  }
  return p;
}

static int new_tensor(Model *m, const char *name, int type, int rank, const int32_t *dims, float scale, int64_t zp) {
  if (m->nt >= MAX_T) {
    fprintf(stderr, "svdf_gen: too many tensors\n");
    exit(2);
  }
  Tensor *t = &m->t[m->nt];
  memset(t, 0, sizeof *t);
  t->type = type, t->rank = rank, t->scale = scale, t->zp = zp;
  memcpy(t->dims, dims, sizeof(int32_t) * (size_t)rank);
  snprintf(t->name, sizeof t->name, "s%d_%s", m->n, name);
  return m->nt++;
}

static size_t elems(const Tensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= (size_t)t->dims[i];
  return n;
}

static int const_tensor(Model *m, const char *name, int type, int rows, int cols, float scale, int32_t lim) {
  const int32_t dims[2] = {rows, cols};
  const int ti = new_tensor(m, name, type, cols ? 2 : 1, dims, scale, 0);
  Tensor *t = &m->t[ti];
  const size_t n = elems(t), size = type == T_I8 ? 1u : type == T_I16 ? 2u : 4u;
  t->bytes = n * size;
  t->data = xmalloc(t->bytes);
  for (size_t k = 0; k < n; k++) {
    const int32_t v = (int32_t)((unit() * 2.0 - 1.0) * (double)lim);
    if (type == T_I8) ((int8_t *)t->data)[k] = (int8_t)v;
    else if (type == T_I16) ((int16_t *)t->data)[k] = (int16_t)v;
    else ((int32_t *)t->data)[k] = v;
  }
  return ti;
}

/* One SVDF: tensors, a random int8 input file, its 5 operand indices. */
static void add_svdf(Model *m, const char *spec, const char *dir) {
  int b, r, isz, u, mem, zp = 0;
  const int fields = sscanf(spec, "%d,%d,%d,%d,%d,%d", &b, &r, &isz, &u, &mem, &zp);
  if (fields < 5 || b < 1 || r < 1 || isz < 1 || u < 1 || mem < 1 || m->n >= MAX_SVDF) {
    fprintf(stderr, "svdf_gen: bad SPEC '%s' (want b,r,i,u,m[,zp]) or more than %d\n", spec, MAX_SVDF);
    exit(2);
  }
  const int f = u * r;
  const float in_scale = log_uniform(0.002, 0.1);
  const int64_t in_zp = range(-128, 127);
  const float wf_scale = log_uniform(0.001, 0.05);
  /* the state's spread: a feature sum's typical size, in state units */
  const double state_spread = log_uniform(300.0, 80000.0);
  const float state_scale = (float)(in_scale * wf_scale * 73.0 * 73.0 * sqrt((double)isz) / state_spread);
  const int64_t state_zp = zp ? range(-300, 300) : 0;
  const double s_typ = state_spread < 20000.0 ? state_spread : 20000.0;
  double wt_lim = 5.0e8 / (s_typ * sqrt((double)(r * mem)) + 1.0);
  wt_lim = wt_lim < 32767.0 ? wt_lim : 32767.0;
  wt_lim = wt_lim > 1.0 ? log_uniform(1.0, wt_lim) : 1.0;
  const float wt_scale = log_uniform(0.0005, 0.02);
  const double sum_typ = s_typ * wt_lim * 0.58 * sqrt((double)(r * mem)) + 1.0;
  const float out_scale = (float)((double)state_scale * wt_scale * sum_typ / log_uniform(10.0, 400.0));
  int32_t *ix = m->in[m->n];
  const int32_t in_dims[2] = {b, isz};
  ix[0] = new_tensor(m, "input", T_I8, 2, in_dims, in_scale, in_zp);
  m->inputs[m->n] = ix[0];
  ix[1] = const_tensor(m, "weights_feature", T_I8, f, isz, wf_scale, 127);
  ix[2] = const_tensor(m, "weights_time", T_I16, f, mem, wt_scale, (int32_t)wt_lim);
  ix[3] = const_tensor(m, "bias", T_I32, u, 0, state_scale * wt_scale, (int32_t)(sum_typ < 1e9 ? sum_typ : 1e9));
  const int32_t state_dims[2] = {b, mem * f};
  ix[4] = new_tensor(m, "state", T_I16, 2, state_dims, state_scale, state_zp);
  m->t[ix[4]].variable = 1;
  const int32_t out_dims[2] = {b, u};
  m->out[m->n] = new_tensor(m, "output", T_I8, 2, out_dims, out_scale, range(-128, 127));
  m->rank[m->n] = r;
  {
    char path[4096];
    const size_t n = (size_t)b * (size_t)isz;
    int8_t *x = xmalloc(n);
    for (size_t i = 0; i < n; i++) x[i] = (int8_t)range(-128, 127);
    snprintf(path, sizeof path, "%s/case_0/in%d.bin", dir, m->n);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(x, 1, n, fp) != n || fclose(fp) != 0) {
      fprintf(stderr, "svdf_gen: cannot write %s\n", path);
      exit(2);
    }
    free(x);
  }
  m->n++;
}

static FbObj *tensor_obj(const Tensor *t, uint32_t buffer) {
  FbObj *o = fbw_table();
  fbw_obj(o, 0, fbw_i32_vec(t->dims, (size_t)t->rank));
  fbw_u8(o, 1, (uint8_t)t->type);
  fbw_u32(o, 2, buffer);
  fbw_obj(o, 3, fbw_string(t->name));
  FbObj *q = fbw_table();
  fbw_obj(q, 2, fbw_f32_vec(&t->scale, 1));
  fbw_obj(q, 3, fbw_i64_vec(&t->zp, 1));
  fbw_obj(o, 4, q);
  if (t->variable) fbw_u8(o, 5, 1);
  return o;
}

static size_t serialize(const Model *m, uint8_t **bytes) {
  FbObj **tensors = xmalloc(sizeof(FbObj *) * (size_t)m->nt);
  FbObj **buffers = xmalloc(sizeof(FbObj *) * (size_t)(m->nt + 1));
  int nbuf = 0;
  buffers[nbuf++] = fbw_table();
  for (int i = 0; i < m->nt; i++) {
    uint32_t b = 0;
    if (m->t[i].data) {
      FbObj *buf = fbw_table();
      fbw_obj(buf, 0, fbw_bytes(m->t[i].data, m->t[i].bytes, 16));
      b = (uint32_t)nbuf;
      buffers[nbuf++] = buf;
    }
    tensors[i] = tensor_obj(&m->t[i], b);
  }
  FbObj *ops[MAX_SVDF];
  for (int i = 0; i < m->n; i++) {
    FbObj *o = fbw_table(), *opts = fbw_table();
    fbw_u32(o, 0, 0);
    fbw_obj(o, 1, fbw_i32_vec(m->in[i], 5));
    fbw_obj(o, 2, fbw_i32_vec(&m->out[i], 1));
    fbw_i32(opts, 0, m->rank[i]);
    fbw_u8(o, 3, OT_SVDF);
    fbw_obj(o, 4, opts);
    ops[i] = o;
  }
  const FbwGraph g = {.op = OP_SVDF, .tensors = tensors, .ops = ops, .buffers = buffers, .n_tensors = m->nt,
                       .n_ops = m->n, .n_buffers = nbuf, .inputs = m->inputs, .outputs = m->out,
                       .n_inputs = m->n, .n_outputs = m->n, .description = "tinyaot svdf_gen"};
  size_t len = fbw_one_op_model(&g, bytes);
  free(tensors);
  free(buffers);
  return len;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: svdf_gen SEED OUTDIR SPEC...  (SPEC: b,r,i,u,m[,zp])\n");
    return 2;
  }
  rng_state = strtoull(argv[1], NULL, 10);
  const char *dir = argv[2];
  char path[4096];
  snprintf(path, sizeof path, "%s/case_0", dir);
  mkdir(dir, 0777);
  mkdir(path, 0777);
  static Model m;
  for (int i = 3; i < argc; i++) add_svdf(&m, argv[i], dir);
  uint8_t *bytes = NULL;
  size_t len = serialize(&m, &bytes);
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  if (fbw_write_file("svdf_gen", path, bytes, len) != 0) return 2;
  free(bytes);
  printf("svdfs %d\n", m.n);
  return 0;
}
