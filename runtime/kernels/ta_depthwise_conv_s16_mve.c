/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: int16x8 depthwise convolution with MVE (Helium) intrinsics. */
#include "ta_depthwise_conv_s16_mve.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define D16M_MVE 1
#endif

/* The taps k in [*lo, *hi) of one window dimension that land inside [0, size). */
static void d16m_range(int32_t start, int32_t dil, int32_t k, int32_t size, int32_t *lo, int32_t *hi) {
  int32_t a = 0, b = k;
  while (a < b && start + dil * a < 0) a++;
  while (b > a && start + dil * (b - 1) >= size) b--;
  *lo = a, *hi = b;
}

#if defined(D16M_MVE)
/* The output columns [*lo, *hi) whose windows (span: last tap's offset) lie inside [0, size). */
static void d16m_inner(int32_t pad, int32_t stride, int32_t span, int32_t size, int32_t out, int32_t *lo,
                       int32_t *hi) {
  int32_t a = 0, b = out;
  while (a < out && a * stride - pad < 0) a++;
  while (b > a && (b - 1) * stride - pad + span >= size) b--;
  *lo = a, *hi = b;
}

/* A compiler barrier (no instruction) on the sums: keeps GCC from computing all nine
 * taps' products first, which spills them to the stack (MVE has 8 vector registers). */
#if defined(__GNUC__)
#define D16M_BARRIER() __asm__ volatile("" : "+w"(ae), "+w"(ao))
#else
#define D16M_BARRIER() ((void)0)
#endif
#define D16M_INLINE static inline __attribute__((always_inline))

/* One tap of a block: the even and odd channels' products added to ae and ao. */
#define D16M_TAP(xp, wp)                                 \
  do {                                                   \
    const int16x8_t xv_ = vldrhq_s16(xp);                \
    const int16x8_t wv_ = vldrbq_s16(wp);                \
    ae = vaddq_s32(ae, vmullbq_int_s16(xv_, wv_));       \
    ao = vaddq_s32(ao, vmulltq_int_s16(xv_, wv_));       \
    D16M_BARRIER();                                      \
  } while (0)

/* The requantisation of 4 lanes' sums: the fold (VRMULH by m), plus with `wide` the wide
 * form's part (ta_gemm_s16_mve.h; wq: reduced, then k high, k low and 32 - t 8 words
 * apart), clamped. */
D16M_INLINE int32x4_t d16m_half(int32x4_t acc, const int32_t *m, const int32_t *wq, int32x4_t vmin, int32x4_t vmax,
                                const int wide) {
  int32x4_t y = vrmulhq_s32(acc, vldrwq_s32(m));
  if (wide) {
    const int32x4_t red = vldrwq_s32(wq), kl = vldrwq_s32(wq + 16);
    const uint32x4_t s = vaddq_u32(vreinterpretq_u32_s32(vmulq_s32(acc, red)), vreinterpretq_u32_s32(kl));
    int32x4_t h = vaddq_s32(vmulhq_s32(acc, red), vldrwq_s32(wq + 8));
    h = vaddq_m_n_s32(h, h, 1, vcmphiq_u32(vreinterpretq_u32_s32(kl), s)); /* the carry out of kl + P low */
    y = vaddq_s32(y, vshlq_s32(h, vldrwq_s32(wq + 24)));
  }
  return vmaxq_s32(vminq_s32(y, vmax), vmin);
}

/* A block's even and odd sums requantised, narrowed back into channel order; the store
 * predicated to the channels left. */
D16M_INLINE void d16m_store(const int32_t *rq, const int32_t *wq, int32x4_t ae, int32x4_t ao, int32x4_t vmin,
                            int32x4_t vmax, int16_t *out, int32_t left, const int wide) {
  int16x8_t y = vdupq_n_s16(0);
  y = vmovnbq_s32(y, d16m_half(ae, rq + 8, wq, vmin, vmax, wide));
  y = vmovntq_s32(y, d16m_half(ao, rq + 12, wq + 4, vmin, vmax, wide));
  if (left >= 8) vstrhq_s16(out, y);
  else vstrhq_p_s16(out, y, vctp16q((uint32_t)left));
}

/* The assembly loops (GCC, optimising, no frame pointer: ta_common.h's TA_NO_WIDE_ASM). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) && !defined(TA_NO_WIDE_ASM)
#define D16M_ASM 1
#else
#define D16M_ASM 0
#endif

#if D16M_ASM
/* The geometry d16m_pixel_asm reads: taps per window row and rows inside the image, the
 * steps in bytes from a tap to the next, from a row's end to the next row's first tap (input
 * and filter), and from a block's filter to the next block's. */
typedef struct d16m_taps_t {
  int32_t nky, nkx, dx, dy_skip, w_skip, w_block;
} d16m_taps_t;

/* nb >= 1 whole blocks of 8 channels of one output pixel over nky x nkx taps (fold form) in
 * assembly: x the first tap's input (the first block's channels), w that tap's filter of the
 * first block, rq its 16 words; each block's sums requantised, narrowed and stored. */
static __attribute__((noinline)) void d16m_pixel_asm(const int16_t *x, const int8_t *w, const int32_t *rq,
                                                      int16_t *out, int32_t nb, const d16m_taps_t *d,
                                                      int32_t act_min, int32_t act_max) {
  const int32x4_t vmin = vdupq_n_s32(act_min), vmax = vdupq_n_s32(act_max);
  const int16_t *t;
  const int8_t *wt;
  int32_t ky, kx;
  int32x4_t ae, ao, pv;
  int16x8_t xv, wv;
  __asm__ volatile("1:\n\t"
                   "vldrw.32 %q[ae], [%[rq]]\n\t"
                   "vldrw.32 %q[ao], [%[rq], #16]\n\t"
                   "mov %[t], %[x]\n\t"
                   "mov %[wt], %[w]\n\t"
                   "ldr %[ky], [%[d]]\n"
                   "2:\n\t"
                   "ldr %[kx], [%[d], #4]\n"
                   "3:\n\t"
                   "vldrh.s16 %q[xv], [%[t]]\n\t"
                   "vldrb.s16 %q[wv], [%[wt]], #8\n\t"
                   "vmullb.s16 %q[pv], %q[xv], %q[wv]\n\t"
                   "vadd.i32 %q[ae], %q[ae], %q[pv]\n\t"
                   "vmullt.s16 %q[pv], %q[xv], %q[wv]\n\t"
                   "vadd.i32 %q[ao], %q[ao], %q[pv]\n\t"
                   "add %[t], %[t], %[dx]\n\t"
                   "subs %[kx], %[kx], #1\n\t"
                   "bne 3b\n\t"
                   "ldr %[kx], [%[d], #12]\n\t"
                   "add %[t], %[t], %[kx]\n\t"
                   "ldr %[kx], [%[d], #16]\n\t"
                   "add %[wt], %[wt], %[kx]\n\t"
                   "subs %[ky], %[ky], #1\n\t"
                   "bne 2b\n\t"
                   "vldrw.32 %q[pv], [%[rq], #32]\n\t"
                   "vrmulh.s32 %q[ae], %q[ae], %q[pv]\n\t"
                   "vldrw.32 %q[pv], [%[rq], #48]\n\t"
                   "vrmulh.s32 %q[ao], %q[ao], %q[pv]\n\t"
                   "vmin.s32 %q[ae], %q[ae], %q[vmax]\n\t"
                   "vmax.s32 %q[ae], %q[ae], %q[vmin]\n\t"
                   "vmin.s32 %q[ao], %q[ao], %q[vmax]\n\t"
                   "vmax.s32 %q[ao], %q[ao], %q[vmin]\n\t"
                   "vmovnb.i32 %q[xv], %q[ae]\n\t"
                   "vmovnt.i32 %q[xv], %q[ao]\n\t"
                   "vstrh.16 %q[xv], [%[out]], #16\n\t"
                   "add %[x], %[x], #16\n\t"
                   "ldr %[kx], [%[d], #20]\n\t"
                   "add %[w], %[w], %[kx]\n\t"
                   "add %[rq], %[rq], #64\n\t"
                   "subs %[nb], %[nb], #1\n\t"
                   "bne 1b"
                   : [x] "+r"(x), [w] "+r"(w), [rq] "+r"(rq), [out] "+r"(out), [nb] "+r"(nb), [t] "=&r"(t),
                     [wt] "=&l"(wt), [ky] "=&r"(ky), [kx] "=&r"(kx), [ae] "=&w"(ae),
                     [ao] "=&w"(ao), [pv] "=&w"(pv), [xv] "=&w"(xv), [wv] "=&w"(wv)
                   : [d] "r"(d), [dx] "r"(d->dx), [vmin] "w"(vmin), [vmax] "w"(vmax)
                   : "cc", "memory");
}
#endif

/* The blocks of one output pixel from channel c on, over nky x nkx taps inside the image:
 * x0 the first tap's input (channel 0), w0 the filter at that tap (block 0). Whole blocks
 * unpredicated, the last partial one predicated; `general` channels in TFLite's int64 form. */
static __attribute__((noinline)) void d16m_blocks(const ta_depthwise_s16_mve_params_t *p, const int16_t *x0, const int8_t *w0, int32_t c,
                             int32_t nky, int32_t nkx, int16_t *out, const int wide) {
  const int32_t ch = p->channels, row = p->dil_h * p->in_w * ch, xstep = p->dil_w * ch, taps = p->k_h * p->k_w;
  const int32_t wrow = p->k_w * 8;
  const int32x4_t vmin = vdupq_n_s32(p->act_min), vmax = vdupq_n_s32(p->act_max);
  const int32_t *rq = p->rq + 2 * c, *wq = wide ? p->wide + 4 * c : NULL;
  x0 += c, w0 += taps * c;
#if D16M_ASM
  if (!wide && !p->general && c + 8 <= ch && nky > 0 && nkx > 0) {
    /* a one-column filter's rows are one run of taps (its weights are consecutive) */
    const int col = p->k_w == 1 && nkx == 1;
    const d16m_taps_t d = {col ? 1 : nky, col ? nky : nkx, 2 * (col ? row : xstep),
                           col ? 0 : 2 * (row - nkx * xstep), col ? 0 : 8 * (p->k_w - nkx), 8 * taps};
    const int32_t nb = (ch - c) >> 3;
    d16m_pixel_asm(x0, w0, rq, out + c, nb, &d, p->act_min, p->act_max);
    c += 8 * nb, rq += 16 * nb, x0 += 8 * nb, w0 += taps * 8 * nb;
  }
#endif
  for (; c < ch; c += 8, rq += 16, wq += wide ? 32 : 0, x0 += 8, w0 += taps * 8) {
    int32x4_t ae = vldrwq_s32(rq), ao = vldrwq_s32(rq + 4);
    const int16_t *xr = x0;
    const int8_t *wr = w0;
    if (c + 8 <= ch) {
      for (int32_t ky = nky; ky > 0; ky--, xr += row, wr += wrow) {
        const int16_t *x = xr;
        const int8_t *w = wr;
        for (int32_t k = nkx; k > 0; k--, x += xstep, w += 8) D16M_TAP(x, w);
      }
    } else {
      const mve_pred16_t pr = vctp16q((uint32_t)(ch - c));
      for (int32_t ky = nky; ky > 0; ky--, xr += row, wr += wrow) {
        const int16_t *x = xr;
        const int8_t *w = wr;
        for (int32_t k = nkx; k > 0; k--, x += xstep, w += 8) {
          const int16x8_t xv = vldrhq_z_s16(x, pr), wv = vldrbq_s16(w);
          ae = vaddq_s32(ae, vmullbq_int_s16(xv, wv));
          ao = vaddq_s32(ao, vmulltq_int_s16(xv, wv));
        }
      }
    }
    if (p->general) {
      int32_t sums[8];
      vstrwq_s32(sums, ae), vstrwq_s32(sums + 4, ao);
      for (int32_t i = 0; i < 8 && c + i < ch; i++)
        out[c + i] = ta_s16_mve_general(p->general + 4 * (c + i), sums[4 * (i & 1) + (i >> 1)], p->act_min, p->act_max);
      continue;
    }
    d16m_store(rq, wq, ae, ao, vmin, vmax, out + c, ch - c, wide);
  }
}

/* `n` output pixels of one row whose 3x3 windows lie inside the image (x: the first one's
 * top left tap), fold form: the nine taps of each whole block of 8 channels as
 * straight-line code, a last partial block through d16m_blocks. */
static void d16m_run3x3(const ta_depthwise_s16_mve_params_t *p, const int16_t *x, const int8_t *filter,
                             int32_t n, int16_t *out, const int wide) {
  const int32_t ch = p->channels, dy = p->dil_h * p->in_w * ch, dx = p->dil_w * ch, step = p->stride_w * ch;
  const int32_t whole = ch & ~7;
  const int32x4_t vmin = vdupq_n_s32(p->act_min), vmax = vdupq_n_s32(p->act_max);
  for (; n > 0; n--, x += step, out += ch) {
    const int32_t *rq = p->rq, *wq = p->wide;
    const int16_t *x0 = x;
    const int8_t *w0 = filter;
    for (int32_t c = 0; c < whole; c += 8, rq += 16, wq += wide ? 32 : 0, x0 += 8, w0 += 72) {
      int32x4_t ae = vldrwq_s32(rq), ao = vldrwq_s32(rq + 4);
      const int16_t *xt = x0;
      D16M_TAP(xt, w0);
      D16M_TAP(xt + dx, w0 + 8);
      D16M_TAP(xt + 2 * dx, w0 + 16);
      xt += dy;
      D16M_TAP(xt, w0 + 24);
      D16M_TAP(xt + dx, w0 + 32);
      D16M_TAP(xt + 2 * dx, w0 + 40);
      xt += dy;
      D16M_TAP(xt, w0 + 48);
      D16M_TAP(xt + dx, w0 + 56);
      D16M_TAP(xt + 2 * dx, w0 + 64);
      d16m_store(rq, wq, ae, ao, vmin, vmax, out + c, 8, wide);
    }
    if (whole < ch) d16m_blocks(p, x, filter, whole, 3, 3, out, wide);
  }
}

#if D16M_ASM
/* One tap in the assembly loop: 8 channels at [%[t]] against the filter at w + off. */
#define D16M_ASM_TAP(off)                              \
  "vldrh.s16 %q[xv], [%[t]]\n\t"                       \
  "vldrb.s16 %q[wv], [%[w], #" #off "]\n\t"            \
  "vmullb.s16 %q[pv], %q[xv], %q[wv]\n\t"              \
  "vadd.i32 %q[ae], %q[ae], %q[pv]\n\t"                \
  "vmullt.s16 %q[pv], %q[xv], %q[wv]\n\t"              \
  "vadd.i32 %q[ao], %q[ao], %q[pv]\n\t"

/* n >= 1 output pixels of one whole block of 8 channels, 3x3 windows inside the image, fold
 * form, in assembly (GCC alone reloads the tap offsets from the stack): x the first pixel's
 * top left tap, w the block's 9 taps, rq its 16 words; d: tap step, row step, pixel step
 * and output step in bytes. */
static __attribute__((noinline)) void d16m_block3x3(const int16_t *x, const int8_t *w, const int32_t *rq,
                                                     int16_t *out, int32_t n, const int32_t d[4], int32_t act_min,
                                                     int32_t act_max) {
  const int32_t dx = d[0], dy = d[1], dy2 = 2 * d[1], step = d[2], ostep = d[3];
  const int32x4_t vmin = vdupq_n_s32(act_min), vmax = vdupq_n_s32(act_max);
  const int16_t *t;
  int32x4_t ae, ao, pv;
  int16x8_t xv, wv;
  __asm__ volatile("1:\n\t"
                   "vldrw.32 %q[ae], [%[rq]]\n\t"
                   "vldrw.32 %q[ao], [%[rq], #16]\n\t"
                   "mov %[t], %[x]\n\t"
                   D16M_ASM_TAP(0)
                   "add %[t], %[t], %[dx]\n\t"
                   D16M_ASM_TAP(8)
                   "add %[t], %[t], %[dx]\n\t"
                   D16M_ASM_TAP(16)
                   "add %[t], %[x], %[dy]\n\t"
                   D16M_ASM_TAP(24)
                   "add %[t], %[t], %[dx]\n\t"
                   D16M_ASM_TAP(32)
                   "add %[t], %[t], %[dx]\n\t"
                   D16M_ASM_TAP(40)
                   "add %[t], %[x], %[dy2]\n\t"
                   D16M_ASM_TAP(48)
                   "add %[t], %[t], %[dx]\n\t"
                   D16M_ASM_TAP(56)
                   "add %[t], %[t], %[dx]\n\t"
                   D16M_ASM_TAP(64)
                   "vldrw.32 %q[pv], [%[rq], #32]\n\t"
                   "vrmulh.s32 %q[ae], %q[ae], %q[pv]\n\t"
                   "vldrw.32 %q[pv], [%[rq], #48]\n\t"
                   "vrmulh.s32 %q[ao], %q[ao], %q[pv]\n\t"
                   "vmin.s32 %q[ae], %q[ae], %q[vmax]\n\t"
                   "vmax.s32 %q[ae], %q[ae], %q[vmin]\n\t"
                   "vmin.s32 %q[ao], %q[ao], %q[vmax]\n\t"
                   "vmax.s32 %q[ao], %q[ao], %q[vmin]\n\t"
                   "vmovnb.i32 %q[xv], %q[ae]\n\t"
                   "vmovnt.i32 %q[xv], %q[ao]\n\t"
                   "vstrh.16 %q[xv], [%[out]]\n\t"
                   "add %[out], %[out], %[ostep]\n\t"
                   "add %[x], %[x], %[step]\n\t"
                   "subs %[n], %[n], #1\n\t"
                   "bne 1b"
                   : [x] "+r"(x), [out] "+r"(out), [n] "+r"(n), [t] "=&r"(t), [ae] "=&w"(ae), [ao] "=&w"(ao),
                     [pv] "=&w"(pv), [xv] "=&w"(xv), [wv] "=&w"(wv)
                   : [w] "l"(w), [rq] "r"(rq), [dx] "r"(dx), [dy] "r"(dy), [dy2] "r"(dy2), [step] "r"(step),
                     [ostep] "r"(ostep), [vmin] "w"(vmin), [vmax] "w"(vmax)
                   : "cc", "memory");
}
#endif

/* `n` inner 3x3 pixels of a row (fold form), block by block through d16m_block3x3; a last
 * partial block per pixel through d16m_blocks. */
static void d16m_run3x3_blocks(const ta_depthwise_s16_mve_params_t *p, const int16_t *x, const int8_t *filter,
                               int32_t n, int16_t *out) {
#if D16M_ASM
  const int32_t ch = p->channels, whole = ch & ~7;
  const int32_t d[4] = {2 * p->dil_w * ch, 2 * p->dil_h * p->in_w * ch, 2 * p->stride_w * ch, 2 * ch};
  for (int32_t c = 0; c < whole; c += 8)
    d16m_block3x3(x + c, filter + 9 * c, p->rq + 2 * c, out + c, n, d, p->act_min, p->act_max);
  if (whole < ch)
    for (int32_t i = 0; i < n; i++) d16m_blocks(p, x + i * p->stride_w * ch, filter, whole, 3, 3, out + i * ch, 0);
#else
  d16m_run3x3(p, x, filter, n, out, 0);
#endif
}

/* The layer. Per output row: the border pixels work out
 * their tap range, the inner ones (whole window inside) run as one loop. */
static void d16m_layer(const ta_depthwise_s16_mve_params_t *p, const int16_t *input, const int8_t *filter,
                            int16_t *output, const int wide) {
  const int32_t ch = p->channels, row = p->in_w * ch, image = p->in_h * row;
  int32_t ix_lo, ix_hi; /* the inner output columns [ix_lo, ix_hi) */
  d16m_inner(p->pad_w, p->stride_w, p->dil_w * (p->k_w - 1), p->in_w, p->out_w, &ix_lo, &ix_hi);
  const int run3x3 = p->k_h == 3 && p->k_w == 3 && !p->general;
  for (int32_t b = 0; b < p->batches; b++) {
    const int16_t *in = input + b * image;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t ky0, ky1;
      d16m_range(iy0, p->dil_h, p->k_h, p->in_h, &ky0, &ky1);
      const int16_t *xrow = in + (iy0 + ky0 * p->dil_h) * row;
      const int8_t *wrow = filter + ky0 * p->k_w * 8;
      for (int32_t ox = 0; ox < p->out_w;) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        if (ox == ix_lo && ix_lo < ix_hi) {
          const int16_t *x = xrow + ix0 * ch;
          if (run3x3 && ky1 - ky0 == 3 && D16M_ASM && !wide) d16m_run3x3_blocks(p, x, filter, ix_hi - ix_lo, output);
          else if (run3x3 && ky1 - ky0 == 3) d16m_run3x3(p, x, filter, ix_hi - ix_lo, output, wide);
          else
            for (int32_t i = ix_lo; i < ix_hi; i++, x += p->stride_w * ch)
              d16m_blocks(p, x, wrow, 0, ky1 - ky0, p->k_w, output + (i - ix_lo) * ch, wide);
          output += (ix_hi - ix_lo) * ch, ox = ix_hi;
          continue;
        }
        int32_t kx0, kx1;
        d16m_range(ix0, p->dil_w, p->k_w, p->in_w, &kx0, &kx1);
        d16m_blocks(p, xrow + (ix0 + kx0 * p->dil_w) * ch, wrow + kx0 * 8, 0, ky1 - ky0, kx1 - kx0, output, wide);
        output += ch, ox++;
      }
    }
  }
}
#else
/* The same in plain C (builds without MVE). */
static void d16m_pixel(const ta_depthwise_s16_mve_params_t *p, const int16_t *in, const int8_t *filter,
                       int32_t iy0, int32_t ix0, int32_t ky0, int32_t ky1, int32_t kx0, int32_t kx1, int16_t *out) {
  const int32_t ch = p->channels;
  for (int32_t c = 0; c < ch; c++) {
    const int32_t *rq = p->rq + (c / 8) * 16, lane = (c & 7) >> 1, odd = c & 1;
    int32_t acc = rq[4 * odd + lane];
    if (p->general) acc = 0;
    for (int32_t ky = ky0; ky < ky1; ky++)
      for (int32_t kx = kx0; kx < kx1; kx++) {
        const int32_t iy = iy0 + ky * p->dil_h, ix = ix0 + kx * p->dil_w;
        acc += (int32_t)in[(iy * p->in_w + ix) * ch + c] * filter[((c / 8) * p->k_h * p->k_w + ky * p->k_w + kx) * 8 + c % 8];
      }
    if (p->general) {
      out[c] = ta_s16_mve_general(p->general + 4 * c, acc, p->act_min, p->act_max);
      continue;
    }
    int32_t y = (int32_t)(((int64_t)acc * rq[8 + 4 * odd + lane] + ((int64_t)1 << 31)) >> 32);
    const int32_t *wq = p->wide ? p->wide + (c / 8) * 32 + 4 * odd + lane : NULL;
    if (wq && wq[0] != 0) { /* the wide form: TFLite's floor((k + acc * reduced) / 2^t) */
      const int64_t k = (int64_t)(((uint64_t)(uint32_t)wq[8] << 32) | (uint32_t)wq[16]);
      y = (int32_t)((k + (int64_t)acc * wq[0]) >> (32 - wq[24]));
    }
    out[c] = (int16_t)ta_clamp(y, p->act_min, p->act_max);
  }
}

static void d16m_layer(const ta_depthwise_s16_mve_params_t *p, const int16_t *input, const int8_t *filter,
                       int16_t *output, const int wide) {
  const int32_t image = p->in_h * p->in_w * p->channels;
  (void)wide; /* d16m_pixel looks at each channel */
  for (int32_t b = 0; b < p->batches; b++) {
    const int16_t *in = input + b * image;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t ky0, ky1;
      d16m_range(iy0, p->dil_h, p->k_h, p->in_h, &ky0, &ky1);
      for (int32_t ox = 0; ox < p->out_w; ox++, output += p->channels) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t kx0, kx1;
        d16m_range(ix0, p->dil_w, p->k_w, p->in_w, &kx0, &kx1);
        d16m_pixel(p, in, filter, iy0, ix0, ky0, ky1, kx0, kx1, output);
      }
    }
  }
}
#endif

void ta_depthwise_conv_s16_mve(const ta_depthwise_s16_mve_params_t *p, const int16_t *input, const int8_t *filter,
                               int16_t *output) {
  d16m_layer(p, input, filter, output, p->wide != NULL);
}
