#!/bin/sh
# s16_elementwise (issue 29): every int16 requantising elementwise operator against
# TensorFlow Lite Micro's reference kernels (../shared/oracle/tflm_ref), bit for bit.
# tools/s16_ew/s16_ew_gen writes one-operator graphs with random scales (power-of-two and
# not, equal ones) and the zero points TFLite Micro accepts; unary operators (ABS, RELU,
# RELU6, LEAKY_RELU, PRELU, QUANTIZE int16->int16/int8/int32, DEQUANTIZE) see all 65536
# int16 values, so every rounding tie and both extremes; binary ones (ADD, SUB, MUL,
# SQUARED_DIFFERENCE, MAXIMUM, MINIMUM) the extremes crossed, random pairs and pairs next
# to a tie of the output rounding.
# - regression:relu_tie: RELU int16 0.000423822406 -> 0.000206053723 (the root cause of
#   found/add_abs_relu_transpose_int16: the multiplier from the double quotient of the
#   scales instead of the float one rounded 14 of the 65536 inputs the other way);
# - found:add_abs_relu_transpose_int16: that corpus case, when present;
# - sweep:OP: per operator SEEDS models of up to 64 graphs (default 2 seeds, about a minute
#   for all; TEST_FULL=1: 12 seeds; S16_EW_SEEDS=N overrides).
# - target:CORE:SET:SEED on QEMU Cortex-M4 and Cortex-M55 (when qemu-system-arm and
#   arm-none-eabi-gcc are installed; SKIP otherwise): the same comparison through the cores'
#   kernel tiers (ta_add_s16_dsp / ta_sub_s16_dsp, the MVE ones), tensors capped at 2048
#   elements for the machines' memory: "addsub" (seed 11: ADD/SUB with output zero points,
#   which the Cortex-M4 DSP tier ignored before issue 29) and "all" (every operator);
#   TEST_FULL=1 adds seeds.
# A failure prints the graph and the command that rebuilds it alone.
# SKIP without the oracle.
# usage: sh tests/suites/s16_elementwise.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup s16_elementwise "$@" || { fail setup "no work folder"; exit 0; }
oracle=${ORACLE:-$corpus/../oracle/tflm_ref}
if [ ! -x "$oracle" ]; then
  skip oracle "absent ($oracle)"
  exit 0
fi
gen="$build/s16_ew_gen"
if [ ! -x "$gen" ]; then # built here (suites may run side by side: no make in the build folder)
  gen="$work/s16_ew_gen"
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/s16_ew/s16_ew_gen.c" \
    "$TA_ROOT/tools/fbwriter.c" -o "$gen" -lm >"$work/gen.log" 2>&1 ||
    { fail setup "cannot build the generator: $(tail -n 1 "$work/gen.log")"; exit 0; }
fi
seeds=${S16_EW_SEEDS:-2}
[ "${TEST_FULL:-0}" = 1 ] && seeds=${S16_EW_SEEDS:-12}

# check DIR: runs the oracle and tinyaot on DIR; sets why (empty when every output is equal)
# and graphs (outputs compared).
check() {
  why="" graphs=0 bad_graph=""
  ins=""
  n=0
  while [ -f "$1/case_0/in$n.bin" ]; do ins="$ins --in $1/case_0/in$n.bin"; n=$((n + 1)); done
  # shellcheck disable=SC2086
  if ! "$oracle" "$1/model.tflite" $ins --out-dir "$1/ref" --quiet >"$1/ref.log" 2>&1; then
    why="oracle failed: $(tail -n 1 "$1/ref.log")"
    return
  fi
  if ! "$build/tinyaot" run "$1/model.tflite" --case "$1/case_0" --out-dir "$1/got" >"$1/got.log" 2>&1; then
    why="tinyaot run failed: $(grep -m1 error "$1/got.log")"
    return
  fi
  while read -r i desc; do
    graphs=$((graphs + 1))
    [ -n "$why" ] && continue
    if ! msg=$("$build/compare" exact "$1/ref/out$i.bin" "$1/got/case_0/out$i.bin" 2>&1); then
      why="graph $i ($desc): $msg"
      bad_graph=$i
    fi
  done <"$1/outputs.txt"
}

# Regression: the RELU int16 tie of issue 29.
dir="$work/relu_tie"
if "$gen" one "$dir" RELU 0.000423822406 0 0 0 0.000206053723 0 >/dev/null 2>&1; then
  check "$dir"
  if [ -z "$why" ]; then pass "regression:relu_tie"
  else fail "regression:relu_tie" "$why"; fi
else
  fail "regression:relu_tie" "generator failed"
fi

found="$corpus/found/add_abs_relu_transpose_int16"
if [ -d "$found" ]; then
  line=$(sh "$TA_ROOT/tests/corpus_case.sh" "$found" "$build" "$work/found" 2>&1 | tail -n 1)
  case "$line" in
    PASS*) pass "found:add_abs_relu_transpose_int16" ;;
    *) fail "found:add_abs_relu_transpose_int16" "${line#* * }" ;;
  esac
fi

for op in ADD SUB MUL SQUARED_DIFFERENCE MAXIMUM MINIMUM ABS RELU RELU6 LEAKY_RELU PRELU QUANTIZE DEQUANTIZE; do
  total=0 failed=""
  s=1
  while [ $s -le "$seeds" ]; do
    seed=$((2900 + s))
    dir="$work/$op-$seed"
    if ! "$gen" sweep $seed 64 "$dir" --ops $op >/dev/null 2>&1; then
      failed="seed $seed: generator failed"
      break
    fi
    check "$dir"
    total=$((total + graphs))
    if [ -n "$why" ]; then
      failed="seed $seed, $why; alone: s16_ew_gen sweep $seed 64 DIR --ops $op --only ${bad_graph:-?}"
      break
    fi
    rm -rf "$dir"
    s=$((s + 1))
  done
  if [ -z "$failed" ]; then pass "sweep:$op ($total graphs, $seeds seeds)"
  else fail "sweep:$op" "$failed"; fi
done

# target: one model per set and core on QEMU.
if ! command -v qemu-system-arm >/dev/null 2>&1 || ! command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  skip target "qemu-system-arm or arm-none-eabi-gcc absent"
  exit 0
fi
sets="addsub:11 all:12"
[ "${TEST_FULL:-0}" = 1 ] && sets="$sets addsub:13 addsub:14 all:15 all:16 all:17"
all_ops=ADD,SUB,ADD,SUB,MUL,SQUARED_DIFFERENCE,MAXIMUM,MINIMUM,ABS,RELU,RELU6,LEAKY_RELU,PRELU,QUANTIZE,DEQUANTIZE
for set in $sets; do
  name=${set%:*} seed=${set#*:}
  ops=ADD,SUB
  [ "$name" = all ] && ops=$all_ops
  dir="$work/target-$name-$seed"
  if ! "$gen" sweep "$seed" 48 "$dir" --cap 2048 --elems 2048 --ops $ops >/dev/null 2>&1; then
    fail "target:$name:$seed" "generator failed"
    continue
  fi
  check "$dir" # the golden, and the host on the way
  if [ -n "$why" ]; then
    fail "target:$name:$seed" "host: $why"
    continue
  fi
  for core in m4 m55; do
    target_check="target:$core:$name:$seed"
    rc=0
    sh "$TA_ROOT/target/run_case.sh" --core $core --name s16ew --model "$dir/model.tflite" --case "$dir/case_0" \
      --out "$dir/$core" >"$dir/$core.log" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
      fail "$target_check" "run_case.sh exit $rc (see $dir/$core.log)"
      continue
    fi
    why=""
    while read -r i desc; do
      [ -n "$why" ] && continue
      if ! msg=$("$build/compare" exact "$dir/ref/out$i.bin" "$dir/$core/run/out$i.bin" 2>&1); then
        why="graph $i ($desc): $msg; alone: s16_ew_gen sweep $seed 48 DIR --cap 2048 --elems 2048 --ops $ops --only $i"
      fi
    done <"$dir/outputs.txt"
    if [ -z "$why" ]; then pass "$target_check ($graphs graphs)"
    else fail "$target_check" "$why"; fi
  done
done
exit 0
