#!/bin/sh
# Ties and requantisation (issue 29; docs/numerics.md): one-operator graphs of
# `fuzz_diff_gen ties` (seed 1) against TensorFlow Lite Micro's reference kernels
# (../shared/oracle/tflm_ref), every output byte-exact:
# - int8: each int8 table or requantising operator (RELU, RELU6, LEAKY_RELU, PRELU,
#   HARD_SWISH, ELU, LOGISTIC, TANH, ABS, QUANTIZE to int8 and int16, RSQRT, MEAN and SUM
#   over 1 and 2 values, AVERAGE_POOL_2D of 2 and 4, SOFTMAX, LOG_SOFTMAX, RESIZE_BILINEAR)
#   on all 256 input values, with random scales, exact ties (rescaled inputs on k + 0.5) and
#   near ones (where the double and the float quotient of the scales round apart: file 0
#   graph 36 and file 3 graph 21 are RELUs that gave one more than the reference while RELU
#   divided in double);
# - int16: the int16 forms on the 128 inputs nearest a tie plus 128 random ones;
# - binary: int8 ADD, SUB, MUL, SQUARED_DIFFERENCE on all 256 values against random partners;
# - more: int16 ADD, SUB, MUL, SQUARED_DIFFERENCE; int8 and int16 MEAN and SUM over 4 values
#   and over H x W, AVERAGE_POOL_2D of 3 and 3 x 3;
# - dot, dot16: int8 and int16 (a16w8) FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D 1x1
#   of one input channel, per-tensor and per-channel weights, the output scale on ties of
#   the first channel (near: between the float and the double product of the scales).
# make test: 4 + 3 + 3 + 2 + 2 + 2 files (~45 s); TEST_FULL=1: 60 + 40 x 5, then 10 files of each
# family with --edges (scales 100x wider, factors 16x further out; ~20 min). A mismatch prints
# its graph's operator and the reproducer (`fuzz_diff_gen ties SEED FILE GRAPHS DIR --family F
# --only G`). SKIP without the oracle.
# usage: sh tests/suites/ties.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup ties "$@" || { fail setup "no work folder"; exit 0; }
oracle="$corpus/../oracle/tflm_ref"
if [ ! -x "$oracle" ]; then
  skip oracle "absent ($oracle)"
  exit 0
fi
gen="$work/fuzz_diff_gen" # built here (suites may run side by side: no make in the build folder)
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" \
  "$TA_ROOT/tools/fbwriter.c" -o "$gen" -lm >"$work/gen.log" 2>&1 ||
  { fail setup "cannot build the generator: $(tail -n 1 "$work/gen.log")"; exit 0; }
in_args() {
  n=0
  while [ -f "$1/case_0/in$n.bin" ]; do printf ' --in %s' "$1/case_0/in$n.bin"; n=$((n + 1)); done
}

seed=${TIES_SEED:-1} # TIES_SEED=N draws other scales and inputs
# family:files:graphs-per-file[:edges]
specs="int8:4:60 int16:3:60 binary:3:32 more:2:32 dot:2:60 dot16:2:60"
if [ "${TEST_FULL:-0}" = 1 ]; then
  specs="int8:60:60 int16:40:60 binary:40:32 more:40:32 dot:40:60 dot16:40:60"
  specs="$specs int8:10:60:edges int16:10:60:edges binary:10:32:edges more:10:32:edges dot:10:60:edges dot16:10:60:edges"
fi
for spec in $specs; do
  family=${spec%%:*} rest=${spec#*:}
  files=${rest%%:*} rest=${rest#*:}
  graphs=${rest%%:*} edges="" tag=""
  case $rest in *:edges) edges=--edges tag=-edges ;; esac
  total=0 values=0 wrong=0 broken=0
  file=0
  while [ $file -lt "$files" ]; do
    dir="$work/${family}${tag}_$file"
    # shellcheck disable=SC2086
    if ! "$gen" ties $seed $file "$graphs" "$dir" --family "$family" $edges >/dev/null 2>&1; then
      fail "$family$tag:$file" "generator failed"
      broken=1
      break
    fi
    # shellcheck disable=SC2046
    if ! "$oracle" "$dir/model.tflite" $(in_args "$dir") --out-dir "$dir/ref" --quiet >"$dir/ref.log" 2>&1; then
      fail "$family$tag:$file" "the oracle refused the file: $(tail -n 1 "$dir/ref.log" | cut -c1-200)"
      broken=1
    elif ! "$build/tinyaot" run "$dir/model.tflite" --case "$dir/case_0" --out-dir "$dir/got" >"$dir/got.log" 2>&1; then
      fail "$family$tag:$file" "tinyaot run failed: $(grep -m1 error "$dir/got.log")"
      broken=1
    else
      "$gen" compare "$dir" "$dir/ref" "$dir/got/case_0" >"$dir/cmp.txt"
      while read -r _ g what; do
        op=$(sed -n "$((g + 1))p" "$dir/outputs.txt" | cut -d' ' -f4)
        fail "$family$tag:${file}_g$g" "$op $what (fuzz_diff_gen ties $seed $file $graphs DIR --family $family $edges --only $g)"
        wrong=$((wrong + 1))
      done <"$dir/cmp.txt"
      total=$((total + $(wc -l <"$dir/outputs.txt")))
      values=$((values + $(cat "$dir"/ref/out*.bin | wc -c)))
      [ -s "$dir/cmp.txt" ] || rm -rf "$dir"
    fi
    file=$((file + 1))
  done
  [ $broken -eq 0 ] && [ $wrong -eq 0 ] && pass "$family$tag ($total graphs exact, $values output bytes)"
  [ $wrong -ne 0 ] && fail "$family$tag" "$wrong of $total graphs differ"
done
exit 0
