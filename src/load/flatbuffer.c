#include "flatbuffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void fb_init(FbBuf *b, const uint8_t *data, size_t size) {
  memset(b, 0, sizeof *b);
  b->data = data;
  b->size = size;
}

bool fb_ok(const FbBuf *b) { return !b->bad; }

static void fb_fail(FbBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fb_fail(FbBuf *b, const char *fmt, ...) {
  if (b->bad) return;
  b->bad = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->why, sizeof b->why, fmt, ap);
  va_end(ap);
}

/* True when [pos, pos+n) lies inside the buffer. */
static bool in_bounds(const FbBuf *b, size_t pos, size_t n) {
  return pos <= b->size && n <= b->size - pos;
}

static uint32_t rd_u32(const FbBuf *b, size_t pos) {
  const uint8_t *p = b->data + pos;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t rd_u16(const FbBuf *b, size_t pos) {
  const uint8_t *p = b->data + pos;
  return (uint16_t)(p[0] | p[1] << 8);
}

static uint64_t rd_u64(const FbBuf *b, size_t pos) {
  return (uint64_t)rd_u32(b, pos) | (uint64_t)rd_u32(b, pos + 4) << 32;
}

static FbTable table_at(FbBuf *b, size_t pos) {
  FbTable t = {b, 0, 0, 0, false};
  if (b->bad) return t;
  if (!in_bounds(b, pos, 4)) {
    fb_fail(b, "table offset %zu outside the %zu-byte file", pos, b->size);
    return t;
  }
  int32_t soff = (int32_t)rd_u32(b, pos);
  int64_t vt = (int64_t)pos - (int64_t)soff;
  if (vt < 0 || !in_bounds(b, (size_t)vt, 4)) {
    fb_fail(b, "vtable of table at %zu points outside the file", pos);
    return t;
  }
  uint16_t vt_size = rd_u16(b, (size_t)vt);
  uint16_t tbl_size = rd_u16(b, (size_t)vt + 2);
  if (vt_size < 4 || (vt_size & 1) || !in_bounds(b, (size_t)vt, vt_size)) {
    fb_fail(b, "malformed vtable (size %u) of table at %zu", vt_size, pos);
    return t;
  }
  if (tbl_size < 4 || !in_bounds(b, pos, tbl_size)) {
    fb_fail(b, "table at %zu (size %u) runs past the end of the file", pos, tbl_size);
    return t;
  }
  t.pos = pos;
  t.vtable = (size_t)vt;
  t.vt_size = vt_size;
  t.present = true;
  return t;
}

FbTable fb_root(FbBuf *b, const char *ident) {
  FbTable none = {b, 0, 0, 0, false};
  if (b->size < 8) {
    fb_fail(b, "file is %zu bytes, too small to be a FlatBuffer", b->size);
    return none;
  }
  if (ident && memcmp(b->data + 4, ident, 4) != 0) {
    fb_fail(b, "file identifier is not \"%s\" (not a TFLite model)", ident);
    return none;
  }
  FbTable t = table_at(b, rd_u32(b, 0));
  if (!t.present && !b->bad) fb_fail(b, "missing root table");
  return t;
}

/* Absolute position of a field's bytes, or 0 when the field is absent. */
static size_t field_pos(const FbTable *t, int field, size_t size) {
  if (!t->present || t->buf->bad || field < 0) return 0;
  size_t slot = 4 + 2 * (size_t)field;
  if (slot + 2 > t->vt_size) return 0;
  uint16_t off = rd_u16(t->buf, t->vtable + slot);
  if (off == 0) return 0;
  size_t pos = t->pos + off;
  if (!in_bounds(t->buf, pos, size)) {
    fb_fail(t->buf, "field %d of table at %zu lies outside the file", field, t->pos);
    return 0;
  }
  return pos;
}

bool fb_has(const FbTable *t, int field) { return field_pos(t, field, 1) != 0; }

uint8_t fb_u8(const FbTable *t, int field, uint8_t def) {
  size_t p = field_pos(t, field, 1);
  return p ? t->buf->data[p] : def;
}
int8_t fb_i8(const FbTable *t, int field, int8_t def) { return (int8_t)fb_u8(t, field, (uint8_t)def); }
bool fb_bool(const FbTable *t, int field, bool def) { return fb_u8(t, field, def ? 1 : 0) != 0; }
uint16_t fb_u16(const FbTable *t, int field, uint16_t def) {
  size_t p = field_pos(t, field, 2);
  return p ? rd_u16(t->buf, p) : def;
}
int16_t fb_i16(const FbTable *t, int field, int16_t def) { return (int16_t)fb_u16(t, field, (uint16_t)def); }
uint32_t fb_u32(const FbTable *t, int field, uint32_t def) {
  size_t p = field_pos(t, field, 4);
  return p ? rd_u32(t->buf, p) : def;
}
int32_t fb_i32(const FbTable *t, int field, int32_t def) { return (int32_t)fb_u32(t, field, (uint32_t)def); }
uint64_t fb_u64(const FbTable *t, int field, uint64_t def) {
  size_t p = field_pos(t, field, 8);
  return p ? rd_u64(t->buf, p) : def;
}
int64_t fb_i64(const FbTable *t, int field, int64_t def) { return (int64_t)fb_u64(t, field, (uint64_t)def); }
float fb_f32(const FbTable *t, int field, float def) {
  size_t p = field_pos(t, field, 4);
  if (!p) return def;
  uint32_t u = rd_u32(t->buf, p);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Follows the uoffset stored at `pos` (relative to itself). Returns 0 on failure. */
static size_t follow(FbBuf *b, size_t pos) {
  uint32_t rel = rd_u32(b, pos);
  if (rel == 0 || !in_bounds(b, pos, (size_t)rel)) {
    fb_fail(b, "offset %u at %zu points outside the file", rel, pos);
    return 0;
  }
  return pos + rel;
}

FbTable fb_table(const FbTable *t, int field) {
  FbTable none = {t->buf, 0, 0, 0, false};
  size_t p = field_pos(t, field, 4);
  if (!p) return none;
  size_t target = follow(t->buf, p);
  return target ? table_at(t->buf, target) : none;
}

static FbVec vec_at(FbBuf *b, size_t pos, size_t elem) {
  FbVec v = {b, 0, 0, false};
  if (!in_bounds(b, pos, 4)) {
    fb_fail(b, "vector at %zu outside the file", pos);
    return v;
  }
  uint32_t len = rd_u32(b, pos);
  if (elem && (size_t)len > (b->size - pos - 4) / elem) {
    fb_fail(b, "vector at %zu claims %u elements, past the end of the file", pos, len);
    return v;
  }
  v.pos = pos + 4;
  v.len = len;
  v.present = true;
  return v;
}

FbVec fb_vector(const FbTable *t, int field, size_t elem) {
  FbVec none = {t->buf, 0, 0, false};
  size_t p = field_pos(t, field, 4);
  if (!p) return none;
  size_t target = follow(t->buf, p);
  return target ? vec_at(t->buf, target, elem) : none;
}

const char *fb_string(const FbTable *t, int field, uint32_t *len) {
  FbVec v = fb_vector(t, field, 1);
  *len = v.present ? v.len : 0;
  return v.present ? (const char *)t->buf->data + v.pos : NULL;
}

static bool vec_index_ok(const FbVec *v, uint32_t i) {
  if (v->buf->bad) return false;
  if (!v->present || i >= v->len) {
    fb_fail(v->buf, "vector index %u out of range (length %u)", i, v->len);
    return false;
  }
  return true;
}

uint8_t fb_vec_u8(const FbVec *v, uint32_t i) { return vec_index_ok(v, i) ? v->buf->data[v->pos + i] : 0; }
uint32_t fb_vec_u32(const FbVec *v, uint32_t i) { return vec_index_ok(v, i) ? rd_u32(v->buf, v->pos + 4 * (size_t)i) : 0; }
int32_t fb_vec_i32(const FbVec *v, uint32_t i) { return (int32_t)fb_vec_u32(v, i); }
int64_t fb_vec_i64(const FbVec *v, uint32_t i) {
  return vec_index_ok(v, i) ? (int64_t)rd_u64(v->buf, v->pos + 8 * (size_t)i) : 0;
}
float fb_vec_f32(const FbVec *v, uint32_t i) {
  uint32_t u = fb_vec_u32(v, i);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

FbTable fb_vec_table(const FbVec *v, uint32_t i) {
  FbTable none = {v->buf, 0, 0, 0, false};
  if (!vec_index_ok(v, i)) return none;
  size_t target = follow(v->buf, v->pos + 4 * (size_t)i);
  return target ? table_at(v->buf, target) : none;
}

const uint8_t *fb_vec_bytes(const FbVec *v) { return v->present ? v->buf->data + v->pos : NULL; }
