/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: pooling kernels (portable C, the reference tier). */
#include "ta_pooling.h"

/* One output cell: the part of its filter window that lies inside the input
 * (rows y0..y1-1, columns x0..x1-1) and where its channels start. */
typedef struct ta_pool_cell_t {
  int32_t y0, y1, x0, x1;
  size_t in_image; /* element offset of the batch's input image */
  size_t out_at;   /* element offset of the cell's first output channel */
} ta_pool_cell_t;

static ta_pool_cell_t pool_cell(const ta_pool_params_t *p, int32_t b, int32_t out_y, int32_t out_x) {
  ta_pool_cell_t cell;
  int32_t origin_y = out_y * p->stride_h - p->pad_h;
  int32_t origin_x = out_x * p->stride_w - p->pad_w;
  cell.y0 = TA_MAX(origin_y, 0);
  cell.y1 = TA_MIN(origin_y + p->filter_h, p->in_h);
  cell.x0 = TA_MAX(origin_x, 0);
  cell.x1 = TA_MIN(origin_x + p->filter_w, p->in_w);
  cell.in_image = (size_t)b * (size_t)p->in_h * (size_t)p->in_w * (size_t)p->depth;
  cell.out_at = (((size_t)b * (size_t)p->out_h + (size_t)out_y) * (size_t)p->out_w + (size_t)out_x) * (size_t)p->depth;
  return cell;
}

/* Element offset of input pixel (y, x), channel 0. */
static size_t pool_in_at(const ta_pool_params_t *p, const ta_pool_cell_t *cell, int32_t y, int32_t x) {
  return cell->in_image + ((size_t)y * (size_t)p->in_w + (size_t)x) * (size_t)p->depth;
}

static int32_t pool_cells(const ta_pool_params_t *p) { return p->batches * p->out_h * p->out_w; }

static ta_pool_cell_t pool_cell_at(const ta_pool_params_t *p, int32_t k) {
  int32_t ox = k % p->out_w;
  int32_t oy = (k / p->out_w) % p->out_h;
  int32_t b = k / (p->out_w * p->out_h);
  return pool_cell(p, b, oy, ox);
}

/* Rounds sum/count to nearest, ties away from zero (C division truncates). */
static int32_t pool_rounded_mean(int32_t sum, int32_t count) {
  if (count <= 0) return 0;
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

static float clamp_f32(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

#if (TA_POOLING_VARIANTS >> TA_POOL_AVG_WORDS_BIT) & 1u
/* Sums 8 channels of a window at once: each pixel's 8 bytes are two words; on DSP SXTAB16
 * adds a word's even and odd bytes to 16-bit lanes, exact as every window sum fits int16
 * (at most 256 cells of -128..127). */
static void avg_pool_s8_words(const ta_pool_params_t *p, const int8_t *input, int8_t *output) {
  const size_t depth = (size_t)p->depth, row_step = (size_t)p->in_w * depth;
  for (int32_t k = 0; k < pool_cells(p); k++) {
    const ta_pool_cell_t cell = pool_cell_at(p, k);
    const int32_t count = (cell.y1 - cell.y0) * (cell.x1 - cell.x0);
    const int32_t w = cell.x1 - cell.x0;
    const int8_t *base = input + pool_in_at(p, &cell, cell.y0, cell.x0);
    for (size_t c = 0; c < depth; c += 8) {
      int32_t s[8];
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
      uint32_t l[4] = {0, 0, 0, 0}; /* lanes: channels 0/2, 1/3, 4/6, 5/7 */
      const int8_t *row = base + c;
      for (int32_t y = cell.y0; y < cell.y1; y++, row += row_step) {
        const int8_t *px = row;
        for (int32_t x = w; x > 0; x--, px += depth) {
          uint32_t v0, v1;
          memcpy(&v0, px, 4);
          memcpy(&v1, px + 4, 4);
          __asm__("sxtab16 %0, %0, %1" : "+r"(l[0]) : "r"(v0));
          __asm__("sxtab16 %0, %0, %1, ror #8" : "+r"(l[1]) : "r"(v0));
          __asm__("sxtab16 %0, %0, %1" : "+r"(l[2]) : "r"(v1));
          __asm__("sxtab16 %0, %0, %1, ror #8" : "+r"(l[3]) : "r"(v1));
        }
      }
      int16_t h[8]; /* little-endian lanes: channels 0, 2, 1, 3, 4, 6, 5, 7 */
      memcpy(h, l, sizeof h);
      for (int i = 0; i < 8; i++) s[i] = h[(i & 4) | ((i & 1) << 1) | ((i >> 1) & 1)];
#else
      for (int i = 0; i < 8; i++) s[i] = 0;
      const int8_t *row = base + c;
      for (int32_t y = cell.y0; y < cell.y1; y++, row += row_step)
        for (int32_t x = 0; x < w; x++)
          for (int i = 0; i < 8; i++) s[i] += row[(size_t)x * depth + (size_t)i];
#endif
      for (int i = 0; i < 8; i++)
        output[cell.out_at + c + (size_t)i] = (int8_t)ta_clamp(pool_rounded_mean(s[i], count), p->act_min, p->act_max);
    }
  }
}
#endif

void ta_avg_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output) {
#if (TA_POOLING_VARIANTS >> TA_POOL_AVG_WORDS_BIT) & 1u
  if (p->depth % 8 == 0 && p->filter_h * p->filter_w <= TA_POOL_AVG_WORDS_MAX_CELLS) {
    avg_pool_s8_words(p, input, output);
    return;
  }
#endif
#if (TA_POOLING_VARIANTS >> TA_POOL_AVG_GENERIC_BIT) & 1u
  for (int32_t k = 0; k < pool_cells(p); k++) {
    const ta_pool_cell_t cell = pool_cell_at(p, k);
    for (int32_t c = 0; c < p->depth; c++) {
      int32_t sum = 0, count = 0;
      for (int32_t y = cell.y0; y < cell.y1; y++)
        for (int32_t x = cell.x0; x < cell.x1; x++, count++)
          sum += input[pool_in_at(p, &cell, y, x) + (size_t)c];
      output[cell.out_at + (size_t)c] = (int8_t)ta_clamp(pool_rounded_mean(sum, count), p->act_min, p->act_max);
    }
  }
#else
  (void)p, (void)input, (void)output;
#endif
}

#if (TA_POOLING_VARIANTS >> TA_POOL_AVG16_WORDS_BIT) & 1u
/* Adds the low and the high int16 half of word v to sums lo and hi (one SXTAH and one ADD
 * with ASR #16 on DSP). */
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define POOL_ADD_HALVES(lo, hi, v)                              \
  do {                                                          \
    __asm__("sxtah %0, %0, %1" : "+r"(lo) : "r"(v));            \
    (hi) += (int32_t)(int16_t)((v) >> 16);                      \
  } while (0)
#else
#define POOL_ADD_HALVES(lo, hi, v)                              \
  do {                                                          \
    (lo) += (int32_t)(int16_t)((v) & 0xFFFFu);                  \
    (hi) += (int32_t)(int16_t)((v) >> 16);                      \
  } while (0)
#endif

/* int16, 8 channels of a window at once: per pixel four word loads, the 8 sums in registers
 * (int32: exact for any window). kws_a16w8's 25x5 window: ~8.6 instructions a value in the
 * generic loop, ~2 here. */
static void avg_pool_s16_words(const ta_pool_params_t *p, const int16_t *input, int16_t *output) {
  const size_t depth = (size_t)p->depth, row_step = (size_t)p->in_w * depth;
  for (int32_t k = 0; k < pool_cells(p); k++) {
    const ta_pool_cell_t cell = pool_cell_at(p, k);
    const int32_t count = (cell.y1 - cell.y0) * (cell.x1 - cell.x0), w = cell.x1 - cell.x0;
    const int16_t *base = input + pool_in_at(p, &cell, cell.y0, cell.x0);
    for (size_t c = 0; c < depth; c += 8) {
      int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
      const int16_t *row = base + c;
      for (int32_t y = cell.y0; y < cell.y1; y++, row += row_step) {
        const int16_t *px = row;
        for (int32_t x = w; x > 0; x--, px += depth) {
          uint32_t v0, v1, v2, v3;
          memcpy(&v0, px, 4);
          memcpy(&v1, px + 2, 4);
          memcpy(&v2, px + 4, 4);
          memcpy(&v3, px + 6, 4);
          POOL_ADD_HALVES(s0, s1, v0);
          POOL_ADD_HALVES(s2, s3, v1);
          POOL_ADD_HALVES(s4, s5, v2);
          POOL_ADD_HALVES(s6, s7, v3);
        }
      }
      const int32_t sums[8] = {s0, s1, s2, s3, s4, s5, s6, s7};
      for (int i = 0; i < 8; i++)
        output[cell.out_at + c + (size_t)i] =
            (int16_t)ta_clamp(pool_rounded_mean(sums[i], count), p->act_min, p->act_max);
    }
  }
}
#endif

void ta_avg_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output) {
#if (TA_POOLING_VARIANTS >> TA_POOL_AVG16_WORDS_BIT) & 1u
  if (p->depth % 8 == 0) {
    avg_pool_s16_words(p, input, output);
    return;
  }
#endif
  for (int32_t k = 0; k < pool_cells(p); k++) {
    const ta_pool_cell_t cell = pool_cell_at(p, k);
    for (int32_t c = 0; c < p->depth; c++) {
      int32_t sum = 0, count = 0;
      for (int32_t y = cell.y0; y < cell.y1; y++)
        for (int32_t x = cell.x0; x < cell.x1; x++, count++)
          sum += input[pool_in_at(p, &cell, y, x) + (size_t)c];
      output[cell.out_at + (size_t)c] = (int16_t)ta_clamp(pool_rounded_mean(sum, count), p->act_min, p->act_max);
    }
  }
}

void ta_avg_pool_f32(const ta_pool_params_t *p, const float *input, float *output) {
  for (int32_t k = 0; k < pool_cells(p); k++) {
    const ta_pool_cell_t cell = pool_cell_at(p, k);
    for (int32_t c = 0; c < p->depth; c++) {
      float total = 0.f, count = 0.f;
      for (int32_t y = cell.y0; y < cell.y1; y++)
        for (int32_t x = cell.x0; x < cell.x1; x++, count += 1.f)
          total += input[pool_in_at(p, &cell, y, x) + (size_t)c];
      float mean = count > 0.f ? total / count : 0.f;
      output[cell.out_at + (size_t)c] = clamp_f32(mean, p->act_min_f, p->act_max_f);
    }
  }
}

void ta_max_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output) {
  for (int32_t k = 0; k < pool_cells(p); k++) {
    const ta_pool_cell_t cell = pool_cell_at(p, k);
    for (int32_t c = 0; c < p->depth; c++) {
      int32_t m = -128;
      for (int32_t y = cell.y0; y < cell.y1; y++)
        for (int32_t x = cell.x0; x < cell.x1; x++)
          m = TA_MAX(m, (int32_t)input[pool_in_at(p, &cell, y, x) + (size_t)c]);
      output[cell.out_at + (size_t)c] = (int8_t)ta_clamp(m, p->act_min, p->act_max);
    }
  }
}

void ta_max_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output) {
  for (int32_t k = 0; k < pool_cells(p); k++) {
    const ta_pool_cell_t cell = pool_cell_at(p, k);
    for (int32_t c = 0; c < p->depth; c++) {
      int32_t m = -32768;
      for (int32_t y = cell.y0; y < cell.y1; y++)
        for (int32_t x = cell.x0; x < cell.x1; x++)
          m = TA_MAX(m, (int32_t)input[pool_in_at(p, &cell, y, x) + (size_t)c]);
      output[cell.out_at + (size_t)c] = (int16_t)ta_clamp(m, p->act_min, p->act_max);
    }
  }
}

void ta_max_pool_f32(const ta_pool_params_t *p, const float *input, float *output) {
  for (int32_t k = 0; k < pool_cells(p); k++) {
    const ta_pool_cell_t cell = pool_cell_at(p, k);
    for (int32_t c = 0; c < p->depth; c++) {
      float m = -3.40282347e+38f; /* lowest finite float, the reference's start value */
      for (int32_t y = cell.y0; y < cell.y1; y++)
        for (int32_t x = cell.x0; x < cell.x1; x++) {
          float v = input[pool_in_at(p, &cell, y, x) + (size_t)c];
          m = m < v ? v : m;
        }
      output[cell.out_at + (size_t)c] = clamp_f32(m, p->act_min_f, p->act_max_f);
    }
  }
}
