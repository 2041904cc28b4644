#!/bin/sh
# CONCATENATION as views (issue 17 item 2, src/transform/concat_views.c): random graphs of
# the fuzz-diff generator (seed 9100, files 4 and 7: each holds a CONCATENATION along its
# outer axis whose inputs are computed tensors with the output's quantization):
# - the compiler writes those inputs straight into their slices (report.json
#   rewrites.concats_viewed > 0, the CONCATENATION emits no kernel call);
# - the outputs equal TensorFlow Lite Micro's (../shared/oracle/tflm_ref) with the views and
#   with --no-concat-views, which copies (concats_viewed 0) in an arena at least as large;
# - --memory.optimize max keeps the views and stays exact;
# - a view is kept only where the live peak does not grow: whole files' arenas never grow,
#   and graph 33 of file 4 alone gets a strictly smaller one, with no concatenation code.
# SKIP without the oracle.
# usage: sh tests/suites/concat_views.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup concat_views "$@" || { fail setup "no work folder"; exit 0; }
oracle="$corpus/../oracle/tflm_ref"
gen="$build/fuzz_diff_gen"
if [ ! -x "$oracle" ]; then
  skip oracle "absent ($oracle)"
  exit 0
fi
if [ ! -x "$gen" ]; then # built here (suites may run side by side: no make in the build folder)
  gen="$work/fuzz_diff_gen"
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" \
    "$TA_ROOT/tools/fbwriter.c" -o "$gen" -lm >"$work/gen.log" 2>&1 ||
    { fail setup "cannot build the generator: $(tail -n 1 "$work/gen.log")"; exit 0; }
fi
json_num() { sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1; }
in_args() {
  n=0
  while [ -f "$1/case_0/in$n.bin" ]; do printf ' --in %s' "$1/case_0/in$n.bin"; n=$((n + 1)); done
}

# b4, b7: whole files of 40 graphs; g33: graph 33 of file 4 alone (float32 BATCH_MATMUL ->
# RELU -> CONCATENATION ...), where the views must save bytes (strictly smaller arena).
for batch in 4 7 g33; do
  dir="$work/b$batch"
  only=""
  [ $batch = g33 ] && only="--only 33"
  file=$batch
  [ $batch = g33 ] && file=4
  # shellcheck disable=SC2086
  "$gen" gen 9100 $file 40 "$dir" $only >/dev/null 2>&1 || { fail "b$batch" "generator failed"; continue; }
  # shellcheck disable=SC2046
  if ! "$oracle" "$dir/model.tflite" $(in_args "$dir") --out-dir "$dir/ref" --quiet >"$dir/ref.log" 2>&1; then
    fail "b$batch" "the oracle refused the file: $(tail -n 1 "$dir/ref.log")"
    continue
  fi
  for mode in views copies max; do
    case $mode in
      views) extra="" ;;
      copies) extra="--no-concat-views" ;;
      max) extra="--memory.optimize max" ;;
    esac
    # shellcheck disable=SC2086
    "$build/tinyaot" convert "$dir/model.tflite" -o "$dir/mod_$mode" $extra >"$dir/$mode.clog" 2>&1
    # shellcheck disable=SC2086
    if ! "$build/tinyaot" run "$dir/model.tflite" --case "$dir/case_0" --out-dir "$dir/got_$mode" $extra >"$dir/$mode.log" 2>&1; then
      fail "b${batch}_$mode" "run failed: $(tail -n 1 "$dir/$mode.log")"
      continue
    fi
    if ! cmp_out=$("$gen" compare "$dir" "$dir/ref" "$dir/got_$mode/case_0"); then
      fail "b${batch}_$mode" "differs from TFLite Micro: $(echo "$cmp_out" | head -n 1)"
      continue
    fi
    viewed=$(json_num "$dir/mod_$mode/report.json" concats_viewed)
    case $mode in
      copies) ok=$([ "$viewed" = 0 ] && echo y) ;;
      *) ok=$([ -n "$viewed" ] && [ "$viewed" -gt 0 ] && echo y) ;;
    esac
    if [ "$ok" != y ]; then
      fail "b${batch}_$mode" "concats_viewed '$viewed'"
    else
      pass "b${batch}_$mode (exact, $viewed viewed, arena $(json_num "$dir/mod_$mode/report.json" arena_bytes) bytes)"
    fi
  done
  a_views=$(json_num "$dir/mod_views/report.json" arena_bytes) a_copies=$(json_num "$dir/mod_copies/report.json" arena_bytes)
  if [ $batch = g33 ] && [ -n "$a_views" ] && [ -n "$a_copies" ] && [ "$a_views" -lt "$a_copies" ] &&
     ! grep -q "ta_concat" "$dir/mod_views/src/"*_model.c; then
    pass "b${batch}_arena ($a_views < $a_copies bytes, no concatenation code)"
  elif [ $batch != g33 ] && [ -n "$a_views" ] && [ -n "$a_copies" ] && [ "$a_views" -le "$a_copies" ]; then
    pass "b${batch}_arena ($a_views <= $a_copies bytes)"
  else
    fail "b${batch}_arena" "views '$a_views' bytes, copies '$a_copies'"
  fi
done
