/* int8 UNIDIRECTIONAL_SEQUENCE_LSTM case generator (issue 32: the LSTM tiers' proof).
 *
 *   lstm_gen SEED OUTDIR SPEC...
 *
 * writes OUTDIR/model.tflite holding one independent LSTM per SPEC (input i and output i
 * belong to LSTM i) and OUTDIR/case_0/in<i>.bin, random int8 inputs. A SPEC is
 * "tm,b,t,i,s,clip[,big]": time major (0/1), batches, time steps, input size, units
 * (state size), cell_clip (0 for none; a float), and big 1 for int32 biases up to +-2^30
 * on gates 0 and 2 (sums too large for the tiers' short requantisation). Every LSTM is TFLM's standard integer form
 * (no CIFG, peephole, projection or layer norm): int8 input, hidden state and output
 * (one scale and zero point), per-tensor symmetric int8 weights, int32 biases, an int16
 * cell state of a power-of-two scale (2^-9 .. 2^-14). Scales are drawn so that the gate
 * pre-activations spread from well inside to well past the Q3.12 range (saturation).
 * The same SEED and SPECs give the same bytes. Not part of the compiler. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fbwriter.h"

enum { T_I32 = 2, T_I16 = 7, T_I8 = 9 };
enum { OP_LSTM = 44, OT_LSTM = 71, ACT_TANH = 4 };
enum { MAX_LSTM = 32, MAX_T = MAX_LSTM * 20 };

typedef struct {
  int type, rank;
  int32_t dims[3];
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
  int32_t in[MAX_LSTM][24], out[MAX_LSTM];
  int time_major[MAX_LSTM];
  float clip[MAX_LSTM];
  int n;
  int32_t inputs[MAX_LSTM];
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
    fprintf(stderr, "lstm_gen: out of memory\n");
    exit(2);
  }
  return p;
}

static int new_tensor(Model *m, const char *name, int type, int rank, const int32_t *dims, float scale, int64_t zp) {
  if (m->nt >= MAX_T) {
    fprintf(stderr, "lstm_gen: too many tensors\n");
    exit(2);
  }
  Tensor *t = &m->t[m->nt];
  memset(t, 0, sizeof *t);
  t->type = type, t->rank = rank, t->scale = scale, t->zp = zp;
  memcpy(t->dims, dims, sizeof(int32_t) * (size_t)rank);
  snprintf(t->name, sizeof t->name, "l%d_%s", m->n, name);
  return m->nt++;
}

static size_t elems(const Tensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= (size_t)t->dims[i];
  return n;
}

static int weights(Model *m, const char *name, int rows, int cols, float scale) {
  const int32_t dims[2] = {rows, cols};
  int ti = new_tensor(m, name, T_I8, 2, dims, scale, 0);
  Tensor *t = &m->t[ti];
  t->bytes = elems(t);
  int8_t *w = xmalloc(t->bytes);
  for (size_t i = 0; i < t->bytes; i++) w[i] = (int8_t)range(-127, 127);
  t->data = w;
  return ti;
}

static int bias(Model *m, const char *name, int n, float scale, double spread) {
  const int32_t dims[1] = {n};
  int ti = new_tensor(m, name, T_I32, 1, dims, scale, 0);
  Tensor *t = &m->t[ti];
  t->bytes = (size_t)n * 4u;
  int32_t *b = xmalloc(t->bytes);
  const double lim = spread / (double)scale;
  for (int i = 0; i < n; i++) b[i] = (int32_t)((unit() * 2.0 - 1.0) * (lim < 1e9 ? lim : 1e9));
  t->data = b;
  return ti;
}

/* One LSTM: tensors, a random int8 input file, its 24 operand indices. */
static void add_lstm(Model *m, const char *spec, const char *dir) {
  int tm, b, steps, isz, s, big = 0;
  float clip;
  const int fields = sscanf(spec, "%d,%d,%d,%d,%d,%f,%d", &tm, &b, &steps, &isz, &s, &clip, &big);
  if (fields < 6 || b < 1 || steps < 1 || isz < 1 || s < 1 || clip < 0.0f || m->n >= MAX_LSTM) {
    fprintf(stderr, "lstm_gen: bad SPEC '%s' (want tm,b,t,i,s,clip[,big]) or more than %d\n", spec, MAX_LSTM);
    exit(2);
  }
  const float in_scale = log_uniform(0.002, 0.1);
  const int64_t in_zp = range(-128, 127);
  const float h_scale = log_uniform(1.0 / 256.0, 1.0 / 40.0);
  const int64_t h_zp = range(-128, 127) / (range(0, 3) == 0 ? 1 : 8);
  const float c_scale = ldexpf(1.0f, -range(9, 14));
  int32_t *ix = m->in[m->n];
  for (int i = 0; i < 24; i++) ix[i] = -1;
  const int32_t in_dims[3] = {tm ? steps : b, tm ? b : steps, isz};
  ix[0] = new_tensor(m, "input", T_I8, 3, in_dims, in_scale, in_zp);
  m->inputs[m->n] = ix[0];
  static const char *gate[4] = {"i", "f", "c", "o"};
  for (int g = 0; g < 4; g++) {
    char name[16];
    /* the float spread of a gate's sums, in Q3.12 units of 1 (saturates past 8) */
    const double spread_in = log_uniform(0.25, 24.0), spread_rec = log_uniform(0.25, 24.0);
    const float w_in = (float)(spread_in / (in_scale * 73.0 * 73.0 * sqrt((double)isz)));
    const float w_rec = (float)(spread_rec / (h_scale * 73.0 * 73.0 * sqrt((double)s)));
    snprintf(name, sizeof name, "w_in_%s", gate[g]);
    ix[1 + g] = weights(m, name, s, isz, w_in);
    snprintf(name, sizeof name, "w_rec_%s", gate[g]);
    ix[5 + g] = weights(m, name, s, s, w_rec);
    snprintf(name, sizeof name, "bias_%s", gate[g]);
    ix[12 + g] = bias(m, name, s, in_scale * w_in, 0.5 * spread_in);
    if (big && g % 2 == 0) { /* int32 biases up to +-2^30: sums past the tiers' short requantisation */
      int32_t *bv = m->t[ix[12 + g]].data;
      for (int k = 0; k < s; k++) bv[k] = (int32_t)((unit() * 2.0 - 1.0) * 1073741823.0);
    }
  }
  const int32_t state_dims[2] = {b, s};
  ix[18] = new_tensor(m, "hidden", T_I8, 2, state_dims, h_scale, h_zp);
  ix[19] = new_tensor(m, "cell", T_I16, 2, state_dims, c_scale, 0);
  m->t[ix[18]].variable = m->t[ix[19]].variable = 1;
  const int32_t out_dims[3] = {in_dims[0], in_dims[1], s};
  m->out[m->n] = new_tensor(m, "output", T_I8, 3, out_dims, h_scale, h_zp);
  m->time_major[m->n] = tm;
  m->clip[m->n] = clip;
  {
    char path[4096];
    const size_t n = (size_t)in_dims[0] * (size_t)in_dims[1] * (size_t)isz;
    int8_t *x = xmalloc(n);
    for (size_t i = 0; i < n; i++) x[i] = (int8_t)range(-128, 127);
    snprintf(path, sizeof path, "%s/case_0/in%d.bin", dir, m->n);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(x, 1, n, f) != n || fclose(f) != 0) {
      fprintf(stderr, "lstm_gen: cannot write %s\n", path);
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
  FbObj *ops[MAX_LSTM];
  for (int i = 0; i < m->n; i++) {
    FbObj *o = fbw_table(), *opts = fbw_table();
    fbw_u32(o, 0, 0);
    fbw_obj(o, 1, fbw_i32_vec(m->in[i], 24));
    fbw_obj(o, 2, fbw_i32_vec(&m->out[i], 1));
    fbw_u8(opts, 0, ACT_TANH);
    fbw_f32(opts, 1, m->clip[i]);
    fbw_u8(opts, 3, (uint8_t)m->time_major[i]);
    fbw_u8(o, 3, OT_LSTM);
    fbw_obj(o, 4, opts);
    ops[i] = o;
  }
  const FbwGraph g = {.op = OP_LSTM, .tensors = tensors, .ops = ops, .buffers = buffers, .n_tensors = m->nt,
                       .n_ops = m->n, .n_buffers = nbuf, .inputs = m->inputs, .outputs = m->out,
                       .n_inputs = m->n, .n_outputs = m->n, .description = "tinyaot lstm_gen"};
  size_t len = fbw_one_op_model(&g, bytes);
  free(tensors);
  free(buffers);
  return len;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: lstm_gen SEED OUTDIR SPEC...  (SPEC: tm,b,t,i,s,clip[,big])\n");
    return 2;
  }
  rng_state = strtoull(argv[1], NULL, 10);
  const char *dir = argv[2];
  char path[4096];
  snprintf(path, sizeof path, "%s/case_0", dir);
  mkdir(dir, 0777);
  mkdir(path, 0777);
  static Model m;
  for (int i = 3; i < argc; i++) add_lstm(&m, argv[i], dir);
  uint8_t *bytes = NULL;
  size_t len = serialize(&m, &bytes);
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  if (fbw_write_file("lstm_gen", path, bytes, len) != 0) return 2;
  free(bytes);
  printf("lstms %d\n", m.n);
  return 0;
}
