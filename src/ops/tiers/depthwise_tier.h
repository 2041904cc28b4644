/* The depthwise tiers (depth multiplier 1, and depthwise_mult.c's for more) and what DEPTHWISE_CONV_2D shares with them:
 * the layer's data, the int8 border classes and the tier interface. One file per tier
 * (depthwise_dsp.c, depthwise_mve.c, depthwise_s16_dsp.c, depthwise_s16_mve.c);
 * depthwise_conv_2d.c picks one through this header. */
#ifndef TINYAOT_DEPTHWISE_TIER_H
#define TINYAOT_DEPTHWISE_TIER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../conv_common.h"
#include "../op.h"
#include "gemm_s16_dsp.h"
#include "gemm_s16_mve.h"

typedef enum DwKernel { DW_S8, DW_S16, DW_F32 } DwKernel;

/* Kernel tier for int8: the fastest the platform offers and the layer allows. */
/* DW_TIER_MULT_*: depth multiplier > 1 (depthwise_mult.c). */
typedef enum DwTier { DW_TIER_PORTABLE, DW_TIER_DSP, DW_TIER_MVE, DW_TIER_MULT_DSP, DW_TIER_MULT_MVE } DwTier;

/* Per output row or column: the taps [lo, hi) that read inside the image and the index
 * of that (lo, hi) pair among the axis's distinct ones (its border class). */
typedef struct DwAxisClasses {
  int16_t *table;      /* [out][3]: lo, hi, class */
  int32_t count;
  int32_t *lo, *hi;    /* per class */
} DwAxisClasses;

/* Tables of the DSP / MVE kernels. */
typedef struct DwTierData {
  DwAxisClasses rows, cols;
  int32_t *bias;       /* per (row class, column class), tier layout */
  int32_t *rp_bias;    /* DSP row-pair form: per channel, every tap's zero-point share (its padding is the zero point) */
  size_t bias_n;
  int32_t *weights32;  /* DSP: packed int16 pairs */
  int32_t *classic32;  /* DSP row-pair form kept in place (dsp_rowpair_inplace): the classic layout too */
  size_t classic_n;
  int16_t *weights16;  /* MVE: widened */
  int8_t *weights8;    /* MVE, 16-channel groups; MULT_DSP: the reordered int8 weights */
  int lanes16;         /* MVE: 16-channel groups (see ta_depthwise_conv_mve.h) */
  int pack;            /* MVE, 16 / channels: pixels per 16-channel group (ta_depthwise_conv_mve.h), else 0 */
  int32_t *pack_bias;  /* MVE pack: [row class][column class][16] */
  int32_t *pack_quant; /* MVE pack: [3][16] */
  size_t pack_bias_n, pack_weights_n;
  size_t weights_n;
  int32_t *quant;
  size_t quant_n;
  int negative_fix;
  int simple;          /* MVE: the kernel's reduced requantisation applies (ta_depthwise_conv_mve.h) */
  int no_left_shift;   /* MVE: no channel shifts left */
  int dsp_mode;        /* DSP: TA_DW_DSP_SIMPLE 0, NEGFIX 1 or CLAMP 2 (ta_depthwise_conv_dsp.h) */
  int dsp_rowpair;     /* DSP: form TA_DW_DSP_ROWPAIR (input rows widened in pairs into scratch) */
  int dsp_rowpair_stack; /* its widened rows fit on the kernel's stack (TA_DW_DSP_STACK_BYTES) */
  int dsp_rowpair_inplace; /* and it keeps the classic form's in-place contract (dw_inplace) */
} DwTierData;

typedef struct DwData {
  DwKernel kernel;
  DwTier tier;
  DwTierData t;
  int32_t batches, in_c, out_c, multiplier;
  ConvAxis h, w;
  ConvQuant q;            /* integer kernels */
  int32_t *folded_bias;   /* int8: bias - input_zero_point * sum over taps of filter[.][oc] */
  int32_t input_zero_point, output_zero_point;
  float act_min, act_max; /* float kernel */
  DwS16Plan *s16dsp;      /* int16x8, multiplier 1, on Cortex-M4: ta_depthwise_conv_s16_dsp, else NULL */
  DwS16MvePlan *s16mve;   /* int16x8, multiplier 1, on Cortex-M55: ta_depthwise_conv_s16_mve, else NULL */
} DwData;

/* Table entries, and compile-time work (bias entries x taps), beyond which a layer stays portable. */
enum { DW_MAX_TABLE = 1 << 20, DW_MAX_WORK = 1 << 26 };

static inline int32_t dw_right_shift(const DwData *d, int32_t c) { return d->q.shift[c] < 0 ? -d->q.shift[c] : 0; }
static inline int32_t dw_left_shift(const DwData *d, int32_t c) { return d->q.shift[c] > 0 ? d->q.shift[c] : 0; }

/* Per-axis border classes of a layer (false: too many; the layer stays portable). */
bool dw_axis_classes(PrepareCtx *pc, const ConvAxis *ax, DwAxisClasses *c);
/* bias - zp * (weights of channel c over the taps of row class r x column class k), int32 wrap. */
int32_t dw_class_bias(const DwData *d, const Tensor *filter, const Tensor *bias, int32_t r, int32_t k,
                      int32_t c);
/* Shape fields shared by the DSP and MVE descriptors. */
void dw_tier_geom(char *buf, size_t cap, const DwData *d);
/* The tables every tier descriptor names: border classes and requantisation. */
typedef struct DwTierTables { const char *rows, *cols, *quant; } DwTierTables;
DwTierTables dw_tier_tables(EmitCtx *ec, const DwData *d);

/* The tiers. plan: builds the tier's tables into d->t, false when the layer must stay
 * portable (or out of memory); emit: the descriptor and the kernel call. */
bool depthwise_dsp_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, const Tensor *bias);
void depthwise_dsp_emit(EmitCtx *ec, const Node *node, const DwData *d);
/* The DSP row-pair form's widened rows: their bytes, and whether they live in the scratch arena. */
size_t depthwise_dsp_rowpair_scratch(const DwData *d);
bool depthwise_dsp_arena_scratch(const DwData *d);

bool depthwise_mve_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, const Tensor *bias);
void depthwise_mve_emit(EmitCtx *ec, const Node *node, const DwData *d);

/* The int16x8 tiers (d->kernel DW_S16): plan sets d->s16dsp / d->s16mve when the layer
 * fits, false only when out of memory. */
/* The depth-multiplier tiers (d->multiplier > 1, int8): plan checks the kernel's limits
 * and builds the DSP tier's weights (false: the layer stays portable, or out of memory). */
bool depthwise_mult_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, bool dsp);
void depthwise_mult_emit(EmitCtx *ec, const Node *node, const DwData *d);

bool depthwise_s16_dsp_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, const Tensor *bias);
void depthwise_s16_dsp_emit(EmitCtx *ec, const Node *node, const DwData *d);
bool depthwise_s16_mve_plan(PrepareCtx *pc, DwData *d, const Tensor *filter, const Tensor *bias);
void depthwise_s16_mve_emit(EmitCtx *ec, const Node *node, const DwData *d);

#endif
