/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: copies driven by index tensors read at run time: GATHER_ND,
 * EMBEDDING_LOOKUP and DYNAMIC_UPDATE_SLICE; and the block rearrangements
 * SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND. Element bytes are copied as they are.
 * An index outside its dimension (TensorFlow Lite Micro stops with an error there)
 * never reads outside the tensor: GATHER_ND and EMBEDDING_LOOKUP write zeros for that
 * slice; DYNAMIC_UPDATE_SLICE clamps its start indices as TensorFlow Lite Micro does. */
#ifndef TA_INDEX_H
#define TA_INDEX_H
#include "ta_common.h"

#define TA_INDEX_MAX_RANK 8

/* GATHER_ND: n_slices index tuples of depth values each address one slice of
 * slice_bytes in params; dims are the extents of params' first depth dimensions and
 * strides their steps counted in slices. */
typedef struct ta_gather_nd_params_t {
  int32_t n_slices;
  int32_t depth;
  int32_t slice_bytes;
  int32_t dims[TA_INDEX_MAX_RANK];
  int32_t strides[TA_INDEX_MAX_RANK]; /* slices per step of each indexed dimension */
} ta_gather_nd_params_t;

void ta_gather_nd_i32(const ta_gather_nd_params_t *p, const void *params, const int32_t *indices, void *out);
void ta_gather_nd_i64(const ta_gather_nd_params_t *p, const void *params, const int64_t *indices, void *out);

/* EMBEDDING_LOOKUP: out row i = table row ids[i] (rows of row_bytes). */
void ta_embedding_lookup(int32_t n_ids, int32_t n_rows, int32_t row_bytes, const int32_t *ids, const void *table,
                         void *out);
/* Hybrid: an int8 table (zero point 0) dequantized into float32 rows: v * scale. */
void ta_embedding_lookup_s8_f32(int32_t n_ids, int32_t n_rows, int32_t row_len, float scale, const int32_t *ids,
                                const int8_t *table, float *out);

/* DYNAMIC_UPDATE_SLICE: out = operand with update written at start (each start index
 * clamped to [0, operand extent - update extent]). */
typedef struct ta_dynamic_update_slice_params_t {
  int32_t rank;                      /* 1..TA_INDEX_MAX_RANK */
  int32_t elem_size;
  int32_t operand_bytes;
  int32_t operand_dims[TA_INDEX_MAX_RANK];
  int32_t update_dims[TA_INDEX_MAX_RANK];
} ta_dynamic_update_slice_params_t;

void ta_dynamic_update_slice_i32(const ta_dynamic_update_slice_params_t *p, const void *operand, const void *update,
                                 const int32_t *start, void *out);
void ta_dynamic_update_slice_i64(const ta_dynamic_update_slice_params_t *p, const void *operand, const void *update,
                                 const int64_t *start, void *out);

/* SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND on [batch, height, width, depth] (a 3-D tensor
 * is [batch, height, 1, depth] with block width 1). space_to_batch: output batch
 * ob = ((sh * block_w) + sw) * in_batch + b takes the input pixel (oh * block_h + sh - top,
 * ow * block_w + sw - left), and zero bytes where that lies in the padding (TensorFlow Lite
 * Micro pads with 0, not the zero point). batch_to_space is the inverse, with the crop at
 * top / left dropping output rows and columns. depth_bytes: bytes of one pixel. */
typedef struct ta_space_batch_params_t {
  int32_t in_batch, in_h, in_w;
  int32_t out_batch, out_h, out_w;
  int32_t block_h, block_w;
  int32_t top, left;                 /* padding (space_to_batch) or crop (batch_to_space) */
  int32_t depth_bytes;
} ta_space_batch_params_t;

void ta_space_to_batch_nd(const ta_space_batch_params_t *p, const void *in, void *out);
void ta_batch_to_space_nd(const ta_space_batch_params_t *p, const void *in, void *out);

#endif
