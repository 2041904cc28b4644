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
/* Writes the initializer of a constant tensor's data, decoding little-endian bytes. */
void emit_tensor_values(StrBuf *sb, const Tensor *t);
/* Lower-case identifier fragment from a tensor/operator name (max 40 chars). */
void emit_sanitize(char *out, size_t cap, const char *name);

#endif
