/* A bounds-checked reader for FlatBuffers binaries (no library, no generated code).
 *
 * Every access checks offsets against the buffer. Failures are sticky: the first
 * one is recorded in FbBuf.why and later reads return defaults, so callers read a
 * whole table and check fb_ok() once. Nothing here allocates. */
#ifndef TINYAOT_FLATBUFFER_H
#define TINYAOT_FLATBUFFER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct FbBuf {
  const uint8_t *data;
  size_t size;
  bool bad;
  char why[160];
} FbBuf;

typedef struct FbTable {
  FbBuf *buf;
  size_t pos;      /* table start */
  size_t vtable;   /* vtable start */
  uint16_t vt_size;
  bool present;    /* false for an absent (optional) table */
} FbTable;

typedef struct FbVec {
  FbBuf *buf;
  size_t pos;      /* first element */
  uint32_t len;
  bool present;
} FbVec;

void fb_init(FbBuf *b, const uint8_t *data, size_t size);
bool fb_ok(const FbBuf *b);
/* Root table, checking the 4-byte file identifier when `ident` is non-NULL. */
FbTable fb_root(FbBuf *b, const char *ident);

bool fb_has(const FbTable *t, int field);
uint8_t fb_u8(const FbTable *t, int field, uint8_t def);
int8_t fb_i8(const FbTable *t, int field, int8_t def);
bool fb_bool(const FbTable *t, int field, bool def);
int16_t fb_i16(const FbTable *t, int field, int16_t def);
uint16_t fb_u16(const FbTable *t, int field, uint16_t def);
int32_t fb_i32(const FbTable *t, int field, int32_t def);
uint32_t fb_u32(const FbTable *t, int field, uint32_t def);
int64_t fb_i64(const FbTable *t, int field, int64_t def);
uint64_t fb_u64(const FbTable *t, int field, uint64_t def);
float fb_f32(const FbTable *t, int field, float def);

FbTable fb_table(const FbTable *t, int field);            /* sub-table, absent if unset */
FbVec fb_vector(const FbTable *t, int field, size_t elem); /* checked for len*elem bytes */
/* String field: returns a pointer into the buffer and its length; NULL if absent.
 * The bytes are not NUL-checked beyond length; copy with the length. */
const char *fb_string(const FbTable *t, int field, uint32_t *len);

uint8_t fb_vec_u8(const FbVec *v, uint32_t i);
int32_t fb_vec_i32(const FbVec *v, uint32_t i);
uint32_t fb_vec_u32(const FbVec *v, uint32_t i);
int64_t fb_vec_i64(const FbVec *v, uint32_t i);
float fb_vec_f32(const FbVec *v, uint32_t i);
FbTable fb_vec_table(const FbVec *v, uint32_t i);         /* vector of tables */
const uint8_t *fb_vec_bytes(const FbVec *v);              /* raw element bytes */

#endif
