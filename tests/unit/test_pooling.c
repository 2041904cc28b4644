/* ta_avg_pool_s8's channel-group loop (TA_POOLING_VARIANTS bit 1, ta_pooling.h), built for
 * the host (plain C; its SXTAB16 form runs on QEMU in tests/suites/depthwise_tiers_m4.sh with kws): every
 * output equals the mean over the window clipped to the input, rounded half away from zero,
 * also at the int16 lane bound (256 cells of -128 or 127) and with SAME padding; and
 * ta_avg_pool_s16's (bit 2; its SXTAH form runs on QEMU with the a16w8 models) the same,
 * with the int16 extremes and windows past 256 cells. */
#include "../../runtime/kernels/ta_pooling.c"
#include "unit.h"

/* The mean over output (oy, ox)'s window clipped to the input, channel c, rounded half away
 * from zero and clamped: `in` holds int8 (bytes 1) or int16 (bytes 2) values. */
static int32_t pool_reference(const ta_pool_params_t *p, const void *in, int bytes, int32_t oy, int32_t ox, int32_t c) {
  int32_t sum = 0, n = 0;
  for (int32_t fy = 0; fy < p->filter_h; fy++)
    for (int32_t fx = 0; fx < p->filter_w; fx++) {
      int32_t y = oy * p->stride_h - p->pad_h + fy, x = ox * p->stride_w - p->pad_w + fx;
      if (y < 0 || y >= p->in_h || x < 0 || x >= p->in_w) continue;
      const int32_t i = (y * p->in_w + x) * p->depth + c;
      sum += bytes == 1 ? ((const int8_t *)in)[i] : ((const int16_t *)in)[i], n++;
    }
  int32_t q = n == 0 ? 0 : sum >= 0 ? (sum + n / 2) / n : (sum - n / 2) / n;
  return q < p->act_min ? p->act_min : q > p->act_max ? p->act_max : q;
}

/* The pooling geometry of one case row: depth, in_h, in_w, filter, stride, pad (both axes), act_min, act_max. */
static ta_pool_params_t pool_case(const int32_t *k, int32_t act_max) {
  ta_pool_params_t p = {1, k[0], k[1], k[2], 0, 0, k[3], k[3], k[4], k[4], k[5], k[5], k[7], act_max, 0.0f, 0.0f};
  if (k[3] > k[1]) p.filter_h = k[1];
  if (k[3] > k[2]) p.filter_w = k[2];
  p.out_h = (p.in_h + 2 * p.pad_h - p.filter_h) / p.stride_h + 1;
  p.out_w = (p.in_w + 2 * p.pad_w - p.filter_w) / p.stride_w + 1;
  return p;
}

/* A case row must fit the test's static buffers (elements): an oversized row fails here on
 * every compiler instead of overrunning into whatever the linker placed next. */
static int pool_case_fits(UnitState *u, const ta_pool_params_t *p, size_t in_cap, size_t out_cap) {
  const int fits = (size_t)p->in_h * (size_t)p->in_w * (size_t)p->depth <= in_cap &&
                   (size_t)p->out_h * (size_t)p->out_w * (size_t)p->depth <= out_cap;
  CHECK(u, fits);
  return fits;
}

static void test_avg_pool_s16_words(UnitState *u) {
  static int16_t in[40 * 40 * 16], out[40 * 40 * 16];
  /* depth, in_h, in_w, filter, stride, pad, fill (0 random, else the value), act_min */
  static const int32_t cases[][8] = {
      {64, 25, 5, 25, 1, 0, 0, -32768},       {8, 40, 40, 40, 1, 0, -32768, -32768},
      {16, 30, 30, 30, 1, 0, 32767, -32768}, {8, 7, 9, 3, 2, 1, 0, -32768},
      {16, 5, 6, 4, 3, 1, 0, -500},           {8, 9, 9, 3, 1, 1, 0, -32768},
  };
  uint32_t seed = 777u;
  for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
    const int32_t *k = cases[t];
    const ta_pool_params_t p = pool_case(k, k[7] == -500 ? 900 : 32767);
    if (!pool_case_fits(u, &p, sizeof in / sizeof in[0], sizeof out / sizeof out[0])) continue;
    for (int32_t i = 0; i < p.in_h * p.in_w * p.depth; i++) {
      seed = seed * 1664525u + 1013904223u;
      in[i] = k[6] ? (int16_t)k[6] : (int16_t)(seed >> 16);
    }
    CHECK(u, p.depth % 8 == 0 && ((TA_POOLING_VARIANTS >> TA_POOL_AVG16_WORDS_BIT) & 1u));
    ta_avg_pool_s16(&p, in, out);
    int bad = 0;
    for (int32_t oy = 0; oy < p.out_h; oy++)
      for (int32_t ox = 0; ox < p.out_w; ox++)
        for (int32_t c = 0; c < p.depth; c++)
          bad += out[(oy * p.out_w + ox) * p.depth + c] != pool_reference(&p, in, 2, oy, ox, c);
    CHECK(u, bad == 0);
  }
}

static void test_avg_pool_s8_words(UnitState *u) {
  static int8_t in[25 * 5 * 64], out[25 * 5 * 64]; /* the largest case row: 25x5 pixels of 64 channels */
  /* depth, in_h, in_w, filter, stride, pad, fill (0 random, else the value), act_min */
  static const int32_t cases[][8] = {
      {64, 25, 5, 25, 1, 0, 0, -128},  {8, 16, 16, 16, 1, 0, -128, -128}, {16, 16, 16, 16, 1, 0, 127, -128},
      {8, 7, 9, 3, 2, 1, 0, -128},     {16, 5, 6, 4, 3, 1, 0, -5},        {8, 16, 16, 16, 1, 0, 0, -128},
  };
  uint32_t seed = 12345u;
  for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
    const int32_t *k = cases[t];
    const ta_pool_params_t p = pool_case(k, 127);
    if (!pool_case_fits(u, &p, sizeof in / sizeof in[0], sizeof out / sizeof out[0])) continue;
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
          bad += out[(oy * p.out_w + ox) * p.depth + c] != pool_reference(&p, in, 1, oy, ox, c);
    CHECK(u, bad == 0);
  }
}

const UnitTest pooling_tests[] = {
    {"avg_pool_s8_words", test_avg_pool_s8_words},
    {"avg_pool_s16_words", test_avg_pool_s16_words},
    {NULL, NULL},
};
