/* What an operator's emit() may call. The emitter owns file layout and naming;
 * operators only supply declarations and the statements of their layer function. */
#ifndef TINYAOT_EMIT_API_H
#define TINYAOT_EMIT_API_H
#include <stddef.h>
#include <stdint.h>

typedef struct EmitCtx EmitCtx;

/* Unique C identifier for this node, e.g. "op3_conv_2d"; prefix descriptors with it. */
const char *em_op_name(EmitCtx *ec);
/* C expression for a tensor's data: a typed pointer into an arena for activations,
 * the name of a const array for constants (emitted once, placed by macro).
 * Aliased tensors resolve to their storage. "NULL" for id -1. */
const char *em_tensor(EmitCtx *ec, int32_t tensor_id);
/* Pointer expression for this node's planned scratch buffer; "NULL" when none. */
const char *em_scratch(EmitCtx *ec);
/* The layer's kernel call `kernel(a0, a1, ...);` as a structure. Every argument must
 * come from em_tensor, em_scratch, em_table_*, em_desc or em_int, so the emitter knows
 * its C type. A DESCRIPTOR_DRIVEN operator emits its whole run body as one em_call
 * (checked at emit time): that is what lets operators with the same kernel share one
 * body and keep their arguments in a const table. */
void em_call(EmitCtx *ec, const char *kernel, int n_args, ...);
/* "&<op name>_<suffix>" for a descriptor this node declared with
 * em_decl("static const <type> <op name>_<suffix> = ..."). */
const char *em_desc(EmitCtx *ec, const char *suffix);
/* An integer argument for em_call (int32_t, or int64_t when it does not fit). */
const char *em_int(EmitCtx *ec, int64_t v);
/* Any other literal argument for em_call, with its C type ("float", "0x1p-3f"). */
const char *em_literal(EmitCtx *ec, const char *ctype, const char *text);
/* A formatted string that lives as long as the conversion (e.g. a kernel name). */
const char *em_name(EmitCtx *ec, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For IF/WHILE: writes the run body of `inner`, a prepared operator of a subgraph,
 * as a block of this layer's body, its descriptors named "<op name>_<tag><index>_...". */
struct Node;
void em_inline(EmitCtx *ec, const struct Node *inner, const char *tag);
/* In OpDef.emit_init only: resets a variable tensor this operator owns to its initial
 * value (TFLite Micro: the zero point for int8 state, 0 otherwise). */
void em_reset_state(EmitCtx *ec, int32_t tensor_id);
/* Names the kernel variants this layer calls: `bits` of the runtime macro `macro` (a
 * TA_<FAMILY>_VARIANTS mask its kernel file defines, see runtime/kernels/ta_config.h).
 * The module's kernels compile only the variants its layers name; a family whose
 * macro no layer names keeps all of them. */
void em_kernel_variants(EmitCtx *ec, const char *macro, uint32_t bits);
/* File-scope text placed before the layer function (descriptors, small tables). */
void em_decl(EmitCtx *ec, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A statement of the layer function body (indentation and newline added). */
void em_body(EmitCtx *ec, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Read-only tables computed at compile time (re-laid-out weights, folded biases,
 * per-channel multipliers, LUTs). Placed with the constants; returns the symbol,
 * "<op name>_<suffix>". */
const char *em_table_i8(EmitCtx *ec, const char *suffix, const int8_t *v, size_t n);
const char *em_table_u8(EmitCtx *ec, const char *suffix, const uint8_t *v, size_t n);
const char *em_table_i16(EmitCtx *ec, const char *suffix, const int16_t *v, size_t n);
const char *em_table_i32(EmitCtx *ec, const char *suffix, const int32_t *v, size_t n);
const char *em_table_i64(EmitCtx *ec, const char *suffix, const int64_t *v, size_t n);
const char *em_table_f32(EmitCtx *ec, const char *suffix, const float *v, size_t n);
/* The same for a table derived from one model tensor, the operator's input `source`
 * (re-laid weights, folded biases): placement rules naming that tensor by id then place
 * the table too, and report.json names it (docs/memory.md). A table of EM_FROM_BIAS
 * when the operator has no constant bias is folded from its weights, so it names those. */
enum { EM_FROM_WEIGHTS = 1, EM_FROM_BIAS = 2 }; /* CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED */
const char *em_table_i8_from(EmitCtx *ec, const char *suffix, int source, const int8_t *v, size_t n);
const char *em_table_i16_from(EmitCtx *ec, const char *suffix, int source, const int16_t *v, size_t n);
const char *em_table_i32_from(EmitCtx *ec, const char *suffix, int source, const int32_t *v, size_t n);

#endif
