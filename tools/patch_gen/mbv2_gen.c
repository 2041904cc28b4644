/* mbv2_gen: writes a MobileNetV2-like int8 model with random weights (issue 17 item 4's
 * "224x224 MobileNet-class model"), for tests/suites/patch.sh.
 *
 * usage: mbv2_gen OUT.tflite [SIZE [SEED [IN.bin]]]   (SIZE: input height = width, default
 * 224; IN.bin: also write a random input for it, from the same seed)
 *
 * Graph: CONV_2D 3x3 s2 (3 -> 32, RELU6); block t=1 (DEPTHWISE 3x3, 1x1 -> 16); then
 * inverted residual blocks (1x1 expand x6 RELU6, DEPTHWISE 3x3 RELU6, 1x1 project) of
 * (24, s2), (24, s1, ADD), (32, s2), (32, s1, ADD); AVERAGE_POOL_2D over the image;
 * FULLY_CONNECTED 32 -> 10. Outputs: the logits and block (24, s1)'s sum, whole (so a
 * test compares a large tensor). Activations int8 (the input's zero point -128 to 127),
 * weights int8 per channel, biases int32. Deterministic for a seed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbwriter.h"

enum { MAX_T = 128, MAX_OPS = 64 };
enum { OP_ADD = 0, OP_AVG_POOL = 1, OP_CONV = 3, OP_DW = 4, OP_FC = 9 };
enum { OT_CONV = 1, OT_DW = 2, OT_POOL = 5, OT_FC = 8, OT_ADD = 11 };
enum { T_I32 = 2, T_I8 = 9 };
enum { PAD_SAME = 0, PAD_VALID = 1, ACT_NONE = 0, ACT_RELU6 = 3 };

typedef struct T {
  int type, rank;
  int32_t dims[4];
  void *data;
  size_t bytes;
  int nch;
  float scale[512];
  int64_t zp;
  int qdim;
  char name[80];
} T;

typedef struct Op {
  int code, opt_type;
  FbObj *opts;
  int in[3], nin, out;
} Op;

typedef struct G {
  T t[MAX_T];
  int nt;
  Op ops[MAX_OPS];
  int nops;
  uint64_t rng;
} G;

static uint64_t next(G *g) {
  uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static int irange(G *g, int lo, int hi) { return lo + (int)(next(g) % (uint64_t)(hi - lo + 1)); }
static double unit(G *g) { return (double)(next(g) >> 11) / 9007199254740992.0; }

static int tensor(G *g, int type, int rank, const int32_t *dims, const char *name) {
  if (g->nt >= MAX_T) exit(2);
  T *t = &g->t[g->nt];
  memset(t, 0, sizeof *t);
  t->type = type;
  t->rank = rank;
  memcpy(t->dims, dims, sizeof(int32_t) * (size_t)rank);
  snprintf(t->name, sizeof t->name, "%s", name);
  return g->nt++;
}

static int act(G *g, int h, int w, int c, float scale, int zp, const char *name) {
  int32_t d[4] = {1, h, w, c};
  int t = tensor(g, T_I8, 4, d, name);
  g->t[t].nch = 1;
  g->t[t].scale[0] = scale;
  g->t[t].zp = zp;
  return t;
}

/* Per-channel weight scales about `base` (0.8x to 1.2x). */
static int weights(G *g, int rank, const int32_t *dims, int qdim, float base, const char *name) {
  int t = tensor(g, T_I8, rank, dims, name);
  T *w = &g->t[t];
  size_t n = 1;
  for (int i = 0; i < rank; i++) n *= (size_t)dims[i];
  int8_t *v = malloc(n);
  for (size_t i = 0; i < n; i++) v[i] = (int8_t)irange(g, -127, 127);
  w->data = v;
  w->bytes = n;
  w->nch = dims[qdim];
  w->qdim = qdim;
  for (int c = 0; c < w->nch; c++) w->scale[c] = base * (float)(0.8 + 0.4 * unit(g));
  return t;
}

static int bias(G *g, int x, int w, int n, const char *name) {
  int32_t d[1] = {n};
  int t = tensor(g, T_I32, 1, d, name);
  T *b = &g->t[t];
  int32_t *v = malloc(sizeof(int32_t) * (size_t)n);
  for (int i = 0; i < n; i++) v[i] = irange(g, -2000, 2000);
  b->data = v;
  b->bytes = sizeof(int32_t) * (size_t)n;
  b->nch = n;
  for (int c = 0; c < n; c++) b->scale[c] = g->t[x].scale[0] * g->t[w].scale[c];
  return t;
}

static Op *op(G *g, int code, int opt_type, FbObj *o, int a, int b, int c, int y) {
  Op *p = &g->ops[g->nops++];
  p->code = code, p->opt_type = opt_type, p->opts = o;
  p->in[0] = a, p->in[1] = b, p->in[2] = c;
  p->nin = c >= 0 ? 3 : b >= 0 ? 2 : 1;
  p->out = y;
  return p;
}

/* Activations keep a scale of 0.02-0.04 (RELU6's 6 stays above the int8 range); the
 * weights' scale makes an accumulator of depth k (|q| about 70 x 70 x sqrt(k)) span it. */
static float act_scale(G *g) { return (float)(0.02 + 0.02 * unit(g)); }
static float weight_base(G *g, int x, float ys, int k) { return ys / (g->t[x].scale[0] * 60.0f * sqrtf((float)k)); }

static int conv(G *g, int x, int cout, int k, int stride, int relu6, const char *name) {
  const T *t = &g->t[x];
  const int cin = t->dims[3], h = (t->dims[1] + stride - 1) / stride, wd = (t->dims[2] + stride - 1) / stride;
  char nm[64];
  int32_t d[4] = {cout, k, k, cin};
  snprintf(nm, sizeof nm, "%.40s/w", name);
  const float ys = act_scale(g);
  int w = weights(g, 4, d, 0, weight_base(g, x, ys, k * k * cin), nm);
  snprintf(nm, sizeof nm, "%.40s/b", name);
  int b = bias(g, x, w, cout, nm);
  int y = act(g, h, wd, cout, ys, relu6 ? -128 : irange(g, -20, 20), name);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, PAD_SAME);
  fbw_i32(o, 1, stride);
  fbw_i32(o, 2, stride);
  fbw_u8(o, 3, (uint8_t)(relu6 ? ACT_RELU6 : ACT_NONE));
  op(g, OP_CONV, OT_CONV, o, x, w, b, y);
  return y;
}

static int dwconv(G *g, int x, int stride, const char *name) {
  const T *t = &g->t[x];
  const int c = t->dims[3], h = (t->dims[1] + stride - 1) / stride, wd = (t->dims[2] + stride - 1) / stride;
  char nm[64];
  int32_t d[4] = {1, 3, 3, c};
  snprintf(nm, sizeof nm, "%.40s/w", name);
  const float ys = act_scale(g);
  int w = weights(g, 4, d, 3, weight_base(g, x, ys, 9), nm);
  snprintf(nm, sizeof nm, "%.40s/b", name);
  int b = bias(g, x, w, c, nm);
  int y = act(g, h, wd, c, ys, -128, name);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, PAD_SAME);
  fbw_i32(o, 1, stride);
  fbw_i32(o, 2, stride);
  fbw_i32(o, 3, 1);
  fbw_u8(o, 4, ACT_RELU6);
  op(g, OP_DW, OT_DW, o, x, w, b, y);
  return y;
}

static int block(G *g, int x, int t, int cout, int stride, const char *name) {
  char nm[64];
  int h = x;
  if (t > 1) {
    snprintf(nm, sizeof nm, "%.40s/expand", name);
    h = conv(g, x, g->t[x].dims[3] * t, 1, 1, 1, nm);
  }
  snprintf(nm, sizeof nm, "%.40s/dw", name);
  h = dwconv(g, h, stride, nm);
  snprintf(nm, sizeof nm, "%.40s/project", name);
  int y = conv(g, h, cout, 1, 1, 0, nm);
  if (stride != 1 || g->t[x].dims[3] != cout) return y;
  snprintf(nm, sizeof nm, "%.40s/add", name);
  const T *ty = &g->t[y];
  int s = act(g, ty->dims[1], ty->dims[2], cout, act_scale(g) * 1.5f, irange(g, -10, 10), nm);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, ACT_NONE);
  op(g, OP_ADD, OT_ADD, o, x, y, -1, s);
  return s;
}

static FbObj *tensor_obj(const T *t, uint32_t buffer) {
  FbObj *o = fbw_table();
  fbw_obj(o, 0, fbw_i32_vec(t->dims, (size_t)t->rank));
  fbw_u8(o, 1, (uint8_t)t->type);
  fbw_u32(o, 2, buffer);
  fbw_obj(o, 3, fbw_string(t->name));
  if (t->nch > 0) {
    int64_t zp[512];
    for (int c = 0; c < t->nch; c++) zp[c] = t->nch > 1 || t->type != T_I8 || t->data ? 0 : t->zp;
    FbObj *q = fbw_table();
    fbw_obj(q, 2, fbw_f32_vec(t->scale, (size_t)t->nch));
    fbw_obj(q, 3, fbw_i64_vec(zp, (size_t)t->nch));
    if (t->nch > 1) fbw_i32(q, 6, t->qdim);
    fbw_obj(o, 4, q);
  }
  return o;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: mbv2_gen OUT.tflite [SIZE [SEED [IN.bin]]]\n");
    return 2;
  }
  const int size = argc > 2 ? atoi(argv[2]) : 224;
  static G g;
  g.rng = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
  if (size < 16 || size > 512) return 2;
  int x = act(&g, size, size, 3, 0.0078125f, -1, "input");
  int y = conv(&g, x, 32, 3, 2, 1, "stem");
  y = block(&g, y, 1, 16, 1, "b1");
  y = block(&g, y, 6, 24, 2, "b2");
  y = block(&g, y, 6, 24, 1, "b3");
  const int stage = y; /* a second output: the 56x56x24 stage, compared whole */
  y = block(&g, y, 6, 32, 2, "b4");
  y = block(&g, y, 6, 32, 1, "b5");
  const int hw = g.t[y].dims[1];
  int p = act(&g, 1, 1, 32, g.t[y].scale[0], (int)g.t[y].zp, "pool");
  FbObj *po = fbw_table();
  fbw_u8(po, 0, PAD_VALID);
  fbw_i32(po, 1, hw);
  fbw_i32(po, 2, hw);
  fbw_i32(po, 3, hw);
  fbw_i32(po, 4, hw);
  fbw_u8(po, 5, ACT_NONE);
  op(&g, OP_AVG_POOL, OT_POOL, po, y, -1, -1, p);
  /* FULLY_CONNECTED reads the pool's [1,1,1,32] as 1 x 32 */
  int32_t wd[2] = {10, 32};
  const float ys = act_scale(&g);
  int w = weights(&g, 2, wd, 0, weight_base(&g, p, ys, 32), "fc/w");
  int b = bias(&g, p, w, 10, "fc/b");
  int out = act(&g, 1, 1, 10, ys, irange(&g, -20, 20), "logits");
  g.t[out].rank = 2, g.t[out].dims[0] = 1, g.t[out].dims[1] = 10;
  FbObj *fo = fbw_table();
  fbw_u8(fo, 0, ACT_NONE);
  op(&g, OP_FC, OT_FC, fo, p, w, b, out);

  FbObj **tensors = calloc((size_t)g.nt, sizeof(FbObj *)), **buffers = calloc((size_t)g.nt + 1, sizeof(FbObj *));
  int nbuf = 0;
  buffers[nbuf++] = fbw_table();
  for (int i = 0; i < g.nt; i++) {
    uint32_t buf = 0;
    if (g.t[i].data) {
      FbObj *bo = fbw_table();
      fbw_obj(bo, 0, fbw_bytes(g.t[i].data, g.t[i].bytes, 16));
      buf = (uint32_t)nbuf;
      buffers[nbuf++] = bo;
    }
    tensors[i] = tensor_obj(&g.t[i], buf);
  }
  int codes[8], ncodes = 0;
  FbObj **ops = calloc((size_t)g.nops, sizeof(FbObj *));
  for (int i = 0; i < g.nops; i++) {
    const Op *p2 = &g.ops[i];
    int ci = 0;
    while (ci < ncodes && codes[ci] != p2->code) ci++;
    if (ci == ncodes) codes[ncodes++] = p2->code;
    FbObj *o = fbw_table();
    fbw_u32(o, 0, (uint32_t)ci);
    fbw_obj(o, 1, fbw_i32_vec(p2->in, (size_t)p2->nin));
    fbw_obj(o, 2, fbw_i32_vec(&p2->out, 1));
    fbw_u8(o, 3, (uint8_t)p2->opt_type);
    fbw_obj(o, 4, p2->opts);
    ops[i] = o;
  }
  FbObj *codev[8];
  for (int i = 0; i < ncodes; i++) {
    codev[i] = fbw_table();
    fbw_u8(codev[i], 0, (uint8_t)codes[i]);
    fbw_i32(codev[i], 2, 1);
    fbw_i32(codev[i], 3, codes[i]);
  }
  int32_t inputs[1] = {x}, outputs[2] = {out, stage};
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(tensors, (size_t)g.nt));
  fbw_obj(sg, 1, fbw_i32_vec(inputs, 1));
  fbw_obj(sg, 2, fbw_i32_vec(outputs, 2));
  fbw_obj(sg, 3, fbw_obj_vec(ops, (size_t)g.nops));
  fbw_obj(sg, 4, fbw_string("main"));
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(codev, (size_t)ncodes));
  fbw_obj(model, 2, fbw_obj_vec(&sg, 1));
  fbw_obj(model, 3, fbw_string("tinyaot mbv2_gen"));
  fbw_obj(model, 4, fbw_obj_vec(buffers, (size_t)nbuf));
  uint8_t *bytes = NULL;
  size_t len = fbw_finish(model, "TFL3", &bytes);
  FILE *f = fopen(argv[1], "wb");
  if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
    fprintf(stderr, "mbv2_gen: cannot write %s\n", argv[1]);
    return 1;
  }
  free(bytes);
  if (argc > 4) { /* a random int8 input over the whole range */
    FILE *in = fopen(argv[4], "wb");
    for (int i = 0; in && i < size * size * 3; i++) fputc((int)(next(&g) & 0xff), in);
    if (!in || fclose(in) != 0) {
      fprintf(stderr, "mbv2_gen: cannot write %s\n", argv[4]);
      return 1;
    }
  }
  return 0;
}
