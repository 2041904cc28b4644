/* Writes the hand-made hostile models of tests/hostile/cases/ (issue 7): a small valid
 * int8 network (CONV_2D -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX) described by a Spec,
 * one mutation of the Spec per case, then byte-level damage of the valid bytes
 * (truncation at every table, vtable and offset corruption). Every file must be
 * rejected by `tinyaot convert` with a one-line located error.
 *   cc -std=c11 -Isrc -Itools tests/hostile/make_hostile.c tools/fbwriter.c \
 *      src/load/flatbuffer.c -o make_hostile && ./make_hostile tests/hostile/cases
 * Minimised fuzzer findings are added to the same directory by hand. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fbwriter.h"
#include "load/flatbuffer.h"

enum { T_FLOAT32 = 0, T_INT32 = 2, T_INT64 = 4, T_STRING = 5, T_INT16 = 7, T_INT8 = 9, T_INT4 = 17 };
enum { OP_ADD = 0, OP_CONV_2D = 3, OP_DEPTHWISE_CONV_2D = 4, OP_FULLY_CONNECTED = 9, OP_MUL = 18, OP_RESHAPE = 22, OP_SOFTMAX = 25,
       OP_CUSTOM = 32 };
enum { OPT_NONE = 0, OPT_CONV = 1, OPT_DEPTHWISE = 2, OPT_FC = 8, OPT_SOFTMAX = 9, OPT_RESHAPE = 17 };
enum { MAX_T = 16, MAX_OPS = 8, MAX_IO = 8, MAX_Q = 8 };

typedef struct TSpec {
  const char *name;
  int type, rank;
  int32_t dims[10];
  uint32_t buffer;
  int nq, nzp;            /* scales, zero points (nzp -1: same as nq) */
  float scale[MAX_Q];
  int64_t zp[MAX_Q];
  int32_t qdim;
  int variable, sparse, custom_quant;
} TSpec;

typedef struct OSpec {
  uint32_t opcode;
  int n_in, n_out;
  int32_t in[MAX_IO], out[MAX_IO];
  int opt_type;           /* union tag written */
  int opt_kind;           /* which options table is written (OPT_*) */
  /* option values */
  int padding, stride_w, stride_h, activation;
  int32_t new_shape[MAX_IO];
  int n_new_shape;
  float beta;
} OSpec;

typedef struct Spec {
  const char *ident;
  uint32_t version;
  int n_codes;
  int32_t codes[MAX_OPS];
  const char *custom_name;
  int n_tensors, n_ops, n_in, n_out, n_subgraphs;
  TSpec t[MAX_T];
  OSpec op[MAX_OPS];
  int32_t in[MAX_IO], out[MAX_IO];
  int n_buffers;
  uint8_t *buf[MAX_T];
  size_t buf_len[MAX_T];
  int ext_buffer;         /* index of a buffer given by offset/size instead of data */
  uint64_t ext_offset, ext_size;
} Spec;

static uint32_t lcg = 2024u;
static int8_t rnd_i8(void) {
  lcg = lcg * 1664525u + 1013904223u;
  return (int8_t)((int)((lcg >> 8) % 255u) - 127);
}

static uint8_t conv_w[2 * 3 * 3 * 1], fc_w[3 * 18], conv_b[2 * 4], fc_b[3 * 4], shape_le[8];

static void le32(uint8_t *p, int32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)((uint32_t)v >> (8 * i));
}

static TSpec tensor(const char *name, int type, int rank, const int32_t *dims, uint32_t buffer, float scale,
                    int64_t zp) {
  TSpec t;
  memset(&t, 0, sizeof t);
  t.name = name;
  t.type = type;
  t.rank = rank;
  memcpy(t.dims, dims, (size_t)rank * sizeof(int32_t));
  t.buffer = buffer;
  if (scale != 0.f) {
    t.nq = 1;
    t.nzp = -1;
    t.scale[0] = scale;
    t.zp[0] = zp;
  }
  return t;
}

/* input [1,6,6,1] -> CONV_2D 3x3/2 SAME RELU (2 ch) [1,3,3,2] -> RESHAPE [1,18]
 * -> FULLY_CONNECTED (3) -> SOFTMAX [1,3]. */
static Spec base(void) {
  Spec s;
  memset(&s, 0, sizeof s);
  s.ident = "TFL3";
  s.version = 3;
  s.n_subgraphs = 1;
  s.ext_buffer = -1;
  s.n_codes = 4;
  int32_t codes[4] = {OP_CONV_2D, OP_RESHAPE, OP_FULLY_CONNECTED, OP_SOFTMAX};
  memcpy(s.codes, codes, sizeof codes);
  int32_t d_in[] = {1, 6, 6, 1}, d_cw[] = {2, 3, 3, 1}, d_cb[] = {2}, d_conv[] = {1, 3, 3, 2}, d_ns[] = {2},
          d_flat[] = {1, 18}, d_fw[] = {3, 18}, d_fb[] = {3}, d_out[] = {1, 3};
  s.n_tensors = 10;
  s.t[0] = tensor("input", T_INT8, 4, d_in, 0, 0.05f, -10);
  s.t[1] = tensor("conv/w", T_INT8, 4, d_cw, 1, 0.004f, 0);
  s.t[1].nq = 2;
  s.t[1].scale[1] = 0.005f;
  s.t[2] = tensor("conv/b", T_INT32, 1, d_cb, 2, 0.0002f, 0);
  s.t[2].nq = 2;
  s.t[2].scale[1] = 0.00025f;
  s.t[3] = tensor("conv/relu", T_INT8, 4, d_conv, 0, 0.04f, -128);
  s.t[4] = tensor("flatten/shape", T_INT32, 1, d_ns, 3, 0.f, 0);
  s.t[5] = tensor("flatten", T_INT8, 2, d_flat, 0, 0.04f, -128);
  s.t[6] = tensor("dense/w", T_INT8, 2, d_fw, 4, 0.003f, 0);
  s.t[7] = tensor("dense/b", T_INT32, 1, d_fb, 5, 0.00012f, 0);
  s.t[8] = tensor("dense", T_INT8, 2, d_out, 0, 0.1f, 5);
  s.t[9] = tensor("scores", T_INT8, 2, d_out, 0, 1.0f / 256.0f, -128);
  s.n_ops = 4;
  OSpec conv = {.opcode = 0, .n_in = 3, .in = {0, 1, 2}, .n_out = 1, .out = {3}, .opt_type = OPT_CONV,
                .opt_kind = OPT_CONV, .padding = 0, .stride_w = 2, .stride_h = 2, .activation = 1};
  OSpec reshape = {.opcode = 1, .n_in = 2, .in = {3, 4}, .n_out = 1, .out = {5}, .opt_type = OPT_RESHAPE,
                   .opt_kind = OPT_RESHAPE, .new_shape = {1, 18}, .n_new_shape = 2};
  OSpec fc = {.opcode = 2, .n_in = 3, .in = {5, 6, 7}, .n_out = 1, .out = {8}, .opt_type = OPT_FC,
              .opt_kind = OPT_FC};
  OSpec sm = {.opcode = 3, .n_in = 1, .in = {8}, .n_out = 1, .out = {9}, .opt_type = OPT_SOFTMAX,
              .opt_kind = OPT_SOFTMAX, .beta = 1.0f};
  s.op[0] = conv;
  s.op[1] = reshape;
  s.op[2] = fc;
  s.op[3] = sm;
  s.n_in = 1;
  s.in[0] = 0;
  s.n_out = 1;
  s.out[0] = 9;
  for (size_t i = 0; i < sizeof conv_w; i++) conv_w[i] = (uint8_t)rnd_i8();
  for (size_t i = 0; i < sizeof fc_w; i++) fc_w[i] = (uint8_t)rnd_i8();
  le32(conv_b, 300);
  le32(conv_b + 4, -200);
  for (int i = 0; i < 3; i++) le32(fc_b + 4 * i, 100 * (i - 1));
  le32(shape_le, 1);
  le32(shape_le + 4, 18);
  s.n_buffers = 6;
  uint8_t *bufs[6] = {NULL, conv_w, conv_b, shape_le, fc_w, fc_b};
  size_t lens[6] = {0, sizeof conv_w, sizeof conv_b, sizeof shape_le, sizeof fc_w, sizeof fc_b};
  memcpy(s.buf, bufs, sizeof bufs);
  memcpy(s.buf_len, lens, sizeof lens);
  return s;
}

static FbObj *write_tensor(const TSpec *t) {
  FbObj *o = fbw_table();
  fbw_obj(o, 0, fbw_i32_vec(t->dims, (size_t)t->rank));
  fbw_u8(o, 1, (uint8_t)t->type);
  fbw_u32(o, 2, t->buffer);
  fbw_obj(o, 3, fbw_string(t->name));
  if (t->nq > 0 || t->custom_quant) {
    FbObj *q = fbw_table();
    int nzp = t->nzp < 0 ? t->nq : t->nzp;
    if (t->nq > 0) fbw_obj(q, 2, fbw_f32_vec(t->scale, (size_t)t->nq));
    if (nzp > 0) fbw_obj(q, 3, fbw_i64_vec(t->zp, (size_t)nzp));
    if (t->custom_quant) {
      fbw_u8(q, 4, 1);
      fbw_obj(q, 5, fbw_table());
    }
    if (t->qdim) fbw_i32(q, 6, t->qdim);
    fbw_obj(o, 4, q);
  }
  if (t->variable) fbw_u8(o, 5, 1);
  if (t->sparse) fbw_obj(o, 6, fbw_table());
  return o;
}

static FbObj *write_options(const OSpec *op) {
  FbObj *o = fbw_table();
  switch (op->opt_kind) {
    case OPT_CONV:
      fbw_u8(o, 0, (uint8_t)op->padding);
      fbw_i32(o, 1, op->stride_w);
      fbw_i32(o, 2, op->stride_h);
      fbw_u8(o, 3, (uint8_t)op->activation);
      break;
    case OPT_DEPTHWISE:
      fbw_u8(o, 0, (uint8_t)op->padding);
      fbw_i32(o, 1, op->stride_w);
      fbw_i32(o, 2, op->stride_h);
      fbw_i32(o, 3, 1); /* depth_multiplier */
      fbw_u8(o, 4, (uint8_t)op->activation);
      break;
    case OPT_RESHAPE: fbw_obj(o, 0, fbw_i32_vec(op->new_shape, (size_t)op->n_new_shape)); break;
    case OPT_FC: fbw_u8(o, 0, (uint8_t)op->activation); break;
    case OPT_SOFTMAX: fbw_f32(o, 0, op->beta); break;
    default: return NULL;
  }
  return o;
}

static FbObj *write_op(const OSpec *op) {
  FbObj *o = fbw_table();
  fbw_u32(o, 0, op->opcode);
  fbw_obj(o, 1, fbw_i32_vec(op->in, (size_t)op->n_in));
  fbw_obj(o, 2, fbw_i32_vec(op->out, (size_t)op->n_out));
  FbObj *opts = write_options(op);
  if (op->opt_type) fbw_u8(o, 3, (uint8_t)op->opt_type);
  if (opts) fbw_obj(o, 4, opts);
  return o;
}

static size_t serialize_root(FbObj *model, uint8_t **out) { return fbw_finish(model, "TFL3", out); }

static size_t serialize(const Spec *s, uint8_t **out) {
  FbObj *tensors[MAX_T], *ops[MAX_OPS], *codes[MAX_OPS], *buffers[MAX_T];
  for (int i = 0; i < s->n_tensors; i++) tensors[i] = write_tensor(&s->t[i]);
  for (int i = 0; i < s->n_ops; i++) ops[i] = write_op(&s->op[i]);
  for (int i = 0; i < s->n_codes; i++) {
    codes[i] = fbw_table();
    fbw_u8(codes[i], 0, (uint8_t)(s->codes[i] >= 0 && s->codes[i] < 127 ? s->codes[i] : 127));
    if (s->codes[i] == OP_CUSTOM && s->custom_name) fbw_obj(codes[i], 1, fbw_string(s->custom_name));
    fbw_i32(codes[i], 2, 1);
    fbw_i32(codes[i], 3, s->codes[i]);
  }
  for (int i = 0; i < s->n_buffers; i++) {
    buffers[i] = fbw_table();
    if (i == s->ext_buffer) {
      /* fbwriter writes 4-byte slots only: the loader's 8-byte reads of field 1 (offset)
       * and field 2 (size) span slots 1-2 and 2-3, so slot 2 is left 0. */
      fbw_u32(buffers[i], 1, (uint32_t)s->ext_offset);
      fbw_u32(buffers[i], 2, 0);
      fbw_u32(buffers[i], 3, (uint32_t)(s->ext_size >> 32));
    } else if (s->buf_len[i]) {
      fbw_obj(buffers[i], 0, fbw_bytes(s->buf[i], s->buf_len[i], 16));
    }
  }
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(tensors, (size_t)s->n_tensors));
  fbw_obj(sg, 1, fbw_i32_vec(s->in, (size_t)s->n_in));
  fbw_obj(sg, 2, fbw_i32_vec(s->out, (size_t)s->n_out));
  fbw_obj(sg, 3, fbw_obj_vec(ops, (size_t)s->n_ops));
  fbw_obj(sg, 4, fbw_string("main"));
  FbObj *sgs[2] = {sg, sg};
  FbObj *model = fbw_table();
  fbw_u32(model, 0, s->version);
  fbw_obj(model, 1, fbw_obj_vec(codes, (size_t)s->n_codes));
  fbw_obj(model, 2, fbw_obj_vec(sgs, (size_t)s->n_subgraphs));
  fbw_obj(model, 3, fbw_string("tinyaot hostile base"));
  fbw_obj(model, 4, fbw_obj_vec(buffers, (size_t)s->n_buffers));
  return fbw_finish(model, s->ident, out);
}

static const char *out_dir;
static int n_written;

static void write_file(const char *name, const uint8_t *data, size_t len) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.tflite", out_dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
    perror(path);
    exit(1);
  }
  n_written++;
}

static void emit_spec(const char *name, const Spec *s) {
  uint8_t *bytes;
  size_t len = serialize(s, &bytes);
  write_file(name, bytes, len);
  free(bytes);
}

/* ---- Spec-level cases: one mutation each. ---- */

#define CASE(name, stmt)  \
  do {                    \
    Spec s = base();      \
    stmt;                 \
    emit_spec(name, &s);  \
  } while (0)

static void spec_cases(void) {
  CASE("header_wrong_identifier", s.ident = "TFL2");
  CASE("header_schema_version_2", s.version = 2);
  CASE("model_no_subgraph", s.n_subgraphs = 0);
  {
    /* Was "model_two_subgraphs": an unreferenced second subgraph is a valid model since
     * the loader reads several (issue 16). base() still runs so later files stay identical. */
    Spec unused = base();
    (void)unused;
  }
  CASE("model_no_outputs", s.n_out = 0);
  CASE("model_output_missing_tensor", s.out[0] = 10);
  CASE("model_output_negative_tensor", s.out[0] = -1);
  CASE("model_input_missing_tensor", s.in[0] = 99);
  CASE("model_output_never_written", s.out[0] = 4; s.t[4].buffer = 0);
  CASE("model_input_is_constant", s.in[0] = 1; s.n_in = 1);
  CASE("opcode_index_out_of_range", s.op[2].opcode = 4);
  CASE("opcode_index_huge", s.op[0].opcode = 0xffffffffu);
  CASE("opcode_unknown_builtin", s.codes[3] = 999);
  CASE("opcode_negative_builtin", s.codes[1] = -7);
  CASE("opcode_custom", s.codes[3] = OP_CUSTOM; s.custom_name = "EVIL\nOP");
  CASE("op_input_missing_tensor", s.op[1].in[0] = 10);
  CASE("op_input_negative_tensor", s.op[2].in[0] = -2);
  CASE("op_output_missing_tensor", s.op[3].out[0] = 12345);
  CASE("op_output_optional_marker", s.op[3].out[0] = -1);
  CASE("op_required_input_omitted", s.op[0].in[1] = -1);
  CASE("op_too_few_inputs", s.op[2].n_in = 1);
  CASE("op_too_many_outputs", s.op[3].n_out = 2; s.op[3].out[1] = 8);
  CASE("op_no_outputs", s.op[0].n_out = 0);
  CASE("graph_cycle", s.op[0].in[0] = 9);
  CASE("graph_self_loop", s.op[1].in[0] = 5);
  CASE("graph_read_before_write", s.op[0].in[0] = 8);
  CASE("graph_tensor_written_twice", s.op[2].out[0] = 5);
  CASE("graph_output_is_constant", s.op[3].out[0] = 6);
  CASE("graph_output_is_model_input", s.op[3].out[0] = 0);
  CASE("shape_negative_dim", s.t[3].dims[2] = -3);
  CASE("shape_dynamic_dim", s.t[0].dims[0] = -1);
  CASE("shape_rank_9", s.t[5].rank = 9; for (int i = 2; i < 9; i++) s.t[5].dims[i] = 1);
  CASE("shape_product_overflows_32bit", s.t[3].dims[1] = 65536; s.t[3].dims[2] = 65536);
  CASE("shape_product_overflows_64bit",
       s.t[0].rank = 8; for (int i = 0; i < 8; i++) s.t[0].dims[i] = 0x7fffffff);
  CASE("shape_tensor_over_1gib", s.t[5].dims[0] = 1 << 16; s.t[5].dims[1] = 1 << 15);
  CASE("shape_activation_bigger_than_memory", s.t[0].dims[1] = 16384; s.t[0].dims[2] = 16384);
  CASE("shape_zero_sized_input", s.t[0].dims[1] = 0);
  CASE("shape_zero_sized_weights", s.t[6].dims[0] = 0; s.buf_len[4] = 0);
  CASE("shape_conv_output_mismatch", s.t[3].dims[1] = 4);
  CASE("shape_fc_depth_mismatch", s.t[6].dims[1] = 9; s.buf_len[4] = 27);
  CASE("shape_reshape_elements_mismatch", s.t[5].dims[1] = 17; s.op[1].new_shape[1] = 17);
  CASE("shape_conv_filter_channels_mismatch", s.t[1].dims[3] = 2; s.t[0].dims[3] = 3; s.buf_len[1] = 36);
  CASE("dtype_string_tensor", s.t[3].type = T_STRING);
  CASE("dtype_unknown_99", s.t[8].type = 99);
  CASE("dtype_float_input_int8_conv", s.t[0].type = T_FLOAT32; s.t[0].nq = 0);
  CASE("dtype_mixed_int8_weights_float_bias", s.t[2].type = T_FLOAT32);
  CASE("quant_scale_zero", s.t[3].scale[0] = s.t[5].scale[0] = 0.f);
  CASE("quant_scale_nan", s.t[8].scale[0] = NAN);
  CASE("quant_scale_inf", s.t[0].scale[0] = INFINITY);
  CASE("quant_scale_negative", s.t[3].scale[0] = s.t[5].scale[0] = -0.04f);
  CASE("quant_scale_denormal", s.t[3].scale[0] = s.t[5].scale[0] = 1e-45f);
  CASE("quant_weight_scale_zero", s.t[1].scale[1] = 0.f);
  CASE("quant_input_missing", s.t[0].nq = 0);
  CASE("quant_zero_point_out_of_range", s.t[8].zp[0] = 300);
  CASE("quant_zero_point_int64_min", s.t[0].zp[0] = INT64_MIN);
  CASE("quant_per_channel_wrong_length", s.t[1].nq = 3; s.t[1].scale[2] = 0.004f);
  CASE("quant_per_channel_bias_wrong_length", s.t[2].nq = 3; s.t[2].scale[2] = 0.0002f);
  CASE("quant_zero_points_wrong_length", s.t[1].nzp = 1);
  CASE("quant_dimension_out_of_range", s.t[1].qdim = 7);
  CASE("quant_dimension_negative", s.t[1].qdim = -1);
  CASE("quant_custom_details", s.t[0].custom_quant = 1);
  CASE("quant_weights_per_channel_nonzero_zp", s.t[1].zp[1] = 3);
  CASE("tensor_sparse", s.t[6].sparse = 1);
  CASE("buffer_index_out_of_range", s.t[6].buffer = 6);
  CASE("buffer_index_huge", s.t[1].buffer = 0xfffffff0u);
  CASE("buffer_too_short_for_shape", s.buf_len[4] = 50);
  CASE("buffer_too_long_for_shape", s.buf_len[2] = 12; s.buf[2] = fc_b);
  CASE("buffer_constant_missing", s.t[6].buffer = 0);
  CASE("buffer_offset_outside_file", s.ext_buffer = 4; s.ext_offset = 1u << 30; s.ext_size = (uint64_t)1 << 32);
  CASE("buffer_offset_size_wraps", s.ext_buffer = 4; s.ext_offset = 64; s.ext_size = ~(uint64_t)0 << 32);
  CASE("options_wrong_type_tag", s.op[0].opt_type = OPT_FC);
  CASE("options_wrong_table_kind", s.op[0].opt_kind = OPT_SOFTMAX);
  CASE("options_absent_conv", s.op[0].opt_type = OPT_NONE; s.op[0].opt_kind = OPT_NONE);
  CASE("options_tag_out_of_range", s.op[3].opt_type = 250);
  CASE("options_conv_stride_zero", s.op[0].stride_w = 0);
  CASE("options_conv_stride_negative", s.op[0].stride_h = -2);
  CASE("options_conv_stride_huge", s.op[0].stride_w = 0x7fffffff);
  CASE("options_conv_padding_invalid", s.op[0].padding = 7);
  CASE("options_conv_activation_invalid", s.op[0].activation = 99);
  CASE("options_softmax_beta_nan", s.op[3].beta = NAN);
  CASE("options_softmax_beta_inf", s.op[3].beta = INFINITY);
  /* five unused 1 KiB constants on one buffer: more constant bytes than the file holds */
  static uint8_t kib[1024];
  CASE("shared_constant_buffer", s.buf[6] = kib; s.buf_len[6] = sizeof kib; s.n_buffers = 7;
       for (int i = 10; i < 15; i++) {
         int32_t d1[1] = {1024};
         s.t[i] = tensor("shared", T_INT8, 1, d1, 6, 0.f, 0);
       } s.n_tensors = 15);
}

/* ---- Byte-level cases on the valid model. ---- */

static uint8_t *valid;
static size_t valid_len;

static void emit_patched(const char *name, size_t pos, uint32_t value) {
  if (pos + 4 > valid_len) return;
  uint8_t *copy = malloc(valid_len);
  memcpy(copy, valid, valid_len);
  for (int i = 0; i < 4; i++) copy[pos + i] = (uint8_t)(value >> (8 * i));
  write_file(name, copy, valid_len);
  free(copy);
}

static uint32_t rd32(size_t pos) {
  return (uint32_t)valid[pos] | (uint32_t)valid[pos + 1] << 8 | (uint32_t)valid[pos + 2] << 16 |
         (uint32_t)valid[pos + 3] << 24;
}

/* Absolute position of a field's slot, 0 if absent. */
static size_t slot_of(const FbTable *t, int field) {
  size_t vslot = t->vtable + 4 + 2 * (size_t)field;
  if (4 + 2 * (size_t)field + 2 > t->vt_size) return 0;
  uint16_t off = (uint16_t)(valid[vslot] | valid[vslot + 1] << 8);
  return off ? t->pos + off : 0;
}

typedef struct Named {
  const char *what;
  FbTable t;
} Named;

/* The tables of the valid model, in file order of discovery, with a short name. */
static int collect_tables(FbBuf *b, Named *out, int max) {
  int n = 0;
  FbTable root = fb_root(b, "TFL3");
  out[n++] = (Named){"model", root};
  FbVec codes = fb_vector(&root, 1, 4), sgs = fb_vector(&root, 2, 4), bufs = fb_vector(&root, 4, 4);
  for (uint32_t i = 0; i < codes.len && n < max; i++) out[n++] = (Named){"opcode", fb_vec_table(&codes, i)};
  FbTable sg = fb_vec_table(&sgs, 0);
  out[n++] = (Named){"subgraph", sg};
  FbVec ts = fb_vector(&sg, 0, 4), ops = fb_vector(&sg, 3, 4);
  for (uint32_t i = 0; i < ts.len && n + 1 < max; i++) {
    FbTable t = fb_vec_table(&ts, i);
    out[n++] = (Named){"tensor", t};
    FbTable q = fb_table(&t, 4);
    if (q.present) out[n++] = (Named){"quant", q};
  }
  for (uint32_t i = 0; i < ops.len && n + 1 < max; i++) {
    FbTable o = fb_vec_table(&ops, i);
    out[n++] = (Named){"operator", o};
    FbTable opt = fb_table(&o, 4);
    if (opt.present) out[n++] = (Named){"options", opt};
  }
  for (uint32_t i = 0; i < bufs.len && n < max; i++) out[n++] = (Named){"buffer", fb_vec_table(&bufs, i)};
  if (!fb_ok(b)) {
    fprintf(stderr, "make_hostile: the base model does not parse: %s\n", b->why);
    exit(1);
  }
  return n;
}

static void byte_cases(void) {
  Spec s = base();
  valid_len = serialize(&s, &valid);
  write_file("file_empty", valid, 0);
  write_file("file_7_bytes", valid, 7);
  write_file("file_header_only", valid, 8);
  emit_patched("root_offset_outside_file", 0, 0x7ffffff0u);
  emit_patched("root_offset_into_header", 0, 4);
  emit_patched("root_offset_last_byte", 0, (uint32_t)valid_len - 1);

  FbBuf b;
  fb_init(&b, valid, valid_len);
  Named tables[128];
  int n = collect_tables(&b, tables, 128);
  int count[16] = {0};
  static const char *const kinds[] = {"model", "opcode", "subgraph", "tensor", "quant", "operator", "options",
                                      "buffer"};
  char name[96];
  for (int i = 0; i < n; i++) {
    int k = 0;
    while (strcmp(kinds[k], tables[i].what) != 0) k++;
    int idx = count[k]++;
    FbTable *t = &tables[i].t;
    /* truncated at the start of every table, and inside it */
    snprintf(name, sizeof name, "truncated_at_%s_%d", tables[i].what, idx);
    write_file(name, valid, t->pos);
    if (idx > 0) continue; /* the corruptions below: once per kind of table */
    snprintf(name, sizeof name, "vtable_outside_file_%s", tables[i].what);
    emit_patched(name, t->pos, (uint32_t)(int32_t)-0x40000000);
    snprintf(name, sizeof name, "vtable_is_the_table_%s", tables[i].what);
    emit_patched(name, t->pos, 0);
    snprintf(name, sizeof name, "vtable_odd_size_%s", tables[i].what);
    emit_patched(name, t->vtable, (uint32_t)(t->vt_size + 1) | (uint32_t)rd32(t->vtable) >> 16 << 16);
    snprintf(name, sizeof name, "table_size_past_end_%s", tables[i].what);
    emit_patched(name, t->vtable, (uint32_t)t->vt_size | 0xfff0u << 16);
    /* every offset field of the table pointing outside, at itself, or backwards */
    for (int f = 0; f < 8; f++) {
      size_t slot = slot_of(t, f);
      if (!slot || slot + 4 > valid_len) continue;
      uint32_t rel = rd32(slot);
      if (slot + rel >= valid_len || rel == 0 || rel % 4) continue; /* not an offset */
      if (strcmp(tables[i].what, "subgraph") == 0 && f == 4) continue; /* its name: never read */
      snprintf(name, sizeof name, "offset_outside_%s_field%d", tables[i].what, f);
      emit_patched(name, slot, 0x7ffffff0u);
      snprintf(name, sizeof name, "offset_to_itself_%s_field%d", tables[i].what, f);
      emit_patched(name, slot, 0);
      snprintf(name, sizeof name, "vector_length_huge_%s_field%d", tables[i].what, f);
      emit_patched(name, slot + rel, 0xfffffff0u);
    }
  }
  free(valid);
}

/* ---- Large models for the resource bounds (written on demand, not kept). ---- */

/* A chain of n int8 RELUs over [1,16] tensors, encoded the way converters do. With
 * `shared`, every operator points at the last one's input list,
 * widened to LOAD_MAX_OP_IO entries: legal FlatBuffers that costs the file 4 bytes
 * per operator and a naive loader 4 KiB. */
static void chain_model(const char *path, int n, int shared) {
  FbObj **tensors = calloc((size_t)n + 1, sizeof(FbObj *)), **ops = calloc((size_t)n, sizeof(FbObj *));
  int32_t dims[2] = {1, 16};
  char name[32];
  for (int i = 0; i <= n; i++) {
    snprintf(name, sizeof name, "t%d", i);
    TSpec t = tensor(name, T_INT8, 2, dims, 0, 0.1f, 0);
    tensors[i] = write_tensor(&t);
  }
  int32_t *wide = calloc(1024, sizeof(int32_t)); /* all entries: tensor 0, the model input */
  for (int i = 0; i < n; i++) {
    OSpec op = {.opcode = 0, .n_in = 1, .in = {i}, .n_out = 1, .out = {i + 1}};
    ops[i] = write_op(&op);
    if (shared && i == n - 1) fbw_obj(ops[i], 1, fbw_i32_vec(wide, 1024));
  }
  FbObj *code = fbw_table();
  fbw_u8(code, 0, 19);
  fbw_i32(code, 2, 1);
  fbw_i32(code, 3, 19);
  int32_t in = 0, out = n;
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(tensors, (size_t)n + 1));
  fbw_obj(sg, 1, fbw_i32_vec(&in, 1));
  fbw_obj(sg, 2, fbw_i32_vec(&out, 1));
  fbw_obj(sg, 3, fbw_obj_vec(ops, (size_t)n));
  FbObj *b0 = fbw_table();
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(&code, 1));
  fbw_obj(model, 2, fbw_obj_vec(&sg, 1));
  fbw_obj(model, 4, fbw_obj_vec(&b0, 1));
  size_t len = serialize_root(model, &valid);
  if (shared) { /* re-point every operator's input list at operator 0's */
    FbBuf b;
    fb_init(&b, valid, len);
    valid_len = len;
    FbTable root = fb_root(&b, "TFL3");
    FbVec sgs = fb_vector(&root, 2, 4);
    FbTable g = fb_vec_table(&sgs, 0);
    FbVec ov = fb_vector(&g, 3, 4);
    FbTable last = fb_vec_table(&ov, ov.len - 1);
    size_t target = slot_of(&last, 1) + rd32(slot_of(&last, 1));
    for (uint32_t i = 0; i + 1 < ov.len; i++) { /* uoffsets point forward: the last list is shared */
      FbTable o = fb_vec_table(&ov, i);
      size_t slot = slot_of(&o, 1);
      for (int k = 0; k < 4; k++) valid[slot + k] = (uint8_t)((target - slot) >> (8 * k));
    }
  }
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(valid, 1, len, f) != len || fclose(f) != 0) {
    perror(path);
    exit(1);
  }
  printf("make_hostile: %s: %d operators, %zu bytes\n", path, n, len);
  free(valid);
  free(wide);
}

/* ---- Requantisation factors whose shift the kernels cannot apply (written after
 * base_valid: base() advances the weight generator). ---- */

static uint8_t one_op_consts[2][64];

/* One operator: inputs 0..n_in-1 (the first one the model input, a non-zero `const_len`
 * makes one a constant in its own buffer), output n_in. */
static Spec one_op(int32_t code, int opt_kind, int n_in, const TSpec *tensors, const size_t *const_len) {
  Spec s;
  memset(&s, 0, sizeof s);
  s.ident = "TFL3";
  s.version = 3;
  s.n_subgraphs = 1;
  s.ext_buffer = -1;
  s.n_codes = 1;
  s.codes[0] = code;
  s.n_tensors = n_in + 1;
  s.n_buffers = 1;
  for (int i = 0; i <= n_in; i++) {
    s.t[i] = tensors[i];
    if (i < n_in && const_len[i]) {
      for (size_t k = 0; k < const_len[i]; k++) one_op_consts[s.n_buffers - 1][k] = (uint8_t)rnd_i8();
      s.buf[s.n_buffers] = one_op_consts[s.n_buffers - 1];
      s.buf_len[s.n_buffers] = const_len[i];
      s.t[i].buffer = (uint32_t)s.n_buffers++;
    }
  }
  OSpec op = {.opcode = 0, .n_in = n_in, .n_out = 1, .out = {n_in}, .opt_type = opt_kind, .opt_kind = opt_kind,
              .beta = 1.0f};
  for (int i = 0; i < n_in; i++) op.in[i] = i;
  s.op[0] = op;
  s.n_ops = 1;
  s.n_in = 1;
  s.in[0] = 0;
  s.n_out = 1;
  s.out[0] = n_in;
  return s;
}

static void requant_shift_cases(void) {
  /* per-channel filter scale 3e38: shift 129 for channel 1 */
  CASE("quant_conv_filter_scale_huge", s.t[1].scale[1] = 3e38f);
  /* output scale 1e-37: 0.05 x 0.004 / 1e-37 needs a shift of 111 */
  CASE("quant_conv_output_scale_tiny", s.t[3].scale[0] = s.t[5].scale[0] = 1e-37f);
  /* input x weight scale overflows float (TFLite forms the product in float): inf */
  CASE("quant_fc_scale_product_inf", s.t[3].scale[0] = s.t[5].scale[0] = 3e38f; s.t[6].scale[0] = 10.f);
  int32_t d14[] = {1, 4}, d24[] = {2, 4}, d2[] = {2}, d12[] = {1, 2}, d13[] = {1, 3};
  {
    /* int16 FULLY_CONNECTED, int64 bias: factor 2^20, shift 21: fine for the int32
     * requantisation, past the 14 of the 16x8 kernels' int64 one */
    TSpec t[4] = {tensor("in16", T_INT16, 2, d14, 0, 1.f, 0), tensor("w", T_INT8, 2, d24, 0, 1.f, 0),
                  tensor("b64", T_INT64, 1, d2, 0, 1.f, 0), tensor("out16", T_INT16, 2, d12, 0, 0x1p-20f, 0)};
    size_t consts[3] = {0, 8, 16};
    Spec s = one_op(OP_FULLY_CONNECTED, OPT_FC, 3, t, consts);
    emit_spec("quant_fc_int16_shift_21", &s);
  }
  {
    /* int16 SOFTMAX with beta 1e30: beta x input scale / (10 / 65535) needs a shift of 113 */
    TSpec t[2] = {tensor("in16", T_INT16, 2, d13, 0, 0x1p-10f, 0),
                  tensor("probs", T_INT16, 2, d13, 0, 1.f / 32768.f, 0)};
    size_t consts[1] = {0};
    Spec s = one_op(OP_SOFTMAX, OPT_SOFTMAX, 1, t, consts);
    s.op[0].beta = 1e30f;
    emit_spec("quant_softmax_int16_beta_huge", &s);
  }
  {
    /* int8 ADD, input scales 3e38 and 0.01: the output factor 2 x 3e38 / (2^20 x 0.01)
     * is not below 1 */
    TSpec t[3] = {tensor("a", T_INT8, 2, d14, 0, 3e38f, 0), tensor("b", T_INT8, 2, d14, 0, 0.01f, 0),
                  tensor("sum", T_INT8, 2, d14, 0, 0.01f, 0)};
    size_t consts[2] = {0, 4};
    Spec s = one_op(OP_ADD, OPT_NONE, 2, t, consts);
    emit_spec("quant_add_input_scale_ratio_huge", &s);
  }
  {
    /* int8 MUL: 3e38 x 1 / 0.01 needs a shift of 135 */
    TSpec t[3] = {tensor("a", T_INT8, 2, d14, 0, 3e38f, 0), tensor("b", T_INT8, 2, d14, 0, 1.f, 0),
                  tensor("product", T_INT8, 2, d14, 0, 0.01f, 0)};
    size_t consts[2] = {0, 4};
    Spec s = one_op(OP_MUL, OPT_NONE, 2, t, consts);
    emit_spec("quant_mul_scale_huge", &s);
  }
}

/* ---- Biases that let an int32 accumulator overflow (the compile-time accumulator
 * bound, src/resolve/accumulator.c); written last so earlier files stay identical. ---- */
static uint8_t big_bias[2 * 4];

static void accumulator_cases(void) {
  le32(big_bias, INT32_MAX - 5); /* CONV_2D channel 0: any positive window sum overflows */
  le32(big_bias + 4, 0);
  CASE("accumulator_conv_bias_near_int32_max", s.buf[2] = big_bias);
  le32(big_bias, 0);
  le32(big_bias + 4, INT32_MIN + 3); /* channel 1, the negative end */
  CASE("accumulator_conv_bias_near_int32_min", s.buf[2] = big_bias);
  {
    /* int16 FULLY_CONNECTED with an int64 bias of 2^50: past the 2^47 of TFLite's int64
     * requantisation */
    int32_t d14[] = {1, 4}, d24[] = {2, 4}, d2[] = {2}, d12[] = {1, 2};
    TSpec t[4] = {tensor("in16", T_INT16, 2, d14, 0, 1.f, 0), tensor("w", T_INT8, 2, d24, 0, 1.f, 0),
                  tensor("b64", T_INT64, 1, d2, 0, 1.f, 0), tensor("out16", T_INT16, 2, d12, 0, 1.f, 0)};
    size_t consts[3] = {0, 8, 16};
    Spec s = one_op(OP_FULLY_CONNECTED, OPT_FC, 3, t, consts);
    static uint8_t bias64[16];
    for (int i = 0; i < 8; i++) bias64[i] = (uint8_t)(((uint64_t)1 << 50) >> (8 * i));
    s.buf[s.t[2].buffer] = bias64;
    emit_spec("accumulator_fc_int16_bias_beyond_2p47", &s);
  }
}

/* ---- Control flow and resource variables (issue 16): small float32 models with
 * several subgraphs, each broken in one way; `--control-flow-valid DIR` writes the
 * valid models they derive from. Written last so earlier files stay identical. ---- */

enum { CF_F32 = 0, CF_BOOL = 6, CF_RES = 13 };
enum { B_ADD = 0, B_IF = 118, B_WHILE = 119, B_CALL_ONCE = 129, B_VAR_HANDLE = 142, B_READ = 143, B_ASSIGN = 144 };
enum { TAG_IF = 92, TAG_WHILE = 93, TAG_CALL_ONCE = 103, TAG_VAR_HANDLE = 111 };
enum { CF_MAX = 6 };
static const int32_t cf_codes[] = {B_ADD, B_IF, B_WHILE, B_CALL_ONCE, B_VAR_HANDLE, B_READ, B_ASSIGN};

typedef struct CfOp {
  int32_t code;
  int n_in, n_out;
  int32_t in[CF_MAX], out[CF_MAX];
  int tag;          /* options union tag, 0: none */
  int32_t a, b;     /* IF then/else, WHILE cond/body, CALL_ONCE init */
  const char *var;  /* VAR_HANDLE shared_name */
} CfOp;

typedef struct CfSub {
  int n_t;
  int type[CF_MAX];
  int constant[CF_MAX]; /* 1: holds the model's one constant [1,4] float buffer */
  int n_in, n_out, n_ops;
  int32_t in[CF_MAX], out[CF_MAX];
  CfOp op[CF_MAX];
} CfSub;

typedef struct CfModel {
  int n_sub;
  CfSub sub[CF_MAX];
} CfModel;

static FbObj *cf_tensor(int type, int constant, int i) {
  static const int32_t d14[] = {1, 4}, d1[] = {1};
  char name[16];
  snprintf(name, sizeof name, "t%d", i);
  FbObj *o = fbw_table();
  fbw_obj(o, 0, type == CF_F32 ? fbw_i32_vec(d14, 2) : type == CF_BOOL ? fbw_i32_vec(d1, 1) : fbw_i32_vec(d1, 0));
  fbw_u8(o, 1, (uint8_t)type);
  fbw_u32(o, 2, constant ? 1u : 0u);
  fbw_obj(o, 3, fbw_string(name));
  return o;
}

static FbObj *cf_op(const CfOp *op) {
  int code_index = 0;
  for (size_t i = 0; i < sizeof cf_codes / sizeof cf_codes[0]; i++)
    if (cf_codes[i] == op->code) code_index = (int)i;
  FbObj *o = fbw_table();
  fbw_u32(o, 0, (uint32_t)code_index);
  fbw_obj(o, 1, fbw_i32_vec(op->in, (size_t)op->n_in));
  fbw_obj(o, 2, fbw_i32_vec(op->out, (size_t)op->n_out));
  if (op->tag) {
    FbObj *opts = fbw_table();
    if (op->tag == TAG_VAR_HANDLE) {
      fbw_obj(opts, 1, fbw_string(op->var ? op->var : "v"));
    } else {
      fbw_i32(opts, 0, op->a);
      if (op->tag != TAG_CALL_ONCE) fbw_i32(opts, 1, op->b);
    }
    fbw_u8(o, 3, (uint8_t)op->tag);
    fbw_obj(o, 4, opts);
  }
  return o;
}

static void emit_cf(const char *dir, const char *name, const CfModel *cm) {
  static const float one[4] = {1.f, 2.f, 3.f, 4.f};
  FbObj *subs[CF_MAX], *codes[8];
  for (int s = 0; s < cm->n_sub; s++) {
    const CfSub *g = &cm->sub[s];
    FbObj *tensors[CF_MAX], *ops[CF_MAX];
    for (int i = 0; i < g->n_t; i++) tensors[i] = cf_tensor(g->type[i], g->constant[i], i);
    for (int k = 0; k < g->n_ops; k++) ops[k] = cf_op(&g->op[k]);
    subs[s] = fbw_table();
    fbw_obj(subs[s], 0, fbw_obj_vec(tensors, (size_t)g->n_t));
    fbw_obj(subs[s], 1, fbw_i32_vec(g->in, (size_t)g->n_in));
    fbw_obj(subs[s], 2, fbw_i32_vec(g->out, (size_t)g->n_out));
    fbw_obj(subs[s], 3, fbw_obj_vec(ops, (size_t)g->n_ops));
  }
  size_t n_codes = sizeof cf_codes / sizeof cf_codes[0];
  for (size_t i = 0; i < n_codes; i++) {
    codes[i] = fbw_table();
    fbw_u8(codes[i], 0, (uint8_t)(cf_codes[i] < 127 ? cf_codes[i] : 127));
    fbw_i32(codes[i], 2, 1);
    fbw_i32(codes[i], 3, cf_codes[i]);
  }
  FbObj *buffers[2] = {fbw_table(), fbw_table()};
  fbw_obj(buffers[1], 0, fbw_bytes(one, sizeof one, 16));
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(codes, n_codes));
  fbw_obj(model, 2, fbw_obj_vec(subs, (size_t)cm->n_sub));
  fbw_obj(model, 3, fbw_string("tinyaot hostile control flow"));
  fbw_obj(model, 4, fbw_obj_vec(buffers, 2));
  uint8_t *bytes;
  size_t len = fbw_finish(model, "TFL3", &bytes);
  const char *saved = out_dir;
  out_dir = dir;
  write_file(name, bytes, len);
  out_dir = saved;
  free(bytes);
}

/* main: IF(cond t0, x t1) -> t2; subgraph 1 doubles x (ADD), subgraph 2 passes it through. */
static CfModel cf_if(void) {
  CfModel m = {.n_sub = 3};
  m.sub[0] = (CfSub){.n_t = 3, .type = {CF_BOOL, CF_F32, CF_F32}, .n_in = 2, .in = {0, 1}, .n_out = 1, .out = {2},
                     .n_ops = 1};
  m.sub[0].op[0] = (CfOp){B_IF, 2, 1, {0, 1}, {2}, TAG_IF, 1, 2, NULL};
  m.sub[1] = (CfSub){.n_t = 2, .type = {CF_F32, CF_F32}, .n_in = 1, .in = {0}, .n_out = 1, .out = {1}, .n_ops = 1};
  m.sub[1].op[0] = (CfOp){B_ADD, 2, 1, {0, 0}, {1}, 0, 0, 0, NULL};
  m.sub[2] = (CfSub){.n_t = 1, .type = {CF_F32}, .n_in = 1, .in = {0}, .n_out = 1, .out = {0}};
  return m;
}

/* main: WHILE(flag t0, x t1) -> (t2, t3); cond subgraph 1 returns the flag, body
 * subgraph 2 keeps the flag and doubles x. */
static CfModel cf_while(void) {
  CfModel m = {.n_sub = 3};
  m.sub[0] = (CfSub){.n_t = 4, .type = {CF_BOOL, CF_F32, CF_BOOL, CF_F32}, .n_in = 2, .in = {0, 1}, .n_out = 1,
                     .out = {3}, .n_ops = 1};
  m.sub[0].op[0] = (CfOp){B_WHILE, 2, 2, {0, 1}, {2, 3}, TAG_WHILE, 1, 2, NULL};
  m.sub[1] = (CfSub){.n_t = 2, .type = {CF_BOOL, CF_F32}, .n_in = 2, .in = {0, 1}, .n_out = 1, .out = {0}};
  m.sub[2] = (CfSub){.n_t = 3, .type = {CF_BOOL, CF_F32, CF_F32}, .n_in = 2, .in = {0, 1}, .n_out = 2, .out = {0, 2},
                     .n_ops = 1};
  m.sub[2].op[0] = (CfOp){B_ADD, 2, 1, {1, 1}, {2}, 0, 0, 0, NULL};
  return m;
}

/* main: CALL_ONCE(1); h = VAR_HANDLE 'v'; r = READ(h); y = ADD(r, x); ASSIGN(h, y); out y.
 * subgraph 1: h = VAR_HANDLE 'v'; ASSIGN(h, constant). */
static CfModel cf_resource(void) {
  CfModel m = {.n_sub = 2};
  m.sub[0] = (CfSub){.n_t = 4, .type = {CF_F32, CF_RES, CF_F32, CF_F32}, .n_in = 1, .in = {0}, .n_out = 1, .out = {3},
                     .n_ops = 5};
  m.sub[0].op[0] = (CfOp){B_CALL_ONCE, 0, 0, {0}, {0}, TAG_CALL_ONCE, 1, 0, NULL};
  m.sub[0].op[1] = (CfOp){B_VAR_HANDLE, 0, 1, {0}, {1}, TAG_VAR_HANDLE, 0, 0, "v"};
  m.sub[0].op[2] = (CfOp){B_READ, 1, 1, {1}, {2}, 0, 0, 0, NULL};
  m.sub[0].op[3] = (CfOp){B_ADD, 2, 1, {2, 0}, {3}, 0, 0, 0, NULL};
  m.sub[0].op[4] = (CfOp){B_ASSIGN, 2, 0, {1, 3}, {0}, 0, 0, 0, NULL};
  m.sub[1] = (CfSub){.n_t = 2, .type = {CF_RES, CF_F32}, .constant = {0, 1}, .n_ops = 2};
  m.sub[1].op[0] = (CfOp){B_VAR_HANDLE, 0, 1, {0}, {0}, TAG_VAR_HANDLE, 0, 0, "v"};
  m.sub[1].op[1] = (CfOp){B_ASSIGN, 2, 0, {0, 1}, {0}, 0, 0, 0, NULL};
  return m;
}

#define CF_CASE(name, make, ...) \
  do {                           \
    CfModel m = make();          \
    __VA_ARGS__;                 \
    emit_cf(out_dir, name, &m);  \
  } while (0)

/* Makes subgraph g (input t0 float32, a second float32 tensor t1) run an IF of
 * subgraph `target` on (t0 as condition, t0) into t1: control flow inside a branch. */
static void cf_branch_if(CfSub *g, int32_t target) {
  g->n_t = 2;
  g->type[1] = CF_F32;
  g->n_out = 1;
  g->out[0] = 1;
  g->n_ops = 1;
  g->op[0] = (CfOp){B_IF, 2, 1, {0, 0}, {1}, TAG_IF, target, target, NULL};
}

/* The resource model without its CALL_ONCE: the variable is read before any assignment. */
static void cf_drop_call_once(CfModel *m) {
  CfSub *g = &m->sub[0];
  for (int k = 1; k < g->n_ops; k++) g->op[k - 1] = g->op[k];
  g->n_ops--;
}

static void control_flow_cases(void) {
  CF_CASE("cf_if_then_index_out_of_range", cf_if, m.sub[0].op[0].a = 7);
  CF_CASE("cf_if_then_is_main_graph", cf_if, m.sub[0].op[0].a = 0);
  CF_CASE("cf_if_else_index_negative", cf_if, m.sub[0].op[0].b = -3);
  CF_CASE("cf_if_options_missing", cf_if, m.sub[0].op[0].tag = 0);
  CF_CASE("cf_if_branch_calls_itself", cf_if, cf_branch_if(&m.sub[1], 1));
  /* subgraph 1 runs an IF of 2, subgraph 2 one of 1: a cycle through two subgraphs */
  CF_CASE("cf_if_cycle_two_subgraphs", cf_if, cf_branch_if(&m.sub[1], 2); cf_branch_if(&m.sub[2], 1));
  CF_CASE("cf_if_same_branch_twice", cf_if, m.sub[0].op[0].b = 1);
  CF_CASE("cf_if_branch_takes_two_inputs", cf_if, m.sub[1].n_t = 3; m.sub[1].type[2] = CF_F32; m.sub[1].n_in = 2;
          m.sub[1].in[1] = 2);
  CF_CASE("cf_if_branch_input_bool", cf_if, m.sub[2].type[0] = CF_BOOL);
  CF_CASE("cf_if_output_bool", cf_if, m.sub[0].type[2] = CF_BOOL);
  CF_CASE("cf_if_condition_float", cf_if, m.sub[0].type[0] = CF_F32);
  CF_CASE("cf_while_cond_is_body", cf_while, m.sub[0].op[0].a = 2);
  CF_CASE("cf_while_body_index_huge", cf_while, m.sub[0].op[0].b = 0x7fffffff);
  CF_CASE("cf_while_body_calls_while", cf_while, m.sub[2].n_t = 4; m.sub[2].type[3] = CF_BOOL;
          m.sub[2].op[0] = (CfOp){B_WHILE, 2, 2, {0, 1}, {3, 2}, TAG_WHILE, 1, 2, NULL});
  CF_CASE("cf_while_outputs_fewer", cf_while, m.sub[0].op[0].n_out = 1; m.sub[0].op[0].out[0] = 3);
  CF_CASE("cf_call_once_is_main_graph", cf_resource, m.sub[0].op[0].a = 0);
  CF_CASE("cf_call_once_index_out_of_range", cf_resource, m.sub[0].op[0].a = 2);
  CF_CASE("cf_call_once_calls_itself", cf_resource, m.sub[1].op[1] = m.sub[0].op[0]);
  CF_CASE("cf_call_once_init_computes", cf_resource, m.sub[1].n_t = 3; m.sub[1].type[2] = CF_F32; m.sub[1].n_ops = 3;
          m.sub[1].op[2] = m.sub[1].op[1]; m.sub[1].op[2].in[1] = 2;
          m.sub[1].op[1] = (CfOp){B_ADD, 2, 1, {1, 1}, {2}, 0, 0, 0, NULL});
  CF_CASE("cf_resource_read_before_assign", cf_resource, cf_drop_call_once(&m));
  CF_CASE("cf_resource_handle_into_add", cf_resource, m.sub[0].op[3].in[0] = 1);
  CF_CASE("cf_resource_handle_is_output", cf_resource, m.sub[0].out[0] = 1);
  CF_CASE("cf_resource_init_names_other_variable", cf_resource, m.sub[1].op[0].var = "w");
}

/* ---- INT4 filters (TensorType 17, two values per byte, low nibble first): valid
 * models for the oracle (`--int4-valid DIR`) and the refusals. Written last so that
 * earlier files stay identical. ---- */

static uint8_t w4_conv[9], w4_fc[27], w4_dw[14], w4_conv16[5];

/* n int4 values from the weight generator, the first two -8 and 7, packed low nibble first. */
static void pack_int4(uint8_t *out, int n) {
  memset(out, 0, (size_t)(n + 1) / 2);
  for (int i = 0; i < n; i++) {
    int v = i == 0 ? -8 : i == 1 ? 7 : (int)(((uint8_t)rnd_i8()) % 16u) - 8;
    out[i / 2] |= (uint8_t)(((unsigned)v & 15u) << (4 * (i & 1)));
  }
}

/* base() with both filters int4 (per-channel CONV_2D, per-tensor FULLY_CONNECTED). */
static Spec base_w4(void) {
  Spec s = base();
  pack_int4(w4_conv, 18);
  pack_int4(w4_fc, 54);
  s.t[1].type = s.t[6].type = T_INT4;
  s.t[1].scale[0] = 0.06f;
  s.t[1].scale[1] = 0.08f;
  s.t[2].scale[0] = 0.003f; /* input 0.05 x filter */
  s.t[2].scale[1] = 0.004f;
  s.t[6].scale[0] = 0.05f;
  s.t[7].scale[0] = 0.002f;
  s.buf[1] = w4_conv;
  s.buf_len[1] = sizeof w4_conv;
  s.buf[4] = w4_fc;
  s.buf_len[4] = sizeof w4_fc;
  return s;
}

/* input [1,5,5,3] -> DEPTHWISE_CONV_2D 3x3 VALID int4 per-channel (27 values: odd, the
 * last high nibble unused) -> [1,3,3,3]; `int16` makes the activations int16 (int64 bias). */
static Spec dw_w4(int int16) {
  int32_t d_in[] = {1, 5, 5, 3}, d_w[] = {1, 3, 3, 3}, d_b[] = {3}, d_out[] = {1, 3, 3, 3};
  TSpec t[4] = {tensor("input", int16 ? T_INT16 : T_INT8, 4, d_in, 0, 0.05f, int16 ? 0 : -3),
                tensor("dw/w", T_INT4, 4, d_w, 0, 0.1f, 0),
                tensor("dw/b", int16 ? T_INT64 : T_INT32, 1, d_b, 0, 0.005f, 0),
                tensor("dw", int16 ? T_INT16 : T_INT8, 4, d_out, 0, 1.5f, int16 ? 0 : 2)};
  t[1].nq = t[2].nq = 3;
  t[1].qdim = 3;
  for (int c = 0; c < 3; c++) {
    t[1].scale[c] = 0.1f + 0.02f * (float)c;
    t[2].scale[c] = 0.05f * t[1].scale[c];
  }
  size_t consts[3] = {0, 14, int16 ? 24 : 12};
  Spec s = one_op(OP_DEPTHWISE_CONV_2D, OPT_DEPTHWISE, 3, t, consts);
  pack_int4(w4_dw, 27);
  s.buf[s.t[1].buffer] = w4_dw;
  static uint8_t bias[24];
  memset(bias, 0, sizeof bias);
  for (int c = 0; c < 3; c++) {
    int32_t v = 40 * (c - 1);
    for (int k = 0; k < (int16 ? 8 : 4); k++) bias[(int16 ? 8 : 4) * c + k] = (uint8_t)((uint64_t)(int64_t)v >> (8 * k));
  }
  s.buf[s.t[2].buffer] = bias;
  s.op[0].padding = 1; /* VALID */
  s.op[0].stride_w = s.op[0].stride_h = 1;
  return s;
}

/* int16 CONV_2D 1x3x3x1 with an int4 filter (9 values: odd): TensorFlow Lite Micro refuses it. */
static Spec conv16_w4(void) {
  int32_t d_in[] = {1, 4, 4, 1}, d_w[] = {1, 3, 3, 1}, d_b[] = {1}, d_out[] = {1, 4, 4, 1};
  TSpec t[4] = {tensor("in16", T_INT16, 4, d_in, 0, 0.01f, 0), tensor("w", T_INT4, 4, d_w, 0, 0.1f, 0),
                tensor("b64", T_INT64, 1, d_b, 0, 0.001f, 0), tensor("out16", T_INT16, 4, d_out, 0, 0.02f, 0)};
  size_t consts[3] = {0, 5, 8};
  Spec s = one_op(OP_CONV_2D, OPT_CONV, 3, t, consts);
  pack_int4(w4_conv16, 9);
  s.buf[s.t[1].buffer] = w4_conv16;
  s.op[0].stride_w = s.op[0].stride_h = 1;
  return s;
}

/* int16 FULLY_CONNECTED [1,4] x [2,4] int4 filter, int64 bias: refused by TensorFlow Lite Micro. */
static Spec fc16_w4(void) {
  static uint8_t w4_fc16[4];
  int32_t d14[] = {1, 4}, d24[] = {2, 4}, d2[] = {2}, d12[] = {1, 2};
  TSpec t[4] = {tensor("in16", T_INT16, 2, d14, 0, 0.01f, 0), tensor("w", T_INT4, 2, d24, 0, 0.1f, 0),
                tensor("b64", T_INT64, 1, d2, 0, 0.001f, 0), tensor("out16", T_INT16, 2, d12, 0, 0.02f, 0)};
  size_t consts[3] = {0, 4, 16};
  Spec s = one_op(OP_FULLY_CONNECTED, OPT_FC, 3, t, consts);
  pack_int4(w4_fc16, 8);
  s.buf[s.t[1].buffer] = w4_fc16;
  return s;
}

static void int4_valid(const char *dir) {
  out_dir = dir;
  Spec a = base_w4(), b = dw_w4(0), c = dw_w4(1), e = conv16_w4(), f = fc16_w4();
  emit_spec("w4_conv_fc", &a);
  emit_spec("w4_dw_odd", &b);
  emit_spec("w4_dw_int16", &c);
  emit_spec("w4_conv_int16", &e);
  emit_spec("w4_fc_int16", &f);
}

static void int4_cases(void) {
  Spec w = base_w4();
  (void)w;
  /* 18 int4 values need 9 bytes */
  CASE("int4_buffer_truncated", s = base_w4(); s.buf_len[1] = 8);
  CASE("int4_buffer_unpacked_size", s = base_w4(); static uint8_t w18[18]; s.buf[1] = w18; s.buf_len[1] = 18);
  {
    int32_t d14[] = {1, 4};
    TSpec t[3] = {tensor("a", T_INT8, 2, d14, 0, 0.01f, 0), tensor("b4", T_INT4, 2, d14, 0, 0.01f, 0),
                  tensor("sum", T_INT8, 2, d14, 0, 0.02f, 0)};
    size_t consts[2] = {0, 2};
    Spec s = one_op(OP_ADD, OPT_NONE, 2, t, consts);
    emit_spec("int4_add_operand", &s);
  }
  CASE("int4_conv_bias_slot", s = base_w4(); s.t[2].type = T_INT4; s.buf_len[2] = 1);
  CASE("int4_activation_input", s = base_w4(); s.t[0].type = T_INT4);
  CASE("int4_reshape_output", s = base_w4(); s.t[5].type = T_INT4);
  CASE("int4_filter_not_constant", s = base_w4(); s.t[1].buffer = 0; s.n_in = 2; s.in[1] = 1);
  {
    Spec s = dw_w4(1);
    emit_spec("int4_filter_int16_activations", &s);
  }
}

/* ---- Valid models whose refusal must name their cause first (tests/suites/refusal_causes.sh):
 * a hybrid FULLY_CONNECTED, a Vela (Ethos-U) custom operator with its NPU scratch input, a
 * TFLite Micro Signal-library operator, a UINT64 tensor. ---- */
static void cause_cases(const char *dir) {
  out_dir = dir;
  int32_t d14[] = {1, 4}, d34[] = {3, 4}, d3[] = {3}, d13[] = {1, 3}, d116[] = {1, 16}, d32[] = {32}, d18[] = {1, 8},
          d8[] = {8}, d12[] = {1, 2};
  {
    TSpec t[4] = {tensor("x", T_FLOAT32, 2, d14, 0, 0.f, 0), tensor("dense/w", T_INT8, 2, d34, 0, 0.01f, 0),
                  tensor("dense/b", T_FLOAT32, 1, d3, 0, 0.f, 0), tensor("y", T_FLOAT32, 2, d13, 0, 0.f, 0)};
    size_t consts[3] = {0, 12, 12};
    Spec s = one_op(OP_FULLY_CONNECTED, OPT_FC, 3, t, consts);
    emit_spec("hybrid_fc", &s);
  }
  {
    TSpec t[4] = {tensor("in", T_INT8, 2, d116, 0, 0.1f, 0), tensor("command_stream", 3, 1, d32, 0, 0.f, 0),
                  tensor("scratch", 3, 1, d32, 0, 0.f, 0), tensor("out", T_INT8, 2, d116, 0, 0.1f, 0)};
    size_t consts[3] = {0, 32, 0};
    Spec s = one_op(OP_CUSTOM, OPT_NONE, 3, t, consts);
    s.custom_name = "ethos-u";
    emit_spec("ethos_u", &s);
  }
  {
    TSpec t[3] = {tensor("frame", T_INT16, 2, d18, 0, 0.f, 0), tensor("window", T_INT16, 1, d8, 0, 0.f, 0),
                  tensor("windowed", T_INT16, 2, d18, 0, 0.f, 0)};
    size_t consts[2] = {0, 16};
    Spec s = one_op(OP_CUSTOM, OPT_NONE, 2, t, consts);
    s.custom_name = "SignalWindow";
    emit_spec("signal_window", &s);
  }
  {
    TSpec t[3] = {tensor("a", 12, 2, d12, 0, 0.f, 0), tensor("b", 12, 2, d12, 0, 0.f, 0),
                  tensor("sum", 12, 2, d12, 0, 0.f, 0)};
    size_t consts[2] = {0, 16};
    Spec s = one_op(OP_ADD, OPT_NONE, 2, t, consts);
    emit_spec("dtype_uint64", &s);
  }
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--causes") == 0) {
    cause_cases(argv[2]);
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "--control-flow-valid") == 0) {
    CfModel a = cf_if(), b = cf_while(), c = cf_resource();
    emit_cf(argv[2], "cf_if_valid", &a);
    emit_cf(argv[2], "cf_while_valid", &b);
    emit_cf(argv[2], "cf_resource_valid", &c);
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "--int4-valid") == 0) {
    int4_valid(argv[2]);
    return 0;
  }
  if (argc == 5 && strcmp(argv[1], "--chain") == 0) {
    chain_model(argv[4], atoi(argv[2]), atoi(argv[3]));
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: make_hostile OUTDIR | make_hostile --chain N SHARED FILE\n");
    return 2;
  }
  out_dir = argv[1];
  spec_cases();
  byte_cases();
  char path[512];
  snprintf(path, sizeof path, "%s/shared_operator_lists.tflite", out_dir);
  chain_model(path, 6, 1);
  n_written++;
  /* Was open until the requantisation shift check (docs/robustness.md); generated here,
   * before base_valid, so that every earlier file stays byte-identical. */
  CASE("quant_scale_huge", s.t[3].scale[0] = s.t[5].scale[0] = 3e38f);
  Spec s = base();
  emit_spec("../base_valid", &s); /* the unmodified model, beside the cases: must convert */
  requant_shift_cases();
  accumulator_cases();
  control_flow_cases();
  int4_cases();
  printf("make_hostile: wrote %d files to %s\n", n_written, out_dir);
  return 0;
}
