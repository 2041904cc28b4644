/* SPDX-License-Identifier: MIT-0 */
#include "ta_index.h"

#include <string.h>

/* ---- GATHER_ND ------------------------------------------------------------------------- */

#define TA_GATHER_ND(name, IndexT)                                                              \
  void name(const ta_gather_nd_params_t *p, const void *params, const IndexT *indices, void *out) { \
    const unsigned char *src = (const unsigned char *)params;                                   \
    unsigned char *o = (unsigned char *)out;                                                    \
    for (int32_t s = 0; s < p->n_slices; s++, o += p->slice_bytes) {                            \
      const IndexT *idx = indices + (size_t)s * (size_t)p->depth;                               \
      int64_t slice = 0;                                                                        \
      int ok = 1;                                                                               \
      for (int32_t k = 0; k < p->depth; k++) {                                                  \
        if (idx[k] < 0 || idx[k] >= p->dims[k]) ok = 0;                                         \
        else slice += (int64_t)idx[k] * p->strides[k];                                          \
      }                                                                                         \
      if (ok) memcpy(o, src + (size_t)slice * (size_t)p->slice_bytes, (size_t)p->slice_bytes);  \
      else memset(o, 0, (size_t)p->slice_bytes);                                                \
    }                                                                                           \
  }

TA_GATHER_ND(ta_gather_nd_i32, int32_t)
TA_GATHER_ND(ta_gather_nd_i64, int64_t)

/* ---- EMBEDDING_LOOKUP ------------------------------------------------------------------ */

void ta_embedding_lookup(int32_t n_ids, int32_t n_rows, int32_t row_bytes, const int32_t *ids, const void *table,
                         void *out) {
  const unsigned char *t = (const unsigned char *)table;
  unsigned char *o = (unsigned char *)out;
  for (int32_t i = 0; i < n_ids; i++, o += row_bytes) {
    if (ids[i] >= 0 && ids[i] < n_rows) memcpy(o, t + (size_t)ids[i] * (size_t)row_bytes, (size_t)row_bytes);
    else memset(o, 0, (size_t)row_bytes);
  }
}

void ta_embedding_lookup_s8_f32(int32_t n_ids, int32_t n_rows, int32_t row_len, float scale, const int32_t *ids,
                                const int8_t *table, float *out) {
  for (int32_t i = 0; i < n_ids; i++, out += row_len) {
    const int ok = ids[i] >= 0 && ids[i] < n_rows;
    const int8_t *row = table + (size_t)(ok ? ids[i] : 0) * (size_t)row_len;
    for (int32_t j = 0; j < row_len; j++) out[j] = ok ? (float)row[j] * scale : 0.0f;
  }
}

/* ---- DYNAMIC_UPDATE_SLICE -------------------------------------------------------------- */

/* The update's runs (its innermost dimension) copied to the clamped position. */
static void update_slice(const ta_dynamic_update_slice_params_t *p, const void *update, const int64_t *start,
                         void *out) {
  const unsigned char *u = (const unsigned char *)update;
  unsigned char *o = (unsigned char *)out;
  const int32_t r = p->rank, inner = r - 1;
  const size_t es = (size_t)p->elem_size, run = (size_t)p->update_dims[inner] * es;
  int64_t ostride[TA_INDEX_MAX_RANK];
  int32_t index[TA_INDEX_MAX_RANK] = {0};
  int64_t s = 1;
  for (int32_t k = r - 1; k >= 0; k--) {
    ostride[k] = s;
    s *= p->operand_dims[k];
  }
  for (int32_t k = 0; k < r; k++)
    if (p->update_dims[k] == 0) return;
  for (;;) {
    int64_t off = 0;
    for (int32_t k = 0; k < r; k++) off += (start[k] + index[k]) * ostride[k];
    memcpy(o + (size_t)off * es, u, run);
    u += run;
    int32_t d = inner - 1;
    for (; d >= 0; d--) {
      if (++index[d] < p->update_dims[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

#define TA_DUS(name, IndexT)                                                                    \
  void name(const ta_dynamic_update_slice_params_t *p, const void *operand, const void *update,  \
            const IndexT *start, void *out) {                                                   \
    int64_t clamped[TA_INDEX_MAX_RANK];                                                         \
    for (int32_t k = 0; k < p->rank; k++) {                                                     \
      const int64_t hi = (int64_t)p->operand_dims[k] - p->update_dims[k];                       \
      const int64_t v = (int64_t)start[k];                                                      \
      clamped[k] = v < 0 ? 0 : v > hi ? hi : v;                                                 \
    }                                                                                           \
    if (out != operand) memcpy(out, operand, (size_t)p->operand_bytes);                         \
    update_slice(p, update, clamped, out);                                                      \
  }

TA_DUS(ta_dynamic_update_slice_i32, int32_t)
TA_DUS(ta_dynamic_update_slice_i64, int64_t)

/* ---- SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND ---------------------------------------------- */

void ta_space_to_batch_nd(const ta_space_batch_params_t *p, const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *o = (unsigned char *)out;
  const size_t db = (size_t)p->depth_bytes;
  for (int32_t ob = 0; ob < p->out_batch; ob++) {
    const int32_t b = ob % p->in_batch, shift = ob / p->in_batch;
    const int32_t sh = shift / p->block_w, sw = shift % p->block_w;
    for (int32_t oh = 0; oh < p->out_h; oh++) {
      const int32_t ih = oh * p->block_h + sh - p->top;
      for (int32_t ow = 0; ow < p->out_w; ow++, o += db) {
        const int32_t iw = ow * p->block_w + sw - p->left;
        if (ih < 0 || ih >= p->in_h || iw < 0 || iw >= p->in_w) memset(o, 0, db);
        else memcpy(o, src + (((size_t)b * (size_t)p->in_h + (size_t)ih) * (size_t)p->in_w + (size_t)iw) * db, db);
      }
    }
  }
}

void ta_batch_to_space_nd(const ta_space_batch_params_t *p, const void *in, void *out) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *o = (unsigned char *)out;
  const size_t db = (size_t)p->depth_bytes;
  for (int32_t ib = 0; ib < p->in_batch; ib++) {
    const int32_t b = ib % p->out_batch, shift = ib / p->out_batch;
    const int32_t sh = shift / p->block_w, sw = shift % p->block_w;
    for (int32_t ih = 0; ih < p->in_h; ih++) {
      const int32_t oh = ih * p->block_h + sh - p->top;
      if (oh < 0 || oh >= p->out_h) continue;
      for (int32_t iw = 0; iw < p->in_w; iw++) {
        const int32_t ow = iw * p->block_w + sw - p->left;
        if (ow < 0 || ow >= p->out_w) continue;
        memcpy(o + (((size_t)b * (size_t)p->out_h + (size_t)oh) * (size_t)p->out_w + (size_t)ow) * db,
               src + (((size_t)ib * (size_t)p->in_h + (size_t)ih) * (size_t)p->in_w + (size_t)iw) * db, db);
      }
    }
  }
}
