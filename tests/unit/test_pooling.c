/* ta_avg_pool_s8's channel-group loop (TA_POOLING_VARIANTS bit 1, ta_pooling.h), built for
 * the host (plain C; its SXTAB16 form runs on QEMU in tests/suites/dw4.sh with kws): every
 * output equals the mean over the window clipped to the input, rounded half away from zero,
 * also at the int16 lane bound (256 cells of -128 or 127) and with SAME padding. */
#include "../../runtime/kernels/ta_pooling.c"
#include "unit.h"

static int8_t pool_reference(const ta_pool_params_t *p, const int8_t *in, int32_t oy, int32_t ox, int32_t c) {
  int32_t sum = 0, n = 0;
  for (int32_t fy = 0; fy < p->filter_h; fy++)
    for (int32_t fx = 0; fx < p->filter_w; fx++) {
      int32_t y = oy * p->stride_h - p->pad_h + fy, x = ox * p->stride_w - p->pad_w + fx;
      if (y < 0 || y >= p->in_h || x < 0 || x >= p->in_w) continue;
      sum += in[(y * p->in_w + x) * p->depth + c], n++;
    }
  int32_t q = n == 0 ? 0 : sum >= 0 ? (sum + n / 2) / n : (sum - n / 2) / n;
  return (int8_t)(q < p->act_min ? p->act_min : q > p->act_max ? p->act_max : q);
}

static void test_avg_pool_s8_words(UnitState *u) {
  static int8_t in[16 * 16 * 16], out[16 * 16 * 16];
  /* depth, in_h, in_w, filter, stride, pad, fill (0 random, else the value), act_min */
  static const int32_t cases[][8] = {
      {64, 25, 5, 25, 1, 0, 0, -128},  {8, 16, 16, 16, 1, 0, -128, -128}, {16, 16, 16, 16, 1, 0, 127, -128},
      {8, 7, 9, 3, 2, 1, 0, -128},     {16, 5, 6, 4, 3, 1, 0, -5},        {8, 16, 16, 16, 1, 0, 0, -128},
  };
  uint32_t seed = 12345u;
  for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
    const int32_t *k = cases[t];
    ta_pool_params_t p = {1, k[0], k[1], k[2], 0, 0, k[3], k[3], k[4], k[4], k[5], k[5], k[7], 127, 0.0f, 0.0f};
    if (k[3] > k[1]) p.filter_h = k[1];
    if (k[3] > k[2]) p.filter_w = k[2];
    p.out_h = (p.in_h + 2 * p.pad_h - p.filter_h) / p.stride_h + 1;
    p.out_w = (p.in_w + 2 * p.pad_w - p.filter_w) / p.stride_w + 1;
    for (int32_t i = 0; i < p.in_h * p.in_w * p.depth; i++) {
      seed = seed * 1664525u + 1013904223u;
      in[i] = k[6] ? (int8_t)k[6] : (int8_t)(seed >> 24);
    }
    CHECK(u, p.depth % 8 == 0 && p.filter_h * p.filter_w <= TA_POOL_AVG_WORDS_MAX_CELLS);
    ta_avg_pool_s8(&p, in, out);
    int bad = 0;
    for (int32_t oy = 0; oy < p.out_h; oy++)
      for (int32_t ox = 0; ox < p.out_w; ox++)
        for (int32_t c = 0; c < p.depth; c++)
          bad += out[(oy * p.out_w + ox) * p.depth + c] != pool_reference(&p, in, oy, ox, c);
    CHECK(u, bad == 0);
  }
}

const UnitTest pooling_tests[] = {
    {"avg_pool_s8_words", test_avg_pool_s8_words},
    {NULL, NULL},
};
