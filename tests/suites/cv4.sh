#!/bin/sh
# int8 CONV_2D / FULLY_CONNECTED on Cortex-M4 (ta_gemm_dsp; docs/kernels.md):
# - the column form (ta_conv_s8_dsp_cols: windows with dilation 1 across and whole groups of
#   4 input channels read from image columns widened once per strip of output pixels, the
#   weights re-laid column by column) and the depth-8 path (the `k8` stream: the 8 input
#   values in registers for every row): ic (3x3 convolutions of 16, 32, 64 channels, with and
#   without ReLU), ad (FULLY_CONNECTED 8 -> 128) and the corpus CONV_2D cases that qualify
#   (1x5 and 5x5 windows, stride 1 and 2, SAME and VALID padding), converted for cortex-m4 and
#   run on QEMU mps2-an386: outputs byte-equal to the TFLite Micro golden, and the module
#   must take the path;
# - the same ic and ad modules built at -O0 (the C loops over the same tables, no assembly),
#   ad with a frame pointer, and ic with no block loop compiled (TA_GEMM_DSP_VARIANTS 0,
#   where the module names the loops its layers take): exact too;
# - the pair loop (`pairs`: 2 pixels against 2 output channels per step, kws's and vww's
#   1x1 convolutions, an odd pixel count in kws, the zero point added after the shift in vww's
#   deeper ones): kws and vww at -O2 must take it and be exact, kws also at -O0 and with a
#   frame pointer, kws and vww with no assembly loop compiled (the C form), and kws in
#   --memory.optimize max (the pair's two pixels read before either is written);
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
#   runs the depth-40 pair loop (bit 14).
# usage: sh tests/suites/cv4.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/target/lib.sh"
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup cv4 "$@" || { echo "FAIL cv4: no work folder"; exit 0; }

if [ ! -d "$corpus/models" ]; then
  echo "SKIP cv4: corpus absent ($corpus)"
  exit 0
fi
ta_ensure_packages >/dev/null 2>&1 || { echo "FAIL cv4: cross tools (arm-none-eabi-gcc, qemu-system-arm) missing"; exit 0; }

# What the module must contain for this case (a fixed string).
expected() { # name
  case "$1" in
    conv_2d_int8_05_*) echo "ta_conv_s8_dsp_inplace(" ;;
    ic|conv_2d_int8_*) echo "ta_conv_s8_dsp_cols" ;;
    ad) echo ".k8 = K" ;;
    kws|vww|strww) echo ".pairs = 1" ;;
  esac
  case "$1" in
    ic|vww|kws) echo "ta_conv_s8_dsp_first" ;;
  esac
}

# The module's TA_GEMM_DSP_VARIANTS mask has bit $2 set ($3 = 1) or clear ($3 = 0).
mask_bit() { # config header, bit, 1|0
  mk=$(sed -n 's/.*TA_GEMM_DSP_VARIANTS \(0x[0-9a-fA-F]*\)u.*/\1/p' "$1")
  [ -n "$mk" ] && [ $(( (mk >> $2) & 1 )) -eq "$3" ]
}

# Converts `dir` for cortex-m4 into $work/<label>/m, builds it with `flags`, runs case 0.
run_one() { # corpus dir, label, compile flags
  dir=$1 label="cv4:$2" flags=$3
  d="$work/$2"
  mkdir -p "$d"
  opts=
  [ "${4:-}" = max ] && opts="--memory.optimize max"
  # shellcheck disable=SC2086 # opts: several words or none
  if ! "$build/tinyaot" convert "$dir/model.tflite" --platform cortex-m4 -o "$d/m" --name t8 --prefix t8 $opts \
       >"$d/convert.log" 2>&1; then
    echo "FAIL $label: convert ($(grep -m1 error "$d/convert.log"))"
    return
  fi
  missing=$(expected "$(basename "$dir")" | while IFS= read -r want; do
    grep -qF "$want" "$d/m/src/t8_model.c" || echo "$want"
  done)
  if [ -n "$missing" ]; then
    echo "FAIL $label: the module does not take the path ($missing)"
    return
  fi
  case "$(basename "$dir"):${4:-}" in
    ic:|vww:)
      if ! mask_bit "$d/m/src/ta_config.h" 13 1 || ! mask_bit "$d/m/src/ta_config.h" 16 1 ||
         ! mask_bit "$d/m/src/ta_config.h" 15 0; then
        echo "FAIL $label: variant mask $(grep GEMM_DSP_VARIANTS "$d/m/src/ta_config.h") (want bits 13, 16, not 15)"
        return
      fi ;;
    kws:)
      if ! mask_bit "$d/m/src/ta_config.h" 14 1 || ! mask_bit "$d/m/src/ta_config.h" 15 0; then
        echo "FAIL $label: variant mask $(grep GEMM_DSP_VARIANTS "$d/m/src/ta_config.h") (want bit 14, not 15)"
        return
      fi ;;
    strww:)
      if ! mask_bit "$d/m/src/ta_config.h" 14 1; then
        echo "FAIL $label: variant mask lacks bit 14 (the depth-40 pair loop of its 1x1 layer)"
        return
      fi ;;
    conv_2d_int8_05_*:)
      if ! mask_bit "$d/m/src/ta_config.h" 15 1; then
        echo "FAIL $label: variant mask lacks bit 15 (the layer gathers in conv_run)"
        return
      fi ;;
  esac
  if [ "${4:-}" = mask0 ]; then # no block loop compiled: the layers fall back to the C loops
    printf '%s\n' '#ifndef T8_TA_CONFIG_H' '#define T8_TA_CONFIG_H' '#define T8_TA_GEMM_DSP_VARIANTS 0x0u' '#endif' \
      >"$d/m/src/ta_config.h"
  fi
  if ! make -C "$d/m" TARGET=cortex-m4 CFLAGS="$flags" >"$d/build.log" 2>&1; then
    echo "FAIL $label: module build with $flags"
    return
  fi
  if ! sh "$TA_ROOT/target/run_case.sh" --core m4 --name t8 --lib "$d/m/libt8.a" --include "$d/m/include" \
       --case "$dir/case_0" --out "$d/out" >"$d/run.log" 2>&1; then
    echo "FAIL $label: run_case.sh failed (see $d)"
    return
  fi
  if bad=$(ta_golden_mismatch "$dir/case_0" "$d/out/run"); then :; else
    echo "FAIL $label: $bad differs from the golden"
    return
  fi
  echo "PASS $label (exact, $flags${4:+, $4})"
  rm -rf "$d"
}

for m in ic ad; do
  run_one "$corpus/models/$m" "$m" "-O2"
  run_one "$corpus/models/$m" "$m-O0" "-O0"
done
run_one "$corpus/models/ad" "ad-fp" "-O2 -fno-omit-frame-pointer"
run_one "$corpus/models/ic" "ic-mask0" "-O2" mask0
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
  echo "FAIL cv4:$c: corpus case missing"
fi
# the CONV_2D cases with whole groups of 4 input channels, no dilation, a window wider than 1x1
for c in conv_2d_int8_01_k1x5_s1_d1_valid_relu6_c8to3 conv_2d_int8_15_k5x5_s2_d1_same_relu6_c8to3; do
  if [ -d "$corpus/ops/$c" ]; then
    run_one "$corpus/ops/$c" "$c" "-O2"
  else
    echo "FAIL cv4:$c: corpus case missing"
  fi
done
