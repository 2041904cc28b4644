#!/bin/sh
# Tier coverage matrix (issue 29): generated int8 and int16x8 CONV_2D, DEPTHWISE_CONV_2D
# (depth multipliers 1-3) and FULLY_CONNECTED layers whose shapes cross the boundaries the
# Cortex-M4 DSP and Cortex-M55 MVE tiers specialise at (channel counts 1-17 and around the
# block sizes 4 to 144; 1x1, 3x3, 5x5, 1xN, Nx1, 10x4 windows; strides 1 and 2; SAME and
# VALID; dilation; batches 2 and 3), per-tensor and per-channel filters, input zero points
# -128, 0, 127 and random, output zero points -128, 0, 127 and random, no activation, ReLU
# and ReLU6, and one channel's scale made tiny (a right shift beyond 23: the DSP loops that
# add the zero point after the shift, the int16x8 shifted high word) or huge (a left shift)
# (tools/fuzz_diff/fuzz_diff_gen.c `matrix`). Up to 48 independent layers share one
# .tflite: one conversion, one module build and one QEMU run per part and core
# (target/run_case.sh), every output compared with TensorFlow Lite Micro's reference
# kernels (shared/oracle/tflm_ref). Each part prints one PASS line per core; a wrong layer
# its own FAIL line with its parameters (rebuild that part with `fuzz_diff_gen matrix 29 DIR
# full|quick PART`, DIR/layers.txt lists its layers). make test runs the `quick` set: the
# regression layers first (issue 29's found case: a 3x3 window of 5 channels, depth 45
# padded to 48, in the DSP pair loop; and 7 channels, 63 -> 64, per-channel), then every 6th
# layer of the matrix, 138 layers in 3 parts; TEST_FULL=1 the whole matrix (822 layers, 18
# parts), each module also rebuilt with the fewest loop variants (min_loops: the C and
# general loops). About 3 s per part and core (6 under TEST_FULL).
# TIER_MATRIX_SEED=N draws other values for the same layers (default 29).
# usage: sh tests/suites/tier_matrix.sh BUILD CORPUS WORKDIR [CORES]  (CORES default "m4 m55")
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/target/lib.sh"
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup tier_matrix "$@" || { fail setup "no work folder"; exit 0; }
cores=${4:-m4 m55}
seed=${TIER_MATRIX_SEED:-29}

oracle="$corpus/../oracle/tflm_ref"
[ -x "$oracle" ] || oracle="$corpus/../../oracle/tflm_ref"
if [ ! -x "$oracle" ]; then
  skip oracle "absent ($corpus/../oracle/tflm_ref)"
  exit 0
fi
ta_ensure_packages >/dev/null 2>&1 || { fail setup "cross tools (arm-none-eabi-gcc, qemu-system-arm) missing"; exit 0; }
gen="$work/fuzz_diff_gen"
if ! ${CC:-cc} -std=c11 -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" "$TA_ROOT/tools/fbwriter.c" \
     -o "$gen" -lm >"$work/gen.log" 2>&1; then
  fail setup "cannot build the generator"
  exit 0
fi
set=quick
fewest=
[ "${TEST_FULL:-}" = 1 ] && set=full fewest="with the fewest loops"

# TEST_FULL: the module of OUT rebuilt with every loop variant its layers can do without
# left out (ta_config.h): no TA_GEMM_DSP / TA_S16_DSP / TA_DEPTHWISE_CONV_MVE /
# TA_S16_MVE loop, on the DSP depthwise kernel only its forms and the CLAMP loops (which
# every layer can run), on the MVE gemm only the modes that shift left and fix negative
# ties (exact for every layer): the C and general loops, run into
# OUT/min; false when it does not build or run.
min_mve=$(printf 0x%x "$(contract_mask "TA_GEMM_MVE_MODE(TA_GEMM_MVE_CONV_BIT, 1, 1)" \
  "TA_GEMM_MVE_MODE(TA_GEMM_MVE_FC_BIT, 1, 1)")")
min_dw_dsp=$(printf 0x%x "$(contract_mask TA_DW_DSP_CLAMP TA_DW_DSP_ROWPAIR_BIT TA_DW_DSP_CLASSIC_BIT)")
min_loops() { # OUT core case
  rm -rf "$1/min" "$1/minmod" && cp -r "$1/module" "$1/minmod" && make -C "$1/minmod" clean >/dev/null 2>&1
  sed -i "s/\\(VARIANTS\\) 0x[0-9a-fA-F]*u/\\1 0x0u/; s/\\(_TA_GEMM_MVE_VARIANTS\\) 0x0u/\\1 ${min_mve}u/;
          s/\\(_TA_DEPTHWISE_CONV_DSP_VARIANTS\\) 0x0u/\\1 ${min_dw_dsp}u/" "$1/minmod/src/ta_config.h" &&
    make -C "$1/minmod" TARGET="cortex-$2" CFLAGS=-O2 >"$1/min.log" 2>&1 &&
    sh "$TA_ROOT/target/run_case.sh" --core "$2" --name mx --lib "$1/minmod/libmx.a" --include "$1/minmod/include" \
      --case "$3/case_0" --out "$1/min" >>"$1/min.log" 2>&1
}

part=0
while :; do
  dir="$work/$set.$part"
  if ! layers=$("$gen" matrix "$seed" "$dir" $set $part 2>"$dir.gen.log"); then
    fail "$set.$part" "generator failed"
    break
  fi
  n=$(echo "$layers" | sed -n 's/^layers \([0-9]*\) .*/\1/p')
  [ "${n:-0}" -gt 0 ] || break
  ins=$(i=0; while [ $i -lt "$n" ]; do printf -- '--in %s ' "$dir/case_0/in$i.bin"; i=$((i + 1)); done)
  # shellcheck disable=SC2086 # ins: one --in per layer
  if ! "$oracle" "$dir/model.tflite" $ins --out-dir "$dir/case_0" --quiet >"$dir/ref.log" 2>&1; then
    fail "$set.$part" "the oracle failed ($(tail -c 200 "$dir/ref.log"))"
    part=$((part + 1))
    continue
  fi
  for core in $cores; do
    check="$set.$part:$core"
    [ "$seed" = 29 ] || check="$check:seed$seed"
    out="$work/$set.$part.$core"
    rc=0
    sh "$TA_ROOT/target/run_case.sh" --core "$core" --name mx --model "$dir/model.tflite" --case "$dir/case_0" \
      --out "$out" >"$out.log" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
      fail "$check" "run_case.sh exit $rc ($(grep -m1 -i error "$out/convert.log" "$out/build.log" 2>/dev/null))"
      continue
    fi
    # layer 0 (issue 29's) must take the DSP pair loop at the padded depth on the M4
    if [ "$part:$core" = 0:m4 ] &&
       ! sed -n '/op0_conv_2d_gemm = {/,/};/p' "$out/module/src/mx_model.c" | tr -d '\n' |
         grep -q '\.depth = 48,.*\.pairs = 1,'; then
      fail "$check" "layer 0 does not take the pair loop at depth 48 (ta_conv_s8_dsp_pairs)"
    fi
    bad=$("$gen" compare "$dir" "$dir/case_0" "$out/run")
    if [ -z "$bad" ] && [ "$set" = full ]; then # the fallbacks: the module again with the fewest loops
      if min_loops "$out" "$core" "$dir"; then
        bad=$("$gen" compare "$dir" "$dir/case_0" "$out/min/run")
      else
        bad="MISMATCH - - the module with the fewest loops did not build or run ($out/min.log)"
      fi
      [ -z "$bad" ] || check="$check:fewest-loops"
    fi
    if [ -n "$bad" ]; then
      echo "$bad" | while read -r _ g o why; do
        fail "$check" "layer $g ($(awk -v g="$g" '$1 == g { $1 = ""; print substr($0, 2) }' "$dir/layers.txt")) $o $why"
      done
    else
      pass "$check ($n layers exact${fewest:+, also $fewest})"
      rm -rf "$out" "$out.log"
    fi
  done
  part=$((part + 1))
done
