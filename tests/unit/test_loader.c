/* The loader accepts a valid model and rejects each corruption with a located,
 * specific message; truncation at every length never crashes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "load/loader.h"
#include "model_builder.h"
#include "unit.h"

static bool try_load(const BuildSpec *s, Diag *d) {
  size_t len;
  uint8_t *bytes = build_model(s, &len);
  Arena a;
  arena_init(&a);
  Model m;
  diag_init(d, "test.tflite");
  bool ok = load_model(&a, "test.tflite", bytes, len, &m, d);
  arena_free(&a);
  free(bytes);
  return ok;
}

static void loads_valid_model(UnitState *u) {
  BuildSpec s = build_default();
  size_t len;
  uint8_t *bytes = build_model(&s, &len);
  Arena a;
  arena_init(&a);
  Model m;
  Diag d;
  diag_init(&d, "t");
  CHECK(u, load_model(&a, "t", bytes, len, &m, &d));
  CHECK(u, m.n_tensors == 3 && m.n_nodes == 1 && m.n_inputs == 1 && m.n_outputs == 1);
  CHECK(u, m.nodes[0].builtin_code == 22 && strcmp(m.nodes[0].opname, "RESHAPE") == 0);
  CHECK(u, m.tensors[0].bytes == 8 && m.tensors[0].n_quant == 1 && m.tensors[0].scale[0] == 0.5f);
  CHECK(u, m.tensors[2].data != NULL && m.tensors[2].bytes == 8);
  CHECK(u, strcmp(m.tensors[1].name, "output") == 0);
  arena_free(&a);
  free(bytes);
}

static void expect_error(UnitState *u, BuildSpec s, const char *needle) {
  Diag d;
  bool ok = try_load(&s, &d);
  CHECK(u, !ok);
  if (!ok && !strstr(d.msg, needle)) {
    printf("  expected '%s' in: %s\n", needle, d.msg);
    u->failures++;
  }
}

static void rejects_corruptions(UnitState *u) {
  BuildSpec s;
  s = build_default(); s.ident = "XXXX"; expect_error(u, s, "file identifier");
  s = build_default(); s.version = 2; expect_error(u, s, "schema version");
  s = build_default(); s.opcode_index = 5; expect_error(u, s, "opcode index 5 out of range");
  s = build_default(); s.op_input = 9; expect_error(u, s, "tensor 9, which does not exist");
  s = build_default(); s.op_input = -2; expect_error(u, s, "does not exist");
  s = build_default(); s.op_output = 0; expect_error(u, s, "written twice");
  s = build_default(); s.op_output = 2; expect_error(u, s, "constant tensor");
  s = build_default(); s.in_dims[1] = -3; expect_error(u, s, "dimension 1 is -3");
  s = build_default(); s.in_dims[0] = 1 << 20; s.in_dims[1] = 1 << 20; expect_error(u, s, "1 GiB");
  s = build_default(); s.scale = (float)NAN; expect_error(u, s, "quantization scale");
  s = build_default(); s.scale = -1.f; expect_error(u, s, "quantization scale");
  s = build_default(); s.n_scales = 3; expect_error(u, s, "per-channel scales");
  s = build_default(); s.const_bytes = 5; expect_error(u, s, "buffer 1 holds 5 bytes");
}

/* A second subgraph (the same one twice here) is read into its own tensor range; the
 * main graph stays subgraph 0 and nothing references the other, so the model loads. */
static void loads_second_subgraph(UnitState *u) {
  BuildSpec s = build_default();
  s.two_subgraphs = 1;
  size_t len;
  uint8_t *bytes = build_model(&s, &len);
  Arena a;
  arena_init(&a);
  Model m;
  Diag d;
  diag_init(&d, "t");
  CHECK(u, load_model(&a, "t", bytes, len, &m, &d));
  CHECK(u, m.n_subgraphs == 2 && m.n_tensors == 6 && m.n_nodes == 1);
  CHECK(u, m.subgraphs[1].first_tensor == 3 && m.subgraphs[1].n_tensors == 3 && m.subgraphs[1].n_nodes == 1);
  CHECK(u, m.subgraphs[1].nodes[0].in[0] == m.nodes[0].in[0] + 3 && m.subgraphs[1].outputs[0] == m.outputs[0] + 3);
  CHECK(u, m.tensors[3].id == 3 && !m.tensors[3].is_input && m.tensors[0].is_input);
  arena_free(&a);
  free(bytes);
}

static void truncation_never_crashes(UnitState *u) {
  BuildSpec s = build_default();
  size_t len;
  uint8_t *bytes = build_model(&s, &len);
  int accepted = 0;
  for (size_t cut = 0; cut < len; cut++) {
    uint8_t *copy = malloc(cut + 1); /* exact-size copy so ASan sees any overread */
    memcpy(copy, bytes, cut);
    Arena a;
    arena_init(&a);
    Model m;
    Diag d;
    diag_init(&d, "t");
    if (load_model(&a, "t", copy, cut, &m, &d)) {
      /* Only trailing alignment padding may be missing from a readable file. */
      if (cut + 4 < len) accepted++;
    } else {
      CHECK(u, d.msg[0] != 0);
    }
    arena_free(&a);
    free(copy);
  }
  CHECK(u, accepted == 0);
  free(bytes);
}

static void byte_flips_never_crash(UnitState *u) {
  BuildSpec s = build_default();
  size_t len;
  uint8_t *bytes = build_model(&s, &len);
  for (size_t i = 0; i < len; i++)
    for (int v = 0; v < 3; v++) {
      uint8_t *copy = malloc(len);
      memcpy(copy, bytes, len);
      copy[i] = v == 0 ? 0xFF : v == 1 ? 0x00 : (uint8_t)(copy[i] ^ 0x80);
      Arena a;
      arena_init(&a);
      Model m;
      Diag d;
      diag_init(&d, "t");
      bool ok = load_model(&a, "t", copy, len, &m, &d);
      CHECK(u, ok || d.msg[0] != 0);
      arena_free(&a);
      free(copy);
    }
  free(bytes);
}

/* TensorType INT4: element 2i in the low nibble of byte i, 2i+1 in the high one, each
 * sign-extended from 4 bits; an odd count leaves the last high nibble unused. */
static void unpacks_int4(UnitState *u) {
  /* 0x87: -8 (hi 8) / 7 (lo 7); 0x0f: lo -1, hi 0; 0x91: lo 1, hi -7; 0xf8: lo -8, hi unused */
  const uint8_t packed[] = {0x87, 0x0f, 0x91, 0xf8};
  const int8_t want[] = {7, -8, -1, 0, 1, -7, -8};
  int8_t got[8];
  memset(got, 0x55, sizeof got);
  load_unpack_int4(packed, 7, got);
  for (int i = 0; i < 7; i++) CHECK(u, got[i] == want[i]);
  CHECK(u, got[7] == 0x55); /* an odd count writes n values only */
  /* every nibble value, both positions */
  for (int v = 0; v < 16; v++) {
    const uint8_t b[1] = {(uint8_t)(v | (15 - v) << 4)};
    int8_t two[2];
    load_unpack_int4(b, 2, two);
    CHECK(u, two[0] == (v < 8 ? v : v - 16));
    CHECK(u, two[1] == (15 - v < 8 ? 15 - v : 15 - v - 16));
  }
  int8_t one[1] = {42};
  load_unpack_int4(packed, 1, one);
  CHECK(u, one[0] == 7);
  load_unpack_int4(packed, 0, one); /* nothing */
  CHECK(u, one[0] == 7);
}

const UnitTest loader_tests[] = {
    {"loader/unpacks_int4", unpacks_int4},
    {"loader/loads_valid_model", loads_valid_model},
    {"loader/rejects_corruptions", rejects_corruptions},
    {"loader/loads_second_subgraph", loads_second_subgraph},
    {"loader/truncation_never_crashes", truncation_never_crashes},
    {"loader/byte_flips_never_crash", byte_flips_never_crash},
    {NULL, NULL},
};
