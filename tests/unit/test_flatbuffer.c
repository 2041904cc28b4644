/* The FlatBuffers reader: correct reads, sticky failures, no out-of-bounds access. */
#include <stdlib.h>
#include <string.h>

#include "fbwriter.h"
#include "load/flatbuffer.h"
#include "unit.h"

static void reads_fields(UnitState *u) {
  FbObj *t = fbw_table();
  int32_t v[3] = {7, -8, 9};
  fbw_i32(t, 0, -5);
  fbw_u8(t, 2, 200);
  fbw_f32(t, 3, 1.5f);
  fbw_obj(t, 4, fbw_i32_vec(v, 3));
  fbw_obj(t, 5, fbw_string("hello"));
  uint8_t *bytes;
  size_t len = fbw_finish(t, "TEST", &bytes);
  FbBuf b;
  fb_init(&b, bytes, len);
  FbTable r = fb_root(&b, "TEST");
  CHECK(u, r.present);
  CHECK(u, fb_i32(&r, 0, 0) == -5);
  CHECK(u, fb_i32(&r, 1, 42) == 42); /* absent -> default */
  CHECK(u, fb_u8(&r, 2, 0) == 200);
  CHECK(u, fb_f32(&r, 3, 0.f) == 1.5f);
  FbVec vec = fb_vector(&r, 4, 4);
  CHECK(u, vec.len == 3 && fb_vec_i32(&vec, 1) == -8);
  uint32_t slen;
  const char *s = fb_string(&r, 5, &slen);
  CHECK(u, s && slen == 5 && memcmp(s, "hello", 5) == 0);
  CHECK(u, fb_i32(&r, 99, 3) == 3); /* beyond the vtable -> default */
  CHECK(u, fb_ok(&b));
  (void)fb_vec_i32(&vec, 3); /* out of range index fails, sticky */
  CHECK(u, !fb_ok(&b));
  CHECK(u, fb_i32(&r, 0, 11) == 11);
  free(bytes);
}

static void rejects_bad_offsets(UnitState *u) {
  uint8_t buf[16] = {0};
  FbBuf b;
  fb_init(&b, buf, 4);
  fb_root(&b, NULL);
  CHECK(u, !fb_ok(&b)); /* too small */
  memset(buf, 0, sizeof buf);
  buf[0] = 200; /* root offset past the end */
  fb_init(&b, buf, sizeof buf);
  fb_root(&b, NULL);
  CHECK(u, !fb_ok(&b));
  memset(buf, 0, sizeof buf);
  buf[0] = 8; /* table at 8 whose vtable offset points to itself (size 0) */
  fb_init(&b, buf, sizeof buf);
  fb_root(&b, NULL);
  CHECK(u, !fb_ok(&b));
  memset(buf, 0, sizeof buf);
  buf[0] = 8;
  buf[8] = 0xF0; buf[9] = 0xFF; buf[10] = 0xFF; buf[11] = 0x7F; /* vtable far before the file */
  fb_init(&b, buf, sizeof buf);
  fb_root(&b, NULL);
  CHECK(u, !fb_ok(&b));
}

static void huge_vector_length(UnitState *u) {
  FbObj *t = fbw_table();
  int32_t v[2] = {1, 2};
  fbw_obj(t, 0, fbw_i32_vec(v, 2));
  uint8_t *bytes;
  size_t len = fbw_finish(t, "TEST", &bytes);
  FbBuf b;
  fb_init(&b, bytes, len);
  FbTable r = fb_root(&b, "TEST");
  FbVec ok = fb_vector(&r, 0, 4);
  CHECK(u, ok.present && ok.len == 2);
  /* Patch the length word to 0x40000000 elements. */
  size_t lenpos = ok.pos - 4;
  bytes[lenpos + 3] = 0x40;
  fb_init(&b, bytes, len);
  r = fb_root(&b, "TEST");
  FbVec bad = fb_vector(&r, 0, 4);
  CHECK(u, !bad.present && !fb_ok(&b));
  free(bytes);
}

const UnitTest flatbuffer_tests[] = {
    {"flatbuffer/reads_fields", reads_fields},
    {"flatbuffer/rejects_bad_offsets", rejects_bad_offsets},
    {"flatbuffer/huge_vector_length", huge_vector_length},
    {NULL, NULL},
};
