/* The operator contract. Each operator lives in one file, src/ops/<operator>.c, and
 * exports one `const OpDef op_<operator>` listed in op_list.h. That file holds the
 * whole contract: accepted dtypes and quantization, option validation, output-shape
 * checks, capabilities, scratch usage, kernel choice and emission. */
#ifndef TINYAOT_OP_H
#define TINYAOT_OP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../emit/emit_api.h"
#include "../ir/ir.h"
#include "../platform/platform.h"
#include "../ir/quant.h"

/* How an operator's kernels use their scratch buffer (checked by the resolver). */
typedef enum ScratchUsage {
  SCRATCH_NO_CTX,      /* no kernel takes a scratch buffer */
  SCRATCH_IGNORED,     /* a buffer is passed but never dereferenced */
  SCRATCH_REQUIRED,    /* every supported configuration reads it */
  SCRATCH_CONDITIONAL, /* depends on dtype/options/target: OpDef.scratch_needed decides */
} ScratchUsage;

/* Capabilities: opt-in optimisation contracts. CAP_NONE is always correct. */
enum {
  CAP_NONE = 0,
  CAP_STATELESS = 1u << 0,          /* no per-instance init, no mutable file-scope storage */
  CAP_DESCRIPTOR_DRIVEN = 1u << 1,  /* run body = f(const descriptor, tensor pointers) */
  CAP_SHARED_KERNEL = 1u << 2,      /* runs through one shared, signature-keyed helper */
  CAP_STATIC_SCHEDULABLE = 1u << 3, /* may be called directly */
  CAP_PURE = 1u << 4,               /* no side effects beyond its outputs */
  CAP_REORDERABLE = 1u << 5,        /* position flexible within data dependencies */
};

struct OpDef;

typedef struct PrepareCtx {
  Model *model;
  Arena *arena;
  Diag *diag;
  const Platform *platform; /* target: kernel tiers may depend on dsp / mve */
  /* The resolver's operator table, for operators that prepare others (IF/WHILE bodies,
   * subgraph_call.c): passed in, so the operators do not call back up into the table
   * that calls them. NULL: no subgraph operators. */
  const struct OpDef *(*find)(int32_t builtin_code);
} PrepareCtx;

/* In-place contract (issue 17 item 3, docs/memory.md): how the chosen kernel interleaves
 * the reads of one input with the writes of its output, so the planner may place the
 * output over that input where it dies. Both tensors are seen as images: the output has
 * out_h x out_w pixels of out_px bytes, computed in raster order, each from the window
 * (k_h x k_w taps, stride, dilation, leading padding) of an in_h x in_w image of in_px-
 * byte pixels; taps outside the image read nothing. An elementwise operator is
 * 1 x n pixels with 1x1 windows. The promise: once the kernel has written any byte of
 * output pixel q, it reads only windows of pixels >= q - group + 1 (row_groups: of q's
 * output row and later rows; group 0: of later pixels only). The placement is then
 * exact when no output byte lands on an input byte a later window reads (plan/inplace.c
 * computes the offsets that allow it; the plan verifier re-checks every step byte by
 * byte). Kernels that buffer nothing across pixels and run them in order qualify. */
typedef struct InplaceAccess {
  int32_t in_h, in_w, in_px;
  int32_t out_h, out_w, out_px;
  int32_t k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_top, pad_left;
  int32_t group;   /* 0: a pixel's window is read whole before the pixel is written */
  bool row_groups; /* groups are whole output rows (runs along a row) */
  bool moves;      /* the emitted code can write a temporary output and move it into
                    * place (Node.inplace with any delta); false: delta 0 only, the
                    * output at the input's own offset */
  bool slower;     /* the in-place kernel runs slower even when nothing moves (the
                    * Cortex-M4 DSP depthwise, one row pair per pass): max mode only */
} InplaceAccess;

/* Cost features (src/resolve/cost_model.h): which window terms the operator's kernels
 * spend their loops on, beyond the MACs and element counts every operator has. */
typedef enum CostWindow {
  COST_WINDOW_NONE,      /* no window terms */
  COST_WINDOW_POOL,      /* a pooling: output elements x Pool2DOptions window */
  COST_WINDOW_CONV,      /* an im2col convolution over filter input 1 [O, KH, KW, I] */
  COST_WINDOW_DEPTHWISE, /* a depthwise convolution over filter input 1 [1, KH, KW, C] */
} CostWindow;

typedef struct OpDef {
  const char *name;           /* TFLite builtin name, "CONV_2D" */
  int32_t builtin_code;       /* BuiltinOperator value */
  uint32_t capabilities;
  CostWindow cost_window;
  ScratchUsage scratch_usage;
  const char *dtypes;         /* for docs/operators.md: "int8, int16x8, float32" */
  const char *constraints;    /* for docs: notable limits, or "" */
  /* Validates the node (dtypes, quantization, options, shapes) and computes every
   * constant the kernel needs. Sets node->op_data, node->kernel, node->families,
   * node->macs, node->scratch_bytes, node->reads_scratch. On failure calls op_error()
   * and returns false; must not emit anything. */
  bool (*prepare)(PrepareCtx *pc, Node *node);
  /* SCRATCH_CONDITIONAL only: does the chosen configuration read scratch? */
  bool (*scratch_needed)(const Model *m, const Node *node);
  /* Writes the descriptor(s) and the kernel call for a prepared node. */
  void (*emit)(EmitCtx *ec, const Model *m, const Node *node);
  /* Writes the operator's per-instance init (em_init statements: reset the state it
   * owns), or NULL when it has none. Non-NULL contradicts CAP_STATELESS (checked by
   * the contract test over the operator table). */
  void (*emit_init)(EmitCtx *ec, const Model *m, const Node *node);
  /* Optional, for a prepared node: fills the in-place contract above for input `input`
   * and output 0 and returns true, or false when the output must never overlap that
   * input (NULL: never). */
  bool (*inplace)(const Model *m, const Node *node, int input, InplaceAccess *acc);
} OpDef;

/* Records "operator <i> (<NAME>): <message>" and returns false. */
bool op_error(PrepareCtx *pc, const Node *node, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Describes a tensor for messages: "tensor 12 'conv1/out'". Uses the arena. */
const char *op_tensor_desc(PrepareCtx *pc, const Tensor *t);
/* The same without allocating, for messages formatted only on failure:
 * printf("... tensor %d '%s' ...", OP_TENSOR_ARG(t)). */
#define OP_TENSOR_ARG(t) (int)(t)->id, (t)->name

/* Common checks; each reports through op_error. */
bool op_expect_io(PrepareCtx *pc, const Node *node, int min_in, int max_in, int n_out);
bool op_expect_options(PrepareCtx *pc, const Node *node, int kind); /* an OptionsKind; absent is OK */
bool op_expect_type(PrepareCtx *pc, const Node *node, const Tensor *t, TensorType type);
bool op_expect_quantized(PrepareCtx *pc, const Node *node, const Tensor *t); /* per-tensor scale > 0 */
/* Every requantisation multiplier goes through here: quant_multiplier(m), refused (one
 * line naming the operator, the factor described by what_fmt, its shift and the range)
 * when the kernel cannot apply it: see QuantRange in src/ir/quant.h. Factors below
 * 2^-31 become 0, as in TFLite. what_fmt is only formatted on failure. */
bool op_quant_multiplier(PrepareCtx *pc, const Node *node, double m, QuantRange range, int32_t *q, int32_t *shift,
                         const char *what_fmt, ...) __attribute__((format(printf, 7, 8)));

/* Text for reports: "STATELESS<sep>PURE..." ("NONE" when empty), and "no_ctx" etc. */
void op_capability_text(uint32_t caps, const char *sep, char *buf, size_t cap);
const char *op_scratch_usage_name(ScratchUsage u);
/* The scratch contract check of one prepared node (resolve_model runs it on every node,
 * IF / WHILE / CALL_ONCE on their subgraphs' nodes): a kernel that reads scratch must get
 * a non-empty buffer, and the declared ScratchUsage must match what the kernel does. */
bool op_check_scratch(const Model *m, const Node *n, Diag *d);

/* Registry. */
const OpDef *op_find(int32_t builtin_code);
int op_count(void);
const OpDef *op_at(int i);

#endif
