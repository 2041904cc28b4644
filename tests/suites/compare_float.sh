#!/bin/sh
# The float32 comparison of the tests (tests/tools/compare.c, BUILD/compare) and of the
# differential fuzzer (fuzz_diff_gen compare) on special values (issue 29): equal values are
# equal, same-signed infinities included (|inf - inf| is NaN, which the tolerance
# |a-b| <= 1e-5*max(1,|b|) alone rejected: ../shared/corpus/found/cast_exp_inf_float32, where
# tinyaot and TFLite Micro both give +inf); NaN matches where the reference is NaN; an infinity
# against a finite value or the other infinity, and NaN against a number, differ. Then the
# found case itself: tinyaot run against its golden, through both comparisons.
# usage: sh tests/suites/compare_float.sh BUILD CORPUS WORKDIR
#   COMPARE=PATH / GEN=PATH check those builds instead (e.g. from before the fix).
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup compare_float "$@" || { fail setup "no work folder"; exit 0; }

compare=${COMPARE:-$build/compare}
if [ ! -x "$compare" ]; then
  compare="$work/compare"
  ${CC:-cc} -std=c11 -O1 "$TA_ROOT/tests/tools/compare.c" -o "$compare" -lm ||
    { fail setup "cannot build compare"; exit 0; }
fi
gen=${GEN:-}
if [ -z "$gen" ]; then
  gen="$work/fuzz_diff_gen" # built here (suites may run side by side: no make in the build folder)
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -I"$TA_ROOT/tools" "$TA_ROOT/tools/fuzz_diff/fuzz_diff_gen.c" \
    "$TA_ROOT/tools/fbwriter.c" -o "$gen" -lm >"$work/gen.log" 2>&1 ||
    { fail setup "cannot build the generator: $(tail -n 1 "$work/gen.log")"; exit 0; }
fi

# float32 little-endian bytes (octal escapes for printf)
f32() {
  case "$1" in
    inf) printf '\000\000\200\177' ;;
    -inf) printf '\000\000\200\377' ;;
    nan) printf '\000\000\300\177' ;;
    -nan) printf '\000\000\300\377' ;;
    max) printf '\377\377\177\177' ;;  # FLT_MAX
    1) printf '\000\000\200\077' ;;
    1p) printf '\001\000\200\077' ;;   # 1 + 2^-23: within 1e-5
    1.5) printf '\000\000\300\077' ;;
    0) printf '\000\000\000\000' ;;
    -0) printf '\000\000\000\200' ;;
  esac
}

# check NAME WANT(equal|differ) REFERENCE ACTUAL
d="$work/fz"
mkdir -p "$d/ref" "$d/got"
echo "0 float32 special values" >"$d/outputs.txt"
check() {
  f32 "$3" >"$work/ref.bin"
  f32 "$4" >"$work/got.bin"
  cp "$work/ref.bin" "$d/ref/out0.bin"
  cp "$work/got.bin" "$d/got/out0.bin"
  for tool in compare fuzz_diff_gen; do
    rc=0
    if [ $tool = compare ]; then
      "$compare" float32 "$work/ref.bin" "$work/got.bin" >"$work/out.txt" 2>&1 || rc=$?
    else
      "$gen" compare "$d" "$d/ref" "$d/got" >"$work/out.txt" 2>&1 || rc=$?
    fi
    got=differ
    [ $rc -eq 0 ] && got=equal
    [ $rc -gt 1 ] && got="error $rc"
    if [ "$got" = "$2" ]; then
      pass "$tool:$1"
    else
      fail "$tool:$1" "reference $3, actual $4: $got, expected $2 ($(head -c 120 "$work/out.txt"))"
    fi
  done
}
check inf_inf equal inf inf
check neg_inf_neg_inf equal -inf -inf
check nan_nan equal nan nan
check nan_neg_nan equal nan -nan
check zero_neg_zero equal 0 -0
check within_tolerance equal 1 1p
check inf_neg_inf differ inf -inf
check inf_max differ inf max
check max_inf differ max inf
check inf_one differ inf 1
check number_nan differ 1 nan
check nan_number differ nan 1
check off_tolerance differ 1 1.5

# The found case: tinyaot gives +inf where TensorFlow Lite Micro does (CAST int8 -> EXP).
found="$corpus/found/cast_exp_inf_float32"
if [ ! -f "$found/model.tflite" ]; then
  skip cast_exp_inf_float32 "not in the corpus ($found)"
  exit 0
fi
if ! "$build/tinyaot" run "$found/model.tflite" --case "$found/case_0" --out-dir "$work/found" >"$work/found.log" 2>&1; then
  fail cast_exp_inf_float32 "tinyaot run: $(tail -n 1 "$work/found.log")"
  exit 0
fi
if ! od -An -tx1 "$found/case_0/out0.bin" | grep -q '00 00 80 7f'; then
  fail cast_exp_inf_float32 "the golden holds no +inf any more (the case changed)"
elif ! cmp -s "$found/case_0/out0.bin" "$work/found/case_0/out0.bin"; then
  fail cast_exp_inf_float32 "tinyaot's output is not byte-identical to the golden"
elif ! msg=$("$compare" float32 "$found/case_0/out0.bin" "$work/found/case_0/out0.bin"); then
  fail cast_exp_inf_float32 "compare rejects identical outputs: $msg"
else
  pass "cast_exp_inf_float32 (byte-identical, +inf included)"
fi
