#include "model_builder.h"

#include <stdlib.h>
#include <string.h>

#include "fbwriter.h"

BuildSpec build_default(void) {
  BuildSpec s = {0};
  s.ident = "TFL3";
  s.version = 3;
  s.in_dims[0] = 1;
  s.in_dims[1] = 8;
  s.op_output = 1;
  s.builtin = 22;
  s.scale = 0.5f;
  s.n_scales = 1;
  s.const_bytes = 8;
  return s;
}

static FbObj *tensor(const char *name, const int32_t *dims, int rank, uint32_t buffer, float scale, int n_scales,
                     int type) {
  FbObj *t = fbw_table();
  fbw_obj(t, 0, fbw_i32_vec(dims, (size_t)rank));
  fbw_u8(t, 1, (uint8_t)type);
  fbw_u32(t, 2, buffer);
  fbw_obj(t, 3, fbw_string(name));
  if (n_scales > 0) {
    float sc[8];
    int64_t zp[8] = {0};
    for (int i = 0; i < n_scales && i < 8; i++) sc[i] = scale;
    FbObj *q = fbw_table();
    fbw_obj(q, 2, fbw_f32_vec(sc, (size_t)n_scales));
    fbw_obj(q, 3, fbw_i64_vec(zp, (size_t)n_scales));
    fbw_obj(t, 4, q);
  }
  return t;
}

uint8_t *build_model(const BuildSpec *s, size_t *len) {
  /* Tests give huge dims on purpose; wrap like the file format would instead of overflowing int. */
  int32_t out_dims[2] = {(int32_t)(uint32_t)((uint64_t)(uint32_t)s->in_dims[0] * (uint32_t)s->in_dims[1]), 1};
  int32_t shape_dims[1] = {2};
  FbObj *tensors[3] = {
      tensor("input", s->in_dims, 2, 0, s->scale, s->n_scales, 9),
      tensor("output", out_dims, 2, 0, s->scale, s->n_scales, 9),
      tensor("new_shape", shape_dims, 1, 1, 0.f, 0, 2),
  };
  int32_t op_in[2] = {s->op_input, 2}, op_out[1] = {s->op_output};
  FbObj *op = fbw_table();
  fbw_u32(op, 0, (uint32_t)s->opcode_index);
  fbw_obj(op, 1, fbw_i32_vec(op_in, 2));
  fbw_obj(op, 2, fbw_i32_vec(op_out, 1));
  FbObj *code = fbw_table();
  fbw_u8(code, 0, (uint8_t)(s->builtin < 127 ? s->builtin : 127));
  fbw_i32(code, 3, s->builtin);
  int32_t sg_in[1] = {0}, sg_out[1] = {1};
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(tensors, 3));
  fbw_obj(sg, 1, fbw_i32_vec(sg_in, 1));
  fbw_obj(sg, 2, fbw_i32_vec(sg_out, 1));
  fbw_obj(sg, 3, fbw_obj_vec(&op, 1));
  uint8_t shape_le[16] = {0};
  shape_le[0] = (uint8_t)out_dims[0];
  shape_le[4] = 1;
  FbObj *b0 = fbw_table(), *b1 = fbw_table();
  fbw_obj(b1, 0, fbw_bytes(shape_le, (size_t)s->const_bytes, 16));
  FbObj *buffers[2] = {b0, b1};
  FbObj *subgraphs[2] = {sg, sg};
  FbObj *model = fbw_table();
  fbw_u32(model, 0, s->version);
  fbw_obj(model, 1, fbw_obj_vec(&code, 1));
  fbw_obj(model, 2, fbw_obj_vec(subgraphs, s->two_subgraphs ? 2 : 1));
  fbw_obj(model, 4, fbw_obj_vec(buffers, 2));
  uint8_t *bytes;
  *len = fbw_finish(model, s->ident, &bytes);
  return bytes;
}
