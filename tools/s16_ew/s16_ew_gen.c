/* int16 requantising elementwise operators against the reference (issue 29; suite
 * tests/suites/s16_elementwise.sh).
 *
 *   s16_ew_gen sweep SEED N OUTDIR [--ops ADD,SUB,...] [--elems E]
 *       writes OUTDIR/model.tflite, OUTDIR/case_0/in<i>.bin and OUTDIR/outputs.txt: one
 *       .tflite holding N independent one-operator graphs, each an int16 requantising
 *       elementwise operator (ADD, SUB, MUL, SQUARED_DIFFERENCE, MAXIMUM, MINIMUM, ABS,
 *       RELU, RELU6, LEAKY_RELU, PRELU, QUANTIZE int16->int16/int8/int32, DEQUANTIZE
 *       int16->float32) with random scales (power-of-two ones and others, equal ones) and
 *       zero points where TFLite Micro allows them. Unary operators see all 65536 int16
 *       values; binary ones E pairs (default 4096): the extremes crossed, random pairs,
 *       and pairs whose real result lies within half an input step of a rounding tie
 *       (k + 0.5 output steps), where a different rounding of the multiplier or of an
 *       intermediate shows; a third of them broadcast a second input (one value, a row or
 *       a column) against all 65536 first ones ([256,256]). ADD/SUB options leave pot_scale_int16 at the schema's default
 *       (true) or, in 30 %, set it false. outputs.txt: line i describes output i ("<i> <op> <quant>").
 *       --only J writes graph J alone (the same draws as in the whole sweep): a reproducer.
 *       --cap C keeps every tensor at C elements at most (evenly spread values instead of
 *       all 65536): models small enough for the QEMU machines' memory.
 *   s16_ew_gen one OUTDIR OP S1 Z1 S2 Z2 SO ZO [PARAM]
 *       one graph with the given quantization (S2 Z2 ignored by unary operators; PARAM:
 *       fused activation of ADD/SUB/MUL, alpha of LEAKY_RELU, output dtype of QUANTIZE
 *       8/16/32), inputs as the sweep draws them (seed 1).
 *
 * Deterministic: the same arguments give the same bytes. Not part of the compiler. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../fbwriter.h"

enum { T_F32 = 0, T_I32 = 2, T_I16 = 7, T_I8 = 9 };
enum { MAX_T = 512, MAX_OPS = 128, MAX_IN = 64 };
enum {
  OP_ADD = 0, OP_DEQUANTIZE = 6, OP_MUL = 18, OP_RELU = 19, OP_RELU6 = 21, OP_SUB = 41,
  OP_PRELU = 54, OP_MAXIMUM = 55, OP_MINIMUM = 57, OP_LEAKY_RELU = 98, OP_SQUARED_DIFF = 99,
  OP_ABS = 101, OP_QUANTIZE = 114
};
enum { OT_NONE = 0, OT_ADD = 11, OT_MUL = 21, OT_SUB = 28, OT_MAXMIN = 39, OT_LEAKY_RELU = 75 };

typedef struct {
  const char *name;
  int code, opt_type;
  int arity; /* 1 or 2 */
} OpKind;

static const OpKind KINDS[] = {
    {"ADD", OP_ADD, OT_ADD, 2},           {"SUB", OP_SUB, OT_SUB, 2},
    {"MUL", OP_MUL, OT_MUL, 2},           {"SQUARED_DIFFERENCE", OP_SQUARED_DIFF, OT_NONE, 2},
    {"MAXIMUM", OP_MAXIMUM, OT_MAXMIN, 2}, {"MINIMUM", OP_MINIMUM, OT_MAXMIN, 2},
    {"ABS", OP_ABS, OT_NONE, 1},          {"RELU", OP_RELU, OT_NONE, 1},
    {"RELU6", OP_RELU6, OT_NONE, 1},      {"LEAKY_RELU", OP_LEAKY_RELU, OT_LEAKY_RELU, 1},
    {"PRELU", OP_PRELU, OT_NONE, 1},      {"QUANTIZE", OP_QUANTIZE, OT_NONE, 1},
    {"DEQUANTIZE", OP_DEQUANTIZE, OT_NONE, 1},
};
enum { N_KINDS = (int)(sizeof KINDS / sizeof KINDS[0]) };

typedef struct {
  int type, n;
  int rank;         /* 1 ([n]) unless set to 2 (dims) */
  int32_t dims[2];
  bool quant;
  float scale;
  int32_t zp;
  void *data; /* constant bytes or the input's values */
  bool is_const;
  char name[32];
} Tensor;

typedef struct {
  int code, opt_type;
  FbObj *opts;
  int in[2], nin, out;
} Op;

typedef struct {
  Tensor t[MAX_T];
  int nt;
  Op ops[MAX_OPS];
  int nops;
  int inputs[MAX_IN], nin;
  int outputs[MAX_OPS], nout;
  int codes[16], ncodes;
  char desc[MAX_OPS][200];
} Model;

/* ---- random numbers (splitmix64) ---- */
typedef struct {
  uint64_t s;
} Rng;
static uint64_t next_u64(Rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int rnd(Rng *r, int n) { return n <= 1 ? 0 : (int)(next_u64(r) % (uint64_t)n); }
static int range(Rng *r, int lo, int hi) { return lo + rnd(r, hi - lo + 1); }
static double unit(Rng *r) { return (double)(next_u64(r) >> 11) / 9007199254740992.0; }
static bool chance(Rng *r, int percent) { return rnd(r, 100) < percent; }
static float log_uniform(Rng *r, double lo, double hi) {
  return (float)exp(log(lo) + (log(hi) - log(lo)) * unit(r));
}

static void *xmalloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) abort();
  return p;
}

static size_t type_size(int type) { return type == T_I8 ? 1 : type == T_I16 ? 2 : 4; }

static int new_tensor(Model *m, int type, int n) {
  if (m->nt >= MAX_T) exit(2);
  Tensor *t = &m->t[m->nt];
  memset(t, 0, sizeof *t);
  t->type = type;
  t->n = n;
  t->rank = 1;
  t->dims[0] = n;
  snprintf(t->name, sizeof t->name, "t%d", m->nt);
  return m->nt++;
}

static void set_quant(Model *m, int ti, float scale, int32_t zp) {
  m->t[ti].quant = true;
  m->t[ti].scale = scale;
  m->t[ti].zp = zp;
}

static int input_tensor(Model *m, int n, float scale, int32_t zp) {
  if (m->nin >= MAX_IN) exit(2);
  int ti = new_tensor(m, T_I16, n);
  set_quant(m, ti, scale, zp);
  m->t[ti].data = xmalloc((size_t)n * 2);
  m->inputs[m->nin++] = ti;
  return ti;
}

static int opcode_index(Model *m, int code) {
  for (int i = 0; i < m->ncodes; i++)
    if (m->codes[i] == code) return i;
  m->codes[m->ncodes] = code;
  return m->ncodes++;
}

static int16_t sat16(double v) {
  if (!(v > -32768.0)) return -32768; /* NaN too */
  if (v > 32767.0) return 32767;
  return (int16_t)lrint(v);
}

/* ---- quantization draws ---- */

/* A scale: a power of two (30 %) or any value in [3e-6, 0.5]. */
static float draw_scale(Rng *r) {
  if (chance(r, 30)) return ldexpf(1.0f, -range(r, 1, 18));
  return log_uniform(r, 3e-6, 0.5);
}

/* An output scale near REF (ratio 1/64 .. 64; 15 % equal, 15 % a power-of-two ratio). */
static float draw_out_scale(Rng *r, float ref) {
  int k = rnd(r, 100);
  if (k < 15) return ref;
  if (k < 30) return ldexpf(ref, range(r, -6, 6));
  return ref * log_uniform(r, 1.0 / 64, 64.0);
}

/* A zero point: 0 mostly, an extreme or any value otherwise. */
static int32_t draw_zp(Rng *r) {
  int k = rnd(r, 100);
  if (k < 60) return 0;
  if (k < 70) return chance(r, 50) ? -32768 : 32767;
  return range(r, -32768, 32767);
}

/* ---- input values ---- */

/* All int16 values when n is 65536, else n of them evenly spread, both extremes included. */
static void fill_exhaustive(int16_t *v, int n) {
  for (int i = 0; i < n; i++) v[i] = (int16_t)(n >= 65536 ? i - 32768 : (int32_t)((int64_t)i * 65535 / (n - 1)) - 32768);
}

static int g_cap = 65536; /* --cap: elements per tensor at most (small models for QEMU) */

static const int16_t EXTREMES[] = {-32768, -32767, -16384, -1, 0, 1, 16383, 32766, 32767};
enum { N_EXTREMES = (int)(sizeof EXTREMES / sizeof EXTREMES[0]) };

/* Binary inputs: extremes crossed, then near-tie pairs and random pairs. The near-tie
 * pair takes a random a and the b whose real result is nearest k + 0.5 output steps. */
static void fill_binary(Rng *r, const char *op, const Tensor *ta, const Tensor *tb, const Tensor *to, int n) {
  int16_t *a = ta->data, *b = tb->data;
  int i = 0;
  for (int x = 0; x < N_EXTREMES && i < n; x++)
    for (int y = 0; y < N_EXTREMES && i < n; y++, i++) a[i] = EXTREMES[x], b[i] = EXTREMES[y];
  const double sa = ta->scale, sb = tb->scale, so = to->scale;
  for (; i < n; i++) {
    a[i] = (int16_t)range(r, -32768, 32767);
    b[i] = (int16_t)range(r, -32768, 32767);
    if (chance(r, 25)) continue;
    const double ra = (a[i] - ta->zp) * sa;
    const double k = floor((double)range(r, -32768, 32767) * (chance(r, 50) ? 1.0 : unit(r))) + 0.5;
    const double target = (k - to->zp) * so; /* the real output value at the tie */
    double rb;
    if (!strcmp(op, "ADD")) rb = target - ra;
    else if (!strcmp(op, "SUB")) rb = ra - target;
    else if (!strcmp(op, "MUL")) rb = ra != 0 ? target / ra : 0;
    else if (!strcmp(op, "SQUARED_DIFFERENCE")) rb = ra - (chance(r, 50) ? 1 : -1) * sqrt(fabs(target));
    else rb = target;
    b[i] = sat16(rb / sb + tb->zp);
  }
}

/* ---- graphs ---- */

static FbObj *act_opts(int act) {
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)act);
  return o;
}

static void add_op(Model *m, int code, int opt_type, FbObj *opts, int a, int b, int y) {
  if (m->nops >= MAX_OPS) exit(2);
  Op *op = &m->ops[m->nops++];
  memset(op, 0, sizeof *op);
  op->code = code;
  op->opt_type = opt_type;
  op->opts = opts;
  op->in[0] = a;
  op->in[1] = b;
  op->nin = b >= 0 ? 2 : 1;
  op->out = y;
  opcode_index(m, code);
  m->outputs[m->nout++] = y;
}

typedef struct {
  const OpKind *k;
  float s1, s2, so;
  int32_t z1, z2, zo;
  double param; /* fused activation, alpha or QUANTIZE's output width */
  int bcast;    /* binary: 0 same shape; the first input all 65536 values as [256,256] and the
                 * second one value (1), a row [1,256] (2) or a column [256,1] (3) */
  bool pot_off; /* ADD/SUB: options say pot_scale_int16 = false (the schema's default is true) */
} Config;

static bool is_pot(float s) {
  int e;
  return frexpf(s, &e) == 0.5f;
}

/* Draws a configuration TFLite Micro accepts for the operator. */
static void draw_config(Rng *r, const OpKind *k, Config *c) {
  memset(c, 0, sizeof *c);
  c->k = k;
  c->s1 = draw_scale(r);
  c->s2 = chance(r, 20) ? c->s1 : draw_scale(r);
  c->z1 = c->z2 = c->zo = 0;
  const char *n = k->name;
  if (k->arity == 2 && chance(r, 35)) c->bcast = range(r, 1, 3);
  if (!strcmp(n, "ADD") || !strcmp(n, "SUB")) {
    c->pot_off = chance(r, 30);
    const float mx = c->s1 > c->s2 ? c->s1 : c->s2;
    c->so = draw_out_scale(r, mx);
    if (c->so < mx / 256) c->so = mx / 256;
    /* TFLite Micro's int16 SUB aborts on input zero points other than 0, its ADD on
     * -32768 and 32767 (a DCHECK in Invoke); any output zero point */
    if (chance(r, 30)) {
      c->zo = draw_zp(r);
      if (!strcmp(n, "ADD")) c->z1 = draw_zp(r) * 30000 / 32768, c->z2 = draw_zp(r) * 30000 / 32768;
    }
    c->param = chance(r, 70) ? 0 : range(r, 1, 3);
  } else if (!strcmp(n, "MUL")) {
    c->so = draw_out_scale(r, c->s1 * c->s2 * 32768.0f);
    c->param = chance(r, 70) ? 0 : range(r, 1, 3);
  } else if (!strcmp(n, "SQUARED_DIFFERENCE")) {
    const float mx = c->s1 > c->s2 ? c->s1 : c->s2;
    c->so = draw_out_scale(r, mx * mx * 32768.0f);
  } else if (!strcmp(n, "MAXIMUM") || !strcmp(n, "MINIMUM")) { /* one shared quantization */
    c->s2 = c->so = c->s1;
    if (chance(r, 40)) c->z1 = c->z2 = c->zo = draw_zp(r);
  } else if (!strcmp(n, "RELU6")) {
    c->so = c->s1;
    if (chance(r, 40)) c->z1 = c->zo = draw_zp(r);
  } else if (!strcmp(n, "LEAKY_RELU")) {
    c->so = draw_out_scale(r, c->s1);
    if (chance(r, 40)) c->z1 = draw_zp(r), c->zo = draw_zp(r);
    c->param = chance(r, 20) ? 0.2 : chance(r, 20) ? 0.5 : 0.01 + 0.98 * unit(r);
  } else if (!strcmp(n, "QUANTIZE")) {
    const int w = rnd(r, 3); /* 16, 8, 32 */
    c->param = w == 0 ? 16 : w == 1 ? 8 : 32;
    if (chance(r, 30)) c->z1 = draw_zp(r);
    if (w == 0) c->so = draw_out_scale(r, c->s1), c->zo = chance(r, 30) ? draw_zp(r) : 0;
    else if (w == 1) c->so = c->s1 * log_uniform(r, 4.0, 1024.0), c->zo = range(r, -128, 127);
    else c->so = c->s1 * log_uniform(r, 1.0 / 16, 16.0), c->zo = 0;
  } else if (!strcmp(n, "DEQUANTIZE")) {
    if (chance(r, 30)) c->z1 = draw_zp(r);
    c->so = 0;
  } else if (!strcmp(n, "PRELU")) {
    c->so = draw_out_scale(r, c->s1);
    if (chance(r, 40)) c->z1 = draw_zp(r), c->zo = draw_zp(r);
  } else { /* ABS, RELU: TFLite Micro requires zero points 0 */
    c->so = draw_out_scale(r, c->s1);
  }
}

static void build(Model *m, Rng *r, const Config *c, int elems) {
  const char *n = c->k->name;
  const bool unary = c->k->arity == 1;
  int count = unary || c->bcast ? 65536 : elems;
  if (count > g_cap) count = g_cap;
  const int cols = count >= 256 * 64 ? 256 : 64, rows = count / cols; /* broadcast layout */
  if (c->bcast >= 2) count = rows * cols;
  const int nb = c->bcast == 0 ? count : c->bcast == 1 ? 1 : c->bcast == 2 ? cols : rows;
  int a = input_tensor(m, count, c->s1, c->z1), b = -1;
  if (!unary) b = input_tensor(m, nb, c->s2, c->z2);
  int otype = T_I16;
  if (!strcmp(n, "QUANTIZE")) otype = c->param == 8 ? T_I8 : c->param == 32 ? T_I32 : T_I16;
  if (!strcmp(n, "DEQUANTIZE")) otype = T_F32;
  int y = new_tensor(m, otype, count);
  if (otype != T_F32) set_quant(m, y, c->so, c->zo);
  if (c->bcast >= 2) {
    Tensor *ta = &m->t[a], *tb = &m->t[b], *tyy = &m->t[y];
    ta->rank = tb->rank = tyy->rank = 2;
    ta->dims[0] = tyy->dims[0] = rows, ta->dims[1] = tyy->dims[1] = cols;
    tb->dims[0] = c->bcast == 2 ? 1 : rows, tb->dims[1] = c->bcast == 2 ? cols : 1;
  }
  if (unary) fill_exhaustive(m->t[a].data, count);
  else if (c->bcast) {
    fill_exhaustive(m->t[a].data, count);
    int16_t *bv = m->t[b].data;
    for (int i = 0; i < nb; i++)
      bv[i] = chance(r, 30) ? EXTREMES[rnd(r, N_EXTREMES)] : (int16_t)range(r, -32768, 32767);
  } else fill_binary(r, n, &m->t[a], &m->t[b], &m->t[y], count);
  FbObj *opts = NULL;
  if (!strcmp(n, "ADD") || !strcmp(n, "SUB") || !strcmp(n, "MUL")) {
    opts = act_opts((int)c->param);
    if (c->pot_off) fbw_u8(opts, 1, 0);
  } else if (!strcmp(n, "MAXIMUM") || !strcmp(n, "MINIMUM")) opts = fbw_table();
  else if (!strcmp(n, "LEAKY_RELU")) {
    opts = fbw_table();
    fbw_f32(opts, 0, (float)c->param);
  } else if (!strcmp(n, "PRELU")) { /* int8 alpha, one value, broadcast */
    int8_t av = (int8_t)range(r, -128, 127);
    b = new_tensor(m, T_I8, 1);
    m->t[b].is_const = true;
    m->t[b].data = xmalloc(1);
    memcpy(m->t[b].data, &av, 1);
    set_quant(m, b, log_uniform(r, 0.001, 0.02), range(r, -20, 20));
  }
  add_op(m, c->k->code, opts ? c->k->opt_type : OT_NONE, opts, a, b, y);
  char second[64] = "";
  if (!unary) snprintf(second, sizeof second, " %.9g/%d", c->s2, c->z2);
  snprintf(m->desc[m->nops - 1], sizeof m->desc[0], "%s in %.9g/%d%s out %.9g/%d param %g%s%s%s", n, c->s1, c->z1,
           second, c->so, c->zo, c->param, is_pot(c->s1) || (!unary && is_pot(c->s2)) ? " pot" : "",
           c->bcast == 1 ? " broadcast scalar" : c->bcast == 2 ? " broadcast row" : c->bcast == 3 ? " broadcast column" : "", c->pot_off ? " pot_scale_int16=false" : "");
}

/* ---- serialization ---- */

static FbObj *tensor_obj(const Tensor *t, uint32_t buffer) {
  FbObj *o = fbw_table();
  fbw_obj(o, 0, fbw_i32_vec(t->dims, (size_t)t->rank));
  fbw_u8(o, 1, (uint8_t)t->type);
  fbw_u32(o, 2, buffer);
  fbw_obj(o, 3, fbw_string(t->name));
  if (t->quant) {
    float sc = t->scale;
    int64_t zp = t->zp;
    FbObj *q = fbw_table();
    fbw_obj(q, 2, fbw_f32_vec(&sc, 1));
    fbw_obj(q, 3, fbw_i64_vec(&zp, 1));
    fbw_obj(o, 4, q);
  }
  return o;
}

static size_t serialize(Model *m, uint8_t **bytes) {
  FbObj *tensors[MAX_T], *buffers[MAX_T + 1], *ops[MAX_OPS], *codes[16];
  int nbuf = 0;
  buffers[nbuf++] = fbw_table();
  for (int i = 0; i < m->nt; i++) {
    uint32_t b = 0;
    if (m->t[i].is_const) {
      FbObj *buf = fbw_table();
      fbw_obj(buf, 0, fbw_bytes(m->t[i].data, (size_t)m->t[i].n * type_size(m->t[i].type), 16));
      b = (uint32_t)nbuf;
      buffers[nbuf++] = buf;
    }
    tensors[i] = tensor_obj(&m->t[i], b);
  }
  for (int i = 0; i < m->nops; i++) {
    const Op *op = &m->ops[i];
    FbObj *o = fbw_table();
    fbw_u32(o, 0, (uint32_t)opcode_index(m, op->code));
    fbw_obj(o, 1, fbw_i32_vec(op->in, (size_t)op->nin));
    fbw_obj(o, 2, fbw_i32_vec(&op->out, 1));
    if (op->opt_type != OT_NONE && op->opts) {
      fbw_u8(o, 3, (uint8_t)op->opt_type);
      fbw_obj(o, 4, op->opts);
    }
    ops[i] = o;
  }
  for (int i = 0; i < m->ncodes; i++) {
    codes[i] = fbw_table();
    fbw_u8(codes[i], 0, (uint8_t)(m->codes[i] < 127 ? m->codes[i] : 127));
    fbw_i32(codes[i], 2, 1);
    fbw_i32(codes[i], 3, m->codes[i]);
  }
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(tensors, (size_t)m->nt));
  fbw_obj(sg, 1, fbw_i32_vec(m->inputs, (size_t)m->nin));
  fbw_obj(sg, 2, fbw_i32_vec(m->outputs, (size_t)m->nout));
  fbw_obj(sg, 3, fbw_obj_vec(ops, (size_t)m->nops));
  fbw_obj(sg, 4, fbw_string("main"));
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(codes, (size_t)m->ncodes));
  fbw_obj(model, 2, fbw_obj_vec(&sg, 1));
  fbw_obj(model, 3, fbw_string("tinyaot s16_ew_gen"));
  fbw_obj(model, 4, fbw_obj_vec(buffers, (size_t)nbuf));
  return fbw_finish(model, "TFL3", bytes);
}

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "s16_ew_gen: cannot write %s\n", path);
    exit(2);
  }
}

static void write_model(Model *m, const char *dir) {
  char path[1024];
  mkdir(dir, 0777);
  snprintf(path, sizeof path, "%s/case_0", dir);
  mkdir(path, 0777);
  uint8_t *bytes;
  size_t len = serialize(m, &bytes);
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  write_file(path, bytes, len);
  free(bytes);
  for (int i = 0; i < m->nin; i++) {
    const Tensor *t = &m->t[m->inputs[i]];
    snprintf(path, sizeof path, "%s/case_0/in%d.bin", dir, i);
    write_file(path, t->data, (size_t)t->n * 2);
  }
  snprintf(path, sizeof path, "%s/outputs.txt", dir);
  FILE *f = fopen(path, "w");
  if (!f) exit(2);
  for (int i = 0; i < m->nout; i++) fprintf(f, "%d %s\n", i, m->desc[i]);
  fclose(f);
}

static const OpKind *find_kind(const char *name) {
  for (int i = 0; i < N_KINDS; i++)
    if (!strcmp(KINDS[i].name, name)) return &KINDS[i];
  return NULL;
}

static int usage(void) {
  fprintf(stderr, "usage: s16_ew_gen sweep SEED N OUTDIR [--ops OP,OP,...] [--elems E] [--only J] [--cap C]\n"
                  "       s16_ew_gen one OUTDIR OP S1 Z1 S2 Z2 SO ZO [PARAM]\n");
  return 2;
}

static Model g_model, g_scratch;

int main(int argc, char **argv) {
  Model *m = &g_model;
  if (argc >= 10 && !strcmp(argv[1], "one")) {
    Config c = {0};
    c.k = find_kind(argv[3]);
    if (!c.k) return usage();
    c.s1 = strtof(argv[4], NULL), c.z1 = atoi(argv[5]), c.s2 = strtof(argv[6], NULL), c.z2 = atoi(argv[7]);
    c.so = strtof(argv[8], NULL), c.zo = atoi(argv[9]);
    c.param = argc > 10 ? atof(argv[10]) : (!strcmp(argv[3], "QUANTIZE") ? 16 : 0);
    Rng r = {1};
    build(m, &r, &c, 4096);
    write_model(m, argv[2]);
    return 0;
  }
  if (argc < 5 || strcmp(argv[1], "sweep") != 0) return usage();
  const uint64_t seed = strtoull(argv[2], NULL, 10);
  const int n = atoi(argv[3]);
  const char *dir = argv[4];
  const OpKind *pick[N_KINDS];
  int npick = 0, elems = 4096, only = -1;
  for (int i = 5; i < argc; i++) {
    if (!strcmp(argv[i], "--ops") && i + 1 < argc) {
      char buf[512];
      snprintf(buf, sizeof buf, "%s", argv[++i]);
      for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        const OpKind *k = find_kind(tok);
        if (!k) {
          fprintf(stderr, "s16_ew_gen: unknown operator %s\n", tok);
          return 2;
        }
        if (npick < N_KINDS) pick[npick++] = k;
      }
    } else if (!strcmp(argv[i], "--elems") && i + 1 < argc) elems = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--cap") && i + 1 < argc) g_cap = atoi(argv[++i]) > 2 ? atoi(argv[i]) : 2;
    else return usage();
  }
  if (!npick)
    for (int i = 0; i < N_KINDS; i++) pick[npick++] = &KINDS[i];
  Rng r = {seed * 0x100000001B3ull + 7};
  for (int g = 0; g < n; g++) {
    const OpKind *k = pick[g % npick];
    if (m->nin + k->arity > MAX_IN || m->nops >= MAX_OPS) break;
    Config c;
    draw_config(&r, k, &c);
    if (only >= 0 && g != only) { /* drawn and dropped: graph J's draws do not depend on --only */
      memset(&g_scratch, 0, sizeof g_scratch);
      build(&g_scratch, &r, &c, elems);
      continue;
    }
    build(m, &r, &c, elems);
  }
  write_model(m, dir);
  printf("graphs %d\n", m->nops);
  return 0;
}
