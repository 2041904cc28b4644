/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: im2col for output pixels (portable C99). */
#include "ta_im2col.h"

/* Word moves: a 4-byte memcpy is one (unaligned) LDR or STR on the Arm cores, and
 * the runs here are short, where a library call costs more than the copy. */
static inline uint32_t im2col_load(const int8_t *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline void im2col_store(int8_t *p, uint32_t v) { memcpy(p, &v, sizeof v); }

/* n < 16 bytes: one test per power of two instead of a loop. */
static inline void im2col_copy_short(int8_t *dst, const int8_t *src, int32_t n) {
  if (n & 8) {
    const uint32_t a = im2col_load(src), b = im2col_load(src + 4);
    im2col_store(dst, a);
    im2col_store(dst + 4, b);
    dst += 8, src += 8;
  }
  if (n & 4) {
    im2col_store(dst, im2col_load(src));
    dst += 4, src += 4;
  }
  if (n & 2) {
    dst[0] = src[0], dst[1] = src[1];
    dst += 2, src += 2;
  }
  if (n & 1) dst[0] = src[0];
}

static inline void im2col_copy(int8_t *dst, const int8_t *src, int32_t n) {
  for (; n >= 16; n -= 16, dst += 16, src += 16) {
    const uint32_t a = im2col_load(src), b = im2col_load(src + 4);
    const uint32_t c = im2col_load(src + 8), d = im2col_load(src + 12);
    im2col_store(dst, a);
    im2col_store(dst + 4, b);
    im2col_store(dst + 8, c);
    im2col_store(dst + 12, d);
  }
  im2col_copy_short(dst, src, n);
}

/* Both pointers word aligned and n a multiple of 4. On Thumb-2, 16 bytes per LDM/STM
 * pair: each counts as one instruction, where word copies take eight. r7 stays out of
 * the list: it is the frame pointer of unoptimised Thumb code. */
static inline void im2col_copy_aligned(int8_t *dst, const int8_t *src, int32_t n) {
#if defined(__thumb2__)
  if (n >= 16) {
    int32_t blocks = n >> 4;
    __asm__ volatile(
        "1:\n\t"
        "ldmia %[s]!, {r4, r5, r6, r12}\n\t"
        "stmia %[d]!, {r4, r5, r6, r12}\n\t"
        "subs %[k], %[k], #1\n\t"
        "bne 1b"
        : [s] "+r"(src), [d] "+r"(dst), [k] "+r"(blocks)
        :
        : "r4", "r5", "r6", "r12", "cc", "memory");
  }
  if (n & 8) {
    const uint32_t a = im2col_load(src), b = im2col_load(src + 4);
    im2col_store(dst, a);
    im2col_store(dst + 4, b);
    dst += 8, src += 8;
  }
  if (n & 4) im2col_store(dst, im2col_load(src));
#else
  im2col_copy(dst, src, n);
#endif
}

/* `pad` holds the pad byte in each of its 4 bytes. */
static inline void im2col_fill(int8_t *dst, uint32_t pad, int32_t n) {
  for (; n >= 4; n -= 4, dst += 4) im2col_store(dst, pad);
  for (; n > 0; n--) *dst++ = (int8_t)pad;
}

/* `count` windows inside the image without horizontal dilation, their first taps
 * `pixel_step` bytes apart: k_h runs of `run` bytes, `row_step` apart, each; they go
 * `window` bytes apart, the bytes past k_h * run zero (`aligned`, a constant in each
 * caller: every run word aligned and no such bytes). */
static inline void im2col_inside(const int8_t *src, size_t pixel_step, size_t row_step, int32_t k_h, int32_t run,
                                 int32_t window, int8_t *dst, int32_t count, const int aligned) {
  const int padded = !aligned && window > k_h * run; /* then a multiple of 4 */
  for (; count > 0; count--, src += pixel_step, dst += window) {
    const int8_t *s = src;
    int8_t *d = dst;
    if (padded) im2col_store(dst + window - 4, 0); /* before the runs overwrite its first bytes */
    for (int32_t ky = k_h; ky > 0; ky--, s += row_step, d += run) {
      if (aligned)
        im2col_copy_aligned(d, s, run);
      else
        im2col_copy(d, s, run);
    }
  }
}

static void im2col_inside_aligned(const int8_t *src, size_t pixel_step, size_t row_step, int32_t k_h, int32_t run,
                                  int32_t window, int8_t *dst, int32_t count) {
  im2col_inside(src, pixel_step, row_step, k_h, run, window, dst, count, 1);
}

static void im2col_inside_any(const int8_t *src, size_t pixel_step, size_t row_step, int32_t k_h, int32_t run,
                              int32_t window, int8_t *dst, int32_t count) {
  im2col_inside(src, pixel_step, row_step, k_h, run, window, dst, count, 0);
}

/* The window whose top-left tap is (iy0, ix0): taps outside the image padded. */
static void im2col_window(const ta_im2col_geom_t *g, const int8_t *image, int32_t iy0, int32_t ix0, uint32_t pad,
                          int8_t *dst) {
  const int32_t in_c = g->in_c, k_w = g->k_w, run = k_w * in_c;
  const size_t row_bytes = (size_t)g->in_w * (size_t)in_c;
  /* Without dilation the taps [lo, hi) of a filter row inside the image are one
   * contiguous run of the input row, padding either side. */
  const int32_t lo = TA_MIN(TA_MAX(-ix0, 0), k_w), hi = TA_MAX(TA_MIN(k_w, g->in_w - ix0), lo);
  const size_t src_at = hi > lo ? (size_t)(ix0 + lo) * (size_t)in_c : 0; /* in the row even when nothing is read */
  const int32_t left = lo * in_c, mid = (hi - lo) * in_c;
  for (int32_t ky = 0; ky < g->k_h; ky++, dst += run) {
    const int32_t iy = iy0 + ky * g->dil_h;
    if (iy < 0 || iy >= g->in_h) {
      im2col_fill(dst, pad, run);
      continue;
    }
    const int8_t *src_row = image + (size_t)iy * row_bytes;
    if (g->dil_w == 1) {
      im2col_fill(dst, pad, left);
      im2col_copy(dst + left, src_row + src_at, mid);
      im2col_fill(dst + left + mid, pad, run - left - mid);
      continue;
    }
    for (int32_t kx = 0; kx < k_w; kx++) {
      const int32_t ix = ix0 + kx * g->dil_w;
      if (ix < 0 || ix >= g->in_w)
        im2col_fill(dst + kx * in_c, pad, in_c);
      else
        im2col_copy(dst + kx * in_c, src_row + (size_t)ix * (size_t)in_c, in_c);
    }
  }
}

void ta_im2col_pixels_s8(const ta_im2col_geom_t *g, const int8_t *image, int32_t oy, int32_t ox, int32_t count,
                         int8_t *buf) {
  const int32_t depth = g->k_h * g->k_w * g->in_c, window = TA_MAX(g->window, depth);
  const uint32_t pad = (uint32_t)(uint8_t)g->pad_value * 0x01010101u;
  const int32_t iy0 = oy * g->stride_h - g->pad_h;
  const int rows_inside = iy0 >= 0 && iy0 + (g->k_h - 1) * g->dil_h < g->in_h;
  /* whole channels of 4 from aligned buffers: every run starts on a word */
  const int aligned =
      g->in_c % 4 == 0 && window == depth && (uintptr_t)image % 4 == 0 && (uintptr_t)buf % 4 == 0;
  const size_t pixel_step = (size_t)g->stride_w * (size_t)g->in_c;
  const size_t row_step = (size_t)g->dil_h * (size_t)g->in_w * (size_t)g->in_c;
  while (count > 0) {
    const int32_t ix0 = ox * g->stride_w - g->pad_w;
    if (rows_inside && g->dil_w == 1 && ix0 >= 0 && ix0 + g->k_w <= g->in_w) {
      /* this window and the next ones inside the image, together */
      const int32_t n = TA_MIN(count, (g->in_w - g->k_w - ix0) / g->stride_w + 1);
      const int8_t *src = image + ((size_t)iy0 * (size_t)g->in_w + (size_t)ix0) * (size_t)g->in_c;
      if (aligned)
        im2col_inside_aligned(src, pixel_step, row_step, g->k_h, g->k_w * g->in_c, window, buf, n);
      else
        im2col_inside_any(src, pixel_step, row_step, g->k_h, g->k_w * g->in_c, window, buf, n);
      ox += n, count -= n, buf += (size_t)n * (size_t)window;
      continue;
    }
    if (window > depth) im2col_store(buf + window - 4, 0); /* before the window overwrites its first bytes */
    im2col_window(g, image, iy0, ix0, pad, buf);
    ox++, count--, buf += window;
  }
}

const int8_t *ta_im2col_s8(const ta_im2col_geom_t *g, const int8_t *image, int32_t oy, int32_t ox, int8_t *buf) {
  if (g->direct) {
    const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
    return image + ((size_t)iy0 * (size_t)g->in_w + (size_t)ix0) * (size_t)g->in_c;
  }
  ta_im2col_pixels_s8(g, image, oy, ox, 1, buf);
  return buf;
}

/* ---- Column form (ta_im2col_cols_s8) ---- */

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

/* Bytes 0 and 2 (even) or 1 and 3 (odd) of v as two int16 halves: SXTB16 (ror 8). */
static inline int32_t cols_even(uint32_t v) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  return (int32_t)__sxtb16(v);
#else
  return (int32_t)(((uint32_t)(uint16_t)(int16_t)(int8_t)(uint8_t)v) |
                   ((uint32_t)(uint16_t)(int16_t)(int8_t)(uint8_t)(v >> 16) << 16));
#endif
}

static inline int32_t cols_odd(uint32_t v) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && defined(__GNUC__)
  int32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
#else
  return cols_even(v >> 8);
#endif
}

/* n bytes (a multiple of 4) from src widened into dst, 2 words per 4. */
static inline void cols_widen(const int8_t *src, int32_t n, int32_t *dst) {
  for (; n >= 16; n -= 16, src += 16, dst += 8) {
    const uint32_t a = im2col_load(src), b = im2col_load(src + 4), c = im2col_load(src + 8), d = im2col_load(src + 12);
    dst[0] = cols_even(a), dst[1] = cols_odd(a), dst[2] = cols_even(b), dst[3] = cols_odd(b);
    dst[4] = cols_even(c), dst[5] = cols_odd(c), dst[6] = cols_even(d), dst[7] = cols_odd(d);
  }
  for (; n > 0; n -= 4, src += 4, dst += 2) {
    const uint32_t a = im2col_load(src);
    dst[0] = cols_even(a), dst[1] = cols_odd(a);
  }
}

#if defined(__GNUC__) && defined(__OPTIMIZE__) && defined(__thumb2__) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define COLS_ASM 1
#else
#define COLS_ASM 0
#endif

/* `count` columns of n bytes each, contiguous at src, widened into columns `words` words
 * apart (n/2 words each). */
#if COLS_ASM
__attribute__((noinline)) /* few live registers around the assembly (a frame pointer takes r7) */
#endif
static void cols_widen_run(const int8_t *src, int32_t n, int32_t count, int32_t *dst, int32_t words) {
#if COLS_ASM
  if (n % 8 == 0 && (uintptr_t)src % 4 == 0) { /* LDM of 8 bytes, STM of their 4 words */
    const int8_t *end = src + (size_t)count * (size_t)n, *col_end;
    const int32_t skip = (words - (n >> 1)) * 4;
    __asm__ volatile("1:\n\t"
                     "add %[ce], %[s], %[n]\n\t"
                     "2:\n\t"
                     "ldmia %[s]!, {r0, r2}\n\t"
                     "sxtb16 r1, r0, ror #8\n\t"
                     "sxtb16 r0, r0\n\t"
                     "sxtb16 r3, r2, ror #8\n\t"
                     "sxtb16 r2, r2\n\t"
                     "stmia %[d]!, {r0, r1, r2, r3}\n\t"
                     "cmp %[s], %[ce]\n\t"
                     "bne 2b\n\t"
                     "add %[d], %[d], %[skip]\n\t"
                     "cmp %[s], %[end]\n\t"
                     "bne 1b\n\t"
                     : [s] "+r"(src), [d] "+r"(dst), [ce] "=&r"(col_end)
                     : [n] "r"(n), [end] "r"(end), [skip] "r"(skip)
                     : "r0", "r1", "r2", "r3", "cc", "memory");
    return;
  }
#endif
  for (; count > 0; count--, src += n, dst += words) cols_widen(src, n, dst);
}

/* The columns [0, lo) and [hi, count) of a strip lie outside the image. */
typedef struct cols_span_t {
  int32_t ix0, lo, hi, count;
} cols_span_t;

static cols_span_t cols_span(const ta_im2col_geom_t *g, int32_t cx0, int32_t count) {
  cols_span_t s;
  s.ix0 = cx0 - g->pad_w, s.count = count;
  s.lo = TA_MIN(TA_MAX(-s.ix0, 0), count);
  s.hi = TA_MAX(TA_MIN(g->in_w - s.ix0, count), s.lo);
  return s;
}

/* Per filter row, the strip's taps widened straight from the image row (contiguous
 * there), each into its column. */
static void cols_aligned(const ta_im2col_geom_t *g, const int8_t *image, int32_t iy0, cols_span_t s, int32_t *buf) {
  const int32_t in_c = g->in_c, run = in_c >> 1, words = g->window >> 1;
  const int32_t pad = (int32_t)(((uint32_t)g->pad_value & 0xFFFFu) | ((uint32_t)g->pad_value << 16));
  for (int32_t ky = 0; ky < g->k_h; ky++, buf += run) {
    const int32_t iy = iy0 + ky * g->dil_h;
    const int inside = iy >= 0 && iy < g->in_h;
    const int32_t lo = inside ? s.lo : s.count, hi = inside ? s.hi : s.count;
    int32_t *dst = buf;
    int32_t j = 0;
    for (; j < lo; j++, dst += words)
      for (int32_t k = 0; k < run; k++) dst[k] = pad;
    const int8_t *src = inside ? image + ((size_t)iy * (size_t)g->in_w + (size_t)(s.ix0 + j)) * (size_t)in_c : image;
    if (hi > j) cols_widen_run(src, in_c, hi - j, dst, words);
    dst += (hi - j) * words, j = hi;
    for (; j < s.count; j++, dst += words)
      for (int32_t k = 0; k < run; k++) dst[k] = pad;
  }
}

void ta_im2col_cols_s8(const ta_im2col_geom_t *g, const int8_t *image, int32_t oy, int32_t cx0, int32_t count,
                       int32_t *buf) {
  const int32_t iy0 = oy * g->stride_h - g->pad_h;
  cols_aligned(g, image, iy0, cols_span(g, cx0, count), buf);
}
