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

#endif
