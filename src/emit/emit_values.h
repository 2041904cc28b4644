/* Formatting of constant values as C99 literals, independent of the host. */
#ifndef TINYAOT_EMIT_VALUES_H
#define TINYAOT_EMIT_VALUES_H
#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"
#include "../ir/ir.h"

/* Writes "{\n  v, v, ...\n}" for n values read by get(i). */
void emit_i64_list(StrBuf *sb, const int64_t *v, size_t n);
void emit_f32_list(StrBuf *sb, const float *v, size_t n);
/* Writes "{ v, ... }" decoding `elems` little-endian values of `type`. */
void emit_le_values(StrBuf *sb, const uint8_t *bytes, size_t elems, TensorType type);
/* Writes n bytes as "\n  b, b, ..." list items (no braces). */
void emit_bytes(StrBuf *sb, const uint8_t *bytes, size_t n);
/* Lower-case identifier fragment from a tensor/operator name (max 40 chars). */
void emit_sanitize(char *out, size_t cap, const char *name);

#endif
