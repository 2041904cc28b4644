/* The intermediate representation: the model's tensors and operators, by their own
 * TFLite indices, plus what later stages attach (kernel choice, plan). Stages only
 * read what earlier stages wrote. */
#ifndef TINYAOT_IR_H
#define TINYAOT_IR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/arena.h"
#include "op_options.h"

enum { TA_MAX_RANK = 8 };

/* TFLite TensorType values (schema.fbs). */
typedef enum TensorType {
  TT_FLOAT32 = 0, TT_FLOAT16 = 1, TT_INT32 = 2, TT_UINT8 = 3, TT_INT64 = 4, TT_STRING = 5,
  TT_BOOL = 6, TT_INT16 = 7, TT_COMPLEX64 = 8, TT_INT8 = 9, TT_FLOAT64 = 10,
  TT_RESOURCE = 13, /* a resource-variable handle: no bytes; the loader rewrites it (src/load/resources.c) */
  TT_UINT32 = 15, TT_UINT16 = 16,
  TT_INT4 = 17,    /* packed two per byte; the loader unpacks constant filters to int8 (Tensor.stored_int4) */
} TensorType;

typedef enum TensorRole {
  ROLE_SCRATCH,    /* activations and kernel scratch, reused by lifetime */
  ROLE_PERSISTENT, /* variable tensors (LSTM/SVDF state), zeroed at init */
  ROLE_CONSTANT,   /* weights, biases, LUTs */
} TensorRole;

typedef struct Tensor {
  int32_t id;                 /* TFLite tensor index (or a synthetic id >= model tensor count) */
  const char *name;           /* never NULL; "" when the model has none */
  TensorType type;
  int rank;
  int32_t dims[TA_MAX_RANK];
  int64_t elems;
  size_t bytes;
  const uint8_t *data;        /* constant bytes inside the model file (an int4 filter: the loader's unpacked copy), or NULL */
  bool is_variable, is_input, is_output;
  /* The model stored this constant as TensorType INT4 (two values per byte): the loader
   * unpacked it to int8 (type is TT_INT8, data and bytes the unpacked values), so every
   * kernel tier reads it as an int8 filter; reports show "int4 (unpacked to int8)". */
  bool stored_int4;
  /* quantization (n_quant == 0: none) */
  int n_quant;
  float *scale;
  int64_t *zero_point;
  int32_t quant_dim;
  /* transform / plan results */
  TensorRole role;
  int32_t alias_of;           /* -1, or the tensor whose storage this one shares */
  size_t alias_offset;        /* a view (patch bands, src/plan/patch.c): starts this many bytes into alias_of */
  bool is_scratch_buffer;     /* synthetic: kernel scratch of one operator */
  bool dead;                  /* produced but never read, and not an output: still planned */
  int32_t first_use, last_use;/* schedule positions (node order), inclusive */
  int arena;                  /* index into Plan.arenas, -1 if not in an arena */
  size_t offset;
} Tensor;

struct OpDef;

/* Inputs / outputs of one operator at most (the loader refuses more: LOAD_MAX_OP_IO). */
#define IR_MAX_NODE_IO 1024

typedef struct Node {
  int32_t index;              /* operator index in the subgraph */
  int32_t builtin_code;
  const char *opname;         /* "CONV_2D" */
  int32_t version;
  int n_in, n_out, n_inter;
  int32_t *in, *out, *inter;  /* tensor ids; -1 for an omitted optional input */
  NodeOptions opts;           /* builtin options, decoded by the loader (op_options.h) */
  const struct OpDef *def;    /* NULL when unsupported */
  /* resolve results */
  void *op_data;              /* operator-private prepared data (arena) */
  const char *kernel;         /* kernel function chosen, for reports */
  const char *families[4];    /* runtime kernel families the emitted code needs */
  size_t scratch_bytes;       /* bytes of scratch the chosen kernel reads */
  bool reads_scratch;         /* the chosen kernel dereferences its scratch buffer */
  int32_t scratch_tensor;     /* synthetic tensor id backing the scratch, or -1 */
  int64_t macs;
  bool is_alias;              /* output shares the input's storage: no code emitted */
  /* plan, in-place execution (plan/inplace.c): the kernel writes output 0 at the storage
   * of input `inplace_input` (which dies here) + inplace_delta bytes, over that input as
   * its contract allows, then the output is moved to its own offset (memmove) */
  bool inplace;
  int32_t inplace_input;
  int64_t inplace_delta;
  /* patch-based execution (plan/patch.c): this node computes band `band` of a patched
   * chain; `index` stays the model operator it came from */
  bool patched;
  int32_t band;
} Node;

/* One TFLite subgraph. Tensors of every subgraph share Model.tensors (subgraph s owns
 * ids first_tensor .. first_tensor + n_tensors - 1), so tensor ids stay unique. */
typedef struct Subgraph {
  int n_nodes;
  Node *nodes;
  int n_inputs, n_outputs;
  int32_t *inputs, *outputs;
  int32_t first_tensor, n_tensors;
} Subgraph;

typedef struct Model {
  Arena *arena;
  const char *path;
  const uint8_t *file;
  size_t file_size;
  const char *description;
  int n_tensors;              /* includes synthetic scratch tensors at the end */
  int n_model_tensors;        /* tensors present in the file */
  Tensor *tensors;
  int n_nodes;
  Node *nodes;
  int n_inputs, n_outputs;
  int32_t *inputs, *outputs;
  /* Every subgraph; [0] is the main graph (the fields above). The others run only
   * inside an IF/WHILE operator of the main graph or as a CALL_ONCE init subgraph,
   * which the loader evaluates at compile time (src/load/resources.c). */
  int n_subgraphs;
  Subgraph *subgraphs;
  /* --integer-io (transform/integer_io.c): per input, then per output, the float tensor
   * the integer one replaced, or -1; NULL when no I/O was made integer. */
  int32_t *integer_io_from;
} Model;

/* The TFLite BuiltinOperator name of a code (builtin_names.c); "UNKNOWN" outside the schema. */
const char *builtin_name(int32_t builtin_code);
const char *tensor_type_name(TensorType t);      /* "int8" */
/* The tensor's dtype for reports: tensor_type_name, or "int4 (unpacked to int8)". */
const char *tensor_dtype_desc(const Tensor *t);
/* tensor_type_name, also for TFLite types tinyaot does not take ("uint64"); "unknown (N)"
 * for numbers the schema does not define. */
const char *tensor_type_label(Arena *a, TensorType t);
const char *tensor_type_ctype(TensorType t);     /* "int8_t" */
size_t tensor_type_size(TensorType t);           /* 0 if unsupported */
Tensor *model_tensor(Model *m, int32_t id);      /* NULL for -1 / out of range */
const Tensor *node_input(const Model *m, const Node *n, int i);  /* NULL if absent */
const Tensor *node_output(const Model *m, const Node *n, int i);
bool tensor_is_const(const Tensor *t);
/* Byte offset of a view (tensor alias at an offset, patch bands) from its storage tensor:
 * here, beneath the planner and the emitter that both read it. */
size_t tensor_view_offset(const Model *m, int32_t id);
/* Shape as "[1,49,10,1]" in the arena. */
const char *tensor_shape_str(Arena *a, const Tensor *t);
int64_t tensor_dim(const Tensor *t, int i);      /* negative i counts from the end; 1 if out of range */
bool tensor_same_shape(const Tensor *a, const Tensor *b);
/* A copy of m in arena `a` that the later stages may rewrite without touching m: the
 * tensor, node and subgraph arrays (and each node's tensor lists) are copied, what no
 * stage after the loader writes (constant bytes, quantisation, names, option vectors) is
 * shared. The planning search (src/plan/search.c) plans each candidate on one, so the
 * model is loaded and transformed once. False on OOM. */
bool model_copy(const Model *m, Arena *a, Model *out);
/* Adds a synthetic tensor (e.g. kernel scratch); returns its id or -1 on OOM. */
int32_t model_add_tensor(Model *m, const char *name, TensorType type, size_t bytes);

#endif
