#!/bin/sh
# SPLIT / SPLIT_V / UNPACK / SLICE / STRIDED_SLICE outputs as views of their input (issue 17
# item 2, src/transform/slice_views.c):
# - rnnoise (3 SPLIT, 3 SPLIT_V, 3 UNPACK of computed tensors along their outer axis): every
#   one runs as views (report.json rewrites.slices_viewed 9, no ta_split call left), its
#   arena is strictly smaller than with --no-slice-views (which copies: slices_viewed 0),
#   and every case is exact against the goldens with the views, the copies and max mode;
#   on QEMU Cortex-M55 with the views, all five outputs exact;
# - random graphs of the fuzz-diff generator (seed 9300, files 2 and 5: splits, unpacks and
#   slices of computed tensors), exact against TensorFlow Lite Micro
#   (../shared/oracle/tflm_ref) with the views, the copies and max mode; graph 17 of file 2
#   alone (SOFTMAX -> STRIDED_SLICE -> SUB) emits no copy at all;
# - vww's default mode below its layer-by-layer bound on Cortex-M55 and host (free
#   in-place ties readmitted, src/plan/inplace.c), exact on host;
# - strww in max mode on QEMU Cortex-M55: its one-pixel-wide MVE depthwise layers run in
#   place too (every layer 0-5), exact, in no more bytes than on Cortex-M4.
# SKIP for the generated graphs without the oracle, for the QEMU run without the Arm tools.
# usage: sh tests/suites/slice_views.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup slice_views "$@" || { fail setup "no work folder"; exit 0; }
json_num() { sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1; }
in_args() {
  n=0
  while [ -f "$1/case_0/in$n.bin" ]; do printf ' --in %s' "$1/case_0/in$n.bin"; n=$((n + 1)); done
}
compare="$build/compare"
[ -x "$compare" ] || { ${CC:-cc} -std=c11 -O1 "$TA_ROOT/tests/tools/compare.c" -o "$work/compare" -lm && compare="$work/compare"; }

# ---- rnnoise --------------------------------------------------------------------------
rn="$corpus/models/rnnoise"
if [ ! -f "$rn/model.tflite" ]; then
  skip rnnoise "corpus absent ($rn)"
else
  for mode in views copies max; do
    case $mode in
      views) extra="" ;;
      copies) extra="--no-slice-views" ;;
      max) extra="--memory.optimize max" ;;
    esac
    # shellcheck disable=SC2086
    "$build/tinyaot" convert "$rn/model.tflite" -o "$work/rn_$mode" $extra >"$work/rn_$mode.clog" 2>&1 ||
      { fail "rnnoise_$mode" "convert failed: $(tail -n 1 "$work/rn_$mode.clog")"; continue; }
    cases=""
    for c in "$rn"/case_*; do cases="$cases --case $c"; done
    # shellcheck disable=SC2086
    if ! "$build/tinyaot" run "$rn/model.tflite" $cases --out-dir "$work/rn_got_$mode" $extra >"$work/rn_$mode.log" 2>&1; then
      fail "rnnoise_$mode" "run failed: $(tail -n 1 "$work/rn_$mode.log")"
      continue
    fi
    bad=""
    for c in "$rn"/case_*; do
      for ref in "$c"/out*.bin; do
        got="$work/rn_got_$mode/$(basename "$c")/$(basename "$ref")"
        cmp -s "$ref" "$got" || bad="$bad $(basename "$c")/$(basename "$ref")"
      done
    done
    viewed=$(json_num "$work/rn_$mode/report.json" slices_viewed)
    splits=$(grep -c "ta_split(" "$work/rn_$mode/src/rnnoise_model.c")
    case $mode in
      copies) ok=$([ "$viewed" = 0 ] && [ "$splits" -gt 0 ] && echo y) ;;
      *) ok=$([ "$viewed" = 9 ] && [ "$splits" = 0 ] && echo y) ;;
    esac
    if [ -n "$bad" ]; then
      fail "rnnoise_$mode" "differs from the golden:$bad"
    elif [ "$ok" != y ]; then
      fail "rnnoise_$mode" "slices_viewed '$viewed', ta_split calls '$splits'"
    else
      pass "rnnoise_$mode (exact, $viewed viewed, arena $(json_num "$work/rn_$mode/report.json" arena_bytes) bytes)"
    fi
  done
  a_views=$(json_num "$work/rn_views/report.json" arena_bytes) a_copies=$(json_num "$work/rn_copies/report.json" arena_bytes)
  if [ -n "$a_views" ] && [ -n "$a_copies" ] && [ "$a_views" -lt "$a_copies" ]; then
    pass "rnnoise_arena ($a_views < $a_copies bytes)"
  else
    fail rnnoise_arena "views '$a_views' bytes, copies '$a_copies'"
  fi
  if ! command -v qemu-system-arm >/dev/null 2>&1 || ! command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    skip rnnoise_m55_qemu "no qemu-system-arm / arm-none-eabi-gcc"
  elif suite_qemu_exact rnnoise_m55_qemu m55 "$rn" "$work/rn_m55" --tinyaot "$build/tinyaot"; then
    bad=""
    for ref in "$rn"/case_0/out*.bin; do
      cmp -s "$ref" "$work/rn_m55/run/$(basename "$ref")" || bad="$bad $(basename "$ref")"
    done
    if [ -n "$bad" ]; then fail rnnoise_m55_qemu "differs from the golden:$bad"
    elif ! grep -q '"slices_viewed": 9' "$work/rn_m55/module/report.json" 2>/dev/null; then
      fail rnnoise_m55_qemu "the module on QEMU did not run the views"
    else pass "rnnoise_m55_qemu (5 outputs exact on Cortex-M55)"; fi
  fi
fi

# ---- free in-place ties readmitted (src/plan/inplace.c, readmit_free_ties) ----------------
# vww's default mode on Cortex-M55 and host: the MVE / portable depthwise ties (not free)
# once displaced the free ties of the first convolution and the 1x1 expansion, and the arena
# stayed at the layer-by-layer bound (55,296); now below it, the expansion (op 2) in place,
# exact on host.
vw="$corpus/models/vww"
if [ -f "$vw/model.tflite" ]; then
  for p in cortex-m55 host; do
    if ! "$build/tinyaot" convert "$vw/model.tflite" --platform $p -o "$work/vww_$p" >"$work/vww_$p.log" 2>&1; then
      fail "vww_default_free_ties_$p" "convert failed: $(tail -n 1 "$work/vww_$p.log")"
      continue
    fi
    rep="$work/vww_$p/report.json"
    arena=$(json_num "$rep" scratch_arena_bytes) bound=$(json_num "$rep" layer_by_layer_bound)
    ops=$(sed -n 's/.*"in_place": {[^}]*"operators": \[\([0-9, ]*\)\].*/\1/p' "$rep" | head -n 1)
    exact=y
    if [ $p = host ]; then
      "$build/tinyaot" run "$vw/model.tflite" --case "$vw/case_0" --out-dir "$work/vww_got" >"$work/vww_run.log" 2>&1 &&
        cmp -s "$vw/case_0/out0.bin" "$work/vww_got/case_0/out0.bin" || exact=n
    fi
    case ", $ops," in *", 2,"*) has2=y ;; *) has2=n ;; esac
    if [ -n "$arena" ] && [ -n "$bound" ] && [ "$arena" -lt "$bound" ] && [ $has2 = y ] && [ $exact = y ]; then
      pass "vww_default_free_ties_$p ($arena < $bound bytes, in place: $ops)"
    else
      fail "vww_default_free_ties_$p" "arena '$arena', bound '$bound', in place '$ops', exact $exact"
    fi
  done
fi

# ---- strww in max mode on Cortex-M55: one-pixel-wide MVE depthwise layers in place -------
# (ta_depthwise_conv_mve_s8_inplace runs the column one row per call): every layer 0-5 in
# place, the arena no larger than on Cortex-M4, exact on QEMU.
sw="$corpus/models/strww"
if [ -f "$sw/model.tflite" ]; then
  printf '#!/bin/sh\nexec "%s" "$@" --memory.optimize max\n' "$build/tinyaot" >"$work/tinyaot_max"
  chmod +x "$work/tinyaot_max"
  "$work/tinyaot_max" convert "$sw/model.tflite" --platform cortex-m4 -o "$work/strww_m4" >/dev/null 2>&1
  m4=$(json_num "$work/strww_m4/report.json" arena_bytes)
  if ! command -v qemu-system-arm >/dev/null 2>&1 || ! command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    skip strww_m55_max_qemu "no qemu-system-arm / arm-none-eabi-gcc"
  elif suite_qemu_exact strww_m55_max_qemu m55 "$sw" "$work/strww_m55" --tinyaot "$work/tinyaot_max"; then
    rep="$work/strww_m55/module/report.json"
    arena=$(json_num "$rep" arena_bytes)
    if grep -q '"operators": \[0, 1, 2, 3, 4, 5\]' "$rep" && [ -n "$arena" ] && [ -n "$m4" ] && [ "$arena" -le "$m4" ]; then
      pass "strww_m55_max_qemu (exact, ops 0-5 in place, $arena <= $m4 bytes on Cortex-M4)"
    else
      fail strww_m55_max_qemu "arena '$arena' (Cortex-M4 '$m4'), in place: $(grep -o '"in_place": {[^}]*' "$rep")"
    fi
  fi
fi

# ---- generated graphs -------------------------------------------------------------------
oracle="$corpus/../oracle/tflm_ref"
if [ ! -x "$oracle" ]; then
  skip generated "oracle absent ($oracle)"
  exit 0
fi
gen="$work/fuzz_diff_gen" # built here (suites may run side by side: no make in the build folder)
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" \
  "$TA_ROOT/tools/fbwriter.c" -o "$gen" -lm >"$work/gen.log" 2>&1 ||
  { fail generated "cannot build the generator: $(tail -n 1 "$work/gen.log")"; exit 0; }
for batch in 2 5 g17; do
  dir="$work/b$batch"
  file=$batch only=""
  [ $batch = g17 ] && file=2 only="--only 17"
  # shellcheck disable=SC2086
  "$gen" gen 9300 $file 40 "$dir" $only >/dev/null 2>&1 || { fail "b$batch" "generator failed"; continue; }
  # shellcheck disable=SC2046
  if ! "$oracle" "$dir/model.tflite" $(in_args "$dir") --out-dir "$dir/ref" --quiet >"$dir/ref.log" 2>&1; then
    fail "b$batch" "the oracle refused the file: $(tail -n 1 "$dir/ref.log")"
    continue
  fi
  for mode in views copies max; do
    case $mode in
      views) extra="" ;;
      copies) extra="--no-slice-views" ;;
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
    viewed=$(json_num "$dir/mod_$mode/report.json" slices_viewed)
    case $mode in
      copies) ok=$([ "$viewed" = 0 ] && echo y) ;;
      *) ok=$([ -n "$viewed" ] && [ "$viewed" -gt 0 ] && echo y) ;;
    esac
    if [ "$ok" != y ]; then
      fail "b${batch}_$mode" "slices_viewed '$viewed'"
    else
      pass "b${batch}_$mode (exact, $viewed viewed)"
    fi
  done
done
g="$work/bg17"
if [ -f "$g/mod_views/report.json" ] && ! grep -q "ta_strided_copy\|ta_split" "$g"/mod_views/src/*_model.c &&
   grep -q "ta_strided_copy" "$g"/mod_copies/src/*_model.c; then
  pass "g17_no_copy (the STRIDED_SLICE of a computed tensor emits no copy; with --no-slice-views it does)"
else
  fail g17_no_copy "a slicing copy is still emitted with the views (or none without)"
fi
