#include "fbwriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FB_MAX_FIELDS = 16 };
enum { K_NONE, K_U8, K_I32, K_U32, K_F32, K_OBJ };
enum { O_TABLE, O_BYTES, O_OBJVEC };

typedef struct Field {
  int kind;
  uint32_t bits;
  FbObj *obj;
} Field;

struct FbObj {
  int type;
  Field fields[FB_MAX_FIELDS];
  const uint8_t *data; /* O_BYTES */
  size_t n, elem, align;
  FbObj **items;       /* O_OBJVEC */
};

typedef struct Out {
  uint8_t *buf;
  size_t len, cap;
} Out;

static void *xcalloc(size_t n, size_t s) {
  void *p = calloc(n ? n : 1, s ? s : 1);
  if (!p) abort();
  return p;
}

static void put(Out *o, const void *p, size_t n) {
  while (o->len + n > o->cap) {
    o->cap = o->cap ? o->cap * 2 : 1024;
    o->buf = realloc(o->buf, o->cap);
    if (!o->buf) abort();
  }
  memcpy(o->buf + o->len, p, n);
  o->len += n;
}

static void pad_to(Out *o, size_t align) {
  static const uint8_t zero[16];
  while (o->len % align) put(o, zero, 1);
}

static void put_u32_at(Out *o, size_t pos, uint32_t v) {
  for (int i = 0; i < 4; i++) o->buf[pos + i] = (uint8_t)(v >> (8 * i));
}

static void put_u32(Out *o, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  put(o, b, 4);
}

FbObj *fbw_table(void) {
  FbObj *t = xcalloc(1, sizeof *t);
  t->type = O_TABLE;
  return t;
}

static void set(FbObj *t, int f, int kind, uint32_t bits, FbObj *obj) {
  if (f < 0 || f >= FB_MAX_FIELDS) abort();
  t->fields[f] = (Field){kind, bits, obj};
}

void fbw_u8(FbObj *t, int f, uint8_t v) { set(t, f, K_U8, v, NULL); }
void fbw_i32(FbObj *t, int f, int32_t v) { set(t, f, K_I32, (uint32_t)v, NULL); }
void fbw_u32(FbObj *t, int f, uint32_t v) { set(t, f, K_U32, v, NULL); }
void fbw_f32(FbObj *t, int f, float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  set(t, f, K_F32, u, NULL);
}
void fbw_obj(FbObj *t, int f, FbObj *child) { set(t, f, K_OBJ, 0, child); }

FbObj *fbw_bytes(const void *data, size_t n, size_t align) {
  FbObj *v = xcalloc(1, sizeof *v);
  v->type = O_BYTES;
  uint8_t *copy = xcalloc(n, 1);
  if (n) memcpy(copy, data, n);
  v->data = copy;
  v->n = n;
  v->elem = 1;
  v->align = align < 4 ? 4 : align;
  return v;
}

/* Little-endian encoding of scalar vectors (the element count is bytes/elem). */
static FbObj *scalar_vec(const void *v, size_t n, size_t elem) {
  uint8_t *tmp = xcalloc(n * elem, 1);
  for (size_t i = 0; i < n; i++) {
    uint64_t x = 0;
    memcpy(&x, (const uint8_t *)v + i * elem, elem); /* host order */
    for (size_t b = 0; b < elem; b++) tmp[i * elem + b] = (uint8_t)(x >> (8 * b));
  }
  FbObj *o = fbw_bytes(tmp, n * elem, elem);
  free(tmp);
  o->elem = elem;
  o->n = n;
  return o;
}

FbObj *fbw_i32_vec(const int32_t *v, size_t n) { return scalar_vec(v, n, 4); }
FbObj *fbw_f32_vec(const float *v, size_t n) { return scalar_vec(v, n, 4); }
FbObj *fbw_i64_vec(const int64_t *v, size_t n) { return scalar_vec(v, n, 8); }

FbObj *fbw_string(const char *s) {
  size_t n = strlen(s);
  FbObj *o = fbw_bytes(s, n + 1, 4);
  o->n = n; /* the NUL follows the counted bytes */
  return o;
}

FbObj *fbw_obj_vec(FbObj **items, size_t n) {
  FbObj *v = xcalloc(1, sizeof *v);
  v->type = O_OBJVEC;
  v->items = xcalloc(n, sizeof(FbObj *));
  memcpy(v->items, items, n * sizeof(FbObj *));
  v->n = n;
  return v;
}

static size_t write_obj(Out *o, FbObj *obj);

static size_t write_vector(Out *o, FbObj *v) {
  /* length word directly before the (aligned) elements */
  size_t align = v->type == O_BYTES ? v->align : 4;
  while ((o->len + 4) % align) put(o, "", 1);
  size_t pos = o->len;
  put_u32(o, (uint32_t)v->n);
  if (v->type == O_BYTES) {
    put(o, v->data, v->n * v->elem);
    if (v->elem == 1) put(o, "", 1); /* strings and byte vectors: trailing NUL is harmless */
    return pos;
  }
  size_t slots = o->len;
  for (size_t i = 0; i < v->n; i++) put_u32(o, 0);
  for (size_t i = 0; i < v->n; i++) {
    size_t child = write_obj(o, v->items[i]);
    put_u32_at(o, slots + 4 * i, (uint32_t)(child - (slots + 4 * i)));
  }
  return pos;
}

static size_t write_table(Out *o, FbObj *t) {
  int nf = 0;
  for (int f = 0; f < FB_MAX_FIELDS; f++)
    if (t->fields[f].kind != K_NONE) nf = f + 1;
  /* table body layout: soffset, then 4-byte slots (u8 fields use a whole slot) */
  uint16_t vt[2 + FB_MAX_FIELDS];
  vt[0] = (uint16_t)(4 + 2 * nf);
  vt[1] = (uint16_t)(4 + 4 * nf);
  for (int f = 0; f < nf; f++) vt[2 + f] = t->fields[f].kind == K_NONE ? 0 : (uint16_t)(4 + 4 * f);
  pad_to(o, 2);
  size_t vt_pos = o->len;
  for (int i = 0; i < 2 + nf; i++) {
    uint8_t b[2] = {(uint8_t)vt[i], (uint8_t)(vt[i] >> 8)};
    put(o, b, 2);
  }
  pad_to(o, 4);
  size_t pos = o->len;
  put_u32(o, (uint32_t)(int32_t)(pos - vt_pos));
  for (int f = 0; f < nf; f++) put_u32(o, t->fields[f].kind == K_OBJ ? 0 : t->fields[f].bits);
  for (int f = 0; f < nf; f++)
    if (t->fields[f].kind == K_OBJ) {
      size_t slot = pos + 4 + 4 * (size_t)f;
      size_t child = write_obj(o, t->fields[f].obj);
      put_u32_at(o, slot, (uint32_t)(child - slot));
    }
  return pos;
}

static size_t write_obj(Out *o, FbObj *obj) {
  return obj->type == O_TABLE ? write_table(o, obj) : write_vector(o, obj);
}

size_t fbw_finish(FbObj *root, const char *ident, uint8_t **out) {
  Out o = {0};
  put_u32(&o, 0);
  put(&o, ident, 4);
  size_t r = write_obj(&o, root);
  put_u32_at(&o, 0, (uint32_t)r);
  *out = o.buf;
  return o.len;
}

size_t fbw_one_op_model(const FbwGraph *g, uint8_t **out) {
  FbObj *code = fbw_table();
  fbw_u8(code, 0, (uint8_t)g->op);
  fbw_i32(code, 2, 1);
  fbw_i32(code, 3, g->op);
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(g->tensors, (size_t)g->n_tensors));
  fbw_obj(sg, 1, fbw_i32_vec(g->inputs, (size_t)g->n_inputs));
  fbw_obj(sg, 2, fbw_i32_vec(g->outputs, (size_t)g->n_outputs));
  fbw_obj(sg, 3, fbw_obj_vec(g->ops, (size_t)g->n_ops));
  fbw_obj(sg, 4, fbw_string("main"));
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(&code, 1));
  fbw_obj(model, 2, fbw_obj_vec(&sg, 1));
  fbw_obj(model, 3, fbw_string(g->description));
  fbw_obj(model, 4, fbw_obj_vec(g->buffers, (size_t)g->n_buffers));
  return fbw_finish(model, "TFL3", out);
}

int fbw_write_file(const char *tool, const char *path, const uint8_t *bytes, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
    fprintf(stderr, "%s: cannot write %s\n", tool, path);
    return 2;
  }
  return 0;
}
