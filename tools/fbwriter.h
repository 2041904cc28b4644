/* A tiny FlatBuffers writer for tools and tests (demo model, hostile inputs).
 * Objects form a tree; fb_serialize writes each parent before its children so
 * every uoffset points forward, as the format requires. Not used by the compiler. */
#ifndef TINYAOT_FBWRITER_H
#define TINYAOT_FBWRITER_H
#include <stddef.h>
#include <stdint.h>

typedef struct FbObj FbObj;

FbObj *fbw_table(void);
void fbw_u8(FbObj *t, int field, uint8_t v);
void fbw_i32(FbObj *t, int field, int32_t v);
void fbw_u32(FbObj *t, int field, uint32_t v);
void fbw_f32(FbObj *t, int field, float v);
void fbw_obj(FbObj *t, int field, FbObj *child);     /* table, vector or string */
FbObj *fbw_string(const char *s);
FbObj *fbw_bytes(const void *data, size_t n, size_t align); /* vector of scalars, raw LE bytes */
FbObj *fbw_i32_vec(const int32_t *v, size_t n);
FbObj *fbw_f32_vec(const float *v, size_t n);
FbObj *fbw_i64_vec(const int64_t *v, size_t n);
FbObj *fbw_obj_vec(FbObj **items, size_t n);          /* vector of tables */
/* Serializes with the root table and a 4-byte identifier; caller frees *out. */
size_t fbw_finish(FbObj *root, const char *ident, uint8_t **out);

/* A model of one subgraph ("main") whose operators all use one builtin (opcode index 0,
 * builtin `op`, version 1): its tensors, graph inputs and outputs, operators and buffers,
 * schema version 3, serialized into *out (caller frees). */
typedef struct FbwGraph {
  int op;
  FbObj **tensors, **ops, **buffers;
  int n_tensors, n_ops, n_buffers;
  const int32_t *inputs, *outputs;
  int n_inputs, n_outputs;
  const char *description;
} FbwGraph;
size_t fbw_one_op_model(const FbwGraph *g, uint8_t **out);
/* Writes the bytes to path; 0, or 2 after a message "TOOL: cannot write PATH". */
int fbw_write_file(const char *tool, const char *path, const uint8_t *bytes, size_t len);

#endif
