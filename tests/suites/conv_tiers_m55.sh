#!/bin/sh
# int8 CONV_2D on Cortex-M55 (ta_conv_s8_mve; docs/kernels.md, "int8 on Cortex-M55"):
# - windows of at most 4 chunks inside the image that span more than 256 bytes are read
#   through 16-bit gather offsets (variant bits 7 + n of TA_GEMM_MVE_VARIANTS): the compiler
#   names the bit for the corpus case conv_2d_int8_00 (3x3, dilation 2, 5 channels: 3 chunks)
#   and for vww (its first convolution: 3 channels, rows 288 bytes apart: 2 chunks), and none
#   for kws (every window within 256 bytes);
# - conv_2d_int8_00 (cases 0-2) and vww, converted for cortex-m55 and run on QEMU
#   mps3-an547, byte-equal to the TFLite Micro golden both with those bits and with them
#   cleared (the windows then gathered into scratch), and fewer instructions with them
#   (the path ran). The other loops (two windows per weight load, the byte-offset loops)
#   run in every corpus model on QEMU (tests/run_target_tests.sh);
# - the convolution's requantisation modes are named apart from the fully connected
#   layer's (vww, kws), and vww's Cortex-M55 code stays within its budget;
# - the two-window loop unrolled by 3 chunks (variant bit 16) and the byte-offset loop
#   over two windows (bits 17-18) are named for ic and exact with and without them there,
#   with fewer instructions with them;
# - the pair runs in assembly (bits 19-22): named for ic (3x3 windows of 16 and of 32 / 64
#   channels, bits 19 and 20, in place of bit 16) and kws (1x1 of 64 channels, bit 21, in
#   place of the 4-chunk byte-offset loop; its first layer's 40-value windows, bit 22),
#   exact with and without them (ic: with and without bits 16-21), fewer instructions
#   with; and ta_conv_s8_mve bare metal against a scalar model
#   over random geometries aimed at them (tests/target/conv_s8_mve_check.c: borders, odd
#   runs, strides, dilations, all four requantisation modes), also built with a frame
#   pointer (TA_NO_WIDE_ASM: no runs, the C loops).
# usage: sh tests/suites/conv_tiers_m55.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/tier_suite_lib.sh"
tier_setup conv_tiers_m55 "$@"
suite_require "$corpus/models"
tier_need_cross fail setup
tier_need_plugin "$work/plugin"
case00="$corpus/ops/conv_2d_int8_00_k3x3_s1_d2_same_none_c5to1"

# The module's TA_GEMM_MVE_VARIANTS mask (decimal), or nothing.
mask_of() { # module dir
  m=$(tier_mask "$1/src/ta_config.h" GEMM_MVE)
  [ -n "$m" ] && echo $((m))
}

# Converts model `tflite` for cortex-m55 into $work/<name>/m; prints the failure reason.
convert() { # tflite name
  tier_convert m55 "$1" "$work/$2/m" c55
}

# The 16-bit offset bits (TA_GEMM_MVE_XW_BIT + n for n chunks) the compiler names.
wide_bits=$(contract_mask "TA_GEMM_MVE_XW_BIT + 1" "TA_GEMM_MVE_XW_BIT + 2" "TA_GEMM_MVE_XW_BIT + 3" "TA_GEMM_MVE_XW_BIT + 4")
check_bits() { # name tflite expected-bits-of-wide_bits
  if ! why=$(convert "$2" "bits-$1"); then fail "bits/$1" "convert: $why"; return; fi
  mask=$(mask_of "$work/bits-$1/m")
  [ -n "$mask" ] || { fail "bits/$1" "no TA_GEMM_MVE_VARIANTS in ta_config.h"; return; }
  got=$((mask & wide_bits))
  if [ "$got" -ne "$3" ]; then
    fail "bits/$1" "16-bit offset bits $(printf 0x%x "$got"), expected $(printf 0x%x "$3")"
    return
  fi
  pass "bits/$1 (mask $(printf 0x%x "$mask"))"
}
[ -d "$case00" ] && check_bits conv_2d_int8_00 "$case00/model.tflite" "$(contract_mask "TA_GEMM_MVE_XW_BIT + 3")" ||
  skip bits/conv_2d_int8_00 "not in the corpus"
check_bits vww "$corpus/models/vww/model.tflite" "$(contract_mask "TA_GEMM_MVE_XW_BIT + 2")"
check_bits kws "$corpus/models/kws/model.tflite" 0

# Requantisation modes: CONV_2D's loops (from TA_GEMM_MVE_CONV_BIT) apart from FULLY_CONNECTED's
# (from TA_GEMM_MVE_FC_BIT; masks of 4 modes, TA_GEMM_MVE_MODE(0, left_shift, fix)),
# so that the one layer without activation (vww's, kws's fully connected: negative-tie fix)
# compiles no second set of convolution loops.
check_modes() { # name conv-modes fc-modes-included
  mask=$(mask_of "$work/bits-$1/m")
  [ -n "$mask" ] || { fail "modes/$1" "no TA_GEMM_MVE_VARIANTS in ta_config.h"; return; }
  conv=$(((mask >> $(contract_bit TA_GEMM_MVE_CONV_BIT)) & 0xf)) fc=$(((mask >> $(contract_bit TA_GEMM_MVE_FC_BIT)) & 0xf))
  if [ "$conv" -ne "$2" ] || [ $((fc & $3)) -ne "$3" ]; then
    fail "modes/$1" "convolution modes $(printf 0x%x "$conv"), fully connected $(printf 0x%x "$fc"), expected\
 $(printf 0x%x "$2") and at least $(printf 0x%x "$3")"
    return
  fi
  pass "modes/$1 (mask $(printf 0x%x "$mask"))"
}
plain=$(contract_mask "TA_GEMM_MVE_MODE(0, 0, 0)") fix=$(contract_mask "TA_GEMM_MVE_MODE(0, 0, 1)")
check_modes vww "$plain" "$fix"
check_modes kws "$plain" "$fix"

# Builds module copy `variant` of $work/<name>/m and runs `case` on QEMU Cortex-M55; prints
# the instruction count, or the failure.
run_variant() { # name variant case
  out="$work/$1/$2.$(basename "$3")"
  tier_module_run m55 "$work/$1/$2" c55 "$3" "$out" -O2 --plugin "$plugin" || return 1
  ta_get "$out/run/count.txt" insns
}

# Exact with the loops of `bits` and without them (mask & ~bits), fewer instructions with.
check_wide() { # name tflite case...
  check_loops wide-offsets "$wide_bits" "the 16-bit offsets" "$@"
}
check_loops() { # check bits what name tflite case...
  check=$1 bits=$(($2)) what=$3 name=$4 tflite=$5
  shift 5
  check="$check/$name"
  if ! why=$(convert "$tflite" "$name"); then fail "$check" "convert: $why"; return; fi
  d="$work/$name"
  mask=$(mask_of "$d/m")
  [ $((mask & bits)) -ne 0 ] || { fail "$check" "mask $(printf 0x%x "$mask") names none of $(printf 0x%x $bits)"; return; }
  rm -rf "$d/tuned" "$d/narrow"
  cp -R "$d/m" "$d/tuned" && cp -R "$d/m" "$d/narrow"
  tier_config "$d/narrow/src/ta_config.h" C55 GEMM_MVE $((mask & ~bits)) \
    DEPTHWISE_CONV_MVE "$(tier_mask "$d/m/src/ta_config.h" DEPTHWISE_CONV_MVE)"
  for c in "$@"; do
    t=$(run_variant "$name" tuned "$c") || { fail "$check" "$(basename "$c") with $what: $t"; return; }
    n=$(run_variant "$name" narrow "$c") || { fail "$check" "$(basename "$c") without: $n"; return; }
    if [ "$t" -ge "$n" ]; then
      fail "$check" "$(basename "$c"): $t instructions with $what, $n without: expected fewer"
      return
    fi
  done
  pass "$check (exact with and without; case $(basename "$c"): $t instructions against $n)"
}
if [ -d "$case00" ]; then
  check_wide conv_2d_int8_00 "$case00/model.tflite" "$case00/case_0" "$case00/case_1" "$case00/case_2"
else
  skip wide-offsets/conv_2d_int8_00 "not in the corpus"
fi
check_wide vww "$corpus/models/vww/model.tflite" "$corpus/models/vww/case_0"
# ic's loops of the second step: the two-window loop unrolled by 3 chunks (TRIPLE: its 3x3
# layers of 16 and 32 channels) and two windows per weight load through byte offsets
# (X2 + 1: its first layer, 3 channels in 2 chunks); with the pair runs.
run_s3=$(contract_mask "TA_GEMM_MVE_RUN_BIT + TA_GEMM_MVE_RUN_S3C3" "TA_GEMM_MVE_RUN_BIT + TA_GEMM_MVE_RUN_S3L3")
run_s1=$(contract_mask "TA_GEMM_MVE_RUN_BIT + TA_GEMM_MVE_RUN_S1L4" "TA_GEMM_MVE_RUN_BIT + TA_GEMM_MVE_RUN_S1C3")
check_loops ic-loops $(($(contract_mask TA_GEMM_MVE_TRIPLE_BIT TA_GEMM_MVE_X2_BIT "TA_GEMM_MVE_X2_BIT + 1" \
  "TA_GEMM_MVE_RUN_BIT + TA_GEMM_MVE_RUN_S1L4") | run_s3)) "the TRIPLE, X2 and run bits" ic \
  "$corpus/models/ic/model.tflite" "$corpus/models/ic/case_0"
check_loops kws-run "$run_s1" "the S1 run bits" kws "$corpus/models/kws/model.tflite" "$corpus/models/kws/case_0"

# The pair runs' bits the compiler names: ic the S3 runs and not TRIPLE, kws the S1 runs and
# not the 4-chunk byte-offset loop (TA_GEMM_MVE_XR_BIT + 4).
run_checked=$(($(contract_mask TA_GEMM_MVE_TRIPLE_BIT "TA_GEMM_MVE_XR_BIT + 4") | run_s3 | run_s1))
check_run_bits() { # name expected-bits-of-run_checked
  mask=$(mask_of "$work/$1/m")
  got=$((mask & run_checked))
  if [ -z "$mask" ] || [ "$got" -ne $(($2)) ]; then
    fail "run-bits/$1" "bits $(printf 0x%x "$got") of $(printf 0x%x "$run_checked"), expected $(printf 0x%x "$2")"
  else
    pass "run-bits/$1 (mask $(printf 0x%x "$mask"))"
  fi
}
check_run_bits ic "$run_s3"
check_run_bits kws "$run_s1"

# ta_conv_s8_mve against a scalar model, bare metal (tests/target/conv_s8_mve_check.c).
conv_check() { # [CHECK-SUFFIX EXTRA-CFLAGS]
  tier_image_check "conv-kernel$1" m55 "$work/conv-check$1" "outputs exact" "${2:-}" \
    tests/target/conv_s8_mve_check.c runtime/kernels/ta_gemm_mve.c
}
conv_check
conv_check "-frame-pointer" "-fno-omit-frame-pointer -DTA_NO_WIDE_ASM"

# vww's Cortex-M55 code (the module's .text as linked, which bench/ reports as 'code B') within
# 0.3x TFLite Micro's engine code (../shared/baselines/tflm_cmsisnn.md: 73,637 B -> 22,091 B).
code=$(ta_get "$work/vww/tuned.case_0/figures.txt" section.text.model 2>/dev/null)
if [ -z "$code" ]; then
  fail code/vww "no code size (the wide-offsets run above failed)"
elif [ "$code" -gt 22091 ]; then
  fail code/vww "$code bytes of code, budget 22091"
else
  pass "code/vww ($code bytes, budget 22091)"
fi

