/* int8 ADD / SUB of two same-shape inputs: the compile-time plan of the flat kernels
 * (runtime/kernels/ta_addsub_flat.h), found by search and proved exact over every
 * pair of input bytes against TFLite Micro's reference arithmetic.
 *
 * TFLite rescales each input ((v - zp) << 20, a rounding doubling high multiply, a
 * rounding right shift), adds (or subtracts) and rescales the sum the same way. Here:
 * - the input with the larger scale has the multiplier 1/2 exactly, so its rescaled
 *   value is affine in the byte: byte * lin_mult + constant;
 * - the other input's 256 rescaled values (both of its roundings, its zero point,
 *   the affine input's constant and a pre-offset of the sum) are one int32 table;
 * - the output's two roundings and zero point become one high multiply plus an
 *   additive constant and one truncating shift: floor((sum * m + R + A * 2^32) /
 *   2^(32 + e)), the constant found by intersecting, over every reachable sum, the
 *   interval of constants that give TFLite's clamped result. */
#ifndef TINYAOT_ADDSUB_FLAT_H
#define TINYAOT_ADDSUB_FLAT_H
#include <stdbool.h>
#include <stdint.h>

#include "elementwise.h"

/* Scalar: h = (int32)((sum * m) >> 32), r = h >> e (C with a 64-bit product, SMULL; the
 * constant is a pre-offset of the sum folded into the table, A = 0).
 * MVE: h = VQRDMLASH(sum, m, A) = A + ((2 * sum * m + 2^31) >> 32), r = h >> e. */
typedef enum AddFlatTier { ADDFLAT_SCALAR, ADDFLAT_MVE } AddFlatTier;

typedef struct AddFlatPlan {
  AddFlatTier tier;
  bool swap;          /* the table input is input 2 (the affine one input 1) */
  int32_t table[256]; /* by the table input's byte read as uint8 */
  int32_t lin_mult;   /* the affine input's step per unit of its byte */
  int32_t out_mult, out_add, out_shift;
  int32_t act_min, act_max;
} AddFlatPlan;

/* TFLite Micro's int8 ADD (subtract = false) or SUB of bytes a (input 1) and b
 * (input 2) with the quantized constants of d. */
int32_t addsub_flat_reference(const EwArith *d, bool subtract, int32_t a, int32_t b);
/* What the tier's kernel computes for that pair with plan p. */
int32_t addsub_flat_eval(const AddFlatPlan *p, int32_t a, int32_t b);
/* Builds the plan; false when no exact one exists (the caller keeps the general
 * kernel). Checks every one of the 65536 input pairs before returning true. */
bool addsub_flat_plan(const EwArith *d, bool subtract, AddFlatTier tier, AddFlatPlan *p);

#endif
