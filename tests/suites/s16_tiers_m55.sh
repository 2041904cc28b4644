#!/bin/sh
# int16x8 tiers on Cortex-M55 (ta_gemm_s16_mve, ta_depthwise_conv_s16_mve; docs/kernels.md):
# - every a16w8 model and every int16 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED case
#   of the corpus, case 0, converted for cortex-m55 and run on QEMU mps3-an547: outputs
#   byte-equal to the TFLite Micro golden; where the layer qualifies (int64 bias; depthwise
#   with multiplier 1) the module must call the MVE kernel, and an int32-bias case must not;
#   int16 ADD / SUB cases likewise: same-shape inputs call ta_add_s16_mve / ta_sub_s16_mve,
#   broadcasting ones must not;
# - ta_add_s16_mve / ta_sub_s16_mve against the portable ta_add_s16 / ta_sub_s16 on QEMU
#   (tests/target/addsub_s16_mve_check.c: random descriptors and inputs, every tail length);
# - the MVE loops of ta_conv_s16_mve / ta_gemm_s16_mve / ta_depthwise_conv_s16_mve against
#   the same files built without MVE (tests/target/gemm_s16_mve_check.c: random geometries
#   (windows gathered inside and across the border, depthwise 3x3 / 2x2 / one-column),
#   fold / wide / fix / int64 tables), with the assembly loops and again with a frame
#   pointer (TA_NO_WIDE_ASM: their C equivalents);
# - the kernel files compile warning-free with GCC and clang at -O0/-Os/-O2/-O3 as C99.
# S16_M55_CASES="pattern ..." limits the corpus directories run (shell patterns on the name).
# usage: sh tests/suites/s16_tiers_m55.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/tier_suite_lib.sh"
tier_setup s16_tiers_m55 "$@"
suite_require "$corpus/models"
tier_need_cross fail setup

# What the module must (or, with a leading !, must not) call for this case.
expected_kernel() { # case name
  case "$1" in
    *_a16w8) echo "_s16_mve(" ;;
    conv_2d_int16_*bias32*) echo "!ta_conv_s16_mve(" ;;
    fully_connected_int16_*bias32*) echo "!ta_gemm_s16_mve(" ;;
    conv_2d_int16_*) echo "ta_conv_s16_mve(" ;;
    fully_connected_int16_*) echo "ta_gemm_s16_mve(" ;;
    depthwise_conv_2d_int16_*_m1_*) echo "ta_depthwise_conv_s16_mve(" ;;
    add_int16_*same*) echo "ta_add_s16_mve(" ;;
    sub_int16_*same*) echo "ta_sub_s16_mve(" ;;
    add_int16_*|sub_int16_*) echo "!dd_s16_mve(" ;;
    *) echo "" ;;
  esac
}

selected() { # case name
  [ -z "$S16_M55_CASES" ] && return 0
  for p in $S16_M55_CASES; do
    # shellcheck disable=SC2254
    case "$1" in $p) return 0 ;; esac
  done
  return 1
}

run_one() { # corpus dir
  name=$(basename "$1") want=$(expected_kernel "$(basename "$1")")
  tier_case_calls m55 "$1" "$want" MVE || return
  out="$work/$name"
  form=""
  grep -q "gemm16m_bias\|dw16m_rq" "$out"/module/src/t16_model.c && form=" fold"
  grep -q "gemm16m_rq\|dw16m_general" "$out"/module/src/t16_model.c && form="$form int64"
  case "$want" in ""|!*) form="" ;; esac
  pass "$name${form:+ (MVE tier,$form)}"
  rm -rf "$out"
}

tier_int16_cases | while read -r dir; do
  selected "$(basename "$dir")" && run_one "$dir"
done

# ---- ta_add_s16_mve / ta_sub_s16_mve against the portable kernels, bare metal on QEMU ----
tier_image_check addsub-kernel m55 "$work/addsub" "elements exact" "" tests/target/addsub_s16_mve_check.c \
  runtime/kernels/ta_addsub_s16_mve.c runtime/kernels/ta_elementwise.c

# ---- the int16x8 matrix and depthwise kernels' MVE loops against their plain-C paths ----
gemm_check() { # [CHECK-SUFFIX EXTRA-CFLAGS]: the MVE side also built with those flags
  ren="-Dta_conv_s16_mve=ref_conv_s16_mve -Dta_gemm_s16_mve=ref_gemm_s16_mve"
  ren="$ren -Dta_depthwise_conv_s16_mve=ref_depthwise_conv_s16_mve"
  g=runtime/kernels/ta_gemm_s16_mve.c dw=runtime/kernels/ta_depthwise_conv_s16_mve.c
  tier_image_check "gemm-kernels${1:-}" m55 "$work/gemm${1:-}" "outputs equal" "${2:-}" \
    tests/target/gemm_s16_mve_check.c "$g" "$dw" --ref m55-nomve "$ren" "$g" "$dw"
}
gemm_check
# the C loops a build with a frame pointer takes instead of the assembly ones
gemm_check "-frame-pointer" "-fno-omit-frame-pointer -DTA_NO_WIDE_ASM"

# ---- compile flags: the kernel files at every usual level, both compilers, C99 -pedantic ----
flags() {
  m="$work/flags"
  if ! tier_convert m55 "$corpus/models/kws_a16w8/model.tflite" "$m" k16 >/dev/null; then
    fail compile-flags "convert kws_a16w8 for cortex-m55"
    return
  fi
  tier_compile_matrix compile-flags m55 12 "" "-pedantic -I$m/src -I$TA_ROOT/runtime/kernels" \
    "$m"/src/k16_ta_gemm_s16_mve.c "$m"/src/k16_ta_depthwise_conv_s16_mve.c "$m"/src/ta_gemm_s16_mve.c \
    "$m"/src/ta_depthwise_conv_s16_mve.c "$TA_ROOT/runtime/kernels/ta_addsub_s16_mve.c"
}
flags
