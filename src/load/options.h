/* Builtin operator options: FlatBuffer table -> NodeOptions (ir/op_options.h).
 * Field numbers and defaults follow TFLite's schema.fbs. */
#ifndef TINYAOT_LOAD_OPTIONS_H
#define TINYAOT_LOAD_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>

#include "../common/arena.h"
#include "../ir/op_options.h"
#include "flatbuffer.h"

/* Decodes one operator's options: `tag` is the BuiltinOptions union tag and `table`
 * the options table (absent: the builtin's kind with schema defaults). Vectors and
 * strings are copied into the arena; *copied_bytes counts them so the caller can
 * bound the total by the file size. Returns false when the table is malformed
 * (table->buf records why) or on out of memory (the buffer is left intact). */
bool decode_options(Arena *a, uint8_t tag, const FbTable *table, int32_t builtin_code, NodeOptions *out,
                    uint64_t *copied_bytes);

/* Rewrites a string from the model so that it is safe in messages and generated C (names
 * end up in comments): non-printable bytes become '?', a backslash '/', and the second
 * character of "*" "/", "/" "*" and "??" (comment ends, nested comments, trigraphs) '_'. */
void load_make_text_safe(char *s);

#endif
