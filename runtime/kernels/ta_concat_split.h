/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: concatenation and split along one axis, byte for byte
 * (CONCATENATION, PACK, SPLIT, SPLIT_V, UNPACK).
 *
 * Seen from the axis, every tensor is `outer` blocks; block k of the joined tensor is
 * block k of part 0, then block k of part 1, ... Part i's block is chunk_bytes[i]
 * bytes. Values are copied unchanged: TFLite Micro's int8 concatenation does not
 * requantize, so neither do we. */
#ifndef TA_CONCAT_SPLIT_H
#define TA_CONCAT_SPLIT_H
#include "ta_common.h"

typedef struct ta_concat_split_params_t {
  int32_t parts;              /* number of inputs (concat) or outputs (split) */
  int32_t outer;              /* blocks per tensor */
  const int32_t *chunk_bytes; /* [parts] bytes of one block of each part */
} ta_concat_split_params_t;

/* Joins parts[0..n) into `output`. */
void ta_concat(const ta_concat_split_params_t *p, const void *const *parts, void *output);
/* Cuts `input` into parts[0..n). */
void ta_split(const ta_concat_split_params_t *p, const void *input, void *const *parts);

#endif
