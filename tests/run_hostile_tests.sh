#!/bin/sh
# Hostile-input regression suite (issue 7): every file in tests/hostile/cases goes
# through `BUILD_DIR/tinyaot convert FILE -o OUTDIR --stats` and must be refused cleanly:
# non-zero exit within 5 s, exactly one stderr line "tinyaot: error: FILE: ...", no
# sanitizer report, nothing left in OUTDIR, and a peak heap (the --stats line) of at most
# 10 x the file size + MEMORY_FIXED_BYTES (tests/memory_bound.sh). tests/hostile/base_valid.tflite,
# the model the cases were derived from, must convert within the same bound. Prints
# PASS/FAIL hostile:<name> per input and a closing "N passed, N failed" line.
# usage: tests/run_hostile_tests.sh BUILD_DIR
set -u
build=${1:?usage: run_hostile_tests.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/memory_bound.sh"
cases="$here/hostile/cases"
bin="$build/tinyaot"
[ -x "$bin" ] || { echo "FAIL hostile: $bin not built"; echo "0 passed, 1 failed"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-hostile-XXXXXX")
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
passed=0
failed=0

check() { # $1 name, $2 file
  out="$work/out_$1"
  err="$work/err"
  rm -rf "$out"
  timeout 5 "$bin" convert "$2" -o "$out" --stats >"$work/stdout" 2>"$err"
  rc=$?
  lines=$(wc -l <"$err")
  first=$(head -n 1 "$err")
  if [ $rc -eq 124 ]; then echo "timed out after 5 s"
  elif grep -qE 'Sanitizer|runtime error:' "$err"; then echo "sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error:' "$err")"
  elif [ $rc -eq 0 ]; then echo "accepted (exit 0)"
  elif [ $rc -gt 2 ]; then echo "exit $rc (crash?): $first"
  elif [ "$lines" -ne 1 ]; then echo "$lines lines on stderr: $(tr '\n' '|' <"$err" | cut -c1-200)"
  else
    case "$first" in
      "tinyaot: error: $2: "?*) ;;
      *) echo "stderr is not 'tinyaot: error: $2: <problem>': $first"; return ;;
    esac
    if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then echo "files left in the output directory: $(ls -A "$out" | head -n 3 | tr '\n' ' ')"; return; fi
    stats_violation "$2" "$(grep '^tinyaot: stats:' "$work/stdout")"
  fi
}

if [ -f "$here/hostile/base_valid.tflite" ]; then
  if "$bin" convert "$here/hostile/base_valid.tflite" -o "$work/base" --stats >"$work/stdout" 2>"$work/err"; then
    why=$(stats_violation "$here/hostile/base_valid.tflite" "$(grep '^tinyaot: stats:' "$work/stdout")")
    if [ -z "$why" ]; then echo "PASS hostile:base_valid"; passed=$((passed + 1))
    else echo "FAIL hostile:base_valid: $why"; failed=$((failed + 1)); fi
  else
    echo "FAIL hostile:base_valid: the unmodified model does not convert: $(head -n 1 "$work/err")"; failed=$((failed + 1))
  fi
fi
for f in "$cases"/*; do
  [ -f "$f" ] || continue
  name=$(basename "$f"); name=${name%.*}
  why=$(check "$name" "$f")
  if [ -z "$why" ]; then
    echo "PASS hostile:$name"; passed=$((passed + 1))
  else
    echo "FAIL hostile:$name: $why"; failed=$((failed + 1))
  fi
done
echo "hostile: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
