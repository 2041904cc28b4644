#!/bin/sh
# int8 CONV_2D / FULLY_CONNECTED on Cortex-M4 (ta_gemm_dsp; docs/kernels.md):
# - the column form (ta_conv_s8_dsp_cols: windows with dilation 1 across and whole groups of
#   4 input channels read from image columns widened once per strip of output pixels, the
#   weights re-laid column by column) and the depth-8 path (the `k8` stream: the 8 input
#   values in registers for every row): ic (3x3 convolutions of 16, 32, 64 channels, with and
#   without ReLU; in pairs, ta_conv_s8_dsp_cols_pairs: 2 windows against 2 output channels,
#   with the negative-rounding fix where there is no ReLU), ad (FULLY_CONNECTED 8 -> 128) and the corpus CONV_2D cases that qualify
#   (1x5 and 5x5 windows, stride 1 and 2, SAME and VALID padding), converted for cortex-m4 and
#   run on QEMU mps2-an386: outputs byte-equal to the TFLite Micro golden, and the module
#   must take the path;
# - the same ic and ad modules built at -O0 (the C loops over the same tables, no assembly),
#   ad and ic with a frame pointer, ic in --memory.optimize max, and ic with no block loop compiled (TA_GEMM_DSP_VARIANTS 0,
#   where the module names the loops its layers take): exact too;
# - the pair loop (`pairs`: 2 pixels against 2 output channels per step, kws's and vww's
#   1x1 convolutions, an odd pixel count in kws, the zero point added after the shift in vww's
#   deeper ones): kws and vww at -O2 must take it and be exact, kws also at -O0 and with a
#   frame pointer, kws and vww with no assembly loop compiled (the C form), and kws in
#   --memory.optimize max (the pair's two pixels read before either is written);
# - the FULLY_CONNECTED stream (`fcs`: one input vector against 4 rows per step, biases,
#   doubled weights and rq words in one table): ad's layers of depth 128 and 640 must take it,
#   its module name bit 22 and no block loop, and ad be exact at -O2, -O0, with a frame
#   pointer and with the loop not compiled (mask0: the C form over the same table);
# - the column form in pairs on generated convolutions (below), exact against TFLite Micro.
# - the first convolutions (ta_conv_s8_dsp_first: fewer than 4 input channels, the window
#   depth padded with zero weights so that the pair loop runs it; 3x3x3 windows read straight
#   from the image, bit 13, in the depth-28 pair loop, bit 16; border windows gathered byte by
#   byte): vww (stride 2, the last row and column padded) and ic (stride 1, padding all round)
#   must take it and be exact, at -O2, -O0 and with no loop compiled; the modules name bits
#   13 and 16 and, having no other gathered window, not bit 15 (conv_run's gather); kws's
#   10x4x1 windows (rows of 4 values read from the image, the depth-40 pair loop: bit 14) the
#   same at -O2, -O0, with a frame pointer, no loop compiled and in --memory.optimize max;
#   a CONV_2D case of 1 input channel and 17 outputs (no pair stream) gathers in conv_run
#   (bit 15) and, with no loop compiled, by gemm_gather_window; strww's 1x1 layer of 40 channels
#   runs the depth-40 pair loop (bit 14); generated first layers of rows of 4 values (below)
#   read their border windows' rows from inside the image, shifted.
# usage: sh tests/suites/conv_tiers_m4.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/tier_suite_lib.sh"
tier_setup conv_tiers_m4 "$@"
suite_require "$corpus/models"
tier_need_cross fail setup

# What the module must contain for this case (a fixed string).
expected() { # name
  case "$1" in
    ic) echo "ta_conv_s8_dsp_cols_pairs" ;;
    conv_2d_int8_05_*) echo "ta_conv_s8_dsp_inplace(" ;;
    conv_2d_int8_*) echo "ta_conv_s8_dsp_cols" ;;
    gen_*) echo "ta_conv_s8_dsp_cols_pairs" ;;
    first_*) echo "ta_conv_s8_dsp_first" ;;
    ad) echo ".k8 = K" ;;
    kws|vww|strww) echo ".pairs = 1" ;;
  esac
  case "$1" in
    ic|vww|kws) echo "ta_conv_s8_dsp_first" ;;
  esac
}

# The module's TA_GEMM_DSP_VARIANTS mask has bit $2 (a name of ta_gemm_dsp_contract.h) set
# ($3 = 1) or clear ($3 = 0).
mask_bit() { # config header, bit name, 1|0
  tier_mask_has "$1" GEMM_DSP "$2" "$3"
}

# Converts `dir` for cortex-m4 into $work/<check>/m, builds it with `flags`, runs case 0.
run_one() { # corpus dir, check, compile flags, [max|mask0]
  dir=$1 check=$2 flags=$3
  d="$work/$2"
  opts=
  [ "${4:-}" = max ] && opts="--memory.optimize max"
  # shellcheck disable=SC2086 # opts: several words or none
  if ! why=$(tier_convert m4 "$dir/model.tflite" "$d/m" t8 $opts); then
    fail "$check" "convert ($why)"
    return
  fi
  missing=$(expected "$(basename "$dir")" | while IFS= read -r want; do
    grep -qF "$want" "$d/m/src/t8_model.c" || echo "$want"
  done)
  if [ -n "$missing" ]; then
    fail "$check" "the module does not take the path ($missing)"
    return
  fi
  if [ "$(basename "$dir")" = ad ]; then # the stream: 9 layers, its bit, no block or pair loop
    mask=$(tier_mask "$d/m/src/ta_config.h" GEMM_DSP)
    loops=$(( (1 << $(contract_bit TA_GEMM_DSP_BIT_FIRST_333)) - 1 )) # the block and pair loops' bits
    if [ "$(grep -c '\.fcs = 1,' "$d/m/src/t8_model.c")" != 9 ] || [ -z "$mask" ] ||
       [ $(((mask >> $(contract_bit TA_GEMM_DSP_BIT_FCS)) & 1)) != 1 ] || [ $((mask & loops)) != 0 ]; then
      fail "$check" "ad's FULLY_CONNECTED layers do not all take the stream (mask ${mask:-none})"
      return
    fi
  fi
  case "$(basename "$dir"):${4:-}" in
    ic:|vww:)
      if ! mask_bit "$d/m/src/ta_config.h" TA_GEMM_DSP_BIT_FIRST_333 1 ||
         ! mask_bit "$d/m/src/ta_config.h" TA_GEMM_DSP_BIT_PAIRS28 1 || ! mask_bit "$d/m/src/ta_config.h" TA_GEMM_DSP_BIT_GATHER 0; then
        fail "$check" "variant mask $(tier_mask "$d/m/src/ta_config.h" GEMM_DSP) (want FIRST_333, PAIRS28, not GATHER)"
        return
      fi ;;
    kws:)
      if ! mask_bit "$d/m/src/ta_config.h" TA_GEMM_DSP_BIT_FIRST_ROWS 1 ||
         ! mask_bit "$d/m/src/ta_config.h" TA_GEMM_DSP_BIT_GATHER 0; then
        fail "$check" "variant mask $(tier_mask "$d/m/src/ta_config.h" GEMM_DSP) (want FIRST_ROWS, not GATHER)"
        return
      fi ;;
    strww: | first_*:)
      if ! mask_bit "$d/m/src/ta_config.h" TA_GEMM_DSP_BIT_FIRST_ROWS 1; then
        fail "$check" "variant mask lacks TA_GEMM_DSP_BIT_FIRST_ROWS (the depth-40 pair loop)"
        return
      fi ;;
    conv_2d_int8_05_*:)
      if ! mask_bit "$d/m/src/ta_config.h" TA_GEMM_DSP_BIT_GATHER 1; then
        fail "$check" "variant mask lacks TA_GEMM_DSP_BIT_GATHER (the layer gathers in conv_run)"
        return
      fi ;;
  esac
  # mask0: no block loop compiled, the layers fall back to the C loops
  [ "${4:-}" = mask0 ] && tier_config "$d/m/src/ta_config.h" T8 GEMM_DSP 0
  if ! why=$(tier_module_run m4 "$d/m" t8 "$dir/case_0" "$d/out" "$flags"); then
    fail "$check" "$why"
    return
  fi
  pass "$check (exact, $flags${4:+, $4})"
  rm -rf "$d"
}

for m in ic ad; do
  run_one "$corpus/models/$m" "$m" "-O2"
  run_one "$corpus/models/$m" "$m-O0" "-O0"
done
run_one "$corpus/models/ad" "ad-fp" "-O2 -fno-omit-frame-pointer"
run_one "$corpus/models/ic" "ic-mask0" "-O2" mask0
run_one "$corpus/models/ad" "ad-mask0" "-O2" mask0
run_one "$corpus/models/ic" "ic-fp" "-O2 -fno-omit-frame-pointer"
[ "${TEST_FULL:-}" = 1 ] && run_one "$corpus/models/ic" "ic-max" "-O2" max
run_one "$corpus/models/kws" "kws" "-O2"
run_one "$corpus/models/kws" "kws-O0" "-O0"
run_one "$corpus/models/kws" "kws-fp" "-O2 -fno-omit-frame-pointer"
run_one "$corpus/models/kws" "kws-mask0" "-O2" mask0
run_one "$corpus/models/kws" "kws-max" "-O2" max
run_one "$corpus/models/vww" "vww" "-O2"
run_one "$corpus/models/vww" "vww-mask0" "-O2" mask0
run_one "$corpus/models/vww" "vww-O0" "-O0"
run_one "$corpus/models/strww" "strww" "-O2"
# conv_run's window gather (bit 15: 1 input channel, 17 outputs: no pair stream), and without it
# (mask 0: gemm_gather_window)
c=conv_2d_int8_05_k3x3_s2_d1_same_relu6_c1to17
if [ -d "$corpus/ops/$c" ]; then
  run_one "$corpus/ops/$c" "$c" "-O2"
  run_one "$corpus/ops/$c" "$c-mask0" "-O2" mask0
else
  fail "$c" "corpus case missing"
fi
# the CONV_2D cases with whole groups of 4 input channels, no dilation, a window wider than 1x1
for c in conv_2d_int8_01_k1x5_s1_d1_valid_relu6_c8to3 conv_2d_int8_15_k5x5_s2_d1_same_relu6_c8to3; do
  if [ -d "$corpus/ops/$c" ]; then
    run_one "$corpus/ops/$c" "$c" "-O2"
  else
    fail "$c" "corpus case missing"
  fi
done
# Column form in pairs on generated convolutions (fuzz_diff_gen conv, goldens from TFLite
# Micro's reference kernels): the 48-value passes with and without the negative-rounding fix
# (a strip of 8 then an odd one of 3: the last pixel paired with itself; stride 2), the
# 16-value passes (depth 80, odd 17- and 13-pixel strips, per-tensor weights), the 64-value
# ones (depth 128, 576); at -O0 and with no loop compiled (the C forms) too. make test runs
# three of them (48-value with the fix and an odd strip, 16-value odd strip, 64-value); all
# with TEST_FULL=1 (as ops-arith's longer sweeps), which also runs ic in --memory.optimize max.
gen_ok=0
tier_generator && gen_ok=1
if [ $gen_ok = 1 ]; then
  # name: H W CIN COUT KH KW SH SW SAME ACT PER_CHANNEL (ACT 0 none, 1 ReLU)
  while read -r name shape; do
    case "${TEST_FULL:-}:$name" in # make test: three of them
      1:* | *:gen_k3_s1_neg | *:gen_k15_relu | *:gen_k3_c64_neg) ;;
      *) continue ;;
    esac
    dir="$work/src_$name"
    # shellcheck disable=SC2086 # shape: the generator's arguments
    why=$(tier_gen_case conv 7 "$dir" $shape) || { fail "$name" "$why"; continue; }
    run_one "$dir" "$name" "-O2"
    case "${TEST_FULL:-}:$name" in
      1:gen_k3_s1_neg) run_one "$dir" "$name-O0" "-O0" ;;
      1:gen_k15_neg) run_one "$dir" "$name-mask0" "-O2" mask0 ;;
    esac
  done <<EOF
gen_k3_s1_neg 5 11 16 6 3 3 1 1 1 0 1
gen_k3_s2_relu 9 13 16 4 3 3 2 2 0 1 1
gen_k15_neg 3 17 16 6 1 5 1 1 1 0 0
gen_k15_relu 3 17 16 4 1 5 1 1 0 1 1
gen_k2_c32_relu 4 10 32 8 2 2 1 1 1 1 1
gen_k3_c64_neg 6 8 64 2 3 3 1 1 1 0 1
EOF
fi
# First convolutions with windows of rows of 4 values (form 2) on generated layers, exact
# against TFLite Micro: the border windows' rows read from inside the image and shifted
# (first_unpack_rows4_edge; depth 40, which names that reader, bit 14): kws's shape with other
# values and 16 outputs (the top 4 and bottom 5 rows and one column each side padded), 10x4
# windows at stride 1 (one column padded on the left, two on the right: 8- and 16-bit shifts)
# and 10x2 windows of 2 channels (a 2-byte pixel past the right side). make test runs all three.
if [ $gen_ok = 1 ]; then
  while read -r name shape; do
    dir="$work/src_$name"
    # shellcheck disable=SC2086 # shape: the generator's arguments
    why=$(tier_gen_case conv 11 "$dir" $shape) || { fail "$name" "$why"; continue; }
    run_one "$dir" "$name" "-O2"
  done <<EOF
first_k10x4_s2 49 10 1 16 10 4 2 2 1 1 1
first_k10x4_s1 12 6 1 8 10 4 1 1 1 1 1
first_k10x2_c2 14 5 2 6 10 2 1 1 1 1 0
EOF
  if [ "${TEST_FULL:-}" = 1 ]; then run_one "$work/src_first_k10x4_s1" "first_k10x4_s1-O0" "-O0"; fi
fi
