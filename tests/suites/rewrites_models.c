/* Writes the small models of tests/suites/rewrites.sh: one int8 input [1,7,6,3] (zero
 * point -5) feeding four branches, each an output:
 *   0  PAD (top 1, bottom 2, left 0, right 1)      -> CONV_2D 3x3 VALID       (folds)
 *   1  PADV2 value -5 (1 on each side)             -> DEPTHWISE 3x3 stride 2  (folds)
 *   2  PAD (1 on each side)                        -> AVERAGE_POOL_2D 3x3     (must not fold)
 *   3  PADV2 value 7 (not the zero point)          -> CONV_2D 3x3 VALID       (must not fold)
 * and OUTDIR/case_0/in0.bin. With `quant`, instead (input zero point -5 again):
 *   0  MAX_POOL 1x1 -> DEQUANTIZE -> QUANTIZE (same) -> QUANTIZE (same) -> MAX_POOL 1x1
 *      (both QUANTIZEs elide, the DEQUANTIZE goes)
 *   1  QUANTIZE to another scale                    (must stay)
 * usage: rewrites_models OUTDIR [quant] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fbwriter.h"

enum { T_I32 = 2, T_I8 = 9 };
enum { MAX_T = 32, MAX_OPS = 8 };

typedef struct Builder {
  FbObj *tensors[MAX_T], *buffers[MAX_T + 1], *ops[MAX_OPS];
  int nt, nb, nops;
} Builder;

static FbObj *quant(const float *scale, const int64_t *zp, int n, int dim) {
  FbObj *q = fbw_table();
  fbw_obj(q, 2, fbw_f32_vec(scale, (size_t)n));
  fbw_obj(q, 3, fbw_i64_vec(zp, (size_t)n));
  fbw_i32(q, 6, dim);
  return q;
}

/* A tensor; `data` (bytes long) makes it a constant with its own buffer. */
static int tensor(Builder *b, int type, const int32_t *dims, int rank, FbObj *q, const void *data, size_t bytes) {
  FbObj *t = fbw_table();
  fbw_obj(t, 0, fbw_i32_vec(dims, (size_t)rank));
  fbw_u8(t, 1, (uint8_t)type);
  char name[16];
  snprintf(name, sizeof name, "t%d", b->nt);
  fbw_obj(t, 3, fbw_string(name));
  if (q) fbw_obj(t, 4, q);
  if (data) {
    FbObj *buf = fbw_table();
    fbw_obj(buf, 0, fbw_bytes(data, bytes, 16));
    b->buffers[b->nb] = buf;
    fbw_u32(t, 2, (uint32_t)b->nb++);
  }
  b->tensors[b->nt] = t;
  return b->nt++;
}

static int act(Builder *b, const int32_t *dims, float scale, int64_t zp) {
  return tensor(b, T_I8, dims, 4, quant(&scale, &zp, 1, 0), NULL, 0);
}

static void op(Builder *b, int opcode, const int32_t *in, int n_in, int out, int opt_type, FbObj *opts) {
  FbObj *o = fbw_table();
  fbw_u32(o, 0, (uint32_t)opcode);
  fbw_obj(o, 1, fbw_i32_vec(in, (size_t)n_in));
  fbw_obj(o, 2, fbw_i32_vec(&out, 1));
  fbw_u8(o, 3, (uint8_t)opt_type);
  fbw_obj(o, 4, opts);
  b->ops[b->nops++] = o;
}

static int paddings(Builder *b, int top, int bottom, int left, int right) {
  const int32_t v[8] = {0, 0, top, bottom, left, right, 0, 0}, dims[2] = {4, 2};
  return tensor(b, T_I32, dims, 2, NULL, v, sizeof v);
}

static FbObj *window(int padding, int stride, int filter, int depth_multiplier) {
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)padding);
  fbw_i32(o, 1, stride);
  fbw_i32(o, 2, stride);
  if (filter) { /* Pool2DOptions */
    fbw_i32(o, 3, filter);
    fbw_i32(o, 4, filter);
  } else if (depth_multiplier) {
    fbw_i32(o, 3, depth_multiplier);
  }
  return o;
}

/* Filter [o,3,3,i] (or [1,3,3,c] for depthwise: quantized axis 3) and its bias. */
static void weights(Builder *b, int n_out, int n_in, int depthwise, float in_scale, int *w, int *bias) {
  int8_t data[4 * 3 * 3 * 3];
  float scale[4];
  int64_t zp[4] = {0, 0, 0, 0};
  int32_t bias_v[4];
  float bias_scale[4];
  int64_t bias_zp[4] = {0, 0, 0, 0};
  const int n = n_out * 9 * n_in;
  for (int i = 0; i < n; i++) data[i] = (int8_t)((i * 37 + 11) % 255 - 127);
  for (int c = 0; c < n_out; c++) {
    scale[c] = 0.01f + 0.005f * (float)c;
    bias_scale[c] = in_scale * scale[c];
    bias_v[c] = (c - 1) * 150;
  }
  const int32_t wd[4] = {depthwise ? 1 : n_out, 3, 3, depthwise ? n_out : n_in};
  *w = tensor(b, T_I8, wd, 4, quant(scale, zp, n_out, depthwise ? 3 : 0), data, (size_t)n);
  const int32_t bd[1] = {n_out};
  *bias = tensor(b, T_I32, bd, 1, quant(bias_scale, bias_zp, n_out, 0), bias_v, sizeof(int32_t) * (size_t)n_out);
}

static FbObj *opcode(int code) {
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)code);
  fbw_i32(o, 2, 1);
  fbw_i32(o, 3, code);
  return o;
}

static int ftensor(Builder *b, const int32_t *dims) { return tensor(b, 0, dims, 4, NULL, NULL, 0); }

/* Branches 0 and 1 of the `quant` model; returns the number of outputs. */
static int quant_model(Builder *b, int x, const int32_t *in_d, float s, int64_t zp, int *outs) {
  enum { OC_MAXPOOL, OC_DEQ, OC_Q };
  const int t1 = act(b, in_d, s, zp);
  op(b, OC_MAXPOOL, (int32_t[]){x}, 1, t1, 5, window(1, 1, 1, 0));
  const int t2 = ftensor(b, in_d);
  op(b, OC_DEQ, (int32_t[]){t1}, 1, t2, 38, fbw_table());
  const int t3 = act(b, in_d, s, zp);
  op(b, OC_Q, (int32_t[]){t2}, 1, t3, 89, fbw_table());
  const int t4 = act(b, in_d, s, zp);
  op(b, OC_Q, (int32_t[]){t3}, 1, t4, 89, fbw_table());
  outs[0] = act(b, in_d, s, zp);
  op(b, OC_MAXPOOL, (int32_t[]){t4}, 1, outs[0], 5, window(1, 1, 1, 0));
  outs[1] = act(b, in_d, 0.13f, 9);
  op(b, OC_Q, (int32_t[]){t1}, 1, outs[1], 89, fbw_table());
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 3 && strcmp(argv[2], "quant") == 0)) {
    fprintf(stderr, "usage: rewrites_models OUTDIR [quant]\n");
    return 2;
  }
  Builder b = {.nb = 1};
  b.buffers[0] = fbw_table();
  const float s = 0.05f;
  const int64_t zp = -5;
  const int32_t in_d[4] = {1, 7, 6, 3};
  const int x = act(&b, in_d, s, zp);
  int outs[4], w, bias, n_out = 4;
  if (argc == 3) {
    n_out = quant_model(&b, x, in_d, s, zp, outs);
    goto write;
  }
  enum { OC_CONV, OC_DW, OC_AVG, OC_PAD, OC_PADV2 };
  /* 0: asymmetric PAD into CONV_2D */
  const int32_t p0_d[4] = {1, 10, 7, 3}, c0_d[4] = {1, 8, 5, 4};
  const int p0 = act(&b, p0_d, s, zp);
  op(&b, OC_PAD, (int32_t[]){x, paddings(&b, 1, 2, 0, 1)}, 2, p0, 22, fbw_table());
  weights(&b, 4, 3, 0, s, &w, &bias);
  outs[0] = act(&b, c0_d, 1.5f, 3);
  op(&b, OC_CONV, (int32_t[]){p0, w, bias}, 3, outs[0], 1, window(1, 1, 0, 0));
  /* 1: PADV2 with the zero point into DEPTHWISE stride 2 */
  const int32_t p1_d[4] = {1, 9, 8, 3}, c1_d[4] = {1, 4, 3, 3};
  const int p1 = act(&b, p1_d, s, zp);
  const int8_t v1 = (int8_t)zp, v3 = 7;
  const int32_t scalar_d[1] = {1};
  const int cv1 = tensor(&b, T_I8, scalar_d, 0, quant(&s, &zp, 1, 0), &v1, 1);
  op(&b, OC_PADV2, (int32_t[]){x, paddings(&b, 1, 1, 1, 1), cv1}, 3, p1, 43, fbw_table());
  weights(&b, 3, 1, 1, s, &w, &bias);
  outs[1] = act(&b, c1_d, 0.6f, -2);
  op(&b, OC_DW, (int32_t[]){p1, w, bias}, 3, outs[1], 2, window(1, 2, 0, 1));
  /* 2: PAD into AVERAGE_POOL_2D: the explicit zeros count in the average */
  const int32_t p2_d[4] = {1, 9, 8, 3}, c2_d[4] = {1, 7, 6, 3};
  const int p2 = act(&b, p2_d, s, zp);
  op(&b, OC_PAD, (int32_t[]){x, paddings(&b, 1, 1, 1, 1)}, 2, p2, 22, fbw_table());
  outs[2] = act(&b, c2_d, s, zp);
  op(&b, OC_AVG, (int32_t[]){p2}, 1, outs[2], 5, window(1, 1, 3, 0));
  /* 3: PADV2 with another value into CONV_2D */
  const int p3 = act(&b, p0_d, s, zp);
  const int cv3 = tensor(&b, T_I8, scalar_d, 0, quant(&s, &zp, 1, 0), &v3, 1);
  op(&b, OC_PADV2, (int32_t[]){x, paddings(&b, 1, 2, 0, 1), cv3}, 3, p3, 43, fbw_table());
  weights(&b, 4, 3, 0, s, &w, &bias);
  outs[3] = act(&b, c0_d, 1.5f, 3);
  op(&b, OC_CONV, (int32_t[]){p3, w, bias}, 3, outs[3], 1, window(1, 1, 0, 0));

write:;
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(b.tensors, (size_t)b.nt));
  fbw_obj(sg, 1, fbw_i32_vec(&x, 1));
  fbw_obj(sg, 2, fbw_i32_vec(outs, (size_t)n_out));
  fbw_obj(sg, 3, fbw_obj_vec(b.ops, (size_t)b.nops));
  FbObj *codes[5] = {opcode(3), opcode(4), opcode(1), opcode(34), opcode(60)};
  if (argc == 3) codes[0] = opcode(17), codes[1] = opcode(6), codes[2] = opcode(114);
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(codes, argc == 3 ? 3 : 5));
  fbw_obj(model, 2, fbw_obj_vec(&sg, 1));
  fbw_obj(model, 3, fbw_string("rewrites suite: PAD folds"));
  fbw_obj(model, 4, fbw_obj_vec(b.buffers, (size_t)b.nb));
  uint8_t *bytes;
  const size_t len = fbw_finish(model, "TFL3", &bytes);
  char path[4096];
  snprintf(path, sizeof path, "%s/model.tflite", argv[1]);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) return 1;
  free(bytes);
  snprintf(path, sizeof path, "%s/case_0", argv[1]);
  mkdir(path, 0777);
  snprintf(path, sizeof path, "%s/case_0/in0.bin", argv[1]);
  int8_t in[7 * 6 * 3];
  for (int i = 0; i < (int)sizeof in; i++) in[i] = (int8_t)((i * 53 + 7) % 256 - 128);
  f = fopen(path, "wb");
  if (!f || fwrite(in, 1, sizeof in, f) != sizeof in || fclose(f) != 0) return 1;
  return 0;
}
