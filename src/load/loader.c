/* TFLite schema reader: Model -> SubGraphs -> Tensors, Operators, Buffers.
 * Field numbers follow tensorflow/compiler/mlir/lite/schema/schema.fbs. */
#include "loader.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


#include "options.h"
#include "resources.h"

enum { MODEL_VERSION = 0, MODEL_OPERATOR_CODES = 1, MODEL_SUBGRAPHS = 2, MODEL_DESCRIPTION = 3, MODEL_BUFFERS = 4 };
enum { OPCODE_DEPRECATED_BUILTIN = 0, OPCODE_CUSTOM = 1, OPCODE_VERSION = 2, OPCODE_BUILTIN = 3 };
enum { SUBGRAPH_TENSORS = 0, SUBGRAPH_INPUTS = 1, SUBGRAPH_OUTPUTS = 2, SUBGRAPH_OPERATORS = 3 };
enum { TENSOR_SHAPE = 0, TENSOR_TYPE = 1, TENSOR_BUFFER = 2, TENSOR_NAME = 3, TENSOR_QUANT = 4,
       TENSOR_IS_VARIABLE = 5, TENSOR_SPARSITY = 6 };
enum { QUANT_SCALE = 2, QUANT_ZERO_POINT = 3, QUANT_DETAILS_TYPE = 4, QUANT_DIM = 6 };
enum { OP_OPCODE_INDEX = 0, OP_INPUTS = 1, OP_OUTPUTS = 2, OP_OPTIONS_TYPE = 3, OP_OPTIONS = 4,
       OP_INTERMEDIATES = 8 };
enum { BUFFER_DATA = 0, BUFFER_OFFSET = 1, BUFFER_SIZE = 2 };
/* the operators that take an int4 filter (check_int4_uses) */
enum { BUILTIN_CONV_2D = 3, BUILTIN_DEPTHWISE_CONV_2D = 4, BUILTIN_FULLY_CONNECTED = 9 };

typedef struct OpCode {
  int32_t builtin;
  int32_t version;
  const char *custom;
} OpCode;

typedef struct Buffer {
  const uint8_t *data;
  size_t size;
} Buffer;

typedef struct Loader {
  Arena *arena;
  FbBuf *fb_storage; /* lives in the arena: operator options keep pointing at it */
  Diag *d;
  Model *m;
  int n_opcodes;
  OpCode *opcodes;
  uint32_t n_buffers;
  Buffer *buffers;
  uint64_t claimed; /* bytes of lists, quantization vectors, names and constants read so far */
} Loader;

bool load_file(Arena *a, const char *path, const uint8_t **data, size_t *size, Diag *d) {
  FILE *f = fopen(path, "rb");
  if (!f) return diag_error(d, "cannot open: %s", strerror(errno));
  if (fseek(f, 0, SEEK_END) != 0) {
    fclose(f);
    return diag_error(d, "cannot seek (not a regular file?)");
  }
  long len = ftell(f);
  if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return diag_error(d, "cannot determine the file size");
  }
  if ((unsigned long)len > LOAD_MAX_FILE_BYTES) {
    fclose(f);
    return diag_error(d, "file is %ld bytes, over the 1 GiB limit", len);
  }
  uint8_t *buf = arena_alloc(a, (size_t)len + 1);
  if (!buf) {
    fclose(f);
    return diag_error(d, "out of memory reading %ld bytes", len);
  }
  size_t got = fread(buf, 1, (size_t)len, f);
  fclose(f);
  if (got != (size_t)len) return diag_error(d, "short read (%zu of %ld bytes)", got, len);
  *data = buf;
  *size = (size_t)len;
  return true;
}

/* Counts `bytes` that the file must hold once each; false (with the error) when the
 * total passes the file size, i.e. the file shares or overlaps vectors to make the
 * loader copy more than it holds. */
static bool claim(Loader *L, uint64_t bytes, const char *what) {
  L->claimed += bytes;
  if (L->claimed <= L->fb_storage->size) return true;
  return diag_error(L->d, "malformed model: %s: the file's lists, names, quantization vectors and constants add up to "
                    "more than its %zu bytes (shared or overlapping vectors)", what, L->fb_storage->size);
}

static bool fb_check(Loader *L, const char *where) {
  if (fb_ok(L->fb_storage)) return true;
  return diag_error(L->d, "malformed model: %s: %s", where, L->fb_storage->why);
}

static char *copy_string(Loader *L, const FbTable *t, int field) {
  uint32_t len = 0;
  const char *s = fb_string(t, field, &len);
  if (!s) return "";
  /* Names are for messages and C comments: keep printable ASCII, cap the length. */
  if (len > 200) len = 200;
  L->claimed += len; /* checked with the next claim() */
  char *out = arena_strndup(L->arena, s, len);
  if (!out) return "";
  load_make_text_safe(out);
  return out;
}

/* Custom operators that say what the model is before any symptom does: a Vela (Ethos-U
 * NPU) model, TFLite Micro's Signal library (audio front-end operators "Signal<Name>"). */
static bool check_custom_cause(Loader *L, const char *name) {
  if (strcmp(name, "ethos-u") == 0)
    return diag_error(L->d, "the model was compiled for the Arm Ethos-U NPU (custom operator 'ethos-u', written by "
                            "Vela): its operators run on the NPU, which tinyaot does not target; convert the model as "
                            "it was before Vela");
  if (strncmp(name, "Signal", 6) == 0 && name[6] >= 'A' && name[6] <= 'Z')
    return diag_error(L->d, "custom operator '%s' is from TensorFlow Lite Micro's Signal library (audio feature "
                            "extraction), which tinyaot does not implement; compute the features in the application "
                            "and convert the network without that front end", name);
  return true;
}

static bool load_opcodes(Loader *L, const FbTable *root) {
  FbVec v = fb_vector(root, MODEL_OPERATOR_CODES, 4);
  if (!fb_check(L, "operator_codes")) return false;
  if (v.len > LOAD_MAX_OPERATORS) return diag_error(L->d, "%u operator codes exceed the limit of %d", v.len, LOAD_MAX_OPERATORS);
  L->n_opcodes = (int)v.len;
  L->opcodes = arena_calloc(L->arena, v.len + 1, sizeof(OpCode));
  if (!L->opcodes) return diag_error(L->d, "out of memory");
  for (uint32_t i = 0; i < v.len; i++) {
    FbTable oc = fb_vec_table(&v, i);
    int32_t dep = fb_i8(&oc, OPCODE_DEPRECATED_BUILTIN, 0);
    int32_t code = fb_i32(&oc, OPCODE_BUILTIN, 0);
    L->opcodes[i].builtin = code > dep ? code : dep; /* the newer field wins when set */
    L->opcodes[i].version = fb_i32(&oc, OPCODE_VERSION, 1);
    L->opcodes[i].custom = copy_string(L, &oc, OPCODE_CUSTOM);
    if (!fb_check(L, "operator code") || !check_custom_cause(L, L->opcodes[i].custom)) return false;
  }
  return true;
}

static bool load_buffers(Loader *L, const FbTable *root) {
  FbVec v = fb_vector(root, MODEL_BUFFERS, 4);
  if (!fb_check(L, "buffers")) return false;
  if (v.len > LOAD_MAX_TENSORS) return diag_error(L->d, "%u buffers exceed the limit of %d", v.len, LOAD_MAX_TENSORS);
  L->n_buffers = v.len;
  L->buffers = arena_calloc(L->arena, v.len + 1, sizeof(Buffer));
  if (!L->buffers) return diag_error(L->d, "out of memory");
  for (uint32_t i = 0; i < v.len; i++) {
    FbTable b = fb_vec_table(&v, i);
    FbVec data = fb_vector(&b, BUFFER_DATA, 1);
    uint64_t off = fb_u64(&b, BUFFER_OFFSET, 0), size = fb_u64(&b, BUFFER_SIZE, 0);
    if (!fb_check(L, "buffer")) return false;
    if (data.present && data.len > 0) {
      L->buffers[i].data = fb_vec_bytes(&data);
      L->buffers[i].size = data.len;
    } else if (off > 1) {
      /* Data appended after the FlatBuffer (models over 2 GB use this layout). */
      if (off > L->fb_storage->size || size > L->fb_storage->size - off)
        return diag_error(L->d, "malformed model: buffer %u (offset %llu, size %llu) lies outside the %zu-byte file",
                          i, (unsigned long long)off, (unsigned long long)size, L->fb_storage->size);
      L->buffers[i].data = L->fb_storage->data + off;
      L->buffers[i].size = (size_t)size;
    }
  }
  return true;
}

/* A quantized 8/16-bit value's zero point is itself a value of that type; kernels
 * keep it in a narrow field, so anything else is a broken file, not a model. */
static bool zero_point_fits(TensorType type, int64_t zp) {
  switch (type) {
    case TT_INT8: return zp >= -128 && zp <= 127;
    case TT_UINT8: return zp >= 0 && zp <= 255;
    case TT_INT16: return zp >= -32768 && zp <= 32767;
    case TT_INT4: return zp >= -8 && zp <= 7;
    default: return true;
  }
}

static bool load_quant(Loader *L, Tensor *t, const FbTable *q) {
  if (!q->present) return true;
  FbVec scale = fb_vector(q, QUANT_SCALE, 4);
  FbVec zp = fb_vector(q, QUANT_ZERO_POINT, 8);
  uint8_t details = fb_u8(q, QUANT_DETAILS_TYPE, 0);
  t->quant_dim = fb_i32(q, QUANT_DIM, 0);
  if (!fb_check(L, "quantization parameters")) return false;
  if (details != 0)
    return diag_error(L->d, "tensor %d '%s': custom quantization details are not supported", t->id, t->name);
  if (!scale.present || scale.len == 0) return true;
  if (scale.len > LOAD_MAX_QUANT_PARAMS)
    return diag_error(L->d, "tensor %d '%s': %u scales exceed the limit of %d", t->id, t->name, scale.len,
                      LOAD_MAX_QUANT_PARAMS);
  if (zp.present && zp.len != scale.len)
    return diag_error(L->d, "tensor %d '%s': %u scales but %u zero points", t->id, t->name, scale.len, zp.len);
  char what[64];
  snprintf(what, sizeof what, "tensor %d quantization", (int)t->id);
  if (!claim(L, 4ull * scale.len + 8ull * (zp.present ? zp.len : 0), what)) return false;
  t->n_quant = (int)scale.len;
  t->scale = arena_calloc(L->arena, scale.len, sizeof(float));
  t->zero_point = arena_calloc(L->arena, scale.len, sizeof(int64_t));
  if (!t->scale || !t->zero_point) return diag_error(L->d, "out of memory");
  for (uint32_t i = 0; i < scale.len; i++) {
    t->scale[i] = fb_vec_f32(&scale, i);
    t->zero_point[i] = zp.present ? fb_vec_i64(&zp, i) : 0;
    /* Subnormal scales come from no converter and overflow every derived multiplier. */
    if (!isfinite(t->scale[i]) || t->scale[i] < 0.f || (t->scale[i] != 0.f && !isnormal(t->scale[i])))
      return diag_error(L->d, "tensor %d '%s': quantization scale %u is %g (must be 0 or a normal positive float)",
                        t->id, t->name, i, (double)t->scale[i]);
    /* an unpacked int4 filter keeps the int4 range; a non-constant int4 tensor is
     * refused by check_int4_uses(), which names its operator */
    TensorType stored = t->stored_int4 ? TT_INT4 : t->type;
    if (t->type != TT_INT4 && !zero_point_fits(stored, t->zero_point[i]))
      return diag_error(L->d, "tensor %d '%s': zero point %u is %lld, outside the %s range", t->id, t->name, i,
                        (long long)t->zero_point[i], tensor_type_name(stored));
  }
  /* Some converters write a bias's per-channel dimension as the filter's (3);
   * for a rank-1 tensor only dimension 0 can be meant. */
  if (t->n_quant > 1 && t->rank == 1 && t->dims[0] == t->n_quant) t->quant_dim = 0;
  if (t->n_quant > 1 && (t->quant_dim < 0 || t->quant_dim >= t->rank || t->dims[t->quant_dim] != t->n_quant))
    return diag_error(L->d, "tensor %d '%s': %d per-channel scales do not match dimension %d of shape %s", t->id,
                      t->name, t->n_quant, (int)t->quant_dim, tensor_shape_str(L->arena, t));
  return fb_check(L, "quantization parameters");
}

void load_unpack_int4(const uint8_t *packed, int64_t n, int8_t *out) {
  for (int64_t i = 0; i < n; i++) {
    unsigned nibble = (i & 1) ? (unsigned)packed[i >> 1] >> 4 : (unsigned)packed[i >> 1] & 0xfu;
    out[i] = (int8_t)((int)nibble - (int)((nibble & 8u) << 1)); /* sign-extend 4 bits */
  }
}

static bool load_tensor(Loader *L, Tensor *t, const FbTable *tt) {
  t->name = copy_string(L, tt, TENSOR_NAME);
  FbVec shape = fb_vector(tt, TENSOR_SHAPE, 4);
  t->type = (TensorType)fb_i8(tt, TENSOR_TYPE, 0);
  uint32_t buffer = fb_u32(tt, TENSOR_BUFFER, 0);
  t->is_variable = fb_bool(tt, TENSOR_IS_VARIABLE, false);
  bool sparse = fb_has(tt, TENSOR_SPARSITY);
  FbTable q = fb_table(tt, TENSOR_QUANT);
  if (!fb_check(L, "tensor")) return false;
  if (sparse) return diag_error(L->d, "tensor %d '%s': sparse tensors are not supported", t->id, t->name);
  if (shape.len > TA_MAX_RANK)
    return diag_error(L->d, "tensor %d '%s': rank %u exceeds the maximum of %d", t->id, t->name, shape.len, TA_MAX_RANK);
  t->rank = (int)shape.len;
  /* INT4 is packed two per byte: sized here per element as int8, packed below. */
  bool int4 = t->type == TT_INT4;
  size_t esize = int4 ? 1 : tensor_type_size(t->type);
  if (esize == 0 && t->type != TT_RESOURCE) /* a resource handle has no bytes */
    return diag_error(L->d, "tensor %d '%s': dtype %s is not supported", t->id, t->name,
                      tensor_type_label(L->arena, t->type));
  uint64_t elems = 1;
  for (int i = 0; i < t->rank; i++) {
    int32_t dim = fb_vec_i32(&shape, (uint32_t)i);
    if (dim < 0)
      return diag_error(L->d, "tensor %d '%s': dimension %d is %d (dynamic shapes are not supported)", t->id,
                        t->name, i, (int)dim);
    t->dims[i] = dim;
    if (dim && elems > (uint64_t)LOAD_MAX_TENSOR_BYTES / (uint64_t)dim)
      return diag_error(L->d, "tensor %d '%s': shape %s exceeds the 1 GiB tensor limit", t->id, t->name,
                        tensor_shape_str(L->arena, t));
    elems *= (uint64_t)dim;
  }
  if (elems * esize > LOAD_MAX_TENSOR_BYTES)
    return diag_error(L->d, "tensor %d '%s': %llu bytes exceed the 1 GiB tensor limit", t->id, t->name,
                      (unsigned long long)(elems * esize));
  t->elems = (int64_t)elems;
  t->bytes = int4 ? (size_t)((elems + 1) / 2) : (size_t)(elems * esize); /* int4: the packed bytes */
  if (buffer >= L->n_buffers && buffer != 0)
    return diag_error(L->d, "tensor %d '%s': buffer index %u out of range (%u buffers)", t->id, t->name, buffer,
                      L->n_buffers);
  if (buffer != 0 && L->buffers[buffer].data) {
    if (L->buffers[buffer].size != t->bytes)
      return diag_error(L->d, "tensor %d '%s': buffer %u holds %zu bytes, shape %s %s needs %zu", t->id, t->name,
                        buffer, L->buffers[buffer].size, tensor_shape_str(L->arena, t),
                        int4 ? "int4 (two values per byte)" : tensor_type_name(t->type), t->bytes);
    t->data = L->buffers[buffer].data;
    char what[64];
    snprintf(what, sizeof what, "tensor %d constant data", (int)t->id);
    if (!claim(L, t->bytes, what)) return false;
    if (int4) {
      /* Unpacked once here (at most twice the bytes just claimed): later stages and every
       * kernel tier see an ordinary int8 constant; check_int4_uses() limits where. */
      int8_t *unpacked = arena_alloc(L->arena, (size_t)elems + 1);
      if (!unpacked) return diag_error(L->d, "out of memory");
      load_unpack_int4(t->data, t->elems, unpacked);
      t->data = (const uint8_t *)unpacked;
      t->bytes = (size_t)elems;
      t->type = TT_INT8;
      t->stored_int4 = true;
    }
  }
  return load_quant(L, t, &q);
}

/* Reads a list of tensor indices of the subgraph whose tensors start at `base`:
 * entries are checked against the subgraph's own count and stored as model ids. */
static bool load_index_list(Loader *L, const FbTable *t, int field, int32_t base, int n_tensors, bool allow_missing,
                            int *count, int32_t **out, const char *what) {
  FbVec v = fb_vector(t, field, 4);
  if (!fb_check(L, what)) return false;
  if (v.len > LOAD_MAX_OP_IO) return diag_error(L->d, "%s: %u entries exceed the limit of %d", what, v.len, LOAD_MAX_OP_IO);
  if (!claim(L, 4ull * v.len, what)) return false;
  *count = (int)v.len;
  *out = arena_calloc(L->arena, v.len + 1, sizeof(int32_t));
  if (!*out) return diag_error(L->d, "out of memory");
  for (uint32_t i = 0; i < v.len; i++) {
    int32_t id = fb_vec_i32(&v, i);
    if ((id < 0 && !(allow_missing && id == -1)) || id >= n_tensors)
      return diag_error(L->d, "%s: entry %u refers to tensor %d, which does not exist (%d tensors)", what, i,
                        (int)id, n_tensors);
    (*out)[i] = id < 0 ? id : base + id;
  }
  return true;
}

static bool load_operator(Loader *L, const Subgraph *g, const char *where, Node *n, const FbTable *ot) {
  uint32_t opcode = fb_u32(ot, OP_OPCODE_INDEX, 0);
  if (!fb_check(L, "operator")) return false;
  if ((int64_t)opcode >= L->n_opcodes)
    return diag_error(L->d, "%soperator %d: opcode index %u out of range (%d codes)", where, n->index, opcode,
                      L->n_opcodes);
  n->builtin_code = L->opcodes[opcode].builtin;
  n->version = L->opcodes[opcode].version;
  n->opname = builtin_name(n->builtin_code);
  if (n->builtin_code == 32)
    n->opname = arena_printf(L->arena, "CUSTOM '%s'", L->opcodes[opcode].custom);
  char what[96];
  snprintf(what, sizeof what, "%soperator %d (%s) inputs", where, n->index, n->opname);
  if (!load_index_list(L, ot, OP_INPUTS, g->first_tensor, g->n_tensors, true, &n->n_in, &n->in, what)) return false;
  snprintf(what, sizeof what, "%soperator %d (%s) outputs", where, n->index, n->opname);
  if (!load_index_list(L, ot, OP_OUTPUTS, g->first_tensor, g->n_tensors, false, &n->n_out, &n->out, what)) return false;
  snprintf(what, sizeof what, "%soperator %d (%s) intermediates", where, n->index, n->opname);
  if (!load_index_list(L, ot, OP_INTERMEDIATES, g->first_tensor, g->n_tensors, true, &n->n_inter, &n->inter, what))
    return false;
  uint8_t options_tag = fb_u8(ot, OP_OPTIONS_TYPE, 0);
  FbTable options = fb_table(ot, OP_OPTIONS);
  n->scratch_tensor = -1;
  snprintf(what, sizeof what, "%soperator %d (%s) options", where, n->index, n->opname);
  if (!fb_check(L, what)) return false;
  uint64_t copied = 0;
  if (!decode_options(L->arena, options_tag, &options, n->builtin_code, &n->opts, &copied))
    return fb_check(L, what) && diag_error(L->d, "out of memory");
  return claim(L, copied, what);
}

/* Every operator input must exist before the operator runs: a constant, a subgraph
 * input, a variable, or an earlier operator's output. This also rejects cycles. */
static bool check_dataflow(Loader *L, const Subgraph *g, const char *where) {
  Model *m = L->m;
  uint8_t *written = arena_calloc(L->arena, (size_t)m->n_model_tensors + 1, 1);
  if (!written) return diag_error(L->d, "out of memory");
  for (int i = 0; i < g->n_inputs; i++) written[g->inputs[i]] = 1;
  for (int t = g->first_tensor; t < g->first_tensor + g->n_tensors; t++)
    if (m->tensors[t].data || m->tensors[t].is_variable) written[t] = 1;
  for (int k = 0; k < g->n_nodes; k++) {
    Node *n = &g->nodes[k];
    for (int i = 0; i < n->n_in; i++) {
      int32_t id = n->in[i];
      if (id >= 0 && !written[id])
        return diag_error(L->d, "%soperator %d (%s): input %d reads tensor %d '%s' before any operator writes it", where,
                          k, n->opname, i, (int)id, m->tensors[id].name);
    }
    for (int o = 0; o < n->n_out; o++) {
      Tensor *t = &m->tensors[n->out[o]];
      if (t->data && !t->is_variable)
        return diag_error(L->d, "%soperator %d (%s): output %d is constant tensor %d '%s'", where, k, n->opname, o,
                          (int)t->id, t->name);
      if (written[t->id] == 2 || (written[t->id] && !t->is_variable))
        return diag_error(L->d, "%soperator %d (%s): tensor %d '%s' is written twice", where, k, n->opname,
                          (int)t->id, t->name);
      written[t->id] = 2;
    }
  }
  for (int i = 0; i < g->n_outputs; i++)
    if (!written[g->outputs[i]])
      return diag_error(L->d, "%smodel output %d (tensor %d '%s') is never written", where, i, (int)g->outputs[i],
                        m->tensors[g->outputs[i]].name);
  return true;
}

/* TensorType INT4 is accepted where TensorFlow Lite Micro takes it: as the constant
 * filter (input 1) of CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED with int8
 * activations (its int16 kernels take int8 filters only). Anything else is refused,
 * naming the operator; a packed int4 tensor no operator reads, by itself. */
static bool check_int4_uses(Loader *L, const Subgraph *g, const char *where) {
  Model *m = L->m;
  for (int k = 0; k < g->n_nodes; k++) {
    const Node *n = &g->nodes[k];
    for (int o = 0; o < n->n_out; o++) {
      const Tensor *t = &m->tensors[n->out[o]];
      if (t->type == TT_INT4 || t->stored_int4)
        return diag_error(L->d, "%soperator %d (%s): output %d is int4 tensor %d '%s' (int4 is supported only as a "
                          "constant CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED filter)", where, k, n->opname, o,
                          (int)t->id, t->name);
    }
    for (int i = 0; i < n->n_in; i++) {
      if (n->in[i] < 0) continue;
      const Tensor *t = &m->tensors[n->in[i]];
      if (t->type != TT_INT4 && !t->stored_int4) continue;
      bool filter_op = n->builtin_code == BUILTIN_CONV_2D || n->builtin_code == BUILTIN_DEPTHWISE_CONV_2D ||
                       n->builtin_code == BUILTIN_FULLY_CONNECTED;
      if (!filter_op || i != 1)
        return diag_error(L->d, "%soperator %d (%s): input %d is int4 tensor %d '%s' (int4 is supported only as the "
                          "constant filter, input 1, of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED)", where, k,
                          n->opname, i, (int)t->id, t->name);
      if (t->type == TT_INT4 || t->is_variable)
        return diag_error(L->d, "%soperator %d (%s): int4 filter tensor %d '%s' is not a constant (int4 filters "
                          "must be constant)", where, k, n->opname, (int)t->id, t->name);
      const Tensor *x = n->n_in > 0 && n->in[0] >= 0 ? &m->tensors[n->in[0]] : NULL;
      if (!x || x->type != TT_INT8)
        return diag_error(L->d, "%soperator %d (%s): int4 filter tensor %d '%s' with %s activations (int4 filters "
                          "are supported with int8 activations only, as in TensorFlow Lite Micro)", where, k,
                          n->opname, (int)t->id, t->name, x ? tensor_type_name(x->type) : "no");
    }
  }
  for (int32_t id = g->first_tensor; id < g->first_tensor + g->n_tensors; id++) {
    const Tensor *t = &m->tensors[id];
    if (t->type == TT_INT4)
      return diag_error(L->d, "%stensor %d '%s': a non-constant int4 tensor (int4 is supported only as a constant "
                        "CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED filter)", where, (int)t->id, t->name);
  }
  return true;
}

/* Loads subgraph `s` (its tensors at g->first_tensor, already counted) into g. */
static bool load_subgraph(Loader *L, const FbTable *sg, int s, Subgraph *g) {
  Model *m = L->m;
  FbVec tensors = fb_vector(sg, SUBGRAPH_TENSORS, 4);
  FbVec ops = fb_vector(sg, SUBGRAPH_OPERATORS, 4);
  if (!fb_check(L, "subgraph")) return false;
  if (ops.len > LOAD_MAX_OPERATORS)
    return diag_error(L->d, "%u operators exceed the limit of %d", ops.len, LOAD_MAX_OPERATORS);
  /* Messages about the main graph read as before; others name their subgraph. */
  const char *where = s == 0 ? "" : arena_printf(L->arena, "subgraph %d: ", s);
  g->n_nodes = (int)ops.len;
  g->nodes = arena_calloc(L->arena, ops.len + 1, sizeof(Node));
  if (!g->nodes || !where) return diag_error(L->d, "out of memory");
  for (uint32_t i = 0; i < tensors.len; i++) {
    Tensor *t = &m->tensors[g->first_tensor + (int32_t)i];
    t->id = g->first_tensor + (int32_t)i;
    t->alias_of = -1;
    t->arena = -1;
    t->first_use = t->last_use = -1;
    FbTable tt = fb_vec_table(&tensors, i);
    if (!fb_check(L, "tensor table") || !load_tensor(L, t, &tt)) return false;
  }
  const char *in_what = s == 0 ? "model inputs" : arena_printf(L->arena, "subgraph %d inputs", s);
  const char *out_what = s == 0 ? "model outputs" : arena_printf(L->arena, "subgraph %d outputs", s);
  if (!in_what || !out_what) return diag_error(L->d, "out of memory");
  if (!load_index_list(L, sg, SUBGRAPH_INPUTS, g->first_tensor, g->n_tensors, false, &g->n_inputs, &g->inputs, in_what) ||
      !load_index_list(L, sg, SUBGRAPH_OUTPUTS, g->first_tensor, g->n_tensors, false, &g->n_outputs, &g->outputs,
                       out_what))
    return false;
  if (s == 0 && g->n_outputs == 0) return diag_error(L->d, "model has no outputs");
  for (uint32_t k = 0; k < ops.len; k++) {
    Node *n = &g->nodes[k];
    n->index = (int32_t)k;
    FbTable ot = fb_vec_table(&ops, k);
    if (!fb_check(L, "operator table") || !load_operator(L, g, where, n, &ot)) return false;
  }
  return check_dataflow(L, g, where) && check_int4_uses(L, g, where);
}

/* Sizes every subgraph's tensor range (bounded in total) and allocates the shared array. */
static bool count_tensors(Loader *L, const FbVec *subgraphs) {
  Model *m = L->m;
  uint32_t total = 0;
  for (uint32_t s = 0; s < subgraphs->len; s++) {
    FbTable sg = fb_vec_table(subgraphs, s);
    FbVec tensors = fb_vector(&sg, SUBGRAPH_TENSORS, 4);
    if (!fb_check(L, "subgraph table")) return false;
    if (tensors.len > LOAD_MAX_TENSORS - total)
      return diag_error(L->d, "%u tensors (all subgraphs) exceed the limit of %d", total + tensors.len > total
                        ? total + tensors.len : tensors.len, LOAD_MAX_TENSORS);
    m->subgraphs[s].first_tensor = (int32_t)total;
    m->subgraphs[s].n_tensors = (int32_t)tensors.len;
    total += tensors.len;
  }
  m->n_tensors = m->n_model_tensors = (int)total;
  m->tensors = arena_calloc(L->arena, total + 1, sizeof(Tensor));
  if (!m->tensors) return diag_error(L->d, "out of memory");
  return true;
}

static bool load_subgraphs(Loader *L, const FbVec *subgraphs) {
  Model *m = L->m;
  if (subgraphs->len > LOAD_MAX_SUBGRAPHS)
    return diag_error(L->d, "%u subgraphs exceed the limit of %d", subgraphs->len, LOAD_MAX_SUBGRAPHS);
  m->n_subgraphs = (int)subgraphs->len;
  m->subgraphs = arena_calloc(L->arena, subgraphs->len + 1, sizeof(Subgraph));
  if (!m->subgraphs) return diag_error(L->d, "out of memory");
  if (!count_tensors(L, subgraphs)) return false;
  for (uint32_t s = 0; s < subgraphs->len; s++) {
    FbTable sg = fb_vec_table(subgraphs, s);
    if (!fb_check(L, "subgraph table") || !load_subgraph(L, &sg, (int)s, &m->subgraphs[s])) return false;
  }
  const Subgraph *main_graph = &m->subgraphs[0];
  m->n_nodes = main_graph->n_nodes;
  m->nodes = main_graph->nodes;
  m->n_inputs = main_graph->n_inputs;
  m->inputs = main_graph->inputs;
  m->n_outputs = main_graph->n_outputs;
  m->outputs = main_graph->outputs;
  for (int i = 0; i < m->n_inputs; i++) m->tensors[m->inputs[i]].is_input = true;
  for (int i = 0; i < m->n_outputs; i++) m->tensors[m->outputs[i]].is_output = true;
  return lower_subgraph_references(m, L->d);
}

bool load_model(Arena *a, const char *path, const uint8_t *data, size_t size, Model *m, Diag *d) {
  memset(m, 0, sizeof *m);
  m->arena = a;
  m->path = path;
  m->file = data;
  m->file_size = size;
  Loader L = {.arena = a, .d = d, .m = m};
  L.fb_storage = arena_alloc(a, sizeof(FbBuf));
  if (!L.fb_storage) return diag_error(d, "out of memory");
  fb_init(L.fb_storage, data, size);
  FbTable root = fb_root(L.fb_storage, "TFL3");
  if (!fb_check(&L, "header")) return false;
  uint32_t version = fb_u32(&root, MODEL_VERSION, 0);
  m->description = copy_string(&L, &root, MODEL_DESCRIPTION);
  FbVec subgraphs = fb_vector(&root, MODEL_SUBGRAPHS, 4);
  if (!fb_check(&L, "model table")) return false;
  if (version != 3) return diag_error(d, "unsupported schema version %u (expected 3)", version);
  if (subgraphs.len == 0) return diag_error(d, "model has no subgraph");
  if (!load_opcodes(&L, &root) || !load_buffers(&L, &root)) return false;
  return load_subgraphs(&L, &subgraphs);
}
