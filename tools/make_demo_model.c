/* Writes the built-in demo model: a small int8 keyword-spotting-shaped network
 *   input [1,10,8,1] -> CONV_2D 3x3/2 SAME + RELU (4 ch) -> RESHAPE [1,80]
 *   -> FULLY_CONNECTED (4) -> SOFTMAX
 * with deterministic weights (a fixed LCG), so `make demo` needs no download.
 * usage: make_demo_model OUT.tflite [INPUT.bin [--unsupported]]
 * --unsupported replaces the RESHAPE by an LSH_PROJECTION (a TFLite builtin that TFLite Micro
 * does not register and tinyaot does not support), for the
 * test that an unsupported operator is reported and nothing is written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbwriter.c"

enum { TYPE_INT32 = 2, TYPE_INT8 = 9 };
enum { OP_CONV_2D = 3, OP_FULLY_CONNECTED = 9, OP_RESHAPE = 22, OP_SOFTMAX = 25 };
enum { OPT_CONV = 1, OPT_FC = 8, OPT_SOFTMAX = 9, OPT_RESHAPE = 17 };

static uint32_t lcg_state = 12345u;
static int8_t next_i8(int lo, int hi) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return (int8_t)(lo + (int)((lcg_state >> 8) % (uint32_t)(hi - lo + 1)));
}

static FbObj *quant(const float *scales, const int64_t *zps, int n, int dim) {
  FbObj *q = fbw_table();
  fbw_obj(q, 2, fbw_f32_vec(scales, (size_t)n));
  fbw_obj(q, 3, fbw_i64_vec(zps, (size_t)n));
  if (dim) fbw_i32(q, 6, dim);
  return q;
}

static FbObj *tensor(const char *name, int type, const int32_t *shape, int rank, uint32_t buffer, FbObj *q) {
  FbObj *t = fbw_table();
  fbw_obj(t, 0, fbw_i32_vec(shape, (size_t)rank));
  fbw_u8(t, 1, (uint8_t)type);
  fbw_u32(t, 2, buffer);
  fbw_obj(t, 3, fbw_string(name));
  if (q) fbw_obj(t, 4, q);
  return t;
}

static FbObj *op(uint32_t opcode, const int32_t *in, int n_in, int32_t out, int opt_type, FbObj *opts) {
  FbObj *o = fbw_table();
  fbw_u32(o, 0, opcode);
  fbw_obj(o, 1, fbw_i32_vec(in, (size_t)n_in));
  fbw_obj(o, 2, fbw_i32_vec(&out, 1));
  if (opts) {
    fbw_u8(o, 3, (uint8_t)opt_type);
    fbw_obj(o, 4, opts);
  }
  return o;
}

static FbObj *buffer_of(const void *data, size_t n) {
  FbObj *b = fbw_table();
  if (n) fbw_obj(b, 0, fbw_bytes(data, n, 16));
  return b;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: make_demo_model OUT.tflite [INPUT.bin]\n");
    return 2;
  }
  int8_t conv_w[4 * 3 * 3 * 1], fc_w[4 * 80];
  int32_t conv_b[4], fc_b[4];
  for (size_t i = 0; i < sizeof conv_w; i++) conv_w[i] = next_i8(-127, 127);
  for (size_t i = 0; i < sizeof fc_w; i++) fc_w[i] = next_i8(-127, 127);
  for (int i = 0; i < 4; i++) conv_b[i] = next_i8(-100, 100) * 20;
  for (int i = 0; i < 4; i++) fc_b[i] = next_i8(-100, 100) * 40;
  uint8_t conv_b_le[16], fc_b_le[16];
  for (int i = 0; i < 16; i++) {
    conv_b_le[i] = (uint8_t)((uint32_t)conv_b[i / 4] >> (8 * (i % 4)));
    fc_b_le[i] = (uint8_t)((uint32_t)fc_b[i / 4] >> (8 * (i % 4)));
  }

  float s_in = 0.05f, s_conv = 0.04f, s_fc = 0.1f, s_sm = 1.0f / 256.0f;
  float s_cw[4] = {0.004f, 0.005f, 0.0035f, 0.006f}, s_cb[4], s_fw = 0.003f, s_fb = s_conv * s_fw;
  for (int i = 0; i < 4; i++) s_cb[i] = s_in * s_cw[i];
  int64_t zp0[4] = {0, 0, 0, 0}, zp_in = -10, zp_conv = -128, zp_fc = 5, zp_sm = -128;

  int32_t sh_in[] = {1, 10, 8, 1}, sh_cw[] = {4, 3, 3, 1}, sh_cb[] = {4}, sh_conv[] = {1, 5, 4, 4};
  int32_t sh_flat[] = {1, 80}, sh_fw[] = {4, 80}, sh_fb[] = {4}, sh_out[] = {1, 4}, sh_newshape[] = {2};
  int32_t newshape[] = {1, 80};
  uint8_t newshape_le[8];
  for (int i = 0; i < 8; i++) newshape_le[i] = (uint8_t)((uint32_t)newshape[i / 4] >> (8 * (i % 4)));

  FbObj *tensors[] = {
      tensor("features", TYPE_INT8, sh_in, 4, 0, quant(&s_in, &zp_in, 1, 0)),
      tensor("conv/weights", TYPE_INT8, sh_cw, 4, 1, quant(s_cw, zp0, 4, 0)),
      tensor("conv/bias", TYPE_INT32, sh_cb, 1, 2, quant(s_cb, zp0, 4, 0)),
      tensor("conv/relu", TYPE_INT8, sh_conv, 4, 0, quant(&s_conv, &zp_conv, 1, 0)),
      tensor("flatten/shape", TYPE_INT32, sh_newshape, 1, 3, NULL),
      tensor("flatten", TYPE_INT8, sh_flat, 2, 0, quant(&s_conv, &zp_conv, 1, 0)),
      tensor("dense/weights", TYPE_INT8, sh_fw, 2, 4, quant(&s_fw, zp0, 1, 0)),
      tensor("dense/bias", TYPE_INT32, sh_fb, 1, 5, quant(&s_fb, zp0, 1, 0)),
      tensor("dense", TYPE_INT8, sh_out, 2, 0, quant(&s_fc, &zp_fc, 1, 0)),
      tensor("scores", TYPE_INT8, sh_out, 2, 0, quant(&s_sm, &zp_sm, 1, 0)),
  };
  FbObj *conv_opts = fbw_table();
  fbw_u8(conv_opts, 0, 0); /* SAME */
  fbw_i32(conv_opts, 1, 2);
  fbw_i32(conv_opts, 2, 2);
  fbw_u8(conv_opts, 3, 1); /* RELU */
  FbObj *reshape_opts = fbw_table();
  fbw_obj(reshape_opts, 0, fbw_i32_vec(newshape, 2));
  FbObj *fc_opts = fbw_table();
  fbw_u8(fc_opts, 0, 0);
  FbObj *sm_opts = fbw_table();
  fbw_f32(sm_opts, 0, 1.0f);
  int32_t in0[] = {0, 1, 2}, in1[] = {3, 4}, in2[] = {5, 6, 7}, in3[] = {8};
  FbObj *ops[] = {op(0, in0, 3, 3, OPT_CONV, conv_opts), op(1, in1, 2, 5, OPT_RESHAPE, reshape_opts),
                  op(2, in2, 3, 8, OPT_FC, fc_opts), op(3, in3, 1, 9, OPT_SOFTMAX, sm_opts)};
  int32_t codes[] = {OP_CONV_2D, OP_RESHAPE, OP_FULLY_CONNECTED, OP_SOFTMAX};
  if (argc > 3 && strcmp(argv[3], "--unsupported") == 0) codes[1] = 15; /* LSH_PROJECTION */
  FbObj *opcodes[4];
  for (int i = 0; i < 4; i++) {
    opcodes[i] = fbw_table();
    fbw_u8(opcodes[i], 0, (uint8_t)codes[i]);
    fbw_i32(opcodes[i], 2, 1);
    fbw_i32(opcodes[i], 3, codes[i]);
  }
  int32_t sg_in[] = {0}, sg_out[] = {9};
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(tensors, 10));
  fbw_obj(sg, 1, fbw_i32_vec(sg_in, 1));
  fbw_obj(sg, 2, fbw_i32_vec(sg_out, 1));
  fbw_obj(sg, 3, fbw_obj_vec(ops, 4));
  fbw_obj(sg, 4, fbw_string("main"));
  FbObj *buffers[] = {buffer_of(NULL, 0), buffer_of(conv_w, sizeof conv_w), buffer_of(conv_b_le, 16),
                      buffer_of(newshape_le, 8), buffer_of(fc_w, sizeof fc_w), buffer_of(fc_b_le, 16)};
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(opcodes, 4));
  fbw_obj(model, 2, fbw_obj_vec(&sg, 1));
  fbw_obj(model, 3, fbw_string("tinyaot demo model"));
  fbw_obj(model, 4, fbw_obj_vec(buffers, 6));
  uint8_t *bytes;
  size_t len = fbw_finish(model, "TFL3", &bytes);
  FILE *f = fopen(argv[1], "wb");
  if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
    perror(argv[1]);
    return 1;
  }
  if (argc > 2) { /* a deterministic input: a smooth "spectrogram" ramp */
    int8_t in[80];
    for (int i = 0; i < 80; i++) in[i] = (int8_t)(40.0 * sin(i * 0.3) - 10);
    FILE *g = fopen(argv[2], "wb");
    if (!g || fwrite(in, 1, 80, g) != 80 || fclose(g) != 0) {
      perror(argv[2]);
      return 1;
    }
  }
  free(bytes);
  return 0;
}
